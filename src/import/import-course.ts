/**
 * The import use case: read the source (text, base64 or a zip holding one document), plan a course
 * from our JSON export or a Markdown outline, validate it with create_course's schemas (all of that a
 * heavy-work job off the request loop, `plan-import.ts`), and write it with its assets in one
 * transaction, or nothing at all. Adapters (the MCP tool) only translate.
 */
import type { Thumbnail } from "../codecs/thumbnail.ts";
import * as v from "valibot";
import type { Actor } from "../authoring/context.ts";
import type { CourseDocument } from "../authoring/schemas/course.ts";
import { titleField } from "../authoring/schemas/fields.ts";
import type { Notice } from "../notice.ts";
import { readAs, writeAs, type AuthoringServices } from "../authoring/services.ts";
import { createImportedCourse } from "./create-course.ts";
import type { OfficeReport } from "../formats/office/office-content.ts";
import { insertLessonNotes, lessonsByOutlinePath } from "./lesson-notes.ts";
import { importInto, type ImportedInto } from "./import-into.ts";
import { draftOutlineMarkdown } from "../authoring/outline-markdown.ts";
import type { ImportedCourse as ImportedCourseOutline } from "../formats/draft-course.ts";
import { importBytes, importFormats, maxImportBytes } from "./source.ts";
import { readUploadedFile } from "../authoring/uploaded-files.ts";
import { bankImportFormats, importBank, type BankImportFormat, type ImportedBankResult } from "./import-bank.ts";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { expectedVersionField, idField } from "../authoring/schemas/fields.ts";

const allImportFormats = [...importFormats, ...bankImportFormats] as const;

export const importCourseArguments = v.object({
  format: v.optional(
    v.pipe(
      v.picklist(allImportFormats, `must be one of ${allImportFormats.join(", ")}`),
      v.description(
        "json: a course exported with export_course format json. markdown: an outline. zip: an archive holding one of those. docx, pptx, pdf. Omit to detect it. " +
          "Question banks: qti3, qti21 (zip), moodle_xml, gift.",
      ),
    ),
  ),
  content: v.optional(v.pipe(v.string(), v.description("The JSON or Markdown text. Use contentBase64 instead for a zip archive."))),
  contentBase64: v.optional(v.pipe(v.string(), v.description(`The file's bytes in standard base64 (any format); at most ${maxImportBytes} bytes decoded.`))),
  assetId: v.optional(v.pipe(idField("asset"), v.description("An uploaded file, instead of content."))),
  title: v.optional(v.pipe(titleField(), v.description("Title for the new course; replaces the document's own title."))),
  into: v.optional(
    v.pipe(
      v.strictObject({ courseId: idField("course"), lessonId: v.optional(idField("lesson")), moduleId: v.optional(idField("module")), expectedVersion: expectedVersionField }),
      v.description(
        "Into an existing course you can edit, instead of a new one. Documents (docx, pptx, pdf, markdown, json): their modules are added after the course's, " +
          "or with moduleId their lessons are added to that module; nothing already there changes. Question banks: add to lesson lessonId, or as new quiz lessons to module moduleId.",
      ),
    ),
  ),
  dryRun: v.optional(
    v.pipe(v.boolean(), v.description("true: only read the document and return its outline and report (what would be imported); nothing is created or changed.")),
  ),
});

export interface ImportedPicture {
  readonly fileName: string;
  readonly assetId?: string;
  readonly thumbnail: Thumbnail | null;
}

export interface ImportedCourse {
  importedFrom: "json" | "markdown" | "docx" | "pptx" | "pdf";
  /** With dryRun: what the import would make, as a Markdown outline; nothing was written. */
  outline?: string;
  /** With into: where the document went. */
  into?: ImportedInto;
  /** The document's path inside a zip archive, when one was imported. */
  archiveEntry?: string;
  /** In words, for the summary: "a Markdown outline", "json in a zip archive (course.json)". */
  sourceName: string;
  assetCount: number;
  /** The new course (not with into or dryRun). */
  course?: CourseDocument;
  /** Counts of what the document makes. */
  counts: { modules: number; lessons: number; blocks: number };
  /** What the import kept in another form or did not carry. */
  notices: readonly Notice[];
  /** The pictures that arrived, with their new asset IDs (not on a dry run); the first few carry a thumbnail for the model. */
  pictures: readonly ImportedPicture[];
  /** For Word and PowerPoint: what was kept as text, what was dropped and why, and how many speaker notes became comments. */
  officeReport?: OfficeReport & { speakerNotes: number };
}

