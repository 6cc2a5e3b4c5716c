/**
 * A translation's findings: behind its source (which version it follows, the current one, what
 * differs, bounded) and units whose source changed since they were translated (counted, with the call
 * that lists them). Warnings: a stale translation can still be published, but not unannounced.
 */
import { describeChanges } from "../../authoring/translation/source-changes.ts";
import type { TranslationOf, TranslationCounts } from "../../authoring/translation/translations.ts";
import { courseLocation } from "./course-walk.ts";
import type { FindingList } from "./rules.ts";

export function checkTranslation(link: TranslationOf & TranslationCounts, language: string, findings: FindingList): void {
  const units = `{ courseId: "${link.courseId}", language: "${language}"`;
  if (!link.upToDate && link.sourceChanges) {
    findings.report(
      "translation.behind_source",
      courseLocation,
      `This ${language} translation follows version ${link.sourceVersion} of source course ${link.courseId}, which is at version ${link.currentSourceVersion}: ${describeChanges(link.sourceChanges)}.`,
      `Take the source's changes (nothing translated is lost): set_translation_units ${units}, units: [] }.`,
    );
  }
  if (link.outdated > 0 || link.outdatedMedia > 0) {
    const media = link.outdatedMedia > 0 ? ` and ${link.outdatedMedia} media unit(s) replace a source asset the source has since swapped` : "";
    findings.report(
      "translation.outdated_units",
      courseLocation,
      `${link.outdated} translated unit(s) are outdated: their source text changed since they were translated${media}. Learners see the old translation until they are redone.`,
      `List them with get_translation_units ${units}, onlyOutdated: true } (or export_translation with onlyOutdated: true), then send the new targets with set_translation_units or import_translation.`,
    );
  }
}
