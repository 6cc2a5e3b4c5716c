/**
 * The OpenACR catalogue the report follows: GSA's VPAT 2.5 International Edition
 * (`2.5-edition-wcag-2.2-508-eu-en`), its standards, chapters, criteria (number and handle as
 * published), components and conformance terms. The JSON beside this file is the catalogue's YAML
 * turned into JSON once (chapters, criteria, components and terms unchanged), so the binary carries it.
 */
import catalogueData from "./catalogue-2.5-edition-wcag-2.2-508-eu-en.json" with { type: "json" };

export const catalogueName = "2.5-edition-wcag-2.2-508-eu-en";

export const conformanceTerms = ["supports", "partially-supports", "does-not-support", "not-applicable", "not-evaluated"] as const;
export type ConformanceTerm = (typeof conformanceTerms)[number];

export interface CatalogueCriterion {
  readonly id: string;
  readonly handle: string;
  readonly components: readonly string[];
}

export interface CatalogueChapter {
  readonly id: string;
  readonly label: string;
  readonly shortLabel: string;
  readonly criteria: readonly CatalogueCriterion[];
}

export interface CatalogueStandard {
  readonly id: string;
  readonly label: string;
  readonly reportHeading: string;
  readonly url: string;
  readonly chapters: readonly string[];
}

export interface Catalogue {
  readonly title: string;
  readonly name: string;
  readonly standards: readonly CatalogueStandard[];
  readonly chapters: readonly CatalogueChapter[];
  readonly components: readonly { id: string; label: string }[];
  readonly terms: readonly { id: string; label: string; description: string }[];
}

export const catalogue = catalogueData as Catalogue;

/** The WCAG tables by level. */
export const wcagChapters = { A: "success_criteria_level_a", AA: "success_criteria_level_aa", AAA: "success_criteria_level_aaa" } as const;
export type WcagLevel = keyof typeof wcagChapters;

export function chapterOf(id: string): CatalogueChapter | undefined {
  return catalogue.chapters.find((chapter) => chapter.id === id);
}

/** Every WCAG 2.2 success criterion with its level, in the catalogue's order. */
export const wcagCriteria: readonly (CatalogueCriterion & { level: WcagLevel })[] = (Object.keys(wcagChapters) as WcagLevel[]).flatMap((level) =>
  (chapterOf(wcagChapters[level])?.criteria ?? []).map((criterion) => ({ ...criterion, level })),
);

export function wcagCriterion(id: string): (CatalogueCriterion & { level: WcagLevel }) | undefined {
  return wcagCriteria.find((criterion) => criterion.id === id);
}

export function termLabel(term: ConformanceTerm): string {
  return catalogue.terms.find((entry) => entry.id === term)?.label ?? term;
}
