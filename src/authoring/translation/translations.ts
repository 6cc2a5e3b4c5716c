/**
 * The translation use cases behind the `translation` toolset: create a translation, read and write its
 * units, and the counts get_course and validate_course report. A unit is untranslated until it has a
 * target, translated while the source text still hashes to what the target was made from, outdated
 * once the source text changed. Every write re-mirrors the source's structure (mirror.ts), so
 * structure edits made to the source arrive with the next import or set_translation_units.
 */
import type { AssetRow, CourseRow, TranslationRow, TranslationUnitRow } from "../../store/types.ts";
import { timestamp, type AuthoringSession } from "../context.ts";
import { CourseEdit, beginCourseEdit, commitCourseEdit } from "../course-edit.ts";
import { CourseAuthoringError } from "../errors.ts";
import { loadCourseRows } from "../read-model.ts";
import { roleOnCourse } from "../access.ts";
import { assetIdsOfRows, assetsUsedBy, usableAsset } from "../asset-access.ts";
import { missingTranslation, openSource, openTranslation } from "./access.ts";
import { idMap, mirrorSource, type TextLookup } from "./mirror.ts";
import { boundedChanges, describeChanges, pendingSourceChanges, type SourceChanges } from "./source-changes.ts";
import { sourceHash, sourceUnits, type SourceUnit } from "./units.ts";
import { UnitProblems } from "./unit-problems.ts";
import { fitsKind, kindWords } from "./asset-units.ts";

export const unitStates = ["untranslated", "translated", "outdated"] as const;
export type UnitState = (typeof unitStates)[number];

export interface UnitView extends SourceUnit {
  target: string | null;
  state: UnitState;
  /** What a translator wrote about the unit (an XLIFF note, a PO comment), kept for the next export. */
  translatorNote?: string;
}

export interface TranslationCounts {
  units: number;
  translated: number;
  untranslated: number;
  outdated: number;
  /** Media units whose replacement was made for a source asset the source has since swapped (listed with onlyOutdated). */
  outdatedMedia: number;
}

/** The link from a translation to its source: the source's ID and language, and the source version the translation follows. */
export interface TranslationOf {
  courseId: string;
  language: string;
  sourceVersion: number;
  /** The source's version now; when greater than sourceVersion the translation has not taken the latest edits yet. */
  currentSourceVersion: number;
  /** False when the source changed in ways the translation has not taken (listed in sourceChanges). */
  upToDate: boolean;
  /** What the source changed that the translation has not taken; the next set_translation_units (units: [] is enough) or import_translation takes it. */
  sourceChanges?: SourceChanges;
}

/** A translation (its own ID and language), its link to the source and its unit counts. */
export interface TranslationSummary extends TranslationCounts {
  courseId: string;
  language: string;
  translationOf: TranslationOf;
}

/** The source's units with their hashes, and the translation's stored units by ID. */
export interface UnitTable {
  source: CourseRow;
  units: (SourceUnit & { hash: string })[];
  stored: Map<string, TranslationUnitRow>;
  notes: Map<string, string>;
}

export async function loadUnitTable(session: AuthoringSession, source: CourseRow, translationId: string | undefined): Promise<UnitTable> {
  const rows = await loadCourseRows(session.tx, source);
  const assets = await assetsUsedBy(session.tx, source.id, assetIdsOfRows(rows));
  const units = sourceUnits(rows, new Map(assets.map((asset) => [asset.id, asset])));
  // A media unit's hash covers the asset's content too: a swapped source asset outdates the translation's replacement.
  const hashes = await Promise.all(units.map((unit) => sourceHash(unit.identity === undefined ? unit.source : `${unit.source}\n${unit.identity}`)));
  const stored = translationId ? await session.tx.listTranslationUnits(translationId) : [];
  const notes = translationId ? await session.tx.listTranslationNotes(translationId) : [];
  return {
    source,
    units: units.map(({ identity: _identity, ...unit }, index) => ({ ...unit, hash: hashes[index] as string })),
    stored: new Map(stored.map((row) => [row.unitId, row])),
    notes: new Map(notes.map((row) => [row.unitId, row.note])),
  };
}

