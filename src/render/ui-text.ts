/**
 * Every fixed string the rendered course shows or announces, in one place so a translation can replace
 * the set as a whole. Functions build the sentences that carry numbers or author text. English is the
 * base; `uiText` and `runtimeText` read the course language's strings (ui-text-translations.ts) while
 * a render runs inside `inInterfaceLanguage`, English wherever a language has no string.
 */
import { interfaceTranslations, type InterfaceLanguage, type InterfaceStrings } from "./ui-text-translations.ts";

const englishUiText = {
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
  contentsKey: { visited: "Visited", completed: "Completed", passed: "Passed", failed: "Failed" },
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
const englishRuntimeText = {
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

let current: InterfaceStrings = {};

/** An object with the English keys whose values are read at access time, translated when one exists. */
function localisedView<T extends object>(english: T, translated: () => Partial<T> | undefined): T {
  const view = {} as T;
  for (const key of Object.keys(english) as (keyof T)[]) {
    Object.defineProperty(view, key, { enumerable: true, get: () => translated()?.[key] ?? english[key] });
  }
  return view;
}

export const uiText: UiText = localisedView(englishUiText, () => current.ui);
export const runtimeText: RuntimeText = localisedView(englishRuntimeText, () => current.runtime);

/** The interface language for a course language ("fr-CA" → "fr"), or null when the player has none and shows English. */
export function interfaceLanguage(language: string): InterfaceLanguage | "en" | null {
  const base = language.toLowerCase().split("-")[0] ?? "";
  if (base === "en") return "en";
  return Object.hasOwn(interfaceTranslations, base) ? (base as InterfaceLanguage) : null;
}

/**
 * Runs each step of a lazy render with the interface strings of `language`. Steps are synchronous, so
 * setting the strings around each one keeps two renders in different languages apart even when their
 * pieces interleave (two exports streaming at once).
 */
export function* inInterfaceLanguage<T>(language: string, pieces: Iterable<T>): Generator<T> {
  const chosen = interfaceLanguage(language);
  const strings = chosen && chosen !== "en" ? interfaceTranslations[chosen] : {};
  const iterator = pieces[Symbol.iterator]();
  for (;;) {
    const previous = current;
    current = strings;
    let step: IteratorResult<T>;
    try {
      step = iterator.next();
    } finally {
      current = previous;
    }
    if (step.done) return;
    yield step.value;
  }
}
