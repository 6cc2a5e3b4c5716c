/**
 * The SQL of translation links and units, shared by the SQLite and PostgreSQL stores: the statements
 * are portable (`?` placeholders, ON CONFLICT upserts), so each store only runs them with its own
 * helpers. Units are written in multi-row statements so a 10,000-unit import is a few round trips.
 */
import type { TranslationNoteRow, TranslationRow, TranslationUnitRow } from "../types.ts";

type SqlRecord = Record<string, unknown>;

export const translationStatements = {
  links: "SELECT * FROM translations WHERE course_id = ? OR source_course_id = ? ORDER BY language, course_id",
  putLink: `INSERT INTO translations (course_id, source_course_id, language, source_version, created_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (course_id) DO UPDATE SET source_version = excluded.source_version`,
  units: "SELECT * FROM translation_units WHERE course_id = ? ORDER BY unit_id",
  notes: "SELECT * FROM translation_notes WHERE course_id = ? ORDER BY unit_id",
} as const;

export function putNotesStatement(count: number): string {
  const values = Array.from({ length: count }, () => "(?, ?, ?)").join(", ");
  return `INSERT INTO translation_notes (course_id, unit_id, note) VALUES ${values}
    ON CONFLICT (course_id, unit_id) DO UPDATE SET note = excluded.note`;
}

export function removeNotesStatement(count: number): string {
  return `DELETE FROM translation_notes WHERE course_id = ? AND unit_id IN (${Array.from({ length: count }, () => "?").join(", ")})`;
}

export function noteFromRecord(record: SqlRecord): TranslationNoteRow {
  return { courseId: String(record.course_id), unitId: String(record.unit_id), note: String(record.note) };
}

/** Translators' notes per unit, beside the units (a note may come before any target). A migration: never edit. */
export const translationNotesTableSql = `
  CREATE TABLE translation_notes (
    course_id TEXT NOT NULL REFERENCES translations (course_id) ON DELETE CASCADE,
    unit_id TEXT NOT NULL,
    note TEXT NOT NULL,
    PRIMARY KEY (course_id, unit_id)
  );
`;

/** Rows per multi-row statement: 4 parameters each stays far below both databases' parameter limits. */
export const unitBatchSize = 500;

export function putUnitsStatement(count: number): string {
  const values = Array.from({ length: count }, () => "(?, ?, ?, ?)").join(", ");
  return `INSERT INTO translation_units (course_id, unit_id, target, source_hash) VALUES ${values}
    ON CONFLICT (course_id, unit_id) DO UPDATE SET target = excluded.target, source_hash = excluded.source_hash`;
}

export function putUnitsBindings(rows: readonly TranslationUnitRow[]): string[] {
  return rows.flatMap((row) => [row.courseId, row.unitId, row.target, row.sourceHash]);
}

export function removeUnitsStatement(count: number): string {
  return `DELETE FROM translation_units WHERE course_id = ? AND unit_id IN (${Array.from({ length: count }, () => "?").join(", ")})`;
}

/** Splits `items` into runs of at most `size`, for batched statements. */
export function batches<T>(items: readonly T[], size = unitBatchSize): T[][] {
  const runs: T[][] = [];
  for (let start = 0; start < items.length; start += size) runs.push(items.slice(start, start + size));
  return runs;
}

export function translationFromRecord(record: SqlRecord): TranslationRow {
  return {
    courseId: String(record.course_id),
    sourceCourseId: String(record.source_course_id),
    language: String(record.language),
    sourceVersion: Number(record.source_version),
    createdAt: String(record.created_at),
  };
}

export function unitFromRecord(record: SqlRecord): TranslationUnitRow {
  return { courseId: String(record.course_id), unitId: String(record.unit_id), target: String(record.target), sourceHash: String(record.source_hash) };
}

/** The tables, the same DDL for both databases (TEXT and INTEGER only). A migration: never edit, add a new one. */
export const translationTablesSql = `
  CREATE TABLE translations (
    course_id TEXT PRIMARY KEY REFERENCES courses (id) ON DELETE CASCADE,
    source_course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
    language TEXT NOT NULL,
    source_version INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX translations_by_source ON translations (source_course_id, language);
  CREATE TABLE translation_units (
    course_id TEXT NOT NULL REFERENCES translations (course_id) ON DELETE CASCADE,
    unit_id TEXT NOT NULL,
    target TEXT NOT NULL,
    source_hash TEXT NOT NULL,
    PRIMARY KEY (course_id, unit_id)
  );
`;
