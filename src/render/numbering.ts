/**
 * Module numbering on learner pages: "Module 2:" before each module title by default, or the titles as
 * the author wrote them when the course sets `numbering: "none"` (for titles that carry their own).
 */
import type { RenderableCourse, RenderableModule } from "./types.ts";

/**
 * The number shown before a module's title, or null when the course does not number modules. A page of
 * part of a course (a lesson preview) numbers a module by its place in the whole course, not on the page.
 */
export function moduleNumberOf(course: Pick<RenderableCourse, "numbering">, moduleIndex: number, module?: Pick<RenderableModule, "position">): number | null {
  if (course.numbering === "none") return null;
  return typeof module?.position === "number" ? module.position : moduleIndex + 1;
}
