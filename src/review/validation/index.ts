/**
 * validate_course: every rule of `rules.ts` over the draft in one pass. The course's rows and assets
 * are read once (five queries whatever the size), then course, module, lesson and block checks run in
 * memory, so a 10,000-block course costs the same store work as a 10-block one.
 */
import * as v from "valibot";
import { openCourse } from "../../authoring/access.ts";
import type { AuthoringSession } from "../../authoring/context.ts";
import { loadCourseRows, type CourseRows } from "../../authoring/read-model.ts";
import { assetIdsOfRows, assetsUsedBy } from "../../authoring/asset-access.ts";
import { idField } from "../../authoring/schemas/fields.ts";
import type { AssetRow } from "../../store/types.ts";
import { checkBlock } from "./block-checks.ts";
import { checkAccessibilityBlock } from "./accessibility-checks.ts";
import { checkThemeContrast } from "./theme-checks.ts";
import { checkCourseFields, checkObjectivesAssessed } from "./course-checks.ts";
import { walkCourse } from "./course-walk.ts";
import { conformanceGroupSchema, conformanceSummary } from "../accessibility/summary.ts";
import { checkTitleNumbering } from "./numbering-checks.ts";
import { checkCourseLength, checkLessonMinutes } from "./length-checks.ts";
import { checkLesson, checkModule, coursePacing } from "./lesson-checks.ts";
import { checkTeachingBlock, checkTeachingLesson } from "./teaching-checks.ts";
import { translationStatus, type TranslationOfStatus } from "../../authoring/translation/translations.ts";
import { checkTranslation } from "./translation-checks.ts";
import { atLeast, bySeverity, FindingList, findingSchema, severities, type Finding, type Severity } from "./rules.ts";

export { ruleIds, validationRules, type Finding, type RuleId, type Severity } from "./rules.ts";

/** All findings for the course in `rows`, errors first, each severity in course order. */
export function validateCourseRows(rows: CourseRows, assets: readonly AssetRow[]): Finding[] {
  const course = walkCourse(rows, assets);
  const findings = new FindingList(rows.course.id);
  checkCourseFields(course, findings);
  checkThemeContrast(course, findings);
  const pacing = coursePacing(course);
  for (const module of course.modules) {
    checkModule(module, findings);
    for (const lesson of module.lessons) {
      checkLesson(lesson, course, pacing, findings);
      for (const block of lesson.blocks) {
        checkBlock(block, course, findings);
        checkTeachingBlock(block, findings);
        checkAccessibilityBlock(block, course, findings);
      }
      checkTeachingLesson(lesson, findings);
    }
  }
  checkObjectivesAssessed(course, findings);
  checkTitleNumbering(course, findings);
  checkLessonMinutes(course, findings);
  checkCourseLength(course, findings);
  return bySeverity(findings.findings);
}

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}

export const validateCourseArguments = v.object({
  courseId: idField("course"),
  minSeverity: v.optional(
    v.pipe(v.picklist(severities, "must be error, warning or info"), v.description("Leave out findings below this severity; info (default) returns all.")),
    "info",
  ),
  limit: v.optional(
    v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"), v.maxValue(1000, "must be at most 1000"), v.description("At most this many findings (default 200); counts always cover all.")),
    200,
  ),
});

export const validationResultEntries = {
  courseId: v.string(),
  version: v.number(),
  publishable: v.pipe(v.boolean(), v.description("True when there are no error findings, so set_status published will be accepted.")),
  counts: v.object({ error: v.number(), warning: v.number(), info: v.number() }),
  findings: v.array(findingSchema),
  truncated: v.pipe(v.boolean(), v.description("True when more findings matched than limit allowed.")),
  conformance: v.pipe(
    v.array(conformanceGroupSchema),
    v.description("WCAG 2.2 A/AA state per guideline (1.1, 1.2…), without axe (export_course acr adds it): failing and waiting-for-a-person criteria block Supports."),
  ),
};

export type ValidationResult = v.InferOutput<v.ObjectSchema<typeof validationResultEntries, undefined>>;

export async function validateCourse(session: AuthoringSession, args: v.InferOutput<typeof validateCourseArguments>): Promise<ValidationResult> {
  return (await validateOpenedCourse(session, args)).validation;
}

/** Validates the course and hands back the row it read, so callers need not find it again. */
export async function validateOpenedCourse(
  session: AuthoringSession,
  args: v.InferOutput<typeof validateCourseArguments>,
): Promise<{ validation: ValidationResult; course: Awaited<ReturnType<typeof openCourse>>["course"]; translationOf?: TranslationOfStatus }> {
  const { course } = await openCourse(session, args.courseId, "read");
  const rows = await loadCourseRows(session.tx, course);
  const assets = await assetsUsedBy(session.tx, course.id, assetIdsOfRows(rows));
  let all = validateCourseRows(rows, assets);
  const { translationOf } = await translationStatus(session, course);
  if (translationOf) {
    const findings = new FindingList(course.id);
    checkTranslation(translationOf, course.language, findings);
    all = bySeverity([...all, ...findings.findings]);
  }
  const counts = countBySeverity(all);
  const wanted = all.filter((finding) => atLeast(finding.severity, args.minSeverity));
  const walked = walkCourse(rows, assets);
  const validation = {
    conformance: conformanceSummary(walked, all),
    courseId: course.id,
    version: course.version,
    publishable: counts.error === 0,
    counts,
    findings: wanted.slice(0, args.limit),
    truncated: wanted.length > args.limit,
  };
  return { validation, course, ...(translationOf ? { translationOf } : {}) };
}

/** One line per finding, for tool summaries and error messages. */
export function findingLine(finding: Finding): string {
  return `${finding.severity} ${finding.ruleId} at ${finding.location.path}${finding.location.field ? ` (${finding.location.field})` : ""}: ${finding.message}`;
}
