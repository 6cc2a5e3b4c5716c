/**
 * Quiz-lesson options beyond pass mark and attempts (issue 21): question pools (`drawCount`,
 * `drawByObjective`), `shuffleChoices`, `feedbackMode` and `finalAssessment`; `oneQuestionAtATime` and
 * `attemptScoring` (issue 30), stored in the same JSON column, so no migration. Rules a learner would
 * suffer from are refused on write, naming the field and the fix; what a later edit can still cause
 * (a pool shrinking below its draw) is a validate_course error instead.
 */
import type { LessonRow, QuizOptions, StoreTransaction } from "../store/types.ts";
import { invalidArgument } from "./errors.ts";
import { isQuestionType } from "./schemas/question-blocks.ts";

export const defaultQuizOptions: QuizOptions = {
  drawCount: null,
  drawByObjective: false,
  shuffleChoices: true,
  feedbackMode: "after_submit",
  finalAssessment: false,
  oneQuestionAtATime: false,
  attemptScoring: "best",
};

export type QuizOptionsInput = Partial<{ [K in keyof QuizOptions]: QuizOptions[K] | undefined }>;

const optionNames = Object.keys(defaultQuizOptions) as (keyof QuizOptions)[];

/** The options in effect for a lesson row (defaults for content lessons and for rows stored before them). */
export function quizOptionsOf(lesson: Pick<LessonRow, "kind" | "quizOptions">): QuizOptions {
  return { ...defaultQuizOptions, ...(lesson.quizOptions ?? {}) };
}

/** The options as documents show them: on quiz lessons only. */
export function quizOptionsDocument(lesson: Pick<LessonRow, "kind" | "quizOptions">): Partial<QuizOptions> {
  return lesson.kind === "quiz" ? quizOptionsOf(lesson) : {};
}

/**
 * Applies `input` to the current options for a lesson of `kind`. Options on a content lesson are refused
 * by name (switching to content clears them); null when the lesson is a content lesson.
 */
export function resolveQuizOptions(input: QuizOptionsInput, current: QuizOptions | null, kind: "content" | "quiz", field: string): QuizOptions | null {
  if (kind === "content") {
    for (const name of optionNames) {
      const value = input[name];
      if (value === undefined || value === null || value === false || value === defaultQuizOptions[name]) continue;
      const why = name === "finalAssessment" ? "only a quiz lesson can be the final assessment" : "is a quiz-lesson setting";
      throw invalidArgument(`${field}.${name}`, `${why}; set kind to quiz, or leave ${name} out`);
    }
    return null;
  }
  const resolved: Record<string, unknown> = { ...(current ?? defaultQuizOptions) };
  for (const name of optionNames) if (input[name] !== undefined) resolved[name] = input[name];
  return resolved as unknown as QuizOptions;
}

/**
 * The rules that need the course: `drawCount` at most the lesson's questions when it is set, and one
 * final assessment per course. `questionCount` is what the lesson holds after this write.
 */
/** What the check reads of the edit in progress (a `CourseEdit`; named here without importing it, which would close a cycle through the read model). */
interface EditInProgress {
  readonly tx: Pick<StoreTransaction, "listInCourse">;
  readonly course: { readonly id: string };
}

export async function checkQuizOptions(
  edit: EditInProgress,
  lessonId: string | null,
  options: QuizOptions | null,
  input: QuizOptionsInput,
  questionCount: number,
  field: string,
): Promise<void> {
  if (options === null) return;
  if (input.drawCount !== undefined && options.drawCount !== null && options.drawCount > questionCount) {
    throw invalidArgument(
      `${field}.drawCount`,
      `is ${options.drawCount} but the lesson has ${questionCount} question(s); set drawCount to at most ${questionCount}, or add questions first and set it then`,
      { questionCount },
    );
  }
  if (input.finalAssessment === true) {
    const lessons = await edit.tx.listInCourse("lesson", edit.course.id);
    const other = lessons.find((lesson) => lesson.id !== lessonId && lesson.kind === "quiz" && lesson.quizOptions?.finalAssessment === true);
    if (other) {
      throw invalidArgument(
        `${field}.finalAssessment`,
        `the course already has a final assessment (lesson ${other.id} "${other.title}"); a course has at most one. Call update_lesson { lessonId: "${other.id}", finalAssessment: false } first, or leave this one out`,
        { lessonId: other.id },
      );
    }
  }
}

export function countQuestions(blocks: readonly { type: string }[]): number {
  return blocks.filter((block) => isQuestionType(block.type)).length;
}