export function unitState(unit: { hash: string }, stored: TranslationUnitRow | undefined): UnitState {
  if (!stored) return "untranslated";
  return stored.sourceHash === unit.hash ? "translated" : "outdated";
}

export function unitViews(table: UnitTable): UnitView[] {
  return table.units.map(({ hash, ...unit }) => {
    const stored = table.stored.get(unit.id);
    const note = table.notes.get(unit.id);
    return { ...unit, target: stored?.target ?? null, state: unitState({ hash }, stored), ...(note ? { translatorNote: note } : {}) };
  });
}

export function countUnits(table: UnitTable): TranslationCounts {
  const counts: TranslationCounts = { units: table.units.length, translated: 0, untranslated: 0, outdated: 0, outdatedMedia: 0 };
  // Media units are not text to translate: without a target the translation keeps the source's asset.
  for (const unit of table.units) {
    const state = unitState(unit, table.stored.get(unit.id));
    if (!unit.asset) counts[state] += 1;
    else if (state === "outdated") counts.outdatedMedia += 1;
  }
  counts.units -= table.units.filter((unit) => unit.asset).length;
  return counts;
}

/** The link as the translation's reads give it; the changes are looked for only when the source moved on since the last sync. */
export async function sourceLink(session: AuthoringSession, link: TranslationRow, table: UnitTable): Promise<TranslationOf> {
  const { source } = table;
  const base = { courseId: source.id, language: source.language, sourceVersion: link.sourceVersion, currentSourceVersion: source.version };
  const translation = link.sourceVersion < source.version ? await session.tx.find("course", link.courseId) : undefined;
  if (!translation) return { ...base, upToDate: true };
  const changes = await pendingSourceChanges(session.tx, translation, await loadCourseRows(session.tx, source), textLookup(table));
  return changes.length === 0 ? { ...base, upToDate: true } : { ...base, upToDate: false, sourceChanges: boundedChanges(changes) };
}

/** For summaries: " Behind source version N: 3 source change(s) not taken yet: …; take them with set_translation_units { units: [] }." */
export function behindLine(link: TranslationOf): string {
  if (link.upToDate || !link.sourceChanges) return "";
  return ` It follows source version ${link.sourceVersion} of ${link.currentSourceVersion}: ${describeChanges(link.sourceChanges)}; take them with set_translation_units { units: [] } (or the next import).`;
}

/** A unit's translated text, or the source's while it has none. */
function textLookup(table: UnitTable): TextLookup {
  return (id, text) => table.stored.get(id)?.target ?? text;
}

async function summary(session: AuthoringSession, link: TranslationRow, table: UnitTable): Promise<TranslationSummary> {
  return { courseId: link.courseId, language: link.language, translationOf: await sourceLink(session, link, table), ...countUnits(table) };
}

/** create_translation: a new course the caller owns, mirroring the source, every unit untranslated. */
export async function createTranslation(session: AuthoringSession, args: { courseId: string; language: string }): Promise<TranslationSummary> {
  const { source, link } = await openSource(session, args.courseId, args.language, "copy");
  if (link) {
    throw new CourseAuthoringError(
      "conflict",
      `language: course ${source.id} already has a ${link.language} translation (course ${link.courseId}). Work on it with get_translation_units or import_translation; its owner can share it with you.`,
      { field: "language", translationCourseId: link.courseId },
    );
  }
  const { edit, table, link: created } = await startTranslation(session, source, args.language);
  await commitCourseEdit(edit, "create_translation", `Created the ${args.language} translation of course ${source.id}`);
  return summary(session, created, table);
}

