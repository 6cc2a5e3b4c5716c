/**
 * Translation units: one per string a learner reads, with an ID that stays stable while the source is
 * edited (`crs_…/title`, `les_…/title`, `blk_…/choices/2/text`), the source text, and a note giving the
 * context a translator needs. Block texts come from the per-type table in `schemas/text-fields.ts`.
 */
import type { AssetRow, BlockRow, JsonObject, LessonRow, ModuleRow } from "../../store/types.ts";
import { assetUnitSource, blockAssetSlots, themeAssetSlots, type AssetKind } from "./asset-units.ts";
import { groupBy, inOrder, type CourseRows } from "../read-model.ts";
import { blockTexts } from "../schemas/text-fields.ts";

export interface SourceUnit {
  /** `<entity ID>/<field path>`. */
  id: string;
  source: string;
  /** Where the text is, in words: "Lesson “Intro” › block 2 (single_choice) › choices/1/text". */
  note: string;
  /** Set for a media unit (asset-units.ts): what kind of asset may replace the source's. */
  asset?: AssetKind;
  /**
   * A media unit's source asset by content (its SHA-256, or its ID when unknown): hashed with the source
   * text, so a source that swaps its picture for another of the same name makes the translation's
   * replacement outdated. Internal: loadUnitTable folds it into the hash and drops it.
   */
  identity?: string;
}

/** How a media unit is explained to a translator. */
const assetNote = " (media: give the ID of an asset uploaded to the translation to replace it; no target keeps this one)";

/** The theme images whose alt text a learner's screen reader reads: units `crs_…/theme/logo/alt`, `…/theme/coverImage/alt`. */
export const themeImageFields = ["logo", "coverImage"] as const;

/** The alt text of a theme image, or "" when the theme has no such image. */
export function themeImageAlt(theme: JsonObject | null, field: (typeof themeImageFields)[number]): string {
  const image = theme?.[field];
  if (image === null || typeof image !== "object" || Array.isArray(image)) return "";
  return typeof image.alt === "string" ? image.alt : "";
}

/** The alt text of a lesson's banner (unit `les_…/banner/alt`), or "" when it has none or it is decorative. */
export function lessonBannerAlt(lesson: Pick<LessonRow, "banner">): string {
  return lesson.banner && !lesson.banner.decorative ? (lesson.banner.alt ?? "") : "";
}

/** Every unit of a course, in reading order: course, its theme's alt texts and images, objectives, then each module's lessons (title, banner alt) and blocks (texts, then media). */
export function sourceUnits(rows: CourseRows, assets: ReadonlyMap<string, AssetRow> = new Map()): SourceUnit[] {
  const units: SourceUnit[] = [];
  const add = (entityId: string, field: string, text: string, where: string, asset?: AssetKind, identity?: string) => {
    if (text.trim() === "") return;
    units.push(asset ? { id: `${entityId}/${field}`, source: text, note: `${where} › ${field}${assetNote}`, asset, identity } : { id: `${entityId}/${field}`, source: text, note: `${where} › ${field}` });
  };
  const { course } = rows;
  const addAssets = (entityId: string, slots: ReturnType<typeof blockAssetSlots>, where: string) => {
    for (const slot of slots) add(entityId, slot.path, assetUnitSource(assets.get(slot.assetId), slot.assetId), where, slot.expected, assets.get(slot.assetId)?.sha256 ?? slot.assetId);
  };
  add(course.id, "title", course.title, "Course");
  add(course.id, "description", course.description, "Course");
  add(course.id, "audience", course.audience, "Course");
  for (const field of themeImageFields) add(course.id, `theme/${field}/alt`, themeImageAlt(course.theme, field), "Course theme");
  addAssets(course.id, themeAssetSlots(course.theme), "Course theme");
  inOrder(rows.objectives).forEach((objective, index) => add(objective.id, "text", objective.text, `Learning objective ${index + 1}`));
  const lessonsByModule = groupBy(rows.lessons, (lesson) => lesson.moduleId);
  const blocksByLesson = groupBy(rows.blocks, (block) => block.lessonId);
  inOrder(rows.modules).forEach((module, moduleIndex) => {
    const where = `Module ${moduleIndex + 1} “${module.title}”`;
    add(module.id, "title", module.title, where);
    add(module.id, "summary", module.summary, where);
    for (const lesson of inOrder(lessonsByModule.get(module.id) ?? [])) lessonUnits(lesson, blocksByLesson.get(lesson.id) ?? [], module, add, addAssets);
  });
  return units;
}

function lessonUnits(
  lesson: LessonRow,
  blocks: readonly BlockRow[],
  module: ModuleRow,
  add: (entityId: string, field: string, text: string, where: string) => void,
  addAssets: (entityId: string, slots: ReturnType<typeof blockAssetSlots>, where: string) => void,
): void {
  const where = `Lesson “${lesson.title}” (module “${module.title}”)`;
  add(lesson.id, "title", lesson.title, where);
  add(lesson.id, "banner/alt", lessonBannerAlt(lesson), where);
  inOrder(blocks).forEach((block, index) => {
    for (const text of blockTexts(block.type, block.body)) add(block.id, text.path, text.text, `${where} › block ${index + 1} (${block.type})`);
    addAssets(block.id, blockAssetSlots(block.type, block.body), `${where} › block ${index + 1} (${block.type})`);
  });
}

/** The entity ID and field path of a unit ID, or null when it is not shaped like one. */
export function splitUnitId(unitId: string): { entityId: string; path: string } | null {
  const slash = unitId.indexOf("/");
  if (slash <= 0 || slash === unitId.length - 1) return null;
  return { entityId: unitId.slice(0, slash), path: unitId.slice(slash + 1) };
}

const hexDigits = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** SHA-256 of the text, first 128 bits in hex: what a unit remembers of the source it was translated from. */
export async function sourceHash(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let hex = "";
  for (const byte of digest.subarray(0, 16)) hex += hexDigits[byte];
  return hex;
}
