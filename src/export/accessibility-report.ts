/**
 * export_course format `acr`: the course's accessibility conformance report, built from evidence. The
 * draft's rows are validated (every validate_course rule), the learner page is audited with axe on the
 * heavy-work pool (happy-dom, light and dark colour schemes), manual answers are read with their
 * freshness, and the levels follow (review/accessibility/conformance.ts). The zip holds the OpenACR
 * YAML, the VPAT 2.5 HTML page and the evidence per criterion as JSON.
 */
import { openCourse } from "../authoring/access.ts";
import { loadCourseRows } from "../authoring/read-model.ts";
import { readAs, type AuthoringServices } from "../authoring/services.ts";
import { zipStream } from "../codecs/zip-write.ts";
import { acrHtml } from "../formats/openacr/acr-html.ts";
import { acrYaml } from "../formats/openacr/acr-yaml.ts";
import { catalogue, catalogueName, wcagChapters } from "../formats/openacr/catalogue.ts";
import type { AccessibilityReport, ChapterEntry, CriterionEntry } from "../formats/openacr/report.ts";
import type { ExportCourse, ExportPackage } from "../formats/package/types.ts";
import type { AxeAudit } from "../review/accessibility/axe-audit.ts";
import { evaluateFunctional, evaluateWcag } from "../review/accessibility/conformance.ts";
import { storedAnswers } from "../review/accessibility/manual-reviews.ts";
import { walkCourse } from "../review/validation/course-walk.ts";
import { validateCourseRows } from "../review/validation/index.ts";
import { packageFileName } from "./build-package.ts";

const functionalChapters = new Set(["functional_performance_criteria", "en_301_549_functional_performance"]);
const webChapter = "en_301_549_web";

function chapterEntries(wcag: ReadonlyMap<string, CriterionEntry>): ChapterEntry[] {
  return catalogue.chapters.map((chapter): ChapterEntry => {
    if ((Object.values(wcagChapters) as string[]).includes(chapter.id)) {
      return { id: chapter.id, label: chapter.label, criteria: chapter.criteria.map((criterion) => wcag.get(criterion.id)).filter((entry): entry is CriterionEntry => entry !== undefined) };
    }
    if (functionalChapters.has(chapter.id)) return { id: chapter.id, label: chapter.label, criteria: chapter.criteria.map((criterion) => evaluateFunctional(criterion.id, criterion.handle, wcag)) };
    if (chapter.id === webChapter) return { id: chapter.id, label: chapter.label, notes: "The course is web content: see the WCAG 2.2 tables (EN 301 549 chapter 9 follows WCAG 2.1 Level A and AA).", criteria: [] };
    return { id: chapter.id, label: chapter.label, disabled: true, notes: "The course is web content delivered in a browser: it is no hardware, software platform, documentation service or communication service.", criteria: [] };
  });
}

export interface ReportInput {
  readonly course: ExportCourse;
  /** Blocks of a translation still showing (and marked as) their source language. */
  readonly untranslatedBlockIds: ReadonlySet<string>;
  readonly user: { sub: string; email?: string };
}