export function isBankImport(format: string | undefined): format is BankImportFormat {
  return (bankImportFormats as readonly (string | undefined)[]).includes(format);
}

/** A question bank: read, checked and written as quiz lessons (see `banks/import-bank.ts`). */
export async function importQuestionBank(services: AuthoringServices, actor: Actor, args: v.InferOutput<typeof importCourseArguments>): Promise<ImportedBankResult> {
  if (!isBankImport(args.format)) throw new CourseAuthoringError("invalid_arguments", "format: not a question-bank format", { field: "format" });
  const { bytes } = importBytes(args);
  return importBank(services, actor, args.format, bytes, { title: args.title, into: args.into });
}

export async function importCourse(services: AuthoringServices, actor: Actor, args: v.InferOutput<typeof importCourseArguments>): Promise<ImportedCourse> {
  if (isBankImport(args.format)) throw new CourseAuthoringError("invalid_arguments", "format: a question bank is imported with importQuestionBank", { field: "format" });
  if (args.into?.lessonId !== undefined) {
    throw new CourseAuthoringError("invalid_arguments", "into.lessonId: a document brings lessons of its own; give into.moduleId to add them to a module, or only into.courseId to add its modules.", { field: "into.lessonId" });
  }
  const file = args.assetId !== undefined ? await readAs(services, actor, (session) => readUploadedFile(session, args.assetId as string)) : undefined;
  // Decoding, reading and planning run off the request loop; the transactions below only store the result.
  const { content, contentBase64, title } = args;
  const planned = await services.heavyWork.run("planImport", { format: args.format, content, contentBase64, file: file && { fileName: file.fileName, bytes: file.bytes }, title });
  const common = {
    importedFrom: planned.importedFrom,
    ...(planned.archiveEntry ? { archiveEntry: planned.archiveEntry } : {}),
    sourceName: planned.sourceName,
    assetCount: planned.assets.length,
    counts: outlineCounts(planned.validated.modules),
    notices: planned.notices,
    ...(planned.officeReport ? { officeReport: planned.officeReport } : {}),
  } as const;
  const assetIds = new Map<string, string>();
  const pictures = () => planned.pictures.map(({ sourceId, ...picture }) => ({ ...picture, ...(assetIds.has(sourceId) ? { assetId: assetIds.get(sourceId) as string } : {}) }));
  if (args.dryRun) return { ...common, pictures: pictures(), outline: draftOutlineMarkdown(planned.validated) };
  const into = args.into;
  if (into) {
    const source = { assets: planned.assets, labels: planned.labels, notes: planned.lessonNotes, name: planned.sourceName, assetIds };
    const written = await writeAs(services, actor, (session) => importInto(session, into, planned.validated, source));
    return { ...common, pictures: pictures(), into: written };
  }
  const course = await writeAs(services, actor, async (session) => {
    const created = await createImportedCourse(session, planned.validated, planned.assets, planned.labels, planned.sourceName, assetIds);
    await insertLessonNotes(session, created.id, planned.lessonNotes, lessonsByOutlinePath(created));
    return created;
  });
  return { ...common, pictures: pictures(), course };
}

function outlineCounts(modules: ImportedCourseOutline["modules"]): ImportedCourse["counts"] {
  const lessons = modules.flatMap((module) => module.lessons);
  return { modules: modules.length, lessons: lessons.length, blocks: lessons.reduce((sum, lesson) => sum + (lesson.blocks?.length ?? 0), 0) };
}
