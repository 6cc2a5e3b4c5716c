/**
 * Keeps a translation's structure a mirror of its source: every objective, module, lesson, block and
 * asset of the source has a counterpart in the translation, with an ID derived from the translation's
 * course ID and the source ID (so no mapping table is needed), the source's non-text fields, and
 * the translated text where a unit has one (the source text where none has). Rows the source no
 * longer has are removed. Everything goes through one `CourseEdit`, so a sync is one revision.
 */
import type { AssetRow, BlockRow, CourseRow, EntityKind, EntityRows, JsonObject, LessonBannerRow, LessonRow, JsonValue, OrderedKind, StoreTransaction } from "../../store/types.ts";
import type { CourseEdit } from "../course-edit.ts";
import { assetIdsOfRows } from "../asset-access.ts";
import { idPrefixes, type IdKind } from "../ids.ts";
import { loadCourseRows, type CourseRows } from "../read-model.ts";
import * as v from "valibot";
import { CourseAuthoringError } from "../errors.ts";
import { blockSchema } from "../schemas/blocks.ts";
import { limits } from "../schemas/fields.ts";
import { blockTexts, setBlockText } from "../schemas/text-fields.ts";
import { lessonBannerAlt, themeImageAlt, themeImageFields } from "./units.ts";
import type { UnitProblems } from "./unit-problems.ts";
import { blockAssetSlots, themeAssetSlots } from "./asset-units.ts";

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

