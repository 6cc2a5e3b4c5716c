/**
 * Levels from evidence only. For each WCAG 2.2 criterion: a recorded manual answer still fresh decides
 * (unless the automated checks find failures it cannot outvote); else "Not Applicable" with the reason;
 * else failures (validate_course findings, axe violations) give "Partially Supports" or, when most
 * places fail or the whole course is hit (a theme colour), "Does Not Support", each place named with
 * its fix; else what needs a person is "Not Evaluated" with what to check; else "Supports" with the
 * evidence that covers it. The 508 and EN functional criteria follow the WCAG criteria that serve them.
 */
import { wcagCriteria, type ConformanceTerm } from "../../formats/openacr/catalogue.ts";
import type { CriterionEntry, ReportEvidence, ReportPlace } from "../../formats/openacr/report.ts";
import type { WalkedCourse } from "../validation/course-walk.ts";
import { validationRules, type Finding } from "../validation/rules.ts";
import type { AxeAudit } from "./axe-audit.ts";
import { axeBestPracticeCriteria, criterionSpecs, functionalCriteria, type CourseFacts } from "./criteria.ts";
import { coveredBlocksHash, type StoredManualAnswer } from "./manual-reviews.ts";

export interface ConformanceInput {
  readonly course: WalkedCourse;
  readonly findings: readonly Finding[];
  /** Null when the audit could not run (the report says so and claims nothing from it). */
  readonly axe: AxeAudit | null;
  readonly manual: Readonly<Record<string, StoredManualAnswer>>;
}

export function courseFacts(course: WalkedCourse): CourseFacts {
  const facts = { images: 0, videos: 0, audios: 0, questions: 0, links: 0, animatedImages: 0, sequenced: 0, dragging: 0 };
  for (const module of course.modules) {
    for (const lesson of module.lessons) {
      for (const { block, row } of lesson.blocks) {
        if ((block.type === "image" && !block.decorative) || block.type === "labeled_graphic") facts.images += 1;
        if (block.type === "image" && block.assetId && course.assets.get(block.assetId)?.mediaType === "image/gif") facts.animatedImages += 1;
        if (block.type === "video") facts.videos += 1;
        if (block.type === "audio") facts.audios += 1;
        if ("points" in block) facts.questions += 1;
        if (["scenario", "labeled_graphic", "tabs", "process", "timeline"].includes(block.type)) facts.sequenced += 1;
        if (["ordering", "matching", "sorting", "drag_onto_image"].includes(block.type)) facts.dragging += 1;
        if (/\]\(/.test(JSON.stringify(row.body))) facts.links += 1;
      }
    }
  }
  return facts;
}

/** Where a lesson or block is, for people, from the walked course. */
function placeName(course: WalkedCourse, lessonId: string | null, blockId: string | null): { path: string; lessonId?: string; blockId?: string } {
  for (const module of course.modules) {
    for (const lesson of module.lessons) {
      if (blockId) {
        const block = lesson.blocks.find((walked) => walked.row.id === blockId);
        if (block) return { path: block.location.path, lessonId: lesson.row.id, blockId };
      }
      if (lessonId === lesson.row.id && !blockId) return { path: lesson.location.path, lessonId };
    }
  }
  return { path: lessonId ? `Lesson ${lessonId}` : "The player's own page (cover, contents, navigation)" };
}

function findingPlaces(findings: readonly Finding[], ruleIds: readonly string[]): ReportPlace[] {
  return findings
    .filter((finding) => ruleIds.includes(finding.ruleId))
    .map((finding) => ({
      path: finding.location.path + (finding.location.field ? ` (${finding.location.field})` : ""),
      ...(finding.location.lessonId ? { lessonId: finding.location.lessonId } : {}),
      ...(finding.location.blockId ? { blockId: finding.location.blockId } : {}),
      found: finding.ruleId,
      problem: finding.message,
      fix: finding.fix,
    }));
}

function axeRulesFor(axe: AxeAudit, criterionId: string) {
  return axe.rules.filter((rule) => rule.criteria.includes(criterionId) || (axeBestPracticeCriteria[rule.rule] ?? []).includes(criterionId));
}

