/**
 * `import_course`: a new draft course from our own JSON export (an identical course with new IDs, assets
 * included), from a Markdown outline, from a zip archive holding either, or from a Word or PowerPoint file. The input is checked for
 * size, for being what it claims, and (for archives) for unsafe paths and zip bombs; the course is then
 * validated with the same schemas as `create_course` and written in one transaction, or not at all.
 */
import * as v from "valibot";
import type { AuthoringServices } from "../../authoring/services.ts";
import { importCourse, importCourseArguments } from "../../import/import-course.ts";
import { maxImportBytes } from "../../import/source.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { coursePageSchema, outlineCounts, writtenCourse } from "./course-tools.ts";

const importResultSchema = v.object({
  importedFrom: v.picklist(["json", "markdown", "docx", "pptx"]),
  archiveEntry: v.optional(v.pipe(v.string(), v.description("The document's path inside the zip archive, when one was imported."))),
  course: coursePageSchema,
  officeReport: v.optional(
    v.object({
      keptAsText: v.array(v.string()),
      dropped: v.array(v.object({ what: v.string(), why: v.string() })),
      speakerNotes: v.number(),
    }),
  ),
});

const importCourseTool = defineTool<AuthoringServices, typeof importCourseArguments>({
  name: "import_course",
  toolset: "exchange",
  title: "Import course",
  description:
    "Creates a draft course you own from a file: a JSON export made by export_course (format json; comes back identical, with new IDs " +
    "and its assets), or a Markdown outline: one # heading is the course title (text under it the description), ## headings are modules (text " +
    "under them the summary), ### headings are lessons, and paragraphs, lists, images, code, quotes and #### headings become blocks. A " +
    "\"## Learning objectives\" list becomes the course objectives. A paragraph followed by a task list (- [x] right / - [ ] wrong) becomes a " +
    "choice question; a lesson titled Quiz (or test, exam, assessment) with questions is a quiz. Send text in content, or any file (also a zip " +
    "archive holding one .json or .md) in contentBase64, or an upload by assetId, also .docx (headings as in Markdown) and .pptx (slides are lessons). At most " + `${maxImportBytes / 1024 / 1024} MB` + ". All or nothing: on any error, nothing is created. Returns the new course.",
  input: importCourseArguments,
  output: importResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, { user, services, structuredBudgetBytes, log }) {
    const imported = await importCourse(services, user, args);
    const created = imported.course;
    // What the result does not say: the parts kept in another form, what the source had that a new draft does not.
    await log?.(imported.notices);
    return {
      structuredContent: {
        importedFrom: imported.importedFrom,
        ...(imported.archiveEntry ? { archiveEntry: imported.archiveEntry } : {}),
        ...(imported.officeReport ? { officeReport: imported.officeReport } : {}),
        course: writtenCourse(created, structuredBudgetBytes - 1024).course,
      },
      summary: `Imported ${imported.sourceName} as course ${created.id} "${created.title}" (version ${created.version}, draft) with ${outlineCounts(created)}${imported.assetCount ? ` and ${imported.assetCount} asset(s)` : ""}.`,
    };
  },
});

export const importTools: ToolDefinition<AuthoringServices>[] = [importCourseTool];