/** The translation's ID for a source entity: `<prefix>_` and 20 base32 characters of SHA-256(course, source ID). */
async function derivedId(kind: IdKind, translationId: string, sourceId: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${translationId}:${sourceId}`)));
  let suffix = "";
  for (const byte of digest.subarray(0, 20)) suffix += alphabet[byte & 31];
  return `${idPrefixes[kind]}_${suffix}`;
}

const kindOfPrefix = new Map<string, IdKind>(Object.entries(idPrefixes).map(([kind, prefix]) => [prefix, kind as IdKind]));

/** Source ID → translation ID for every entity and asset of the source. */
export async function idMap(translationId: string, sourceIds: readonly string[]): Promise<Map<string, string>> {
  const pairs = await Promise.all(
    sourceIds.map(async (id) => [id, await derivedId(kindOfPrefix.get(id.slice(0, id.indexOf("_"))) ?? "block", translationId, id)] as const),
  );
  return new Map(pairs);
}

/** The translated text of a unit, or the source text while it has none. */
export type TextLookup = (unitId: string, sourceText: string) => string;

export interface MirrorResult {
  course: CourseRow;
}

/**
 * A translated text that breaks a rule of its field (title length, alt text, block rules): added to
 * `problems` when the caller collects them (the write is refused afterwards, naming every unit), thrown otherwise.
 */
type Refuse = (unitId: string, reason: string) => void;

function refuser(problems: UnitProblems | undefined): Refuse {
  return (unitId, reason) => {
    if (problems) problems.add({ unitId, field: problems.field, reason });
    else throw new CourseAuthoringError("invalid_arguments", `unit ${unitId} ${reason}; nothing was written.`, { field: "units", unitId });
  };
}

/** What the translation should be: the source's rows under the translation's IDs, with the translated texts. */
export interface MirrorPlan {
  /** Source ID → translation ID, for every entity and asset of the source. */
  ids: Map<string, string>;
  /** The source's assets; each has a copy in the translation under `ids`. */
  assets: AssetRow[];
  course: Partial<CourseRow>;
  wanted: { [K in OrderedKind]: EntityRows[K][] };
}

export async function planMirror(tx: StoreTransaction, translationId: string, source: CourseRows, language: string, textOf: TextLookup, refuse: Refuse = refuser(undefined)): Promise<MirrorPlan> {
  // Only the assets the source uses: a file uploaded to be read (a document to import) is no content to mirror.
  const used = assetIdsOfRows(source);
  const assets = (await tx.listAllAssets(source.course.id)).filter((asset) => used.has(asset.id));
  const ids = await idMap(translationId, [
    ...source.objectives.map((row) => row.id),
    ...source.modules.map((row) => row.id),
    ...source.lessons.map((row) => row.id),
    ...source.blocks.map((row) => row.id),
    ...assets.map((row) => row.id),
  ]);
  const mapped = (id: string) => ids.get(id) ?? id;
  const { course } = source;
  const courseFields: Partial<CourseRow> = {
    title: checkedTitle(`${course.id}/title`, textOf(`${course.id}/title`, course.title), refuse),
    description: textOf(`${course.id}/description`, course.description),
    language,
    audience: textOf(`${course.id}/audience`, course.audience),
    level: course.level,
    tags: course.tags,
    numbering: course.numbering,
    targetMinutes: course.targetMinutes,
    theme: translatedTheme(course, ids, textOf, refuse),
  };
  const languages = { source: course.language, translation: language };
  const wanted: MirrorPlan["wanted"] = {
    objective: source.objectives.map((row) => ({ ...row, id: mapped(row.id), courseId: translationId, text: textOf(`${row.id}/text`, row.text) })),
    module: source.modules.map((row) => ({
      ...row,
      id: mapped(row.id),
      courseId: translationId,
      title: checkedTitle(`${row.id}/title`, textOf(`${row.id}/title`, row.title), refuse),
      summary: textOf(`${row.id}/summary`, row.summary),
      objectiveIds: row.objectiveIds.map(mapped),
    })),
    lesson: source.lessons.map((row) => ({
      ...row,
      id: mapped(row.id),
      courseId: translationId,
      moduleId: mapped(row.moduleId),
      title: checkedTitle(`${row.id}/title`, textOf(`${row.id}/title`, row.title), refuse),
      ...(row.banner ? { banner: translatedBanner(row, ids, textOf, refuse) } : {}),
    })),
    block: source.blocks.map((row) => translatedBlock(row, translationId, mapped, ids, textOf, refuse, languages)),
  };
  return { ids, assets, course: courseFields, wanted };
}

/** Brings the translation (`edit.course`) in line with the source's current rows and the unit targets. */
export async function mirrorSource(edit: CourseEdit, source: CourseRows, language: string, textOf: TextLookup, problems?: UnitProblems): Promise<void> {
  const translationId = edit.course.id;
  const plan = await planMirror(edit.tx, translationId, source, language, textOf, refuser(problems));
  for (const asset of plan.assets) {
    const id = plan.ids.get(asset.id) as string;
    if (await edit.tx.findAsset(id)) continue;
    await edit.tx.copyAsset(asset, { id, courseId: translationId, createdBy: edit.session.actor.sub, createdAt: asset.createdAt });
    edit.addedAssetBytes += asset.byteSize;
  }
  await edit.update("course", edit.course, plan.course);
  const current = await loadCourseRows(edit.tx, edit.course);
  const existing: MirrorPlan["wanted"] = { objective: current.objectives, module: current.modules, lesson: current.lessons, block: current.blocks };
  // Children go before their parents are removed, parents are written before their children.
  for (const kind of ["block", "lesson", "module", "objective"] as const) await removeMissing(edit, kind, existing[kind], plan.wanted[kind]);
  for (const kind of ["objective", "module", "lesson", "block"] as const) await upsert(edit, kind, existing[kind], plan.wanted[kind]);
}

/**
 * The source's theme with its images pointing at the translation's copies of the assets and their alt
 * texts translated (units `crs_…/theme/logo/alt`, `…/theme/coverImage/alt`): a screen reader in the
 * translation's language reads the logo's description in that language too.
 */
function translatedTheme(course: CourseRow, ids: ReadonlyMap<string, string>, textOf: TextLookup, refuse: Refuse): JsonObject | null {
  if (!course.theme) return null;
  const theme = remapIds(course.theme, ids) as JsonObject;
  for (const field of themeImageFields) {
    const alt = themeImageAlt(course.theme, field);
    if (alt.trim() === "") continue;
    const unitId = `${course.id}/theme/${field}/alt`;
    const text = textOf(unitId, alt);
    if (text.length > 300) refuse(unitId, `is too long: alt text has at most 300 characters (it has ${text.length})`);
    if (text.trim() === "") refuse(unitId, "must not be empty (alt text)");
    theme[field] = { ...(theme[field] as JsonObject), alt: text };
  }
  // The translation's own logo or cover (a media unit's target) replaces its copy of the source's.
  for (const slot of themeAssetSlots(course.theme)) {
    const replacement = textOf(`${course.id}/${slot.path}`, "");
    if (replacement !== "") setBlockText(theme, slot.path.slice("theme/".length), replacement);
  }
  return theme;
}

/** A lesson's banner in the translation: its asset the translation's copy, its alt text translated (unit `les_…/banner/alt`). */
function translatedBanner(row: LessonRow, ids: ReadonlyMap<string, string>, textOf: TextLookup, refuse: Refuse): LessonBannerRow {
  const banner = remapIds(row.banner as unknown as JsonObject, ids) as unknown as LessonBannerRow;
  const alt = lessonBannerAlt(row);
  if (alt.trim() === "") return banner;
  const unitId = `${row.id}/banner/alt`;
  const text = textOf(unitId, alt);
  if (text.length > 1_000) refuse(unitId, `is too long: alt text has at most 1000 characters (it has ${text.length})`);
  if (text.trim() === "") refuse(unitId, "must not be empty (alt text)");
  return { ...banner, alt: text };
}

/** The translation's copy of a source block: IDs mapped, texts translated; exported for its tests. */
export function translatedBlock(
  row: BlockRow,
  translationId: string,
  mapped: (id: string) => string,
  ids: ReadonlyMap<string, string>,
  textOf: TextLookup,
  refuse: Refuse = refuser(undefined),
  languages?: { source: string; translation: string },
): BlockRow {
  const body = remapIds(row.body, ids) as JsonObject;
  const texts = blockTexts(row.type, row.body);
  for (const text of texts) setBlockText(body, text.path, textOf(`${row.id}/${text.path}`, text.text));
  if (languages) placeMedia(row, body, textOf, languages);
  if (row.type === "sorting") relinkSortingItems(row, body, textOf);
  if (texts.some((text) => textOf(`${row.id}/${text.path}`, text.text) !== text.text)) checkStillValid(row, body, refuse);
  return { ...row, id: mapped(row.id), courseId: translationId, lessonId: mapped(row.lessonId), body };
}

/**
 * The translation's own media (media units' targets) replace its copies of the source's assets. Caption
 * tracks are labelled truly: the source's captions keep the source's language, the translation's own
 * captions are in the translation's language.
 */
function placeMedia(row: BlockRow, body: JsonObject, textOf: TextLookup, languages: { source: string; translation: string }): void {
  const captions = body.captions;
  if (captions !== null && typeof captions === "object" && !Array.isArray(captions) && captions.language === undefined) captions.language = languages.source;
  const sourceCaptions = captions !== null && typeof captions === "object" && !Array.isArray(captions) ? { ...captions } : null;
  // The main captions last: replacing them moves the source's into captionTracks, after the other slots are placed.
  const slots = blockAssetSlots(row.type, row.body).sort((left, right) => Number(left.path === "captions/assetId") - Number(right.path === "captions/assetId"));
  for (const slot of slots) {
    const replacement = textOf(`${row.id}/${slot.path}`, "");
    if (replacement === "") continue;
    setBlockText(body, slot.path, replacement);
    if (slot.path !== "captions/assetId") continue;
    // The translation's own captions lead, in its language; the source's stay selectable, labelled as theirs.
    setBlockText(body, "captions/language", languages.translation);
    const tracks = Array.isArray(body.captionTracks) ? body.captionTracks : [];
    const seen = new Set([languages.translation.toLowerCase()]);
    body.captionTracks = [...(sourceCaptions ? [sourceCaptions] : []), ...tracks].filter((track) => {
      const language = track !== null && typeof track === "object" && !Array.isArray(track) && typeof track.language === "string" ? track.language.toLowerCase() : "";
      if (seen.has(language)) return false;
      seen.add(language);
      return true;
    });
  }
}

/**
 * A sorting item names its category by title, so each item's `category` takes the same translation as
 * the category title it names (unit `blk_…/categories/n/title`): the translated block stays valid
 * and items stay in their categories. A category the source does not have is left as it is.
 */
function relinkSortingItems(row: BlockRow, body: JsonObject, textOf: TextLookup): void {
  const categories = Array.isArray(row.body.categories) ? row.body.categories : [];
  const translatedTitle = new Map<string, string>();
  categories.forEach((category, index) => {
    const title = category !== null && typeof category === "object" && !Array.isArray(category) ? category.title : undefined;
    if (typeof title === "string" && !translatedTitle.has(title)) translatedTitle.set(title, title.trim() === "" ? title : textOf(`${row.id}/categories/${index}/title`, title));
  });
  const items = Array.isArray(body.items) ? body.items : [];
  for (const item of items) {
    if (item === null || typeof item !== "object" || Array.isArray(item) || typeof item.category !== "string") continue;
    const title = translatedTitle.get(item.category);
    if (title !== undefined) item.category = title;
  }
}

/**
 * A translated block must pass the same checks as the source (lengths, {{n}} blanks, distinct matching
 * items): the player renders only valid blocks. Checked only when the source block itself is valid.
 */
function checkStillValid(row: BlockRow, translatedBody: JsonObject, refuse: Refuse): void {
  const translated = v.safeParse(blockSchema, { type: row.type, ...translatedBody });
  if (translated.success || !v.safeParse(blockSchema, { type: row.type, ...row.body }).success) return;
  const seen = new Set<string>();
  for (const issue of translated.issues) {
    const path = (issue.path ?? []).map((item) => String((item as { key?: unknown }).key)).join("/");
    const unitId = `${row.id}/${path}`;
    if (seen.has(unitId)) continue;
    seen.add(unitId);
    refuse(unitId, `breaks its block's rules: the translated text ${issue.message}`);
  }
}