/** The report and its zip: validation and manual answers read here, the axe audit on the pool. */
export async function accessibilityReportPackage(services: AuthoringServices, input: ReportInput, onNotice: (text: string) => void): Promise<ExportPackage & { report: AccessibilityReport }> {
  const { walked, findings, manual } = await readAs(services, input.user, async (session) => {
    const { course } = await openCourse(session, input.course.id, "read");
    const [rows, assets] = await Promise.all([loadCourseRows(session.tx, course), session.tx.listAllAssets(course.id)]);
    return { walked: walkCourse(rows, assets), findings: validateCourseRows(rows, assets), manual: storedAnswers(course.accessibilityReviews) };
  });
  let axe: AxeAudit | null = null;
  try {
    axe = await services.heavyWork.run("auditCourseWithAxe", { course: input.course });
  } catch (error) {
    onNotice(`axe could not audit the lessons (${error instanceof Error ? error.message : "unknown error"}); the criteria that rely on it wait for a person.`);
  }
  // A translation's untranslated blocks are marked with their source language by the renderer.
  const kept = findings.filter((finding) => !(finding.ruleId === "text.unmarked_language" && finding.location.blockId && input.untranslatedBlockIds.has(finding.location.blockId)));
  const wcag = evaluateWcag({ course: walked, findings: kept, axe, manual });
  const report = buildReport(input, walked.course.language, wcag, axe);
  const fileName = packageFileName(input.course.title, "acr");
  const evidence = { catalog: catalogueName, courseId: report.courseId, courseVersion: report.courseVersion, draft: report.draft, left: report.left, axe: axe ? { version: axe.axeVersion, lessons: axe.lessons, schemes: axe.schemes, darkStyles: axe.darkStyles, notEvaluatedWithoutLayout: [...axe.notRunWithoutLayout, ...axe.rules.filter((rule) => rule.outcome === "incomplete").map((rule) => rule.rule)] } : null, chapters: report.chapters };
  const stream = zipStream([
    { path: "accessibility-report.yaml", body: acrYaml(report) },
    { path: "accessibility-report.html", body: acrHtml(report) },
    { path: "evidence.json", body: `${JSON.stringify(evidence, null, 2)}\n` },
  ]);
  return { fileName, mimeType: "application/zip", stream, report };
}

function buildReport(input: ReportInput, language: string, wcag: ReadonlyMap<string, CriterionEntry>, axe: AxeAudit | null): AccessibilityReport {
  const left = [...wcag.values()]
    .filter((entry) => entry.level === "not-evaluated" && !entry.id.startsWith("AAA") && isLevelAOrAA(entry.id))
    .map((entry) => ({ id: entry.id, handle: entry.handle, toCheck: entry.toCheck ?? "a person's review" }));
  const draft = left.length > 0;
  const course = input.course;
  const axeLine = axe
    ? `axe-core ${axe.axeVersion} ran on all ${axe.lessons} lesson(s) of the rendered course in a DOM without layout (happy-dom), ${axe.darkStyles ? "with the light and dark colour-scheme preferences" : "once: the page declares a light colour scheme and has no dark styles, so the dark preference shows the same page"}; rules it cannot decide without layout (${[...axe.notRunWithoutLayout, ...axe.rules.filter((rule) => rule.outcome === "incomplete").map((rule) => rule.rule)].join(", ")}) are not evaluated by it: the theme contrast check and the player's browser tests stand for them.`
    : "axe-core could not run on the lessons for this report.";
  return {
    courseId: course.id,
    title: `${draft ? "DRAFT: " : ""}${course.title} Accessibility Conformance Report`,
    product: { name: course.title, version: `version ${course.version ?? 0}`, description: (course.description ?? "").slice(0, 2000) },
    author: { name: input.user.email ?? input.user.sub, email: input.user.email ?? "" },
    reportDate: new Date().toISOString().slice(0, 10),
    courseVersion: course.version ?? 1,
    language: language || "en",
    draft,
    left,
    notes: "This report covers the course's content as rendered by the service's player (preview and every package share one renderer).",
    evaluationMethods: `Every validate_course rule on every block; the theme's colours against WCAG 2.2 contrast; ${axeLine} The player's keyboard, screen-reader and reflow behaviour is proven per block type by the product's browser tests. Manual answers recorded with set_accessibility_review, dated, stale once the blocks they cover change.`,
    legalDisclaimer: "Generated from the evidence listed for each criterion at the report date; a level is claimed only where evidence covers every place it applies to.",
    chapters: chapterEntries(wcag),
  };
}

function isLevelAOrAA(criterionId: string): boolean {
  const a = catalogue.chapters.find((chapter) => chapter.id === wcagChapters.A);
  const aa = catalogue.chapters.find((chapter) => chapter.id === wcagChapters.AA);
  return [a, aa].some((chapter) => chapter?.criteria.some((criterion) => criterion.id === criterionId));
}
