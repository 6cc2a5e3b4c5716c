/**
 * MCP tools for whole courses: list, read, create (with an optional full outline), delete and
 * duplicate. Each tool is a thin adapter: its valibot schemas come from the domain, its handler runs
 * one domain function in one transaction and shapes the answer.
 */
import * as v from "valibot";
import {
  createCourse,
  createCourseArguments,
  deleteCourseArguments,
  deleteCourseWithPackages,
  getCourse,
  getCourseArguments,
  listCourses,
  listCoursesArguments,
} from "../../authoring/courses.ts";
import { duplicateCourse, duplicateCourseArguments } from "../../authoring/duplicate.ts";
import { courseDocumentSchema, courseSummarySchema, type CourseDocument } from "../../authoring/schemas/course.ts";
import { storedBlockSchema } from "../../authoring/schemas/blocks.ts";
import { readAs, writeAs, type AuthoringServices } from "../../authoring/services.ts";
import { courseReadQuery, documentBytes, pageCourse, withBlockIdsOnly } from "../../authoring/course-pages.ts";
import { behindLine, translationStatus } from "../../authoring/translation/translations.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { confirmField } from "../confirmations.ts";

export function outlineCounts(course: CourseDocument): string {
  const lessons = course.modules.reduce((sum, module) => sum + module.lessons.length, 0);
  const blocks = course.modules.reduce((sum, module) => sum + module.lessons.reduce((n, lesson) => n + (lesson.blocks?.length ?? lesson.blockCount), 0), 0);
  return `${course.modules.length} module(s), ${lessons} lesson(s), ${blocks} block(s)`;
}

/**
 * What a write that made a whole course answers: every ID (blocks as { id, type }, not an echo of the
 * content just sent). A course whose IDs alone pass the budget answers with the first page of its
 * outline and a cursor that get_course { includeBlocks: false } continues.
 */
/**
 * A course document, maybe one page of it (`nextCursor` continues it with get_course), as output
 * schema: the fields agents navigate by, the rest open. The full document shape is the domain's
 * `courseDocumentSchema`; spelling it out in six tools' output schemas cost ~18 KB of every listing.
 */
export const coursePageSchema = v.looseObject({
  id: courseDocumentSchema.entries.id,
  title: v.string(),
  status: courseDocumentSchema.entries.status,
  version: v.number(),
  objectives: v.array(v.looseObject({ id: v.string(), text: v.string() })),
  modules: v.array(
    v.looseObject({
      id: v.string(),
      title: v.string(),
      lessons: v.array(v.looseObject({ id: v.string(), title: v.string(), kind: v.string(), estimatedMinutes: v.number(), blockCount: v.number(), blocks: v.optional(v.array(storedBlockSchema)) })),
    }),
  ),
  nextCursor: v.optional(v.pipe(v.string(), v.description("More of the course: pass it as cursor to get_course."))),
});

export function writtenCourse(course: CourseDocument, budgetBytes: number): { course: CourseDocument & { nextCursor?: string }; note: string } {
  const withIds = withBlockIdsOnly(course);
  if (documentBytes(withIds) <= budgetBytes) return { course: withIds, note: "" };
  const outline: CourseDocument = { ...course, modules: course.modules.map((module) => ({ ...module, lessons: module.lessons.map(({ blocks: _blocks, ...lesson }) => lesson) })) };
  const { page, nextCursor } = pageCourse(outline, { budgetBytes, query: courseReadQuery({ includeBlocks: false }) });
  const note = ` Block IDs: get_course with lessonIds.${nextCursor ? ` More of the outline: get_course { courseId: "${course.id}", includeBlocks: false, cursor: nextCursor }.` : ""}`;
  return { course: nextCursor ? { ...page, nextCursor } : page, note };
}

const listCoursesTool = defineTool<AuthoringServices, typeof listCoursesArguments>({
  name: "list_courses",
  toolset: "courses",
  title: "List courses",
  description:
    "Lists the courses you own or that were shared with you, newest first, with your role on each. Filter by status or by text in the title. " +
    "Returns { courses, nextCursor }; pass nextCursor back as cursor for the next page (null when there is none). Use get_course for a course's content.",
  input: listCoursesArguments,
  output: v.object({ courses: v.array(courseSummarySchema), nextCursor: v.nullable(v.string()) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services }) {
    const page = await readAs(services, user, (session) => listCourses(session, args));
    return {
      structuredContent: page,
      summary: `${page.courses.length} course(s)${page.nextCursor ? "; more with nextCursor" : ""}: ${page.courses.map((c) => `${c.id} "${c.title}"`).join(", ")}`,
    };
  },
});

