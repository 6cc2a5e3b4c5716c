/**
 * Writes a validated import as one new draft course, in one transaction and one revision: the course
 * row, its assets (new IDs, blocks pointed at them), objectives and the nested modules → lessons →
 * blocks through the same inserts `create_course` uses, so every block is checked the same way. Any
 * failure rolls everything back.
 */
import { timestamp, type AuthoringSession } from "../authoring/context.ts";
import { CourseEdit, commitCourseEdit } from "../authoring/course-edit.ts";
import { readCourseDocument } from "../authoring/courses.ts";
import { invalidArgument, CourseAuthoringError } from "../authoring/errors.ts";
import { allocatePositions } from "../authoring/ordering.ts";
import type { CourseDocument, ModuleOutline } from "../authoring/schemas/course.ts";
import { insertModule } from "../authoring/structure.ts";
import type { CourseRow } from "../store/types.ts";
import { labelOf, type ImportedAsset, type ImportedCourse } from "./plan.ts";

/** Rewrites every `assetId` in a module's blocks from the source ID to the new one. */
function withNewAssetIds(module: ModuleOutline, newIds: ReadonlyMap<string, string>): ModuleOutline {
  if (newIds.size === 0) return module;
  const remap = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(remap);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, key === "assetId" && typeof child === "string" ? (newIds.get(child) ?? child) : remap(child)]));
  };
  return remap(module) as ModuleOutline;
}

async function insertAssets(session: AuthoringSession, courseId: string, assets: readonly ImportedAsset[]): Promise<Map<string, string>> {
  const newIds = new Map<string, string>();
  for (const asset of assets) {
    const id = session.newId("asset");
    newIds.set(asset.sourceId, id);
    await session.tx.insertAsset(
      {
        id,
        courseId,
        filename: asset.fileName,
        mediaType: asset.mediaType,
        byteSize: asset.bytes.byteLength,
        sha256: new Bun.CryptoHasher("sha256").update(asset.bytes).digest("hex"),
        createdBy: session.actor.sub,
        createdAt: timestamp(session),
      },
      asset.bytes,
    );
  }
  return newIds;
}

/** Domain errors name outline paths; the label says which block or line of the import that is. */
function named(error: unknown, labels: ReadonlyMap<string, string>): unknown {
  if (!(error instanceof CourseAuthoringError) || typeof error.details.field !== "string") return error;
  const label = labelOf(error.details.field, labels);
  return label ? new CourseAuthoringError(error.code, `content: ${error.message}${label}; nothing was imported.`, error.details) : error;
}

export async function createImportedCourse(
  session: AuthoringSession,
  course: ImportedCourse,
  assets: readonly ImportedAsset[],
  labels: ReadonlyMap<string, string>,
  sourceName: string,
): Promise<CourseDocument> {
  const now = timestamp(session);
  const row: CourseRow = {
    id: session.newId("course"),
    ownerSub: session.actor.sub,
    title: course.title,
    description: course.description,
    language: course.language,
    audience: course.audience,
    level: course.level,
    tags: course.tags,
    status: "draft",
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const edit = new CourseEdit(session, row, "owner", true);
  try {
    await edit.insert("course", row);
    const assetIds = await insertAssets(session, row.id, assets);
    edit.addedAssetBytes += assets.reduce((sum, asset) => sum + asset.bytes.byteLength, 0);
    const keys = new Map<string, string>();
    for (const [index, objective] of course.objectives.entries()) {
      const id = session.newId("objective");
      if (objective.key !== undefined) {
        if (keys.has(objective.key)) throw invalidArgument(`objectives[${index}].key`, `"${objective.key}" is used twice; objective IDs must be unique`);
        keys.set(objective.key, id);
      }
      await edit.insert("objective", { id, courseId: row.id, position: (index + 1) * 1024, text: objective.text });
    }
    const positions = await allocatePositions(edit, "module", row.id, undefined, course.modules.length, "modules");
    for (const [index, module] of course.modules.entries()) {
      await insertModule(edit, withNewAssetIds(module, assetIds), positions[index] as number, `modules[${index}]`, keys);
    }
  } catch (error) {
    throw named(error, labels);
  }
  await commitCourseEdit(edit, "import_course", `Imported course "${row.title}" from ${sourceName}`);
  return readCourseDocument(session, edit.course, "owner", true);
}
