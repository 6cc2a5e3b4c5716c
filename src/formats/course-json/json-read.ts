/**
 * Reads our own lossless JSON export (`course-authoring-service/course`, version 1) back into an import
 * plan: the same fields, objectives, modules, lessons and blocks in the same order, and every embedded
 * asset decoded and recognised from its bytes. Source IDs are kept only as keys for the references
 * between them; the new course gets new IDs. A block pointing at an asset the file does not carry is
 * refused by name, before anything is written.
 */
import * as v from "valibot";
import { assetFileNameProblem } from "../asset-names.ts";
import { claimMatches, sniffMediaType } from "../../codecs/media-types.ts";
import { limits } from "../../authoring/schemas/fields.ts";
import { jsonExportFormat, jsonExportFormatVersion } from "./json-write.ts";
import { describeIssues, CourseAuthoringError } from "../../course-authoring-error.ts";
import type { Notice } from "../../notice.ts";
import type { ImportedAsset, ImportPlan } from "../draft-course.ts";
import { fromBase64 } from "../../bytes.ts";
import { readJson } from "../../codecs/json.ts";

const documentBlock = v.looseObject({ id: v.optional(v.string()), type: v.string() });
const documentLesson = v.looseObject({
  id: v.optional(v.string()),
  title: v.unknown(),
  kind: v.optional(v.string(), "content"),
  passingScore: v.optional(v.nullable(v.number())),
  maxAttempts: v.optional(v.nullable(v.number())),
  estimatedMinutes: v.optional(v.nullable(v.number())),
  estimatedMinutesIsSet: v.optional(v.boolean(), false),
  drawCount: v.optional(v.nullable(v.number())),
  drawByObjective: v.optional(v.boolean()),
  shuffleChoices: v.optional(v.boolean()),
  feedbackMode: v.optional(v.string()),
  finalAssessment: v.optional(v.boolean()),
  oneQuestionAtATime: v.optional(v.boolean()),
  attemptScoring: v.optional(v.string()),
  banner: v.optional(v.unknown()),
  blocks: v.optional(v.array(documentBlock), []),
});
const documentModule = v.looseObject({
  id: v.optional(v.string()),
  title: v.unknown(),
  summary: v.optional(v.unknown()),
  objectiveIds: v.optional(v.array(v.string()), []),
  lessons: v.optional(v.array(documentLesson), []),
});
const documentCourse = v.looseObject({
  title: v.unknown(),
  description: v.optional(v.unknown()),
  language: v.optional(v.unknown()),
  audience: v.optional(v.unknown()),
  level: v.optional(v.unknown()),
  tags: v.optional(v.unknown()),
  numbering: v.optional(v.unknown()),
  targetMinutes: v.optional(v.unknown()),
  theme: v.optional(v.unknown()),
  objectives: v.optional(v.array(v.looseObject({ id: v.string(), text: v.unknown() })), []),
  modules: v.optional(v.array(documentModule), []),
});
const documentAsset = v.object({ id: v.string(), fileName: v.string(), mimeType: v.string(), base64: v.string() });
const exportDocument = v.object({
  format: v.literal(jsonExportFormat),
  formatVersion: v.literal(jsonExportFormatVersion),
  course: documentCourse,
  assets: v.optional(v.array(documentAsset), []),
});
type ExportDocument = v.InferOutput<typeof exportDocument>;
type DocumentLesson = v.InferOutput<typeof documentLesson>;

function invalidDocument(message: string, details: Record<string, unknown> = {}): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `content: ${message}; nothing was imported.`, { field: "content", ...details });
}

/** Objects and arrays open at once in an export: blocks nest about a dozen (scenario scenes' choices). */
export const importJsonMaxDepth = 64;

async function parseEnvelope(text: string): Promise<ExportDocument> {
  // Depth is checked flat before anything recursive (the parser, the schema, the reference walk) sees it.
  const parsed = await readJson(text, { field: "content", limits: { maxDepth: importJsonMaxDepth } }).catch((error: unknown) => {
    if (error instanceof CourseAuthoringError) throw new CourseAuthoringError(error.code, `${error.message.replace(/\.$/, "")}; nothing was imported.`, error.details);
    throw error;
  });
  const envelope = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  if (envelope.format !== jsonExportFormat) {
    throw invalidDocument(`is JSON but not a course export made by export_course: its "format" is ${JSON.stringify(envelope.format ?? null)}, not "${jsonExportFormat}"`);
  }
  if (envelope.formatVersion !== jsonExportFormatVersion) {
    throw invalidDocument(`is a version ${JSON.stringify(envelope.formatVersion ?? null)} course export; this service reads version ${jsonExportFormatVersion}`);
  }
  const checked = v.safeParse(exportDocument, parsed);
  if (!checked.success) throw invalidDocument(`the course export is damaged: ${describeIssues(checked.issues).message}`);
  return checked.output;
}

function assetIdsIn(value: unknown, path: string, found: (assetId: string, field: string) => void): void {
  if (Array.isArray(value)) return value.forEach((item, index) => assetIdsIn(item, `${path}[${index}]`, found));
  if (typeof value !== "object" || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    if (key === "assetId" && typeof child === "string") found(child, path ? `${path}.${key}` : key);
    else assetIdsIn(child, path ? `${path}.${key}` : key, found);
  }
}