/** A new translation course in an open edit, mirrored from the source, not yet committed. */
async function startTranslation(session: AuthoringSession, source: CourseRow, language: string): Promise<{ edit: CourseEdit; table: UnitTable; link: TranslationRow }> {
  const now = timestamp(session);
  const row: CourseRow = { ...source, id: session.newId("course"), ownerSub: session.actor.sub, language, status: "draft", version: 1, createdAt: now, updatedAt: now };
  const edit = new CourseEdit(session, row, "owner", true);
  await edit.insert("course", row);
  const link: TranslationRow = { courseId: row.id, sourceCourseId: source.id, language, sourceVersion: source.version, createdAt: now };
  await session.tx.putTranslation(link);
  const table = await loadUnitTable(session, source, undefined);
  await mirrorSource(edit, await loadCourseRows(session.tx, source), language, (_id, text) => text);
  return { edit, table, link };
}

/** get_translation_units: the units with their state; `onlyOutdated` keeps the outdated ones. */
export async function readTranslationUnits(
  session: AuthoringSession,
  args: { courseId: string; language: string; onlyOutdated?: boolean | undefined },
): Promise<{ translation: TranslationSummary; units: UnitView[] }> {
  const opened = await openTranslation(session, args.courseId, args.language, "read");
  const table = await loadUnitTable(session, opened.source, opened.translation.id);
  const views = unitViews(table);
  return { translation: await summary(session, opened.link, table), units: args.onlyOutdated ? views.filter((unit) => unit.state === "outdated") : views };
}

/** What an export of units needs: the units, and the translation when it exists (XLIFF of a source alone is allowed with copy). */
export async function unitsForExport(
  session: AuthoringSession,
  args: { courseId: string; language: string },
): Promise<{ source: CourseRow; link: TranslationRow | undefined; units: UnitView[] }> {
  const { source, link } = await openSource(session, args.courseId, args.language, "read");
  if (link) {
    const opened = await openTranslation(session, source.id, args.language, "read");
    return { source, link, units: unitViews(await loadUnitTable(session, source, opened.translation.id)) };
  }
  await openSource(session, args.courseId, args.language, "copy");
  return { source, link: undefined, units: unitViews(await loadUnitTable(session, source, undefined)) };
}

export interface ApplyResult {
  translation: TranslationSummary;
  /** What this write took from the source besides the units (order, blocks, settings, media, theme). */
  takenFromSource: SourceChanges;
  applied: number;
  unchanged: number;
  version: number;
  created: boolean;
}

/**
 * Writes targets as one revision of the translation, created when missing (which needs copy on the
 * source), and re-mirrors the source. Every requested unit ID must be a current unit of the source;
 * `targets` then checks and builds the new Markdown per unit. Every bad unit is collected (unknown ID,
 * codes, blanks, lengths, block rules) and the write is refused naming them all: nothing is written.
 */
