/**
 * `import_course`: a new draft course from our own JSON export (an identical course with new IDs, assets
 * included), from a Markdown outline, from a zip archive holding either, or from a Word or PowerPoint file. The input is checked for
 * size, for being what it claims, and (for archives) for unsafe paths and zip bombs; the course is then
 * validated with the same schemas as `create_course` and written in one transaction, or not at all.
 */
import * as v from "valibot";
import type { AuthoringServices } from "../../authoring/services.ts";
import { importCourse, importCourseArguments, importQuestionBank, isBankImport, type ImportedCourse } from "../../import/import-course.ts";
import { bankFormatNames, bankImportFormats } from "../../import/import-bank.ts";
import type { ItemReport } from "../../formats/question-bank/bank-plan.ts";
import { maxImportBytes } from "../../import/source.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { pictureContent, pictureRoom } from "./picture-content.ts";
import { coursePageSchema, outlineCounts, writtenCourse } from "./course-tools.ts";

/** Items of a question bank listed in the result: the changed and dropped ones come first, then the kept ones. */
const listedReportItems = 100;

const importResultSchema = v.object({
  importedFrom: v.picklist(["json", "markdown", "docx", "pptx", "pdf", ...bankImportFormats]),
  archiveEntry: v.optional(v.pipe(v.string(), v.description("The document's path inside the zip archive, when one was imported."))),
  course: v.optional(coursePageSchema),
  into: v.optional(
    v.object({
      courseId: v.string(),
      version: v.number(),
      moduleIds: v.optional(v.pipe(v.array(v.string()), v.description("The modules the document added."))),
      lessonIds: v.optional(v.pipe(v.array(v.string()), v.description("The lessons the document added."))),
    }),
  ),
  outline: v.optional(v.pipe(v.string(), v.description("dryRun: the document as the import reads it (Markdown outline); nothing was created."))),
  pools: v.optional(v.array(v.object({ title: v.string(), questions: v.number(), drawCount: v.optional(v.number()) }))),
  report: v.optional(
    v.pipe(
      v.object({
        kept: v.number(),
        changed: v.number(),
        dropped: v.number(),
        items: v.array(v.object({ item: v.string(), outcome: v.picklist(["kept", "changed", "dropped"]), notes: v.optional(v.array(v.string())) })),
      }),
      v.description(`Changed and dropped items first; at most ${listedReportItems}.`),
    ),
  ),
});

function bankReport(report: readonly ItemReport[]): v.InferOutput<typeof importResultSchema>["report"] {
  const count = (outcome: ItemReport["outcome"]): number => report.filter((entry) => entry.outcome === outcome).length;
  const ordered = [...report.filter((entry) => entry.outcome !== "kept"), ...report.filter((entry) => entry.outcome === "kept")];
  return { kept: count("kept"), changed: count("changed"), dropped: count("dropped"), items: ordered.slice(0, listedReportItems).map((entry) => ({ ...entry, ...(entry.notes ? { notes: [...entry.notes] } : {}) })) };
}