const getCourseTool = defineTool<AuthoringServices, typeof getCourseArguments>({
  name: "get_course",
  toolset: "courses",
  title: "Get course",
  description:
    "Reads a course: fields, objectives, collaborators, modules → lessons → blocks in order, with every ID and the version (pass it as expectedVersion to writes). " +
    "includeBlocks: false gives the outline; moduleIds or lessonIds read just those, with their blocks. A course too large for one answer comes in pages: " +
    "pass nextCursor back as cursor with the same arguments; a module or lesson that did not fit continues on the next page under the same ID. " +
    "publication tells when it was last published and whether the draft has unpublished changes; variant: \"published\" reads that snapshot.",
  input: getCourseArguments,
  output: coursePageSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services, structuredBudgetBytes }) {
    const { course, translation } = await readAs(services, user, async (session) => {
      const document = await getCourse(session, args);
      const row = await session.tx.find("course", document.id);
      // Counts walk the source's units, so only the first page of a paged read carries them.
      return { course: document, translation: row && args.cursor === undefined ? await translationStatus(session, row) : {} };
    });
    const query = courseReadQuery(args);
    const { page, nextCursor } = pageCourse(course, { budgetBytes: structuredBudgetBytes, cursor: args.cursor, query });
    const variant = args.variant === "published" ? "published snapshot of " : "";
    const unpublished = args.variant !== "published" && course.publication?.hasUnpublishedChanges ? " The draft has unpublished changes." : "";
    const part = args.moduleIds?.length || args.lessonIds?.length ? " (chosen parts)" : "";
    const more = nextCursor ? ` This page holds ${outlineCounts(page)}; more with nextCursor.` : "";
    const languages = translation.translations?.map((t) => `${t.language} (${t.untranslated} untranslated, ${t.outdated} outdated)`).join(", ");
    const translated = translation.translationOf
      ? ` Translation of ${translation.translationOf.courseId} (${translation.translationOf.language}, follows its version ${translation.translationOf.sourceVersion} of ${translation.translationOf.currentSourceVersion}): ${translation.translationOf.untranslated} untranslated, ${translation.translationOf.outdated} outdated.${behindLine(translation.translationOf)}`
      : languages
        ? ` Translations: ${languages}.`
        : "";
    return {
      // The whole document, alone, goes out as it is: its JSON text was made when it was measured (call-tool.ts).
      structuredContent: nextCursor || translation.translationOf || translation.translations ? { ...(nextCursor ? { ...page, nextCursor } : page), ...translation } : page,
      summary: `${variant}Course ${course.id} "${course.title}" (version ${course.version}, ${course.status})${part}: ${outlineCounts(course)}.${more}${unpublished}${translated}`,
    };
  },
});

const createCourseTool = defineTool<AuthoringServices, typeof createCourseArguments>({
  name: "create_course",
  toolset: "courses",
  title: "Create course",
  description:
    "Creates a draft course that you own. Give just a title, or a whole outline in one call: objectives (each with an optional key), and modules → lessons → blocks. " +
    "Modules and question blocks name objectives in objectiveIds by key, by exact text, or by ID. Every block is validated (images need alt unless decorative; " +
    "video/audio need captions or a transcript; questions need correct answers). Nothing is created if anything is invalid. Returns the course with every ID (blocks as { id, type }) and version 1.",
  input: createCourseArguments,
  output: coursePageSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  // edit_course, of the same toolset, lists Block whole.
  briefDefinitions: ["Block"],
  async handler(args, { user, services, structuredBudgetBytes }) {
    const created = await writeAs(services, user, (session) => createCourse(session, args));
    const { course, note } = writtenCourse(created, structuredBudgetBytes);
    return { structuredContent: course, summary: `Created course ${created.id} "${created.title}" (version ${created.version}) with ${outlineCounts(created)}.${note}` };
  },
});

const deleteCourseInput = v.object({ ...deleteCourseArguments.entries, confirm: confirmField });

const deleteCourseTool = defineTool<AuthoringServices, typeof deleteCourseInput>({
  name: "delete_course",
  toolset: "courses",
  title: "Delete course",
  description:
    "Permanently deletes a course with all its modules, lessons, blocks, assets, comments and revision history. Only the owner can. " +
    "Cannot be undone: confirm with the author first. Returns { courseId, deleted: true }.",
  input: deleteCourseInput,
  output: v.object({ courseId: v.string(), deleted: v.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async confirm(args, { user, services }) {
    const course = await readAs(services, user, (session) => getCourse(session, { courseId: args.courseId, includeBlocks: false }));
    return `Delete course "${course.title}" (${course.id}) for good? Its ${outlineCounts(course)}, assets, comments and revision history will be lost; this cannot be undone.`;
  },
  async handler(args, { user, services }) {
    const result = await deleteCourseWithPackages(services, user, args);
    return { structuredContent: result, summary: `Deleted course ${result.courseId}.` };
  },
});

const duplicateCourseTool = defineTool<AuthoringServices, typeof duplicateCourseArguments>({
  name: "duplicate_course",
  toolset: "courses",
  title: "Duplicate course",
  description:
    "Copies a course you can read into a new draft course that you own, with new IDs throughout (objectives, modules, lessons, blocks, assets). " +
    "Collaborators and revision history are not copied. Returns the new course.",
  input: duplicateCourseArguments,
  output: coursePageSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, { user, services, structuredBudgetBytes }) {
    const duplicate = await writeAs(services, user, (session) => duplicateCourse(session, args));
    const { course, note } = writtenCourse(duplicate, structuredBudgetBytes);
    return { structuredContent: course, summary: `Duplicated into course ${duplicate.id} "${duplicate.title}" (version ${duplicate.version}) with ${outlineCounts(duplicate)}.${note}` };
  },
});

export const courseTools: ToolDefinition<AuthoringServices>[] = [
  listCoursesTool,
  getCourseTool,
  createCourseTool,
  deleteCourseTool,
  duplicateCourseTool,
];