export async function applyTranslationUnits(
  session: AuthoringSession,
  args: { courseId: string; language: string },
  request: {
    field: string;
    /** Where unit `index` of unitIds was given (`units[3].id`, or `xliff`). */
    unitField: (index: number) => string;
    /** What to do about refused units, in one sentence. */
    advice: string;
    unitIds: readonly string[];
    /** The checked Markdown of each good unit; bad ones go to `problems` (the write is then refused whole). */
    targets: (table: UnitTable, problems: UnitProblems) => ReadonlyMap<string, string> | Promise<ReadonlyMap<string, string>>;
    /** Translators' notes by unit ID, kept beside the targets. */
    notes?: ReadonlyMap<string, string>;
  },
  tool: "import_translation" | "set_translation_units",
): Promise<ApplyResult> {
  const { source, link } = await openSource(session, args.courseId, args.language, "read");
  let edit: CourseEdit;
  let translationLink: TranslationRow;
  let created = false;
  if (link) {
    const opened = await openTranslation(session, source.id, args.language, "edit");
    edit = await beginCourseEdit(session, opened.translation.id, undefined, "edit");
    translationLink = link;
  } else {
    await openSource(session, args.courseId, args.language, "copy");
    const started = await startTranslation(session, source, args.language);
    edit = started.edit;
    translationLink = started.link;
    created = true;
  }
  const table = await loadUnitTable(session, source, translationLink.courseId);
  const known = new Map(table.units.map((unit) => [unit.id, unit]));
  const problems = new UnitProblems(request.field);
  request.unitIds.forEach((id, index) => {
    if (!known.has(id)) problems.add({ unitId: id, field: request.unitField(index), reason: `is not a unit of course ${source.id} (it may have been removed from the source; read the current units with get_translation_units)` });
  });
  // Measured before this write's targets, so it lists what the source changed, not the new translations.
  const inStep = created || translationLink.sourceVersion >= source.version;
  const taken = inStep ? [] : await pendingSourceChanges(session.tx, edit.course, await loadCourseRows(session.tx, source), textLookup(table));
  const targets = await checkAssetTargets(session, translationLink.courseId, known, await request.targets(table, problems), problems);
  let applied = 0;
  let unchanged = 0;
  const writes: TranslationUnitRow[] = [];
  for (const [id, target] of targets) {
    const unit = known.get(id) as SourceUnit & { hash: string };
    const stored = table.stored.get(id);
    if (stored && stored.target === target && stored.sourceHash === unit.hash) {
      unchanged += 1;
      continue;
    }
    const row = { courseId: translationLink.courseId, unitId: id, target, sourceHash: unit.hash };
    writes.push(row);
    table.stored.set(id, row);
    applied += 1;
  }
  await session.tx.putTranslationUnits(writes);
  const notes = [...(request.notes ?? [])].filter(([id, note]) => known.has(id) && table.notes.get(id) !== note);
  await session.tx.putTranslationNotes(notes.map(([unitId, note]) => ({ courseId: translationLink.courseId, unitId, note })));
  // Units of text the source no longer has stay stored (not counted, not exported): nothing a translator wrote is lost, and a restored source block finds its translation again.
  await mirrorSource(edit, await loadCourseRows(session.tx, source), translationLink.language, (id, text) => table.stored.get(id)?.target ?? text, problems);
  problems.throwIfAny(request.advice);
  const nextLink = { ...translationLink, sourceVersion: source.version };
  await session.tx.putTranslation(nextLink);
  const committed = await commitCourseEdit(edit, tool, `${tool === "import_translation" ? "Imported" : "Set"} ${applied} translated unit(s) from course ${source.id}`);
  return { translation: await summary(session, nextLink, table), takenFromSource: boundedChanges(taken), applied, unchanged, version: committed.version, created };
}

/** What a translation's reads (get_course, validate_course) say of its source: the link, with the unit counts. */
export type TranslationOfStatus = TranslationOf & TranslationCounts;

/** What a source's get_course says of each translation: its ID, language, the source version it follows and its counts. */
export type TranslationListing = TranslationCounts & { courseId: string; language: string; sourceVersion: number };

/**
 * Media units: a target equal to the source text (a CAT tool's copy) keeps the source's asset; any
 * other must be an asset of the translation whose type fits the field. Bad ones go to `problems`.
 */
