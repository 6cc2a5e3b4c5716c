/**
 * Reading the page's quizzes: a question's lesson, parts, points and type, the questions drawn, and the
 * learner's response in the forms grading (salted hashes) and the LMS report (`QuestionAnswer`) need.
 */
import { DataName } from "../../../page-contract/markup-names.ts";
import { around, data, fieldOf, hook, listAll } from "../dom.ts";

/** One question's line in the results' review. */
export interface ResultLine {
  readonly text: string;
  readonly state: "correct" | "incorrect" | "partial" | "recorded";
}

export const stateOf = (fraction: number): ResultLine["state"] => (fraction === 1 ? "correct" : fraction === 0 ? "incorrect" : "partial");
export const roundPoints = (points: number): number => Math.round(points * 100) / 100;
/** A number attribute's value; null when it is absent, empty or not a number (`Number(undefined)` is NaN). */
export const numberOrNull = (value: string | undefined): number | null => {
  const number = Number(value);
  return value === "" || Number.isNaN(number) ? null : number;
};
export const lessonOf = (element: HTMLElement): HTMLElement | null => around<HTMLElement>(element, hook(DataName.lessonId));
export const isQuiz = (lesson: HTMLElement | null): lesson is HTMLElement => data(lesson)?.[DataName.lessonKind] === "quiz";
// Sorting items move between category boxes, so their parts are read in authored order (data-item).
export const partsOf = (question: HTMLElement): HTMLElement[] => {
  const parts = listAll<HTMLElement>(question, hook(DataName.part));
  return data(question)[DataName.questionType] === "sorting" ? parts.sort((a, b) => Number(data(a)[DataName.item]) - Number(data(b)[DataName.item])) : parts;
};
export const poolOf = (lesson: HTMLElement): HTMLElement[] => listAll<HTMLElement>(lesson, hook(DataName.question));
export const drawnOf = (lesson: HTMLElement): HTMLElement[] => poolOf(lesson).filter((question) => !question.hidden);
export const modeOf = (lesson: HTMLElement | null): string => (isQuiz(lesson) ? (data(lesson)[DataName.feedbackMode] ?? "after_submit") : "immediate");
export const lessonIdOf = (lesson: HTMLElement | null | undefined): string => data(lesson)?.[DataName.lessonId] ?? "";
export const questionIdOf = (question: HTMLElement): string => data(question)[DataName.questionId] ?? "";
export const pointsOf = (question: HTMLElement): number => Number(data(question)[DataName.points] ?? "0");
/** The values of a question's form controls, "" for a part that is not one (an ordering item). */
export const fieldValues = (question: HTMLElement): string[] => partsOf(question).map((part) => fieldOf(part)?.value ?? "");

export function normalise(answer: string, caseSensitive: boolean): string {
  const collapsed = answer.trim().replace(/\s+/g, " ");
  return caseSensitive ? collapsed : collapsed.toLocaleLowerCase();
}

/**
 * The response to each hashed part, in the form `answer-key.ts` hashed the accepted ones: the neutral
 * response, as one part for choices and orderings, normalised for blanks.
 */
export function responseParts(question: HTMLElement): string[] {
  const grading = data(question)[DataName.grading];
  const response = neutralResponse(question);
  if (grading === "choice" || grading === "ordering") return [response.join(",")];
  return grading === "blanks" ? partsOf(question).map((part, index) => normalise(response[index] ?? "", data(part)[DataName.caseSensitive] === "true")) : response;
}

export function checkedValues(question: HTMLElement): string[] {
  return partsOf(question)
    .filter((part): part is HTMLInputElement => part instanceof HTMLInputElement && part.checked)
    .map((part) => part.value)
    .sort((a, b) => Number(a) - Number(b));
}

export function isAnswered(question: HTMLElement): boolean {
  const grading = data(question)[DataName.grading];
  if (grading === "self") return data(question)[DataName.answered] === "true";
  if (grading === "choice") return checkedValues(question).length > 0;
  if (grading === "ordering") return data(question)[DataName.touched] === "true" || data(lessonOf(question))?.[DataName.lessonKind] !== "quiz";
  return fieldValues(question).some((value) => value.trim() !== "");
}

/** The learner's answer in the neutral form `QuestionAnswer.response` describes (for LMS reporting). */
export function neutralResponse(question: HTMLElement): string[] {
  const grading = data(question)[DataName.grading];
  // A scenario writes its path of scene ids on its own element.
  if (grading === "self") return (data(question)[DataName.response] ?? "").split(" ").filter(Boolean);
  if (grading === "choice") return checkedValues(question);
  if (grading === "ordering") return partsOf(question).map((part) => data(part)[DataName.item] ?? "");
  return fieldValues(question);
}

export function attemptsLeft(lesson: HTMLElement, attempts: number): number | null {
  const maxAttempts = numberOrNull(data(lesson)[DataName.maxAttempts]);
  return maxAttempts === null ? null : Math.max(0, maxAttempts - attempts);
}
