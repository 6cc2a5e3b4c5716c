/**
 * Module numbering on learner pages: "Module 2:" before each module title by default, or the titles as
 * the author wrote them when the course sets `numbering: "none"` (for titles that carry their own).
 */
import type { RenderableCourse } from "./types.ts";

/** The number shown before a module's title, or null when the course does not number modules. */
export function moduleNumberOf(course: Pick<RenderableCourse, "numbering">, moduleIndex: number): number | null {
  return course.numbering === "none" ? null : moduleIndex + 1;
}
