/**
 * set_accessibility_review: a person's answer for one WCAG 2.2 criterion (level from the catalogue's
 * terms, remarks, who, when), stored on the course with a hash of the blocks it covers, as one
 * revision. Remarks are kept as plain text (the report escapes them); a criterion outside the
 * catalogue, a level outside its terms, or Not Evaluated below Level AAA is refused, naming the rule.
 */
import * as v from "valibot";
import { openCourse, roleAllows } from "../../authoring/access.ts";
import type { AuthoringSession } from "../../authoring/context.ts";
import { CourseEdit, commitCourseEdit } from "../../authoring/course-edit.ts";
import { forbidden, invalidArgument, staleVersion } from "../../authoring/errors.ts";
import { loadCourseRows } from "../../authoring/read-model.ts";
import { expectedVersionField, idField } from "../../authoring/schemas/fields.ts";
import { catalogueName, conformanceTerms, wcagCriterion } from "../../formats/openacr/catalogue.ts";
import type { JsonObject } from "../../store/types.ts";
import { walkCourse } from "../validation/course-walk.ts";
import { assertKnownCriterion, assertLevelAllowed, coveredBlocksHash, ManualAnswerError, storedAnswers } from "./manual-reviews.ts";

export const setAccessibilityReviewArguments = v.object({
  courseId: idField("course"),
  criterion: v.pipe(v.string(), v.maxLength(12, "must be a WCAG 2.2 criterion number such as 1.1.1"), v.description("WCAG 2.2 success criterion, e.g. 1.1.1.")),
  level: v.pipe(
    v.picklist(conformanceTerms, `must be one of the VPAT 2.5 catalogue's terms: ${conformanceTerms.join(", ")}`),
    v.description("supports, partially-supports, does-not-support, not-applicable (not-evaluated: Level AAA only)."),
  ),
  remarks: v.pipe(v.string(), v.minLength(1, "must say what was checked"), v.maxLength(2000, "must be at most 2000 characters"), v.description("What the person checked and found (plain text).")),
  expectedVersion: expectedVersionField,
});

export const setAccessibilityReviewResultEntries = {
  courseId: v.string(),
  version: v.number(),
  criterion: v.string(),
  handle: v.string(),
  level: v.picklist(conformanceTerms),
  remarks: v.string(),
  by: v.string(),
  at: v.string(),
};

export type SetAccessibilityReviewResult = v.InferOutput<v.ObjectSchema<typeof setAccessibilityReviewResultEntries, undefined>>;

export async function setAccessibilityReview(session: AuthoringSession, args: v.InferOutput<typeof setAccessibilityReviewArguments>): Promise<SetAccessibilityReviewResult> {
  try {
    assertKnownCriterion(args.criterion);
    assertLevelAllowed(args.criterion, args.level);
  } catch (error) {
    if (error instanceof ManualAnswerError) throw invalidArgument(error.field, error.message, { catalog: catalogueName });
    throw error;
  }
  const { course, role } = await openCourse(session, args.courseId, "read");
  if (!roleAllows(role, "edit")) throw forbidden(`You are a ${role} of course ${course.id}; only editors and the owner record accessibility answers.`);
  if (args.expectedVersion !== undefined && args.expectedVersion !== course.version) throw staleVersion(args.expectedVersion, course.version);
  const [rows, assets] = await Promise.all([loadCourseRows(session.tx, course), session.tx.listAllAssets(course.id)]);
  const at = session.now().toISOString();
  const by = session.actor.email ?? session.actor.sub;
  // Control characters go; markup stays as the text it is (the report escapes it).
  const remarks = args.remarks.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "").trim();
  const answers = { ...storedAnswers(course.accessibilityReviews), [args.criterion]: { level: args.level, remarks, by, at, blocksHash: coveredBlocksHash(args.criterion, walkCourse(rows, assets)) } };
  const edit = new CourseEdit(session, course, role);
  await edit.update("course", course, { accessibilityReviews: answers as unknown as JsonObject });
  await commitCourseEdit(edit, "set_accessibility_review", `Accessibility answer for ${args.criterion}: ${args.level}`, { always: true });
  return { courseId: course.id, version: edit.course.version, criterion: args.criterion, handle: wcagCriterion(args.criterion)?.handle ?? "", level: args.level, remarks, by, at };
}
