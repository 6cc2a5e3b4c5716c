/**
 * The theme's colours against WCAG 2.2 AA, with the same check `update_course { theme }` applies on
 * write (authoring/theme-contrast.ts): a stored theme may predate the check or come from history.
 */
import { contrastFailures } from "../../authoring/theme-contrast.ts";
import type { CourseTheme } from "../../authoring/schemas/theme.ts";
import { atField, courseLocation, type WalkedCourse } from "./course-walk.ts";
import type { FindingList } from "./rules.ts";

export function checkThemeContrast(course: WalkedCourse, findings: FindingList): void {
  const theme = course.course.theme as CourseTheme | null;
  if (!theme) return;
  for (const failure of contrastFailures(theme)) {
    findings.report(
      "theme.low_contrast",
      atField(courseLocation, `theme.${failure.field}`),
      `The theme's ${failure.field} has ${failure.ratio}:1 contrast against ${failure.against}, below the ${failure.minimum}:1 WCAG 2.2 AA needs for ${failure.use}.`,
      `Call update_course with theme.${failure.field}: "${failure.suggestion}" (the nearest passing colour).`,
    );
  }
}
