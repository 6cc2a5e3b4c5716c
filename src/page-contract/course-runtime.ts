/**
 * The contract between the rendered course page and whatever hosts it (the preview, a SCORM or cmi5
 * adapter bundle)): the `window.CourseRuntime` API and the `course:*` DOM events it
 * dispatches on `document`. Types only; the adapter sees them as plain JavaScript objects.
 */

/** Detail of `course:lesson-visited`: fired each time a lesson is shown, including the first. */
export interface LessonVisit {
  readonly lessonId: string;
  readonly title: string;
  /** 1-based position among all lessons of the course. */
  readonly position: number;
  readonly lessonCount: number;
}

/** Detail of `course:quiz-scored`: fired when a quiz lesson is submitted. */
export interface QuizScore {
  readonly lessonId: string;
  /** Points-weighted score, 0-100, rounded to a whole number. */
  readonly scorePercent: number;
  readonly earnedPoints: number;
  readonly possiblePoints: number;
  /** The lesson's pass mark, or null when the lesson has none (every submission passes). */
  readonly passingScore: number | null;
  readonly passed: boolean;
  /** 1-based number of this attempt. */
  readonly attempt: number;
  /** Attempts still allowed, or null when unlimited. */
  readonly attemptsLeft: number | null;
}

/** Detail of `course:question-answered`: fired when a question is checked or graded on submission. */
export interface QuestionAnswer {
  readonly lessonId: string;
  readonly questionId: string;
  readonly questionType: string;
  /** Share of the question's points earned, 0-1. */
  readonly scoreFraction: number;
  readonly correct: boolean;
  /**
   * What the learner answered, one entry per part: the chosen choices' indices (choice questions, in
   * authored order), the text typed in each blank, the right-hand index picked for each pair ("" when
   * none), or the items, named by the place they were first shown at, in the order the learner left them.
   */
  readonly response: readonly string[];
  /**
   * The right answer in the same form (fill-in: the first accepted answer of each blank). The page holds
   * it sealed and opens it only once the question is graded, so it is here for the LMS report only.
   */
  readonly correctResponse: readonly string[];
  /** Other responses just as right, in the same form (fill-in: the other accepted answers, per blank combination). */
  readonly otherCorrectResponses: readonly (readonly string[])[];
  /** False for an answer outside a quiz lesson: an immediate check or a scenario played for practice, which counts for no score. */
  readonly graded: boolean;
}

export interface QuizRecord {
  readonly attempts: number;
  readonly lastScorePercent: number;
  readonly bestScorePercent: number;
  readonly passed: boolean;
}

/** Everything a host needs to suspend and resume a learner (for example in SCORM `suspend_data`). */
export interface CourseState {
  readonly currentLessonId: string | null;
  readonly visitedLessonIds: readonly string[];
  readonly quizzes: Readonly<Record<string, QuizRecord>>;
  /**
   * The current attempt of each quiz lesson (drawn questions, choice order, answers) as compact JSON the
   * quiz script reads back; hosts store it as is. A value the script cannot read starts a new attempt.
   */
  readonly attempts?: Readonly<Record<string, unknown>>;
}

/** `CourseState` plus what follows from it, for completion and success reporting. */
export interface CourseProgress extends CourseState {
  /** Every lesson has been visited. */
  readonly completed: boolean;
  /** The final assessment passed, or else every quiz lesson passed; null when the course has no quiz lessons. */
  readonly passed: boolean | null;
  /** The final assessment's counted score (its best, or its last when it says so), or else the mean of each quiz lesson's; null without quiz lessons. */
  readonly scorePercent: number | null;
}

export interface LessonSummary {
  readonly id: string;
  readonly title: string;
  readonly kind: "content" | "quiz";
  /** The quiz that alone decides the course's success and score, when the course has one. */
  readonly finalAssessment: boolean;
}

export interface CourseRuntimeApi {
  readonly version: 1;
  readonly courseId: string;
  readonly lessons: readonly LessonSummary[];
  /** Calls `listener` on every lesson visit; returns a function that stops it. */
  onLessonVisited(listener: (visit: LessonVisit) => void): () => void;
  onQuizScored(listener: (score: QuizScore) => void): () => void;
  onQuestionAnswered(listener: (answer: QuestionAnswer) => void): () => void;
  /** Calls `listener` whenever a quiz attempt's draw or answers change, so a host can save them. */
  onAttemptSaved(listener: (lessonId: string) => void): () => void;
  getState(): CourseProgress;
  /** Restores saved progress (merging visits); shows `currentLessonId` when given. */
  setState(state: Partial<CourseState>): void;
  goToLesson(lessonId: string): void;
  /**
   * The learning platform's pass mark (0-100, cmi5 `masteryScore`, SCORM `scaled_passing_score` or
   * `mastery_score`), which replaces the course's for the quizzes that decide success (the final
   * assessment, else every quiz lesson): the page states it and grades by it. Null keeps the course's.
   */
  setPassMark(percent: number | null): void;
}

/** What the quiz script needs from the runtime. */
export interface QuizRecorder {
  recordQuizAttempt(result: Omit<QuizScore, "attempt" | "attemptsLeft">, maxAttempts: number | null): QuizScore;
  quizRecord(lessonId: string): QuizRecord | undefined;
  announceQuestionAnswer(answer: QuestionAnswer): void;
  /** Keeps a quiz lesson's current attempt in the course state (null forgets it). */
  saveAttempt(lessonId: string, attempt: unknown): void;
  attemptOf(lessonId: string): unknown;
  /** The pass mark that decides a quiz lesson: the learning platform's when it sent one, else the lesson's own. */
  passMarkOf(lessonId: string, own: number | null): number | null;
}

export const courseEvents = {
  lessonVisited: "course:lesson-visited",
  quizScored: "course:quiz-scored",
  questionAnswered: "course:question-answered",
  stateRestored: "course:state-restored",
  attemptSaved: "course:attempt-saved",
  ready: "course:ready",
} as const;

declare global {
  interface Window {
    CourseRuntime?: CourseRuntimeApi;
  }
}
