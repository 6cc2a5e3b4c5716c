/**
 * The translation use cases behind the `translation` toolset: create a translation, read and write its
 * units, and the counts get_course and validate_course report. A unit is untranslated until it has a
 * target, translated while the source text still hashes to what the target was made from, outdated
 * once the source text changed. Every write re-mirrors the source's structure (mirror.ts), so
 * structure edits made to the source arrive with the next import or set_translation_units.
 */
import type { CourseRow, TranslationRow, TranslationUnitRow } from "../../store/types.ts";
import { timestamp, type AuthoringSession } from "../context.ts";
import { CourseEdit, beginCourseEdit, commitCourseEdit } from "../course-edit.ts";
import { CourseAuthoringError } from "../errors.ts";
import { loadCourseRows } from "../read-model.ts";
import { roleOnCourse } from "../access.ts";
import { missingTranslation, openSource, openTranslation } from "./access.ts";
import { idMap, mirrorSource } from "./mirror.ts";
import { sourceHash, sourceUnits, type SourceUnit } from "./units.ts";

export const unitStates = ["untranslated", "translated", "outdated"] as const;
export type UnitState = (typeof unitStates)[number];

export interface UnitView extends SourceUnit {
  target: string | null;
  state: UnitState;
}

export interface TranslationCounts {
  units: number;
  translated: number;
  untranslated: number;
  outdated: number;
}

export interface TranslationSummary extends TranslationCounts {
  courseId: string;
  language: string;
  sourceCourseId: string;
  sourceLanguage: string;
  sourceVersion: number;
  /** The source's version now; when greater than sourceVersion the translation has not taken the latest edits yet. */
  currentSourceVersion: number;
}

/** The source's units with their hashes, and the translation's stored units by ID. */
export interface UnitTable {
  source: CourseRow;
  units: (SourceUnit & { hash: string })[];
  stored: Map<string, TranslationUnitRow>;
}

export async function loadUnitTable(session: AuthoringSession, source: CourseRow, translationId: string | undefined): Promise<UnitTable> {
  const rows = await loadCourseRows(session.tx, source);
  const units = sourceUnits(rows);
  const hashes = await Promise.all(units.map((unit) => sourceHash(unit.source)));
  const stored = translationId ? await session.tx.listTranslationUnits(translationId) : [];
  return { source, units: units.map((unit, index) => ({ ...unit, hash: hashes[index] as string })), stored: new Map(stored.map((row) => [row.unitId, row])) };
}

export function unitState(unit: { hash: string }, stored: TranslationUnitRow | undefined): UnitState {
  if (!stored) return "untranslated";
  return stored.sourceHash === unit.hash ? "translated" : "outdated";
}

export function unitViews(table: UnitTable): UnitView[] {
  return table.units.map(({ hash, ...unit }) => {
    const stored = table.stored.get(unit.id);
    return { ...unit, target: stored?.target ?? null, state: unitState({ hash }, stored) };
  });
}

export function countUnits(table: UnitTable): TranslationCounts {
  const counts: TranslationCounts = { units: table.units.length, translated: 0, untranslated: 0, outdated: 0 };
  for (const unit of table.units) counts[unitState(unit, table.stored.get(unit.id))] += 1;
  return counts;
}

function summary(link: TranslationRow, source: CourseRow, counts: TranslationCounts): TranslationSummary {
  return {
    courseId: link.courseId,
    language: link.language,
    sourceCourseId: source.id,
    sourceLanguage: source.language,
    sourceVersion: link.sourceVersion,
    currentSourceVersion: source.version,
    ...counts,
  };
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
  return summary(created, source, countUnits(table));
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
  return { translation: summary(opened.link, opened.source, countUnits(table)), units: args.onlyOutdated ? views.filter((unit) => unit.state === "outdated") : views };
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
  applied: number;
  unchanged: number;
  version: number;
  created: boolean;
}

