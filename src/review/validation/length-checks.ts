/**
 * Length that tells the truth: a lesson's minutes set by the author against what its content derives
 * (reading speed, media, questions), and the course's total against the author's `targetMinutes`.
 */
import { atField, courseLocation, type WalkedCourse } from "./course-walk.ts";
import type { FindingList } from "./rules.ts";

/** How far a set value may stray from the derived one before it is questioned: below half or above twice. */
const lowestShare = 0.5;
const highestShare = 2;
/** How far the total may be from the target. */
const targetTolerance = 0.25;

export function checkLessonMinutes(course: WalkedCourse, findings: FindingList): void {
  for (const module of course.modules) {
    for (const lesson of module.lessons) {
      const set = lesson.row.estimatedMinutes;
      const derived = lesson.derivedMinutes;
      if (set === null || derived === 0 || (set >= derived * lowestShare && set <= derived * highestShare)) continue;
      findings.report(
        "lesson.minutes_mismatch",
        atField(lesson.location, "estimatedMinutes"),
        `The lesson is set to ${set} min, but its content derives to about ${derived} min.`,
        `If the content is what learners get, let the estimate follow it: update_lesson { estimatedMinutes: null }; otherwise set what you measured, or change the content.`,
      );
    }
  }
}

export function checkCourseLength(course: WalkedCourse, findings: FindingList): void {
  const target = course.course.targetMinutes;
  if (target === null) return;
  const total = course.modules.reduce((sum, module) => sum + module.lessons.reduce((lessonSum, lesson) => lessonSum + lesson.minutes, 0), 0);
  if (Math.abs(total - target) <= target * targetTolerance) return;
  const direction = total > target ? "longer" : "shorter";
  findings.report(
    "course.length_off_target",
    atField(courseLocation, "targetMinutes"),
    `The lessons add up to ${total} min, ${Math.round((Math.abs(total - target) / target) * 100)}% ${direction} than the target of ${target} min.`,
    `${total > target ? "Cut or split content" : "Add content"} until the total is within 25% of the target, or change the target: update_course { targetMinutes: ${total} }.`,
  );
}
