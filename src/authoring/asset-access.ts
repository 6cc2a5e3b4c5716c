/**
 * Who may use an asset where, and which assets a course shows. A file is uploaded once, to a course or to
 * its owner's library (no course), and its owner may use it by its ID in every course they can edit: the
 * course, its translations, the courses documents are imported into. The rules:
 *
 * - Using an asset in a course (a block, a banner, the theme, a translation's media) is allowed when the
 *   asset is that course's own, when the person writing is its owner (who uploaded it) and can still read
 *   the course it was uploaded to, or when the course already uses it (a co-editor may keep, move and
 *   edit what the owner placed). Anything else, another person's asset above all, is refused naming the rule.
 * - An asset a course uses is read with the course: whoever may read the course sees it in its previews,
 *   exports and review copies. Nobody reads another person's asset any other way.
 */
import type { AssetRow, BlockRow, CourseRow, LessonRow, StoreTransaction } from "../store/types.ts";
import { openCourse } from "./access.ts";
import type { AuthoringSession } from "./context.ts";
import { invalidArgument, notFound } from "./errors.ts";

/** Every `assetId` named anywhere in `value` (block bodies, banners, a theme), added to `into`. */
export function assetIdsIn(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) assetIdsIn(item, into);
  else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key === "assetId" && typeof child === "string") into.add(child);
      else assetIdsIn(child, into);
    }
  }
  return into;
}

/**
 * The course's own assets and every other existing asset its content names (`referenced`), each once:
 * what previews, exports, validation and translation read as the course's assets.
 */
export async function assetsUsedBy(tx: Pick<StoreTransaction, "listAllAssets" | "findAsset">, courseId: string, referenced: Iterable<string>): Promise<AssetRow[]> {
  const own = await tx.listAllAssets(courseId);
  const known = new Set(own.map((asset) => asset.id));
  const others: AssetRow[] = [];
  for (const assetId of referenced) {
    if (known.has(assetId) || !/^ast_[0-9A-Za-z_-]+$/.test(assetId)) continue;
    known.add(assetId);
    const asset = await tx.findAsset(assetId);
    if (asset) others.push(asset);
  }
  return [...own, ...others];
}

/** Every asset ID a course's rows name: theme, lesson banners, block bodies. */
export function assetIdsOfRows(rows: { course: CourseRow; lessons: readonly LessonRow[]; blocks: readonly BlockRow[] }): Set<string> {
  const ids = assetIdsIn(rows.course.theme ?? null);
  for (const lesson of rows.lessons) assetIdsIn(lesson.banner ?? null, ids);
  for (const block of rows.blocks) assetIdsIn(block.body, ids);
  return ids;
}

/** Every asset ID the course's stored content names. */
async function courseNames(tx: StoreTransaction, course: CourseRow): Promise<Set<string>> {
  const [lessons, blocks] = await Promise.all([tx.listInCourse("lesson", course.id), tx.listInCourse("block", course.id)]);
  return assetIdsOfRows({ course, lessons, blocks });
}

/** The course's own assets and the others its stored content uses. */
export async function courseAssets(tx: StoreTransaction, course: CourseRow): Promise<AssetRow[]> {
  return assetsUsedBy(tx, course.id, await courseNames(tx, course));
}

/**
 * The asset `assetId`, when this person may use it in `course` (which they are editing); otherwise an
 * error naming `field` and the rule. An ID that names no asset is "not found".
 */
export async function usableAsset(session: AuthoringSession, course: CourseRow, assetId: string, field: string): Promise<AssetRow> {
  const asset = await session.tx.findAsset(assetId);
  if (!asset) throw notFound("asset", assetId, field);
  if (asset.courseId === course.id) return asset;
  if (asset.createdBy === session.actor.sub && (asset.courseId === null || (await mayRead(session, asset.courseId)))) return asset;
  if ((await courseNames(session.tx, course)).has(asset.id)) return asset;
  throw invalidArgument(
    field,
    `asset ${asset.id} may not be used in course ${course.id}: an asset can be used in the course it was uploaded to and, by its owner (the person who uploaded it), in every course they can edit; ` +
      "this one is another person's. Upload the file yourself (the files view opened by list_assets, or upload_asset) and use that ID",
    { assetId: asset.id, rule: "asset_owner_only" },
  );
}

async function mayRead(session: AuthoringSession, courseId: string): Promise<boolean> {
  try {
    await openCourse(session, courseId, "read");
    return true;
  } catch {
    return false;
  }
}

/**
 * An asset this person may read outside any course's content: their own library's files, and the
 * assets of the courses they may read. Anything else is "not found", never told apart from a missing one.
 */
export async function readableAsset(session: AuthoringSession, assetId: string, field: string, broughtTo?: CourseRow): Promise<AssetRow> {
  const asset = await session.tx.findAsset(assetId);
  if (asset && (asset.courseId === null ? asset.createdBy === session.actor.sub || (await broughtBack(session, asset, broughtTo)) : await mayRead(session, asset.courseId))) return asset;
  throw notFound("asset", assetId, field);
}

/**
 * A file in its owner's library brought back to a course both people work on (a review copy the owner
 * uploaded, imported by a fellow reviewer): readable for that course alone; the reader already reads it.
 */
async function broughtBack(session: AuthoringSession, asset: AssetRow, course: CourseRow | undefined): Promise<boolean> {
  if (!course) return false;
  if (course.ownerSub === asset.createdBy) return true;
  return (await session.tx.rolesOf(course.id, asset.createdBy, null)).length > 0;
}
