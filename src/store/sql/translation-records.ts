/**
 * Translations' statements for both stores: links between a translation and its source, and the
 * translated units. `SqlTransaction` extends this class, so they run inside the tool call's transaction.
 */
import type { TranslationNoteRow, TranslationRow, TranslationUnitRow } from "../types.ts";
import { SqlReviewRecords } from "./review-records.ts";
import {
  batches,
  noteFromRecord,
  putNotesStatement,
  removeNotesStatement,
  putUnitsBindings,
  putUnitsStatement,
  removeUnitsStatement,
  translationFromRecord,
  translationStatements,
  unitFromRecord,
} from "./translation-statements.ts";

export abstract class SqlTranslationRecords extends SqlReviewRecords {
  async listTranslationLinks(courseId: string): Promise<TranslationRow[]> {
    return (await this.all(translationStatements.links, [courseId, courseId])).map(translationFromRecord);
  }

  async putTranslation(row: TranslationRow): Promise<void> {
    await this.run(translationStatements.putLink, [row.courseId, row.sourceCourseId, row.language, row.sourceVersion, row.createdAt]);
  }

  async listTranslationUnits(courseId: string): Promise<TranslationUnitRow[]> {
    return (await this.all(translationStatements.units, [courseId])).map(unitFromRecord);
  }

  async putTranslationUnits(rows: readonly TranslationUnitRow[]): Promise<void> {
    for (const batch of batches(rows)) await this.run(putUnitsStatement(batch.length), putUnitsBindings(batch));
  }

  async removeTranslationUnits(courseId: string, unitIds: readonly string[]): Promise<void> {
    for (const batch of batches(unitIds)) {
      await this.run(removeUnitsStatement(batch.length), [courseId, ...batch]);
      await this.run(removeNotesStatement(batch.length), [courseId, ...batch]);
    }
  }

  async listTranslationNotes(courseId: string): Promise<TranslationNoteRow[]> {
    return (await this.all(translationStatements.notes, [courseId])).map(noteFromRecord);
  }

  async putTranslationNotes(rows: readonly TranslationNoteRow[]): Promise<void> {
    for (const batch of batches(rows)) await this.run(putNotesStatement(batch.length), batch.flatMap((row) => [row.courseId, row.unitId, row.note]));
  }
}
