/**
 * The shapes of the words the server hands the player as data: the course player's sentences, the
 * interactions' and the LMS adapters'. The English strings and their translations are the renderer's
 * (`render/ui-text-english.ts`, `render/interaction-text.ts`, `render/ui-text-translations.ts`), which
 * check themselves against these shapes; the player only reads them, so neither side imports the other.
 */

/** Sentences the course player builds at run time: each holds `{placeholder}`s the player fills in. */
export type RuntimeText = Record<
  | "correct" | "incorrect" | "partlyCorrect" | "unanswered" | "pointsEarned" | "scoreSummary" | "passed" | "failed" | "noPassMark"
  | "attemptsLeft" | "noAttemptsLeft" | "lastScore" | "moved" | "picked" | "dropped" | "pickCancelled" | "lessonProgress"
  | "lessonsCompleted" | "resumeCourse" | "startCourse" | "questionHeadingOne" | "questionHeadingMany" | "unansweredOne"
  | "unansweredMany" | "unansweredItem" | "correctQuestion" | "incorrectQuestion" | "partlyCorrectQuestion" | "resultsHeading"
  | "attemptsUnlimited" | "passMarkLabel" | "scorePercent" | "pagedHeadingOne" | "pagedHeadingMany" | "passedEarlier" | "completionDone" | "completionPassed"
  | "completionFailed" | "completionRemaining" | "characterCount" | "answerCut" | "notANumber" | "recorded" | "recordedQuestion",
  string
> & {
  /** What a screen reader hears after a lesson's name in the contents. */
  contentsStates: Record<"visited" | "completed" | "passed" | "failed", string>;
};

/** Sentences the interactions (scenario, process, sorting) build at run time. */
export type InteractionRuntimeText = Record<"playAgain" | "youChose" | "scenarioEnded" | "stepStatus" | "visited" | "movedTo", string> & {
  /** A scenario ending's name, by its outcome. */
  outcomes: Record<string, string>;
};

/**
 * What the LMS adapters say to the learner: that progress is not being saved (no LMS found, or the LMS
 * stopped accepting it), that it is waiting to send, and the exit button's label.
 */
export interface AdapterText {
  readonly exitCourse: string;
  readonly noLmsFound: string;
  readonly lmsUnavailable: string;
  readonly sessionExpired: string;
  readonly stillSending: string;
}
