/** One question at a time, and the submit and retry buttons of the quiz panel. */
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { data, fill, has, hook, isSingular, listAll, one, setIn, setInHook, textInHook } from "../dom.ts";
import { attemptsLeft, drawnOf, lessonIdOf, pointsOf, poolOf } from "./questions.ts";
import { recorder, text } from "./session.ts";

const panel = `.${ClassName.quizPanel}`;

/** The lessons shown one question at a time, and the place of the question on view. */
export const pagedLessons = new Map<HTMLElement, number>();

/**
 * Each drawn question's heading, its number and points: "Question 2 (1 point)", or while the quiz shows
 * one question at a time "Question 2 of 5 (1 point)", the one place that says where the learner is.
 */
export function numberQuestions(lesson: HTMLElement, paged: boolean): void {
  const drawn = drawnOf(lesson);
  drawn.forEach((question, index) => {
    const points = pointsOf(question);
    const template = `${paged ? "paged" : "question"}Heading${isSingular(points) ? "One" : "Many"}` as const;
    textInHook(question, DataName.questionLegend, fill(text[template], { number: index + 1, count: drawn.length, points }));
  });
}

/** Shows the drawn question at `index` alone and says which it is; the others stay in the page, out of view. */
export function showQuestionPage(lesson: HTMLElement, index: number): void {
  const pager = one<HTMLElement>(lesson, hook(DataName.questionPager));
  const drawn = drawnOf(lesson);
  if (!pager || drawn.length === 0) return;
  const current = Math.min(Math.max(index, 0), drawn.length - 1);
  pagedLessons.set(lesson, current);
  drawn.forEach((question, place) => question.toggleAttribute(`data-${DataName.pagedOut}`, place !== current));
  pager.hidden = false;
  numberQuestions(lesson, true);
  const last = current === drawn.length - 1;
  const [previous, next] = listAll<HTMLButtonElement>(pager, hook(DataName.questionStep));
  if (previous) previous.hidden = current === 0;
  if (next) next.hidden = last;
  // "Next question" until the last question, which alone offers "Submit quiz" (its panel is empty before).
  setIn(lesson, panel, "hidden", !last);
}

/** After submitting every question shows again, for the review; the pager goes. */
export function showAllQuestions(lesson: HTMLElement): void {
  for (const question of poolOf(lesson)) question.removeAttribute(`data-${DataName.pagedOut}`);
  setInHook(lesson, DataName.questionPager, "hidden", true);
  setIn(lesson, panel, "hidden", false);
  pagedLessons.delete(lesson);
  numberQuestions(lesson, false);
}

/** The submit/retry buttons: open for answering, or done (retry while attempts remain). */
export function setPanelOpen(lesson: HTMLElement, open: boolean): void {
  const left = attemptsLeft(lesson, recorder.quizRecord(lessonIdOf(lesson))?.attempts ?? 0);
  setInHook(lesson, DataName.submitQuiz, "hidden", !open);
  if (has(lesson, `data-${DataName.oneAtATime}`)) {
    if (open) showQuestionPage(lesson, pagedLessons.get(lesson) ?? 0);
    else showAllQuestions(lesson);
  }
  setInHook(lesson, DataName.retryQuiz, "hidden", open || left === 0);
  if (open) one(lesson, hook(DataName.quizResult))?.replaceChildren();
}
