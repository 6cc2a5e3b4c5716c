/**
 * What every quiz module reads: the course's recorder, the page's words and the grading tools. A page
 * runs one course, so `startQuizSession` sets them once when the quizzes are installed. Module bindings,
 * not an object handed round, because the minifier shortens a binding but not a property name.
 */
import type { QuizRecorder } from "../../../page-contract/course-runtime.ts";
import type { RuntimeText } from "../../../page-contract/text.ts";
import type { AnswerChecker } from "../answer-checker.ts";
import type { AttemptTools } from "../quiz-attempts.ts";

export interface QuizTools {
  readonly checker: AnswerChecker;
  readonly attempts: AttemptTools;
  readonly salt: string;
  readonly sealKey: string;
}

export let recorder: QuizRecorder;
export let text: RuntimeText;
export let tools: QuizTools;
export let checker: AnswerChecker;
export let attemptTools: AttemptTools;

export function startQuizSession(quizRecorder: QuizRecorder, runtimeText: RuntimeText, quizTools: QuizTools): void {
  recorder = quizRecorder;
  text = runtimeText;
  tools = quizTools;
  checker = quizTools.checker;
  attemptTools = quizTools.attempts;
}