async function checkAssetTargets(
  session: AuthoringSession,
  translationId: string,
  known: ReadonlyMap<string, SourceUnit>,
  targets: ReadonlyMap<string, string>,
  problems: UnitProblems,
): Promise<Map<string, string>> {
  const checked = new Map<string, string>();
  for (const [id, target] of targets) {
    const unit = known.get(id);
    if (!unit?.asset) {
      checked.set(id, target);
      continue;
    }
    const assetId = target.trim();
    if (assetId === unit.source.trim()) continue;
    const asset = /^ast_[0-9a-z]+$/.test(assetId) ? await session.tx.findAsset(assetId) : undefined;
    if (!asset || !(await mayUseInTranslation(session, asset, translationId))) {
      problems.add({ unitId: id, field: problems.field, reason: `names "${assetId.slice(0, 60)}", which is not an asset of the translation ${translationId} nor one of your own uploads: upload the file to the translation (upload_asset, or the person uses the files view opened by list_assets) and give its ID` });
    } else if (!fitsKind(asset.mediaType, unit.asset)) {
      problems.add({ unitId: id, field: problems.field, reason: `names asset ${asset.id}, which is ${asset.mediaType}; this field needs ${kindWords(unit.asset)}` });
    } else checked.set(id, asset.id);
  }
  return checked;
}

/** The translation's own asset, or one the person may use in it (asset-access.ts): their own upload, or one the translation already uses. */
async function mayUseInTranslation(session: AuthoringSession, asset: AssetRow, translationId: string): Promise<boolean> {
  if (asset.courseId === translationId) return true;
  const translation = await session.tx.find("course", translationId);
  if (!translation) return false;
  return usableAsset(session, translation, asset.id, "targets").then(
    () => true,
    () => false,
  );
}

/** For get_course and validate_course: the translations of a source, or the link of a translation to its source, with counts. */
export async function translationStatus(
  session: AuthoringSession,
  course: CourseRow,
): Promise<{ translationOf?: TranslationOfStatus; translations?: TranslationListing[] }> {
  const links = await session.tx.listTranslationLinks(course.id);
  if (links.length === 0) return {};
  const own = links.find((link) => link.courseId === course.id);
  if (own) {
    const source = await session.tx.find("course", own.sourceCourseId);
    if (!source) return {};
    const table = await loadUnitTable(session, source, course.id);
    return { translationOf: { ...(await sourceLink(session, own, table)), ...countUnits(table) } };
  }
  const translations: TranslationListing[] = [];
  for (const link of links) {
    const translation = await session.tx.find("course", link.courseId);
    // Another user's translation of a shared course stays unseen, as their courses do.
    if (!translation || (await roleOnCourse(session, translation)) === null) continue;
    translations.push({ courseId: link.courseId, language: link.language, sourceVersion: link.sourceVersion, ...countUnits(await loadUnitTable(session, course, link.courseId)) });
  }
  return { translations };
}

export { missingTranslation };

/**
 * For a translation: the blocks (by the translation's IDs) whose every text is still the source's, and
 * the source language, so a renderer can mark them `lang`. Null for a course that is not a translation.
 */
export async function untranslatedBlocks(
  session: AuthoringSession,
  course: CourseRow,
): Promise<{ sourceLanguage: string; blockIds: Set<string>; translationOf: TranslationOf; outdated: number; outdatedMedia: number } | null> {
  const link = (await session.tx.listTranslationLinks(course.id)).find((candidate) => candidate.courseId === course.id);
  const source = link ? await session.tx.find("course", link.sourceCourseId) : undefined;
  if (!link || !source) return null;
  const table = await loadUnitTable(session, source, course.id);
  const translatedBlocks = new Set<string>();
  const blocks = new Set<string>();
  for (const unit of table.units) {
    if (!unit.id.startsWith("blk_") || unit.asset) continue;
    const blockId = unit.id.slice(0, unit.id.indexOf("/"));
    blocks.add(blockId);
    if (table.stored.has(unit.id)) translatedBlocks.add(blockId);
  }
  const untouched = [...blocks].filter((id) => !translatedBlocks.has(id));
  const ids = await idMap(course.id, untouched);
  const counts = countUnits(table);
  return {
    sourceLanguage: source.language,
    blockIds: new Set(untouched.map((id) => ids.get(id) as string)),
    translationOf: await sourceLink(session, link, table),
    outdated: counts.outdated,
    outdatedMedia: counts.outdatedMedia,
  };
}
