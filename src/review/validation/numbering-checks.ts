/**
 * Titles numbered twice: learner pages put "Module 2:" before each module title unless the course sets
 * `numbering: "none"`, so a title that already starts with "Module 2" or "Lesson 3" reads
 * "Module 2: Module 2: …". The fix is the title without its own number, or numbering turned off.
 */
import { atField, type WalkedCourse } from "./course-walk.ts";
import type { FindingList } from "./rules.ts";

/** "Module 3: ", "Lesson 2 - ", "Unit 4.", "Chapter 1 –" and the like at the start of a title. */
const numberedPrefix = /^\s*(?:module|lesson|unit|chapter|part|section|topic|week|day)\s+\d+(?:\.\d+)*\s*(?:[:.)\-–—|]\s*)?/i;

/** The title without a number of its own, or null when it has none (or nothing would be left). */
export function withoutOwnNumber(title: string): string | null {
  const match = numberedPrefix.exec(title);
  if (!match) return null;
  const rest = title.slice(match[0].length).trim();
  return rest === "" ? null : rest;
}

export function checkTitleNumbering(course: WalkedCourse, findings: FindingList): void {
  if (course.course.numbering === "none") return;
  const turnOff = 'or, if your titles carry their own numbers, update_course { numbering: "none" }';
  for (const module of course.modules) {
    const moduleTitle = withoutOwnNumber(module.row.title);
    if (moduleTitle !== null) {
      findings.report(
        "title.numbered_twice",
        atField(module.location, "title"),
        `Learner pages number modules, so this title shows as "Module N: ${module.row.title}".`,
        `Drop the number from the title with update_module { title: ${JSON.stringify(moduleTitle)} }, ${turnOff}.`,
      );
    }
    for (const lesson of module.lessons) {
      const lessonTitle = withoutOwnNumber(lesson.row.title);
      if (lessonTitle === null) continue;
      findings.report(
        "title.numbered_twice",
        atField(lesson.location, "title"),
        `Learner pages show this lesson under its numbered module, so its own number ("${lesson.row.title}") repeats or contradicts it.`,
        `Drop the number from the title with update_lesson { title: ${JSON.stringify(lessonTitle)} }, ${turnOff}.`,
      );
    }
  }
}
