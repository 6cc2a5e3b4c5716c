/**
 * What the teaching blocks' modules read: the recorder a scenario reports to, the page's words and what
 * opens a scenario's sealed endings. A page runs one course, so `startInteractionSession` sets them once.
 * Module bindings, not an object handed round, because the minifier shortens a binding but not a property name.
 */
import type { QuizRecorder } from "../../../page-contract/course-runtime.ts";
import type { InteractionRuntimeText } from "../../../page-contract/text.ts";
import type { AnswerChecker } from "../answer-checker.ts";

/** What opens a scenario ending's sealed outcome (null on a page without a scenario). */
export interface InteractionSeals {
  readonly checker: Pick<AnswerChecker, "open">;
  readonly sealKey: string;
}

export let recorder: Pick<QuizRecorder, "announceQuestionAnswer">;
export let text: InteractionRuntimeText;
export let seals: InteractionSeals | null;

export function startInteractionSession(scenarioRecorder: Pick<QuizRecorder, "announceQuestionAnswer">, runtimeText: InteractionRuntimeText, endingSeals: InteractionSeals | null): void {
  recorder = scenarioRecorder;
  text = runtimeText;
  seals = endingSeals;
}
