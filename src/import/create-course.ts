/**
 * Writes a validated import as one new draft course, in one transaction and one revision: the course
 * row, its assets (new IDs, blocks pointed at them), objectives and the nested modules → lessons →
 * blocks through the same inserts `create_course` uses, so every block is checked the same way. Any
 * failure rolls everything back.
 */
import { storeAsset } from "../authoring/assets.ts";
import type { AuthoringSession } from "../authoring/context.ts";
import { commitCourseEdit, type CourseEdit } from "../authoring/course-edit.ts";
import { insertDraftCourse, readCourseDocument } from "../authoring/courses.ts";
import { CourseAuthoringError } from "../authoring/errors.ts";
import type { CourseDocument, ModuleOutline } from "../authoring/schemas/course.ts";
import { resolveTheme } from "../authoring/theme.ts";
import { labelOf, type ImportedAsset, type ImportedCourse } from "../formats/draft-course.ts";

/** Rewrites every `assetId` in a module's blocks (or the theme) from the source ID to the new one. */
export function withNewAssetIds<T>(value: T, newIds: ReadonlyMap<string, string>): T {
  if (newIds.size === 0) return value;
  const remap = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(remap);
    if (typeof item !== "object" || item === null) return item;
    return Object.fromEntries(Object.entries(item).map(([key, child]) => [key, key === "assetId" && typeof child === "string" ? (newIds.get(child) ?? child) : remap(child)]));
  };
  return remap(value) as T;
}

/** Stores the import's assets in the course; the source ID → new ID map is returned, and also written to `newIds` when given. */
export async function insertAssets(session: AuthoringSession, courseId: string, assets: readonly ImportedAsset[], newIds: Map<string, string> = new Map()): Promise<Map<string, string>> {
  for (const asset of assets) {
    const row = await storeAsset(session, courseId, { filename: asset.fileName, mediaType: asset.mediaType, bytes: asset.bytes });
    newIds.set(asset.sourceId, row.id);
  }
  return newIds;
}

/** Domain errors name outline paths; the label says which block or line of the import that is. */
export function namedByImportLabel(error: unknown, labels: ReadonlyMap<string, string>): unknown {
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
  /** Filled with each asset's source ID → its new ID. */
  assetIds: Map<string, string> = new Map(),
): Promise<CourseDocument> {
  let edit: CourseEdit;
  try {
    edit = await insertDraftCourse(session, course, {
      keysAre: "objective IDs",
      beforeContent: async (courseId) => {
        await insertAssets(session, courseId, assets, assetIds);
        return (module: ModuleOutline) => withNewAssetIds(module, assetIds);
      },
    });
    // The theme's logo and cover image name the imported copies, checked as update_course checks a theme.
    if (course.theme) {
      const { theme } = await resolveTheme(edit, withNewAssetIds(course.theme, assetIds));
      await edit.update("course", edit.course, { theme });
    }
    edit.addedAssetBytes += assets.reduce((sum, asset) => sum + asset.bytes.byteLength, 0);
  } catch (error) {
    throw namedByImportLabel(error, labels);
  }
  await commitCourseEdit(edit, "import_course", `Imported course "${edit.course.title}" from ${sourceName}`);
  return readCourseDocument(session, edit.course, "owner", true);
}
