/** Showing a graded question: its verdict, each part's mark, the author's feedback; and clearing or locking it. */
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { all, around, data, fill, has, hook, setIn, setInHook, textInHook } from "../dom.ts";
import type { Grade } from "./grading.ts";
import { partsOf, pointsOf, roundPoints, stateOf } from "./questions.ts";
import { text } from "./session.ts";

export function verdictText(fraction: number, points: number): string {
  const values = { earned: roundPoints(points * fraction), possible: points };
  return fraction === 1 || fraction === 0 ? `${fraction ? text.correct : text.incorrect} ${fill(text.pointsEarned, values)}` : fill(text.partlyCorrect, values);
}

/** Shows a graded question: its verdict always; marks, feedback and explanation unless the mode is `none`. */
export function showGrade(question: HTMLElement, result: Grade, details: boolean): void {
  const shown = new Set(result.feedbackParts.map((part) => data(part)[DataName.feedbackId]));
  // A question that grades itself names its own feedback for a right and a wrong answer (a number, the model answer).
  shown.add(data(question)[result.fraction === 1 ? DataName.rightFeedback : DataName.wrongFeedback]);
  const unscored = has(question, `data-${DataName.unscored}`);
  for (const piece of all<HTMLElement>(question, hook(DataName.answerFeedback))) piece.hidden = !details || !shown.has(piece.id);
  setInHook(question, DataName.explanation, "hidden", !details);
  for (const part of partsOf(question)) {
    const partResult = result.partResults.get(part);
    const row = around<HTMLElement>(part, `.${ClassName.choice}, .${ClassName.matchingRow}, .${ClassName.orderingItem}`) ?? part;
    if (partResult === undefined || !details) delete data(row)[DataName.result];
    else data(row)[DataName.result] = partResult ? "correct" : "incorrect";
  }
  data(question)[DataName.state] = unscored ? "recorded" : stateOf(result.fraction);
  textInHook(question, DataName.verdict, unscored ? text.recorded : verdictText(result.fraction, pointsOf(question)));
}

export function clearGrade(question: HTMLElement): void {
  for (const piece of all<HTMLElement>(question, `[data-${DataName.answerFeedback}], [data-${DataName.explanation}]`)) piece.hidden = true;
  for (const row of all<HTMLElement>(question, hook(DataName.result))) delete data(row)[DataName.result];
  textInHook(question, DataName.verdict, "");
  delete data(question)[DataName.state];
}

export function setLocked(question: HTMLElement, locked: boolean): void {
  setIn<HTMLFieldSetElement, "disabled">(question, "fieldset", "disabled", locked);
  setInHook<HTMLButtonElement, "disabled">(question, DataName.checkAnswer, "disabled", locked);
}
