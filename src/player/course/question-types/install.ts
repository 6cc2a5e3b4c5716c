/**
 * The behaviour of the round-5 question types (issue 42), in their own bundle, which a page carries only
 * when its course asks one of them: the self-graded questions (`self-graded.ts`: numeric, open_response,
 * likert) and the picture questions (`pictures.ts`: hotspot, drag_onto_image). Open answers and opinions
 * score nothing (the quiz and the LMS report know them as unscored).
 */
import type { CoursePlayerConfig } from "../../../page-contract/config.ts";
import { courseEvents } from "../../../page-contract/course-runtime.ts";
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { all, around, fill, has, hook, on, one } from "../dom.ts";
import { installPictureEvents, labelName, showPlaced, showRegions } from "./pictures.ts";
import { parseLocalNumber, selfGrading } from "./self-graded.ts";

export { parseLocalNumber };

export function installQuestionTypes(config: CoursePlayerConfig): void {
  const text = config.text;
  const grading = selfGrading(config);
  const decimal = grading.decimal;
  const questionOf = (target: EventTarget | null): HTMLElement | null => around<HTMLElement>(target, hook(DataName.question));
  const locked = (question: HTMLElement): boolean => one<HTMLFieldSetElement>(question, "fieldset")?.disabled === true;

  function refresh(question: HTMLElement): void {
    if (grading.refresh(question)) return;
    if (one(question, hook(DataName.hotspot))) showRegions(question);
    else if (one(question, hook(DataName.dropImage))) showPlaced(question);
  }

  const restore = (question: HTMLElement): void => grading.restore(question);

  function refreshAll(root: ParentNode): void {
    for (const question of all<HTMLElement>(root, hook(DataName.question))) refresh(question);
  }

  on("input", (event) => {
    const question = questionOf(event.target);
    if (question) refresh(question);
  });
  on("change", (event) => {
    const question = questionOf(event.target);
    if (!question) return;
    refresh(question);
    const row = around<HTMLElement>(event.target, `.${ClassName.matchingRow}`);
    const select = event.target instanceof HTMLSelectElement ? event.target : null;
    if (row && select && one(question, hook(DataName.dropImage))) {
      const status = one<HTMLElement>(question, hook(DataName.dropStatus));
      if (status) status.textContent = select.value === "" ? "" : fill(config.interactionText.movedTo, { item: labelName(row), category: select.selectedOptions[0]?.textContent ?? "" });
    }
  });
  document.addEventListener("restore", (event) => {
    if (event.target instanceof HTMLElement) restore(event.target);
  }, true);

  // A number that is not one is named before the quiz grades it, when the learner checks it.
  document.addEventListener(
    "click",
    (event) => {
      const button = around<HTMLElement>(event.target, hook(DataName.checkAnswer));
      const question = questionOf(button);
      if (!button || !question || !has(question, `data-${DataName.numeric}`)) return;
      refresh(question);
      const input = one<HTMLInputElement>(question, "input");
      if (input && input.value.trim() !== "" && parseLocalNumber(input.value, decimal) === null) {
        event.stopPropagation();
        const verdict = one<HTMLElement>(question, hook(DataName.verdict));
        if (verdict) verdict.textContent = fill(text.notANumber, { example: `2${decimal}5` });
        input.focus();
      }
    },
    true,
  );

  // After a retry the quiz has cleared the answers: the questions settle again from their empty controls.
  on("click", (event) => {
    if (around(event.target, hook(DataName.retryQuiz))) refreshAll(document);
  });
  installPictureEvents(questionOf, locked);

  on(courseEvents.stateRestored, () => refreshAll(document));
  refreshAll(document);
}