/** A Word or PowerPoint import's report in the question banks' shape: blocks kept, parts kept in another form (changed) or dropped, with why. */
function officeReport(report: NonNullable<ImportedCourse["officeReport"]>, blocks: number) {
  const items = [
    ...report.dropped.map((entry) => ({ item: entry.what, outcome: "dropped" as const, notes: [entry.why] })),
    ...report.keptAsText.map((text) => ({ item: text, outcome: "changed" as const })),
    ...(report.speakerNotes > 0 ? [{ item: `speaker notes of ${report.speakerNotes} slide(s)`, outcome: "changed" as const, notes: ["kept as a review comment on each slide's lesson (list_comments)"] }] : []),
  ];
  return { kept: blocks, changed: items.length - report.dropped.length, dropped: report.dropped.length, items: items.slice(0, listedReportItems) };
}

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
    "archive holding one .json or .md) in contentBase64, or an upload by assetId (.docx, .pptx, .pdf too: headings, slides or bookmarks make lessons). A question bank (qti3, qti21, moodle_xml, gift) becomes a quiz lesson per pool, " +
    "in a new course or, with into, an existing one; the result reports each item kept, changed or dropped. At most " + `${maxImportBytes / 1024 / 1024} MB` + ". Documents go into an existing course with into, and dryRun: true reads one (outline and report) without creating anything. All or nothing: on any error, nothing is created or changed. Returns the new course.",
  input: importCourseArguments,
  output: importResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, { user, services, structuredBudgetBytes, log }) {
    if (isBankImport(args.format)) {
      const bank = await importQuestionBank(services, user, args);
      const report = bankReport(bank.report);
      const counts = `${report?.kept ?? 0} kept, ${report?.changed ?? 0} changed, ${report?.dropped ?? 0} dropped`;
      const pools = bank.pools.map((pool) => `"${pool.title}" (${pool.questions}${pool.drawCount ? `, draws ${pool.drawCount}` : ""})`).join(", ");
      return {
        structuredContent: {
          importedFrom: args.format,
          ...(bank.course ? { course: writtenCourse(bank.course, structuredBudgetBytes - 16 * 1024).course } : {}),
          ...(bank.into ? { into: bank.into } : {}),
          pools: bank.pools,
          report,
        },
        summary: bank.course
          ? `Imported ${bankFormatNames[args.format]} as course ${bank.course.id} "${bank.course.title}" (draft): quiz lessons ${pools}; items ${counts}${bank.assetCount ? `; ${bank.assetCount} picture(s)` : ""}.`
          : `Imported ${bankFormatNames[args.format]} into course ${bank.into?.courseId} (now version ${bank.into?.version}): ${pools}; items ${counts}${bank.assetCount ? `; ${bank.assetCount} picture(s)` : ""}.`,
      };
    }
    const imported = await importCourse(services, user, args);
    // What the result does not say: the parts kept in another form, what the source had that a new draft does not.
    await log?.(imported.notices);
    const { course: created, into, outline } = imported;
    const counts = `${imported.counts.modules} module(s), ${imported.counts.lessons} lesson(s), ${imported.counts.blocks} block(s)${imported.assetCount ? ` and ${imported.assetCount} picture(s) or file(s)` : ""}`;
    const structuredContent = {
      importedFrom: imported.importedFrom,
      ...(imported.archiveEntry ? { archiveEntry: imported.archiveEntry } : {}),
      ...(created ? { course: writtenCourse(created, structuredBudgetBytes - 16 * 1024).course } : {}),
      ...(into ? { into: { courseId: into.courseId, version: into.version, moduleIds: [...into.moduleIds], lessonIds: [...into.lessonIds] } } : {}),
      ...(outline !== undefined ? { outline: boundedOutline(outline, structuredBudgetBytes) } : {}),
      ...(imported.officeReport ? { report: officeReport(imported.officeReport, imported.counts.blocks) } : {}),
    };
    const summary = created
      ? `Imported ${imported.sourceName} as course ${created.id} "${created.title}" (version ${created.version}, draft) with ${outlineCounts(created)}${imported.assetCount ? ` and ${imported.assetCount} asset(s)` : ""}.`
      : into
        ? `Imported ${imported.sourceName} into course ${into.courseId} (now version ${into.version}): ${counts}${into.moduleIds.length ? ` as new module(s) ${into.moduleIds.join(", ")}` : ` as lesson(s) ${into.lessonIds.join(", ")}`}.`
        : `Read ${imported.sourceName} without importing it: ${counts} would be imported. The outline is in the result; nothing was created.`;
    const content = pictureContent(imported.pictures, pictureRoom(structuredBudgetBytes, summary, structuredContent));
    return { structuredContent, summary, ...(content.length ? { content } : {}) };
  },
});

/** A dry run's outline within the result budget: cut at a line, saying how much was left out. */
function boundedOutline(outline: string, budgetBytes: number): string {
  const room = Math.max(4096, budgetBytes - 24 * 1024);
  if (new TextEncoder().encode(outline).byteLength <= room) return outline;
  let cut = outline.slice(0, room);
  cut = cut.slice(0, Math.max(0, cut.lastIndexOf("\n")));
  return `${cut}\n\n_(the outline goes on: ${outline.length - cut.length} more characters; import into a course and read it with get_course)_\n`;
}

export const importTools: ToolDefinition<AuthoringServices>[] = [importCourseTool];
