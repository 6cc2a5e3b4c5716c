/**
 * `import_course`: a new draft course from our own JSON export (an identical course with new IDs, assets
 * included), from a Markdown outline, or from a zip archive holding either. The input is checked for
 * size, for being what it claims, and (for archives) for unsafe paths and zip bombs; the course is then
 * validated with the same schemas as `create_course` and written in one transaction, or not at all.
 */
import * as v from "valibot";
import { titleField } from "../../authoring/schemas/fields.ts";
import { writeAs, type AuthoringServices } from "../../authoring/services.ts";
import { createImportedCourse } from "../../import/create-course.ts";
import { planFromJsonExport } from "../../import/json-document.ts";
import { planFromMarkdown } from "../../import/markdown-outline.ts";
import { validateImportedCourse } from "../../import/plan.ts";
import { importFormats, maxImportBytes, readImportSource } from "../../import/source.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { coursePageSchema, outlineCounts, writtenCourse } from "./course-tools.ts";

export const importCourseArguments = v.object({
  format: v.optional(
    v.pipe(
      v.picklist(importFormats, `must be one of ${importFormats.join(", ")}`),
      v.description("json: a course exported with export_course format json. markdown: an outline. zip: an archive holding one of those. Omit to detect it."),
    ),
  ),
  content: v.optional(v.pipe(v.string(), v.description("The JSON or Markdown text. Use contentBase64 instead for a zip archive."))),
  contentBase64: v.optional(v.pipe(v.string(), v.description(`The file's bytes in standard base64 (any format); at most ${maxImportBytes} bytes decoded.`))),
  title: v.optional(v.pipe(titleField(), v.description("Title for the new course; replaces the document's own title."))),
});

const importResultSchema = v.object({
  importedFrom: v.picklist(["json", "markdown"]),
  archiveEntry: v.optional(v.pipe(v.string(), v.description("The document's path inside the zip archive, when one was imported."))),
  course: coursePageSchema,
});

const importCourseTool = defineTool<AuthoringServices, typeof importCourseArguments>({
  name: "import_course",
  toolset: "exchange",
  title: "Import course",
  description:
    "Creates a new draft course that you own from a file: a JSON export made by export_course (format json; comes back identical, with new IDs " +
    "and its assets), or a Markdown outline: one # heading is the course title (text under it the description), ## headings are modules (text " +
    "under them the summary), ### headings are lessons, and paragraphs, lists, images, code, quotes and #### headings become blocks. A " +
    "\"## Learning objectives\" list becomes the course objectives. A paragraph followed by a task list (- [x] right / - [ ] wrong) becomes a " +
    "choice question; a lesson titled Quiz (or test, exam, assessment) with questions is a quiz. Send text in content, or any file (also a zip " +
    "archive holding one .json or .md) in contentBase64; at most 10 MB. Everything is validated first and written in one step: on any error, " +
    "nothing is created. Returns the new course.",
  input: importCourseArguments,
  output: importResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, { user, services, structuredBudgetBytes }) {
    const document = readImportSource(args);
    const plan = document.kind === "json" ? planFromJsonExport(document.text, args.title) : planFromMarkdown(document.text, args.title);
    const course = validateImportedCourse(plan);
    const sourceName = document.container === "zip" ? `${document.kind} in a zip archive (${document.entry})` : document.kind === "json" ? "a JSON export" : "a Markdown outline";
    const created = await writeAs(services, user, (session) => createImportedCourse(session, course, plan.assets, plan.labels, sourceName));
    return {
      structuredContent: { importedFrom: document.kind, ...(document.entry ? { archiveEntry: document.entry } : {}), course: writtenCourse(created, structuredBudgetBytes - 1024).course },
      summary: `Imported ${sourceName} as course ${created.id} "${created.title}" (version ${created.version}, draft) with ${outlineCounts(created)}${plan.assets.length ? ` and ${plan.assets.length} asset(s)` : ""}.`,
    };
  },
});

export const importTools: ToolDefinition<AuthoringServices>[] = [importCourseTool];
