/**
 * An accessibility conformance report as this service builds it: the course as the product, each
 * catalogue chapter with its criteria, each criterion's level (one of the catalogue's terms), the
 * remarks, the places that fail and their fix, the evidence behind the level and, for what a person
 * must judge, what to check. Written out as OpenACR YAML (`acr-yaml.ts`) and as a VPAT 2.5 page
 * (`acr-html.ts`); the evidence travels as JSON beside them.
 */
import type { ConformanceTerm } from "./catalogue.ts";

export interface ReportPlace {
  /** For people: Module 1 "…" › Lesson 1.2 "…" › Block 3 (image). */
  readonly path: string;
  readonly lessonId?: string;
  readonly blockId?: string;
  readonly assetId?: string;
  /** The check that found it: a validate_course rule ID, an axe rule, the theme contrast check. */
  readonly found: string;
  readonly problem: string;
  readonly fix: string;
}

export type EvidenceKind = "validation_rule" | "axe_rule" | "theme_contrast" | "product_test" | "course_fact" | "manual_review";

export interface ReportEvidence {
  readonly kind: EvidenceKind;
  /** The rule ID, the axe rule, the test file, or who answered. */
  readonly name: string;
  /** What it found, in words. */
  readonly result: string;
}

export interface ManualAnswer {
  readonly level: ConformanceTerm;
  readonly remarks: string;
  readonly by: string;
  readonly at: string;
  /** The blocks it covers changed since: the answer is shown but no longer decides the level. */
  readonly stale: boolean;
}

export interface CriterionEntry {
  readonly id: string;
  readonly handle: string;
  readonly level: ConformanceTerm;
  readonly remarks: string;
  readonly places: readonly ReportPlace[];
  readonly evidence: readonly ReportEvidence[];
  /** What a person must check before the level can be given (only with not-evaluated). */
  readonly toCheck?: string;
  readonly manual?: ManualAnswer;
}

export interface ChapterEntry {
  readonly id: string;
  readonly label: string;
  readonly notes?: string;
  /** The chapter does not apply to a course (hardware, software, relay services): named, not listed. */
  readonly disabled?: boolean;
  readonly criteria: readonly CriterionEntry[];
}

export interface AccessibilityReport {
  readonly courseId: string;
  readonly title: string;
  readonly product: { readonly name: string; readonly version: string; readonly description: string };
  readonly author: { readonly name: string; readonly email: string };
  readonly reportDate: string;
  readonly courseVersion: number;
  /** The course's language: our own words in the HTML page are in it where a language pack exists. */
  readonly language: string;
  /** True while an A or AA criterion waits for a person. */
  readonly draft: boolean;
  /** The A and AA criteria still waiting for a person, with what to check. */
  readonly left: readonly { readonly id: string; readonly handle: string; readonly toCheck: string }[];
  readonly notes: string;
  readonly evaluationMethods: string;
  readonly legalDisclaimer: string;
  readonly chapters: readonly ChapterEntry[];
}

/** The remarks as one text: the explanation, then each place with its fix, then what to check. */
export function remarksText(entry: CriterionEntry, words: { fix: string; check: string; manual: string; stale: string }): string {
  const lines = [entry.remarks];
  for (const place of entry.places) lines.push(`${place.path}: ${place.problem} ${words.fix}: ${place.fix} (${place.found})`);
  if (entry.toCheck) lines.push(`${words.check}: ${entry.toCheck}`);
  if (entry.manual) lines.push(`${entry.manual.stale ? words.stale : words.manual} (${entry.manual.by}, ${entry.manual.at}): ${entry.manual.remarks}`);
  return lines.filter((line) => line.trim() !== "").join("\n");
}
