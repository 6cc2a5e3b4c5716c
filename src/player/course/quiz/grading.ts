/**
 * Grading a question against its salted answer key, per grading kind (self-graded scenario, choice,
 * blanks, matching, ordering and sorting parts), and reporting the answer to the course recorder with
 * the right answers opened for the LMS (see `render/answer-key.ts`).
 */
import type { QuestionAnswer } from "../../../page-contract/course-runtime.ts";
import { DataName } from "../../../page-contract/markup-names.ts";
import { data } from "../dom.ts";
import { isArray } from "../quiz-attempts.ts";
import { isAnswered, isQuiz, lessonIdOf, lessonOf, neutralResponse, partsOf, questionIdOf, responseParts } from "./questions.ts";
import { checker, recorder, tools } from "./session.ts";

export interface Grade {
  readonly answered: boolean;
  readonly fraction: number;
  /** Parts whose author feedback applies: the choices picked, or the parts answered wrongly. */
  readonly feedbackParts: readonly HTMLElement[];
  readonly partResults: ReadonlyMap<HTMLElement, boolean>;
  /** The right answers, opened for the LMS report. */
  readonly right: RightAnswers;
}
export type RightAnswers = Pick<QuestionAnswer, "correctResponse" | "otherCorrectResponses">;


/** A JSON value as a list of strings; [] when it is not a list. */
export const stringsOf = (value: unknown): string[] => (isArray(value) ? value.map(String) : []);

export function keyOf(question: HTMLElement): string[][] {
  try {
    const parsed: unknown = JSON.parse(data(question).key ?? "[]");
    return isArray(parsed) ? parsed.map(stringsOf) : [];
  } catch {
    return [];
  }
}

export function revealed(question: HTMLElement): RightAnswers {
  const opened = checker.open(tools.sealKey, questionIdOf(question), data(question).sealed ?? "") as { c?: unknown; o?: unknown } | null;
  return { correctResponse: stringsOf(opened?.c), otherCorrectResponses: (isArray(opened?.o) ? opened.o.filter(isArray) : []).map(stringsOf) };
}

export async function grade(question: HTMLElement): Promise<Grade> {
  const partResults = new Map<HTMLElement, boolean>();
  const opened = { partResults, right: revealed(question) };
  const { correctResponse } = opened.right;
  const grading = data(question)[DataName.grading];
  // A block that grades itself (the scenario) writes its last finished answer on its own element.
  if (grading === "self") {
    const answered = data(question)[DataName.answered] === "true";
    return { ...opened, answered, fraction: answered ? Number(data(question)[DataName.fraction] ?? "0") : 0, feedbackParts: [] };
  }
  const key = keyOf(question);
  const responses = responseParts(question);
  const matches = await Promise.all(key.map(async (accepted, part) => accepted.includes(await checker.hash(tools.salt, questionIdOf(question), part, responses[part] ?? ""))));
  const parts = partsOf(question);
  const choice = grading === "choice";
  parts.forEach((part, index) => {
    if (!choice) partResults.set(part, parts.length === key.length ? matches[index] === true : correctResponse[index] === data(part)[DataName.item]);
    else if (part instanceof HTMLInputElement && part.checked) partResults.set(part, correctResponse.includes(part.value));
  });
  return {
    ...opened,
    answered: isAnswered(question),
    fraction: key.length === 0 ? 0 : matches.filter(Boolean).length / key.length,
    // Feedback for the choices picked, or for the parts answered wrongly.
    feedbackParts: parts.filter((part) => (choice ? partResults.has(part) : partResults.get(part) === false)),
  };
}

export function report(question: HTMLElement, result: Grade): void {
  const lesson = lessonOf(question);
  recorder.announceQuestionAnswer({
    ...result.right,
    response: neutralResponse(question),
    graded: isQuiz(lesson),
    lessonId: lessonIdOf(lesson),
    questionId: questionIdOf(question),
    questionType: data(question)[DataName.questionType] ?? "",
    scoreFraction: result.fraction,
    correct: result.fraction === 1,
  });
}