/** Every asset a block or the theme names must travel in the file; the first that does not is named with its block or field. */
function checkAssetReferences(document: ExportDocument): void {
  const carried = new Set(document.assets.map((asset) => asset.id));
  assetIdsIn(document.course.theme, "theme", (assetId, field) => {
    if (carried.has(assetId)) return;
    throw invalidDocument(
      `course.${field} references asset ${assetId}, which the file does not carry. Export the course again (exports embed every asset), or remove the image from the theme`,
      { assetId },
    );
  });
  for (const module of document.course.modules) {
    for (const lesson of module.lessons) {
      assetIdsIn(lesson.banner, "banner", (assetId, field) => {
        if (carried.has(assetId)) return;
        throw invalidDocument(
          `lesson ${lesson.id ?? "(no id)"} "${String(lesson.title)}" ${field} references asset ${assetId}, which the file does not carry. Export the course again (exports embed every asset), or remove the banner`,
          { lessonId: lesson.id, assetId },
        );
      });
      for (const block of lesson.blocks) {
        assetIdsIn(block, "", (assetId, field) => {
          if (carried.has(assetId)) return;
          throw invalidDocument(
            `block ${block.id ?? "(no id)"} (${block.type}, ${field}) in lesson "${String(lesson.title)}" references asset ${assetId}, which the file does not carry. ` +
              "Export the course again (exports embed every asset), or remove the block",
            { blockId: block.id, assetId },
          );
        });
      }
    }
  }
}

async function decodeAsset(asset: ExportDocument["assets"][number], index: number): Promise<ImportedAsset> {
  const field = `assets[${index}]`;
  const compact = asset.base64.replace(/\s+/g, "");
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) throw invalidDocument(`${field} (${asset.id}): base64 is not valid`);
  const bytes = fromBase64(compact);
  if (bytes.byteLength > limits.assetBytes) {
    throw new CourseAuthoringError("limit_exceeded", `content: ${field} (${asset.id}) is ${bytes.byteLength} bytes; assets may be at most ${limits.assetBytes} bytes.`, {
      field: "content",
      assetId: asset.id,
    });
  }
  const sniffed = await sniffMediaType(bytes, { claimed: asset.mimeType, filename: asset.fileName });
  if (sniffed.kind !== "accepted") throw invalidDocument(`${field} (${asset.id}, "${asset.fileName}") is not a file type a course can embed`);
  if (!claimMatches(asset.mimeType, sniffed.type)) {
    throw invalidDocument(`${field} (${asset.id}) says ${asset.mimeType} but its bytes are ${sniffed.type.mediaType}`);
  }
  // The rule upload_asset runs, so an import stores no name an upload would refuse.
  const fileName = asset.fileName.trim();
  const nameProblem = assetFileNameProblem(fileName, sniffed.type);
  if (nameProblem !== null) {
    throw invalidDocument(`${field}.fileName (${asset.id}, ${JSON.stringify(asset.fileName.slice(0, 200))}) ${nameProblem}`, { assetId: asset.id, detectedMediaType: sniffed.type.mediaType });
  }
  return { sourceId: asset.id, fileName, mediaType: sniffed.type.mediaType, bytes };
}

function lessonOutline(lesson: DocumentLesson): Record<string, unknown> {
  const quiz = lesson.kind === "quiz";
  return {
    title: lesson.title,
    kind: lesson.kind,
    ...(quiz
      ? {
          passingScore: lesson.passingScore ?? undefined,
          maxAttempts: lesson.maxAttempts ?? null,
          drawCount: lesson.drawCount,
          drawByObjective: lesson.drawByObjective,
          shuffleChoices: lesson.shuffleChoices,
          feedbackMode: lesson.feedbackMode,
          finalAssessment: lesson.finalAssessment,
          oneQuestionAtATime: lesson.oneQuestionAtATime,
          attemptScoring: lesson.attemptScoring,
        }
      : {}),
    ...(lesson.estimatedMinutesIsSet ? { estimatedMinutes: lesson.estimatedMinutes } : {}),
    ...(lesson.banner === undefined || lesson.banner === null ? {} : { banner: lesson.banner }),
    blocks: lesson.blocks,
  };
}

/** The plan for a JSON export; `title` replaces the course title when given. */
export async function planFromJsonExport(text: string, title?: string): Promise<ImportPlan> {
  const document = await parseEnvelope(text);
  checkAssetReferences(document);
  const course = document.course;
  const labels = new Map<string, string>();
  const modules = course.modules.map((module, moduleIndex) => {
    labels.set(`modules[${moduleIndex}]`, `module ${module.id ?? moduleIndex + 1} "${String(module.title)}"`);
    return {
      title: module.title,
      summary: module.summary,
      objectiveIds: module.objectiveIds,
      lessons: module.lessons.map((lesson, lessonIndex) => {
        const lessonPath = `modules[${moduleIndex}].lessons[${lessonIndex}]`;
        labels.set(lessonPath, `lesson ${lesson.id ?? lessonIndex + 1} "${String(lesson.title)}"`);
        lesson.blocks.forEach((block, blockIndex) =>
          labels.set(`${lessonPath}.blocks[${blockIndex}]`, `block ${block.id ?? blockIndex + 1} (${block.type}) in lesson "${String(lesson.title)}"`),
        );
        return lessonOutline(lesson);
      }),
    };
  });
  const outline = {
    title: title ?? course.title,
    description: course.description,
    language: course.language,
    audience: course.audience,
    level: course.level,
    tags: course.tags,
    numbering: course.numbering,
    targetMinutes: course.targetMinutes,
    theme: course.theme,
    objectives: course.objectives.map((objective) => ({ key: objective.id, text: objective.text })),
    modules,
  };
  // Status, publication and sharing belong to the source course; the import is a new draft of the caller's.
  const status = typeof course.status === "string" ? course.status : "draft";
  const notices: Notice[] = status === "draft" ? [] : [{ level: "info", text: `The source course was ${status}; the imported course is a new draft, shared with nobody.` }];
  const assets: ImportedAsset[] = [];
  for (const [index, asset] of document.assets.entries()) assets.push(await decodeAsset(asset, index));
  return { outline, assets, labels, notices };
}
