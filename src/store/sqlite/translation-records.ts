/**
 * The SQLite statements for translations: links between a translation and its source, and the
 * translated units. `SqliteTransaction` extends this class, so they run inside the tool call's transaction.
 */
import type { TranslationRow, TranslationUnitRow } from "../types.ts";
import {
  batches,
  putUnitsBindings,
  putUnitsStatement,
  removeUnitsStatement,
  translationFromRecord,
  translationStatements,
  unitFromRecord,
} from "../sql/translation-statements.ts";
import { SqliteReviewRecords } from "./review-records.ts";

export class SqliteTranslationRecords extends SqliteReviewRecords {
  async listTranslationLinks(courseId: string): Promise<TranslationRow[]> {
    return this.all(translationStatements.links, [courseId, courseId]).map(translationFromRecord);
  }

  async putTranslation(row: TranslationRow): Promise<void> {
    this.run(translationStatements.putLink, [row.courseId, row.sourceCourseId, row.language, row.sourceVersion, row.createdAt]);
  }

  async listTranslationUnits(courseId: string): Promise<TranslationUnitRow[]> {
    return this.all(translationStatements.units, [courseId]).map(unitFromRecord);
  }

  async putTranslationUnits(rows: readonly TranslationUnitRow[]): Promise<void> {
    for (const batch of batches(rows)) this.run(putUnitsStatement(batch.length), putUnitsBindings(batch));
  }

  async removeTranslationUnits(courseId: string, unitIds: readonly string[]): Promise<void> {
    for (const batch of batches(unitIds)) this.run(removeUnitsStatement(batch.length), [courseId, ...batch]);
  }
}