function axePlaces(course: WalkedCourse, axe: AxeAudit, criterionId: string): ReportPlace[] {
  const places: ReportPlace[] = [];
  for (const rule of axeRulesFor(axe, criterionId).filter((result) => result.outcome === "violation")) {
    const seen = new Set<string>();
    for (const node of rule.nodes) {
      const where = placeName(course, node.lessonId, node.blockId);
      if (seen.has(where.path)) continue;
      seen.add(where.path);
      places.push({ ...where, found: `axe ${rule.rule}`, problem: `${rule.help} (${node.target}).`, fix: where.blockId ? `Change the block with update_block so that: ${rule.help}.` : `Report it: the player's own markup fails "${rule.help}".` });
    }
  }
  return places;
}

function evidenceFor(criterionId: string, input: ConformanceInput, places: readonly ReportPlace[]): ReportEvidence[] {
  const spec = criterionSpecs[criterionId] ?? {};
  const evidence: ReportEvidence[] = [];
  for (const rule of spec.rules ?? []) {
    const count = places.filter((place) => place.found === rule).length;
    evidence.push({ kind: "validation_rule", name: rule, result: count === 0 ? `checked every block: ${validationRules[rule as keyof typeof validationRules]?.checks ?? rule}; nothing found` : `${count} place(s) found` });
  }
  if (spec.axe && input.axe) {
    for (const rule of axeRulesFor(input.axe, criterionId)) {
      const result =
        rule.outcome === "pass"
          ? `passed on every lesson (${rule.schemes.join(" and ")} colour scheme)`
          : rule.outcome === "violation"
            ? `${rule.nodeCount} element(s) fail`
            : "not evaluated by axe without layout (needs a browser); the other evidence decides";
      evidence.push({ kind: "axe_rule", name: `axe-core ${input.axe.axeVersion} ${rule.rule}`, result });
    }
  }
  if (spec.rules?.includes("theme.low_contrast")) evidence.push({ kind: "theme_contrast", name: "theme contrast check (WCAG 2.2 relative luminance)", result: places.some((place) => place.found === "theme.low_contrast") ? "the theme fails" : "every theme colour pair passes (text 4.5:1, controls 3:1)" });
  for (const test of spec.product ?? []) evidence.push({ kind: "product_test", name: "player", result: test });
  return evidence;
}

/** Places named per criterion: the report stays readable (and bounded) however many blocks fail. */
const placesListed = 100;

const worstFirst: ConformanceTerm[] = ["does-not-support", "partially-supports", "not-evaluated", "supports", "not-applicable"];

