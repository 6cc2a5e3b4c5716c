/**
 * Checks of the course as a whole: the fields an LMS catalogue and a screen reader need (description,
 * language), at least one module, and learning objectives that questions actually assess.
 */
import { languageTagPattern } from "../../authoring/schemas/fields.ts";
import { isGradedType } from "../../authoring/schemas/blocks.ts";
import { atField, courseLocation, objectiveLocation, type WalkedCourse } from "./course-walk.ts";
import type { FindingList } from "./rules.ts";

export function checkCourseFields(course: WalkedCourse, findings: FindingList): void {
  const { description, language } = course.course;
  if (description.trim() === "") {
    findings.report(
      "course.missing_description",
      atField(courseLocation, "description"),
      "The course has no description; LMS catalogues show it to learners deciding whether to enrol.",
      "Call update_course with a description of two or three sentences: who the course is for and what they will be able to do afterwards.",
    );
  }
  if (!languageTagPattern.test(language.trim())) {
    findings.report(
      "course.missing_language",
      atField(courseLocation, "language"),
      language.trim() === "" ? "The course has no language." : `The course language "${language}" is not a BCP 47 tag.`,
      "Call update_course with language set to a BCP 47 tag such as en, en-GB, de or pt-BR; screen readers pick their voice from it and exports declare it.",
    );
  }
  if (course.objectives.length === 0) {
    findings.report(
      "course.no_objectives",
      atField(courseLocation, "objectives"),
      "The course states no learning objectives.",
      "Call set_objectives with what learners will be able to do, then link questions to them through objectiveIds.",
    );
  }
  if (course.modules.length === 0) {
    findings.report("structure.empty_course", courseLocation, "The course has no modules.", "Add modules with add_module (lessons and blocks can come in the same call).");
  }
}

export function checkObjectivesAssessed(course: WalkedCourse, findings: FindingList): void {
  if (course.objectives.length === 0) return;
  const assessed = new Set<string>();
  for (const module of course.modules) {
    for (const lesson of module.lessons) {
      for (const { block } of lesson.blocks) {
        if (!isGradedType(block.type) || !("objectiveIds" in block)) continue;
        for (const id of block.objectiveIds ?? []) assessed.add(id);
      }
    }
  }
  course.objectives.forEach((objective, index) => {
    if (assessed.has(objective.id)) return;
    findings.report(
      "objective.unassessed",
      objectiveLocation(objective, index),
      "No question assesses this learning objective, so nobody can tell whether learners reached it.",
      `Link an existing question to it (update_block with objectiveIds including "${objective.id}"), or add a question that does with add_blocks.`,
    );
  });
}
