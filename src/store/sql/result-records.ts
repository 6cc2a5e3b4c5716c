/**
 * Learners' results for both stores (issue 43): one row per xAPI statement kept, by course and statement
 * id, so the same statement brought in twice counts once. The learner is a salted hash already (the
 * statements reader replaced the actor); a voided statement's row stays, marked, so bringing it in again
 * does not revive it. Rows go with their course, on `delete_results`, and after the retention period.
 */
import type { ResultRow } from "../types.ts";
import type { SqlRecord } from "./statements.ts";
import { SqlUploadRecords } from "./upload-records.ts";

export const resultTablesSql = `
  CREATE TABLE course_results (
    course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
    statement_id TEXT NOT NULL, learner TEXT NOT NULL, verb TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
    registration TEXT, attempt INTEGER, course_version INTEGER, occurred_at TEXT NOT NULL, result TEXT,
    voided INTEGER NOT NULL DEFAULT 0, imported_at TEXT NOT NULL,
    PRIMARY KEY (course_id, statement_id)
  );
  CREATE INDEX course_results_by_import ON course_results (imported_at);
`;

const columns = "course_id, statement_id, learner, verb, kind, target, registration, attempt, course_version, occurred_at, result, voided, imported_at";
const rowsPerStatement = 200;

function resultFromRecord(record: SqlRecord): ResultRow {
  const number = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
  return {
    courseId: String(record.course_id),
    statementId: String(record.statement_id),
    learner: String(record.learner),
    verb: String(record.verb),
    kind: String(record.kind) as ResultRow["kind"],
    target: String(record.target),
    registration: record.registration === null || record.registration === undefined ? null : String(record.registration),
    attempt: number(record.attempt),
    courseVersion: number(record.course_version),
    timestamp: String(record.occurred_at),
    result: record.result === null || record.result === undefined ? null : (JSON.parse(String(record.result)) as ResultRow["result"]),
    importedAt: String(record.imported_at),
  };
}

export abstract class SqlResultRecords extends SqlUploadRecords {
  /** Inserts the rows not stored yet (by statement id); returns how many were new. */
  async putResults(rows: readonly ResultRow[]): Promise<number> {
    let added = 0;
    const integer = this.dialect.integer;
    for (let start = 0; start < rows.length; start += rowsPerStatement) {
      const batch = rows.slice(start, start + rowsPerStatement);
      const values = batch.map(() => `(?, ?, ?, ?, ?, ?, ?, ${integer}, ${integer}, ?, ?, 0, ?)`).join(", ");
      const bindings = batch.flatMap((row) => [
        row.courseId, row.statementId, row.learner, row.verb, row.kind, row.target, row.registration, row.attempt, row.courseVersion, row.timestamp,
        row.result === null ? null : JSON.stringify(row.result), row.importedAt,
      ]);
      added += await this.run(`INSERT INTO course_results (${columns}) VALUES ${values} ON CONFLICT (course_id, statement_id) DO NOTHING`, bindings);
    }
    return added;
  }

  /** Marks the statements voided; one not stored yet is remembered as voided, so it never counts. Returns how many counted before. */
  async voidResults(courseId: string, statementIds: readonly string[], importedAt: string): Promise<number> {
    let voided = 0;
    for (let start = 0; start < statementIds.length; start += rowsPerStatement) {
      const batch = statementIds.slice(start, start + rowsPerStatement);
      voided += await this.run(`UPDATE course_results SET voided = 1 WHERE course_id = ? AND voided = 0 AND statement_id IN (${batch.map(() => "?").join(", ")})`, [courseId, ...batch]);
      const values = batch.map(() => "(?, ?, '', 'voided', 'course', '', NULL, NULL, NULL, ?, NULL, 1, ?)").join(", ");
      await this.run(`INSERT INTO course_results (${columns}) VALUES ${values} ON CONFLICT (course_id, statement_id) DO NOTHING`, batch.flatMap((id) => [courseId, id, importedAt, importedAt]));
    }
    return voided;
  }

  /** The course's results that count (not voided), oldest first. */
  async listResults(courseId: string): Promise<ResultRow[]> {
    return (await this.all(`SELECT ${columns} FROM course_results WHERE course_id = ? AND voided = 0 ORDER BY occurred_at, statement_id`, [courseId])).map(resultFromRecord);
  }

  async countResults(courseId: string): Promise<number> {
    const record = await this.get("SELECT COUNT(*) AS n FROM course_results WHERE course_id = ? AND voided = 0", [courseId]);
    return Number(record?.n ?? 0);
  }

  /** Removes every result of the course; returns how many counted. */
  async deleteResults(courseId: string): Promise<number> {
    const counted = await this.countResults(courseId);
    await this.run("DELETE FROM course_results WHERE course_id = ?", [courseId]);
    return counted;
  }

  /** Drops the results brought in before `cutoff` (the retention period); returns how many. */
  async dropResultsBefore(cutoff: string): Promise<number> {
    return this.run("DELETE FROM course_results WHERE imported_at < ?", [cutoff]);
  }
}
