/**
 * The contract between the rendered course page and whatever hosts it (the preview, a SCORM or cmi5
 * adapter passed as `runtimeScript`): the `window.CourseRuntime` API and the `course:*` DOM events it
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
   * What the learner answered, one entry per part: the chosen choices' indices (choice questions), the
   * text typed in each blank, the right-hand index picked for each pair ("" when none), or the items'
   * original positions in the order the learner left them (ordering).
   */
  readonly response: readonly string[];
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
}

/** `CourseState` plus what follows from it, for completion and success reporting. */
export interface CourseProgress extends CourseState {
  /** Every lesson has been visited. */
  readonly completed: boolean;
  /** Every quiz lesson passed; null when the course has no quiz lessons. */
  readonly passed: boolean | null;
  /** Mean of the best score of each quiz lesson; null when the course has no quiz lessons. */
  readonly scorePercent: number | null;
}

export interface LessonSummary {
  readonly id: string;
  readonly title: string;
  readonly kind: "content" | "quiz";
}

export interface CourseRuntimeApi {
  readonly version: 1;
  readonly courseId: string;
  readonly lessons: readonly LessonSummary[];
  /** Calls `listener` on every lesson visit; returns a function that stops it. */
  onLessonVisited(listener: (visit: LessonVisit) => void): () => void;
  onQuizScored(listener: (score: QuizScore) => void): () => void;
  onQuestionAnswered(listener: (answer: QuestionAnswer) => void): () => void;
  getState(): CourseProgress;
  /** Restores saved progress (merging visits); shows `currentLessonId` when given. */
  setState(state: Partial<CourseState>): void;
  goToLesson(lessonId: string): void;
}

/** What the quiz script needs from the runtime. */
export interface QuizRecorder {
  recordQuizAttempt(result: Omit<QuizScore, "attempt" | "attemptsLeft">, maxAttempts: number | null): QuizScore;
  quizRecord(lessonId: string): QuizRecord | undefined;
  announceQuestionAnswer(answer: QuestionAnswer): void;
}

export const courseEvents = {
  lessonVisited: "course:lesson-visited",
  quizScored: "course:quiz-scored",
  questionAnswered: "course:question-answered",
  stateRestored: "course:state-restored",
  ready: "course:ready",
} as const;

declare global {
  interface Window {
    CourseRuntime?: CourseRuntimeApi;
  }
}
