/**
 * The conformance state per criterion group for validate_course, from the same evidence as the report
 * minus axe (which runs only at export): per WCAG principle group ("1.1 Text Alternatives"…) how many
 * A and AA criteria support, fail, wait for a person or do not apply, and which ones block "Supports".
 */
import * as v from "valibot";
import { wcagCriteria } from "../../formats/openacr/catalogue.ts";
import type { WalkedCourse } from "../validation/course-walk.ts";
import type { Finding } from "../validation/rules.ts";
import { evaluateWcag } from "./conformance.ts";
import { storedAnswers } from "./manual-reviews.ts";

export const conformanceGroupSchema = v.object({
  group: v.string(),
  supports: v.number(),
  failing: v.pipe(v.array(v.string()), v.description("Criteria that partially or do not support, e.g. \"1.1.1 Non-text Content\".")),
  waitingForPerson: v.pipe(v.array(v.string()), v.description("Criteria a person must answer (set_accessibility_review).")),
  notApplicable: v.number(),
});
export type ConformanceGroup = v.InferOutput<typeof conformanceGroupSchema>;

export function conformanceSummary(course: WalkedCourse, findings: readonly Finding[]): ConformanceGroup[] {
  const entries = evaluateWcag({ course, findings, axe: null, manual: storedAnswers(course.course.accessibilityReviews) });
  const groups = new Map<string, ConformanceGroup>();
  for (const criterion of wcagCriteria) {
    if (criterion.level === "AAA") continue;
    const entry = entries.get(criterion.id);
    if (!entry) continue;
    const key = criterion.id.split(".").slice(0, 2).join(".");
    const group = groups.get(key) ?? { group: key, supports: 0, failing: [], waitingForPerson: [], notApplicable: 0 };
    const name = `${criterion.id} ${criterion.handle}`;
    if (entry.level === "supports") group.supports += 1;
    else if (entry.level === "not-applicable") group.notApplicable += 1;
    else if (entry.level === "not-evaluated") group.waitingForPerson.push(name);
    else group.failing.push(name);
    groups.set(key, group);
  }
  return [...groups.values()];
}
