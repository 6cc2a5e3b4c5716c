import type { AdapterText } from "../player/lms/text.ts";

/**
 * The player's strings in English: the base every interface language falls back to, and the shape
 * (`UiText`, `RuntimeText`) a translation fills in. `ui-text.ts` serves them.
 */
export const englishUiText = {
  skipToContent: "Skip to content",
  courseContents: "Course contents",
  contentsToggle: "Contents",
  introduction: "Introduction",
  previewBadge: "Preview",
  previewOf: (variant: "draft" | "published", version: number) => (variant === "draft" ? `Preview: draft, version ${version}` : `Preview: published, version ${version}`),
  objectivesHeading: "What you will learn",
  audienceLabel: "Audience",
  levelLabel: "Level",
  startCourse: "Start the course",
  lessonsCompletedLabel: "Course progress",
  lessonsCompleted: (done: number, count: number) => `${done} of ${count} lessons completed`,
  previous: "Previous",
  next: "Next",
  quizBadge: "Quiz",
  contentsKey: { visited: "Visited", completed: "Completed", passed: "Passed", failed: "Failed" } as Record<"visited" | "completed" | "passed" | "failed", string>,
  opensInNewTab: "(opens in a new tab)",
  transcript: "Transcript",
  captions: "Captions",
  noMediaSupport: "Your browser cannot play this media. Use the transcript instead.",
  checkAnswer: "Check answer",
  submitQuiz: "Submit quiz",
  tryAgain: "Try again",
  explanation: "Explanation",
  trueLabel: "True",
  falseLabel: "False",
  chooseMatch: "Choose a match",
  selectAllThatApply: "Select all that apply.",
  arrangeInOrder: "Put the items in the right order with the move buttons.",
  moveUp: (item: string) => `Move up: ${item}`,
  moveDown: (item: string) => `Move down: ${item}`,
  showBack: "Show answer",
  showFront: "Show question",
  codeLabel: "Code",
  blockUnavailable: "This block could not be displayed",
  levels: { beginner: "Beginner", intermediate: "Intermediate", advanced: "Advanced", all_levels: "All levels" } as Record<string, string>,
  calloutVariants: { info: "Information", tip: "Tip", note: "Note", warning: "Warning", danger: "Danger", success: "Success" } as Record<string, string>,
  questionHeading: (number: number, points: number) => `Question ${number} (${points} ${points === 1 ? "point" : "points"})`,
  /** A module's title as learners see it; `number` is null when the course does not number modules. */
  moduleEyebrow: (number: number | null, title: string) => (number === null ? title : `Module ${number}: ${title}`),
  lessonNavigation: (title: string) => `Lesson navigation: ${title}`,
  estimatedMinutes: (minutes: number) => `About ${minutes} min`,
  lengthLabel: "Length",
  /** Preview only: the author's value beside what the content suggests. */
  setAndDerivedMinutes: (set: number, derived: number) => `About ${set} min (set; the content suggests ${derived} min)`,
  totalAndTarget: (total: number, target: number) => `About ${total} min (target ${target} min)`,
  passMark: (percent: number) => `Pass mark: ${percent}%`,
  attemptsAllowed: (attempts: number) => `${attempts} ${attempts === 1 ? "attempt" : "attempts"} allowed`,
  blankLabel: (number: number) => `Blank ${number}`,
  youChose: (answer: string) => `You chose “${answer}”:`,
  aboutBlank: (number: number) => `Blank ${number}:`,
  aboutPair: (left: string) => `“${left}”:`,
  aboutItem: (item: string) => `“${item}”:`,
  flashcardLabel: (number: number, count: number) => `Card ${number} of ${count}`,
  questionsPerAttempt: (count: number) => `${count} ${count === 1 ? "question" : "questions"} per attempt`,
  unansweredNote: "You can go back and answer them (your answers are kept), or submit now: unanswered questions score no points.",
  goBack: "Go back",
  finalAssessment: "Final assessment",
  submitAnyway: "Submit anyway",
} as const;
/** The strings' shape: each string key holds any text (`as const` above only keeps the functions' types exact). */
export type UiText = { [K in keyof typeof englishUiText]: (typeof englishUiText)[K] extends string ? string : (typeof englishUiText)[K] };

/** Sentences the in-page script builds at run time; passed to it as data. */
export const englishRuntimeText = {
  correct: "Correct.",
  incorrect: "Not quite.",
  partlyCorrect: "Partly correct. Points: {earned} of {possible}.",
  unanswered: "Please answer the question first.",
  pointsEarned: "Points: {earned} of {possible}.",
  scoreSummary: "Your score: {percent}% ({earned} of {possible} points).",
  passed: "You passed. The pass mark is {passMark}%.",
  failed: "You did not pass yet. The pass mark is {passMark}%.",
  noPassMark: "Quiz submitted.",
  attemptsLeft: "Attempts left: {count}.",
  noAttemptsLeft: "No attempts left.",
  lastScore: "Your last score: {percent}% after {attempts} attempt(s).",
  moved: "Moved “{item}” to position {position} of {count}.",
  lessonProgress: "Lesson {position} of {count}",
  lessonsCompleted: "{done} of {count} lessons completed",
  resumeCourse: "Resume: {title}",
  startCourse: "Start the course",
  /** What a screen reader hears after a lesson's name in the contents; the icons are in `styles.ts`. */
  contentsStates: { visited: "(visited)", completed: "(completed)", passed: "(passed)", failed: "(failed)" },
  questionHeadingOne: "Question {number} (1 point)",
  questionHeadingMany: "Question {number} ({points} points)",
  unansweredOne: "1 of {count} questions is not answered",
  unansweredMany: "{unanswered} of {count} questions are not answered",
  unansweredItem: "Question {number}",
  correctQuestion: "Question {number}: correct.",
  incorrectQuestion: "Question {number}: not correct.",
  partlyCorrectQuestion: "Question {number}: partly correct.",
  resultsHeading: "Your result",
  attemptsUnlimited: "You can try again as often as you like.",
};
export type RuntimeText = typeof englishRuntimeText;

/** What the LMS adapters say (see `player/lms/text.ts`). */
export const englishAdapterText = {
  exitCourse: "Exit course",
  noLmsFound: "Your progress is not being saved: this course was not opened from a learning platform. Open it from your learning platform to have your progress recorded.",
  lmsUnavailable: "Your progress is not being saved: the learning platform could not be reached. Close the course and open it again from your learning platform.",
  sessionExpired: "Your progress is no longer being saved: your session with the learning platform has expired. Close the course and open it again from your learning platform to continue.",
  stillSending: "Your learning platform is not answering. Your progress is kept on this device and will be sent when it answers again.",
} satisfies AdapterText;