/** One WCAG criterion's entry. */
export function evaluateCriterion(criterionId: string, handle: string, input: ConformanceInput, facts: CourseFacts): CriterionEntry {
  const spec = criterionSpecs[criterionId];
  const level = wcagCriteriaLevel(criterionId);
  const ruled = spec ? findingPlaces(input.findings, spec.rules ?? []) : [];
  // A block a rule already names (with its own fix) is not named again for axe's view of it.
  const named = new Set(ruled.map((place) => place.blockId).filter(Boolean));
  const places = [...ruled, ...(spec?.axe && input.axe ? axePlaces(input.course, input.axe, criterionId).filter((place) => !place.blockId || !named.has(place.blockId)) : [])];
  const evidence = spec ? evidenceFor(criterionId, input, places) : [];
  const stored = input.manual[criterionId];
  const manual = stored ? { level: stored.level, remarks: stored.remarks, by: stored.by, at: stored.at, stale: stored.blocksHash !== coveredBlocksHash(criterionId, input.course) } : undefined;
  const base = { id: criterionId, handle, places: places.slice(0, placesListed), evidence, ...(manual ? { manual } : {}) };
  const wholeCourse = places.some((place) => place.found === "theme.low_contrast" || place.found === "course.missing_language");
  if (places.length > 0) {
    const total = Math.max(places.length, placesInScope(criterionId, facts));
    const level = wholeCourse || places.length * 2 > total ? "does-not-support" : "partially-supports";
    const named = places.length > placesListed ? `the first ${placesListed} are named below with their fix (validate_course lists them all)` : "each is named below with its fix";
    return { ...base, level, remarks: `${places.length} place(s) fail this criterion; ${named}.` };
  }
  if (manual && !manual.stale) return { ...base, level: manual.level, remarks: "Level from a person's recorded answer.", evidence: [...evidence, { kind: "manual_review", name: manual.by, result: `${manual.level} on ${manual.at}` }] };
  if (level === "AAA") {
    const reason = spec?.notApplicable?.(facts);
    return reason ? { ...base, level: "not-applicable", remarks: reason } : { ...base, level: "not-evaluated", remarks: "Level AAA: not evaluated.", toCheck: "a person's review against this Level AAA criterion" };
  }
  const reason = spec?.notApplicable?.(facts);
  if (reason) return { ...base, level: "not-applicable", remarks: reason, evidence: [...evidence, { kind: "course_fact", name: "course content", result: reason }] };
  const person = spec ? spec.person?.(facts) : "a person's review: no automated check covers this criterion";
  const axeMissing = spec?.axe && !input.axe && !(spec.product?.length || spec.rules?.length);
  if (person || axeMissing || evidence.length === 0) {
    const toCheck = person ?? "axe did not run on the lessons; export again or check by hand";
    return { ...base, level: "not-evaluated", remarks: `Waits for a person${manual?.stale ? " (the recorded answer is stale: the blocks it covers changed)" : ""}.`, toCheck };
  }
  return { ...base, level: "supports", remarks: "Supported: the evidence below covers every place it applies to in this course." };
}

function placesInScope(criterionId: string, facts: CourseFacts): number {
  if (["1.1.1", "1.4.5", "1.4.11"].includes(criterionId)) return facts.images;
  if (["1.2.1", "1.2.2", "1.2.3", "1.2.5"].includes(criterionId)) return facts.videos + facts.audios;
  return 0;
}

function wcagCriteriaLevel(criterionId: string): string | undefined {
  return wcagCriteria.find((criterion) => criterion.id === criterionId)?.level;
}

/** Every WCAG criterion's entry, in the catalogue's order. */
export function evaluateWcag(input: ConformanceInput): Map<string, CriterionEntry> {
  const facts = courseFacts(input.course);
  return new Map(wcagCriteria.map((criterion) => [criterion.id, evaluateCriterion(criterion.id, criterion.handle, input, facts)]));
}

/** A functional performance criterion from the WCAG criteria that serve it: the worst of them, not applicable when all are. */
export function evaluateFunctional(id: string, handle: string, wcag: ReadonlyMap<string, CriterionEntry>): CriterionEntry {
  const served = functionalCriteria[id];
  if (served === undefined || typeof served === "string") {
    const reason = served ?? "Not applicable to a course.";
    return { id, handle, level: "not-applicable", remarks: reason, places: [], evidence: [{ kind: "course_fact", name: "course content", result: reason }] };
  }
  const entries = served.map((criterionId) => wcag.get(criterionId)).filter((entry): entry is CriterionEntry => entry !== undefined);
  const rated = entries.filter((entry) => entry.level !== "not-applicable");
  const level = rated.length === 0 ? "not-applicable" : (worstFirst.find((term) => rated.some((entry) => entry.level === term)) ?? "not-evaluated");
  const named = (term: ConformanceTerm) => rated.filter((entry) => entry.level === term).map((entry) => `${entry.id} ${entry.handle}`);
  const remarks = level === "supports" ? `Follows ${served.join(", ")}, all supported.` : level === "not-applicable" ? `Follows ${served.join(", ")}, none applies to this course.` : `Follows ${served.join(", ")}: ${named(level).join("; ")} ${level.replace(/-/g, " ")}.`;
  return { id, handle, level, remarks, places: [], evidence: rated.map((entry) => ({ kind: "course_fact" as const, name: `WCAG ${entry.id}`, result: entry.level })) };
}
