/** A quiz attempt's life: draw and shuffle a new one, save it as it is answered, put a saved one back. */
import { DataName } from "../../../page-contract/markup-names.ts";
import { all, data, fill, hook, textInHook } from "../dom.ts";
import type { Attempt, AttemptEntry } from "../quiz-attempts.ts";
import { updateOrderingButtons } from "../widgets.ts";
import { answerOf, applyAnswer, arrangeChoices, choiceOrder, clearAnswer, fixedOf, shuffles } from "./answers.ts";
import { clearGrade, setLocked } from "./feedback.ts";
import { numberQuestions, pagedLessons, setPanelOpen } from "./paging.ts";
import { drawnOf, lessonIdOf, numberOrNull, pointsOf, poolOf } from "./questions.ts";
import { attemptTools, recorder, text } from "./session.ts";

/** The quiz lessons whose current attempt is submitted: their answers are graded and no longer saved as they change. */
export const submittedLessons = new Set<HTMLElement>();

export function renumber(lesson: HTMLElement): void {
  numberQuestions(lesson, pagedLessons.has(lesson));
  for (const list of all(lesson, hook(DataName.orderingList))) updateOrderingButtons(list);
}

export function currentAttempt(lesson: HTMLElement): Attempt {
  const pool = poolOf(lesson);
  const entries: AttemptEntry[] = drawnOf(lesson).map((question) => ({
    question: pool.indexOf(question),
    order: shuffles(lesson, question) ? choiceOrder(question) : [],
    answer: answerOf(question),
    checked: data(question)[DataName.checked] === "true",
  }));
  return { submitted: submittedLessons.has(lesson), entries };
}

export function save(lesson: HTMLElement): void {
  recorder.saveAttempt(lessonIdOf(lesson), attemptTools.encode(currentAttempt(lesson)));
}

export function drawSize(lesson: HTMLElement): number {
  const count = numberOrNull(data(lesson)[DataName.drawCount]);
  const size = poolOf(lesson).length;
  return count === null ? size : Math.min(count, size);
}

export function resetQuestion(question: HTMLElement): void {
  clearAnswer(question);
  clearGrade(question);
  setLocked(question, false);
  delete data(question)[DataName.checked];
}

/** A new attempt: a new draw (not the previous one when the pool allows), reshuffled choices, no answers. */
export function startAttempt(lesson: HTMLElement): void {
  const pool = poolOf(lesson);
  const previous = drawnOf(lesson).length < pool.length ? drawnOf(lesson).map((question) => pool.indexOf(question)) : null;
  const objectives = pool.map((question) => (data(question)[DataName.objectives] ?? "").split(" ").filter(Boolean));
  const drawn = new Set(attemptTools.draw(objectives, numberOrNull(data(lesson)[DataName.drawCount]), data(lesson)[DataName.drawByObjective] === "true", previous));
  pool.forEach((question, index) => {
    question.hidden = !drawn.has(index);
    resetQuestion(question);
    arrangeChoices(question, shuffles(lesson, question) ? attemptTools.shuffle(fixedOf(question)) : []);
  });
  submittedLessons.delete(lesson);
  renumber(lesson);
  setPanelOpen(lesson, true);
  save(lesson);
}

/** Shows a saved attempt as it was left; false when it does not fit this lesson. */
export function applyAttempt(lesson: HTMLElement, attempt: Attempt): boolean {
  const pool = poolOf(lesson);
  const chosen = new Map(attempt.entries.map((entry) => [entry.question, entry]));
  for (const [index, question] of pool.entries()) {
    const entry = chosen.get(index);
    question.hidden = !entry;
    resetQuestion(question);
    arrangeChoices(question, []);
    if (!entry) continue;
    if (entry.order.length > 0) {
      const fixed = fixedOf(question);
      if (!shuffles(lesson, question) || entry.order.some((value, place) => (fixed[place] || fixed[value]) && value !== place)) return false;
      arrangeChoices(question, entry.order);
    }
    if (!applyAnswer(question, entry.answer)) return false;
    if (entry.checked) data(question)[DataName.checked] = "true";
  }
  renumber(lesson);
  return true;
}