/** Titles keep the source's length limit in every language. */
function checkedTitle(unitId: string, text: string, refuse: Refuse): string {
  if (text.length > limits.titleCharacters) refuse(unitId, `is too long: a title has at most ${limits.titleCharacters} characters (it has ${text.length})`);
  return text;
}

/** Replaces every string that is a source ID (asset, objective) with the translation's ID; a copy. */
function remapIds(value: JsonValue, ids: ReadonlyMap<string, string>): JsonValue {
  if (typeof value === "string") return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => remapIds(item, ids));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, remapIds(item, ids)]));
  return value;
}

async function removeMissing<K extends OrderedKind>(edit: CourseEdit, kind: K, existing: EntityRows[K][], wanted: EntityRows[K][]): Promise<void> {
  const keep = new Set(wanted.map((row) => row.id));
  for (const row of existing) if (!keep.has(row.id)) await edit.remove(kind as EntityKind, row);
}

async function upsert<K extends OrderedKind>(edit: CourseEdit, kind: K, existing: EntityRows[K][], wanted: EntityRows[K][]): Promise<void> {
  const byId = new Map(existing.map((row) => [row.id, row]));
  for (const row of wanted) {
    const current = byId.get(row.id);
    if (current) await edit.update(kind, current, row);
    else await edit.insert(kind, row);
  }
}
