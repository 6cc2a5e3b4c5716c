/**
 * The server's `instructions`, sent at initialize: how an agent should work with this service in few
 * round trips. Written for a model, kept short because hosts put it in the model's context.
 */
export const serverInstructions = `Course Authoring Service: build and edit e-learning courses (course → modules → lessons → blocks).
- Start with list_courses or create_course. create_course accepts a complete nested outline (modules, lessons, blocks, objectives) in one call: prefer it over many small calls.
- Use edit_course for every change to an existing course (fields, objectives, modules, lessons, blocks), several at once, atomically; each write returns the new course version. describe_blocks gives the exact schema of a block type.
- get_course reads the whole course, the outline (includeBlocks: false), or just some modules or lessons (moduleIds, lessonIds); a large course comes in pages (pass nextCursor back as cursor).
- Pass expectedVersion on writes to avoid overwriting someone else's edit; a conflict error names the current version: re-read with get_course and retry.
- Errors carry a code (not_found, conflict, invalid_arguments, forbidden, limit_exceeded, invalid_state) and name the field to fix.
- Every change is a revision: list_revisions, get_revision and restore_revision undo mistakes.
- Review and publish: validate_course lists problems with rule IDs, locations and fixes; list_comments shows reviewers' open comments (fix, then resolve_comment); preview_course shows the course as learners see it; set_status published succeeds once validation finds no errors.
- Translate: create_translation { courseId, language } makes a linked course in that language; fill it with get_translation_units and set_translation_units (Markdown), or export_translation and import_translation (XLIFF 2.0 or 1.2 for CAT tools). These are the translation toolset: list them with /mcp?toolsets=default,translation (or header X-MCP-Toolsets), or call them by name. Structure and media are edited in the source; the translation follows it.`;