/**
 * Writes targets as one revision of the translation, created when missing (which needs copy on the
 * source), and re-mirrors the source. Every requested unit ID must be a current unit of the source;
 * `targets` then checks and builds the new Markdown per unit (throwing writes nothing).
 */
export async function applyTranslationUnits(
  session: AuthoringSession,
  args: { courseId: string; language: string },
  request: { field: string; unitIds: readonly string[]; targets: (table: UnitTable) => ReadonlyMap<string, string> | Promise<ReadonlyMap<string, string>> },
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
  for (const id of request.unitIds) {
    if (!known.has(id)) {
      throw new CourseAuthoringError("invalid_arguments", `${request.field}: ${id} is not a unit of course ${source.id} (it may have been removed from the source); read the current units with get_translation_units or export_translation.`, {
        field: request.field,
        unitId: id,
      });
    }
  }
  const targets = await request.targets(table);
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
  const gone = [...table.stored.keys()].filter((id) => !known.has(id));
  await session.tx.removeTranslationUnits(translationLink.courseId, gone);
  for (const id of gone) table.stored.delete(id);
  await mirrorSource(edit, await loadCourseRows(session.tx, source), translationLink.language, (id, text) => table.stored.get(id)?.target ?? text);
  const nextLink = { ...translationLink, sourceVersion: source.version };
  await session.tx.putTranslation(nextLink);
  const committed = await commitCourseEdit(edit, tool, `${tool === "import_translation" ? "Imported" : "Set"} ${applied} translated unit(s) from course ${source.id}`);
  return { translation: summary(nextLink, source, countUnits(table)), applied, unchanged, version: committed.version, created };
}

/** For get_course and validate_course: the translations of a source, or the link of a translation, with counts. */
export async function translationStatus(
  session: AuthoringSession,
  course: CourseRow,
): Promise<{ translationOf?: TranslationSummary; translations?: TranslationSummary[] }> {
  const links = await session.tx.listTranslationLinks(course.id);
  if (links.length === 0) return {};
  const own = links.find((link) => link.courseId === course.id);
  if (own) {
    const source = await session.tx.find("course", own.sourceCourseId);
    if (!source) return {};
    return { translationOf: summary(own, source, countUnits(await loadUnitTable(session, source, course.id))) };
  }
  const translations: TranslationSummary[] = [];
  for (const link of links) {
    const translation = await session.tx.find("course", link.courseId);
    // Another user's translation of a shared course stays unseen, as their courses do.
    if (!translation || (await roleOnCourse(session, translation)) === null) continue;
    translations.push(summary(link, course, countUnits(await loadUnitTable(session, course, link.courseId))));
  }
  return { translations };
}

export { missingTranslation };

/**
 * For a translation: the blocks (by the translation's IDs) whose every text is still the source's, and
 * the source language, so a renderer can mark them `lang`. Null for a course that is not a translation.
 */
export async function untranslatedBlocks(session: AuthoringSession, course: CourseRow): Promise<{ sourceLanguage: string; blockIds: Set<string> } | null> {
  const link = (await session.tx.listTranslationLinks(course.id)).find((candidate) => candidate.courseId === course.id);
  const source = link ? await session.tx.find("course", link.sourceCourseId) : undefined;
  if (!link || !source) return null;
  const table = await loadUnitTable(session, source, course.id);
  const translatedBlocks = new Set<string>();
  const blocks = new Set<string>();
  for (const unit of table.units) {
    if (!unit.id.startsWith("blk_")) continue;
    const blockId = unit.id.slice(0, unit.id.indexOf("/"));
    blocks.add(blockId);
    if (table.stored.has(unit.id)) translatedBlocks.add(blockId);
  }
  const untouched = [...blocks].filter((id) => !translatedBlocks.has(id));
  const ids = await idMap(course.id, untouched);
  return { sourceLanguage: source.language, blockIds: new Set(untouched.map((id) => ids.get(id) as string)) };
}
