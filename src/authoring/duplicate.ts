/**
 * `duplicate_course`: copies a course the caller may copy (owner or editor) into a new draft they own, giving every
 * objective, module, lesson, block and asset a new ID and rewriting references to them. Asset bytes
 * are shared, not copied; collaborators and history stay with the original.
 */
import * as v from "valibot";
import type { CourseRow, JsonValue } from "../store/types.ts";
import { openCourse } from "./access.ts";
import { timestamp, type AuthoringSession } from "./context.ts";
import { CourseEdit, commitCourseEdit } from "./course-edit.ts";
import { readCourseDocument } from "./courses.ts";
import type { IdKind } from "./ids.ts";
import { loadCourseRows } from "./read-model.ts";
import type { CourseDocument } from "./schemas/course.ts";
import { idField, titleField } from "./schemas/fields.ts";

export const duplicateCourseArguments = v.object({
  courseId: idField("course"),
  title: v.optional(v.pipe(titleField(), v.description('Title of the copy; defaults to the original title followed by " (copy)".'))),
});

export async function duplicateCourse(session: AuthoringSession, args: v.InferOutput<typeof duplicateCourseArguments>): Promise<CourseDocument> {
  const { course: source } = await openCourse(session, args.courseId, "copy");
  const rows = await loadCourseRows(session.tx, source);
  const now = timestamp(session);
  const newIds = new Map<string, string>();
  const renew = (kind: IdKind, id: string) => {
    const fresh = session.newId(kind);
    newIds.set(id, fresh);
    return fresh;
  };
  const copy: CourseRow = {
    ...source,
    id: renew("course", source.id),
    ownerSub: session.actor.sub,
    title: args.title ?? `${source.title} (copy)`.slice(0, 200),
    status: "draft",
    version: 1,
    // Set once the assets are copied: its logo and cover image must name the copy's own assets.
    theme: null,
    createdAt: now,
    updatedAt: now,
  };
  const edit = new CourseEdit(session, copy, "owner", true);
  await edit.insert("course", copy);
  edit.addedAssetBytes += await copyAssets(session, source.id, copy.id, renew);
  if (source.theme) await edit.update("course", edit.course, { theme: remapIds(source.theme, newIds) as typeof source.theme });
  for (const objective of rows.objectives) {
    await edit.insert("objective", { ...objective, id: renew("objective", objective.id), courseId: copy.id });
  }
  for (const module of rows.modules) {
    const id = renew("module", module.id);
    await edit.insert("module", { ...module, id, courseId: copy.id, objectiveIds: module.objectiveIds.map((ref) => newIds.get(ref) ?? ref) });
  }
  for (const lesson of rows.lessons) {
    const id = renew("lesson", lesson.id);
    const banner = lesson.banner ? { banner: remapIds(lesson.banner as unknown as JsonValue, newIds) as unknown as typeof lesson.banner } : {};
    await edit.insert("lesson", { ...lesson, id, courseId: copy.id, moduleId: newIds.get(lesson.moduleId) ?? lesson.moduleId, ...banner });
  }
  for (const block of rows.blocks) {
    await edit.insert("block", {
      ...block,
      id: renew("block", block.id),
      courseId: copy.id,
      lessonId: newIds.get(block.lessonId) ?? block.lessonId,
      body: remapIds(block.body, newIds) as typeof block.body,
    });
  }
  await commitCourseEdit(edit, "duplicate_course", `Duplicated from course ${source.id}`);
  return readCourseDocument(session, edit.course, "owner", true);
}

/** Copies the asset rows (sharing their bytes) and returns their total size, which the copy's owner now stores. */
async function copyAssets(session: AuthoringSession, fromCourseId: string, toCourseId: string, renew: (kind: IdKind, id: string) => string): Promise<number> {
  let after: { createdAt: string; id: string } | undefined;
  let copiedBytes = 0;
  for (;;) {
    const assets = await session.tx.listAssets(fromCourseId, after, 500);
    for (const asset of assets) {
      await session.tx.copyAsset(asset, { id: renew("asset", asset.id), courseId: toCourseId, createdBy: session.actor.sub, createdAt: asset.createdAt });
      copiedBytes += asset.byteSize;
    }
    const last = assets[assets.length - 1];
    if (!last || assets.length < 500) return copiedBytes;
    after = last;
  }
}

/** Replaces every string that is an old ID with its new ID; IDs are random, so prose never matches. */
function remapIds(value: JsonValue, newIds: ReadonlyMap<string, string>): JsonValue {
  if (typeof value === "string") return newIds.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => remapIds(item, newIds));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, remapIds(item, newIds)]));
  }
  return value;
}
