/**
 * A course's questions as a bank: one pool per lesson that holds questions (a quiz lesson's draw, shuffle
 * and pass mark with it), narrowed to one lesson or one module when asked. Every bank format (QTI 3.0 and
 * 2.1, Moodle XML, GIFT) writes from this, and says through `BankNotices` what it could not carry.
 */
import type { QuestionBlock } from "../../authoring/schemas/blocks.ts";
import { isQuestionType } from "../../authoring/schemas/question-blocks.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import type { RenderableLesson } from "../../render/types.ts";
import type { ExportCourse } from "../package/types.ts";

export interface BankPool {
  readonly lessonId: string;
  readonly title: string;
  readonly moduleTitle: string;
  readonly isQuiz: boolean;
  /** Questions drawn per attempt; null: all. */
  readonly drawCount: number | null;
  readonly drawByObjective: boolean;
  readonly shuffleChoices: boolean;
  readonly passingScore: number | null;
  readonly maxAttempts: number | null;
  readonly questions: readonly QuestionBlock[];
  /** The lesson's other blocks (text, pictures, scenarios…): no bank format carries them. */
  readonly otherBlocks: readonly { readonly id: string; readonly type: string }[];
}

export interface QuestionBank {
  readonly courseId: string;
  readonly title: string;
  readonly language: string;
  readonly pools: readonly BankPool[];
}

function poolOf(lesson: RenderableLesson, moduleTitle: string): BankPool {
  const blocks = lesson.blocks ?? [];
  const questions = blocks.filter((block) => isQuestionType(block.type)) as unknown as QuestionBlock[];
  const isQuiz = lesson.kind === "quiz";
  return {
    lessonId: lesson.id,
    title: lesson.title,
    moduleTitle,
    isQuiz,
    drawCount: isQuiz && typeof lesson.drawCount === "number" && lesson.drawCount < questions.length ? lesson.drawCount : null,
    drawByObjective: isQuiz && lesson.drawByObjective === true,
    shuffleChoices: lesson.shuffleChoices !== false,
    passingScore: isQuiz && typeof lesson.passingScore === "number" ? lesson.passingScore : null,
    maxAttempts: isQuiz && typeof lesson.maxAttempts === "number" ? lesson.maxAttempts : null,
    questions,
    otherBlocks: blocks.filter((block) => !isQuestionType(block.type)).map((block) => ({ id: block.id, type: block.type })),
  };
}

/**
 * The bank of the whole course, of one module (`scope` a module ID) or of one lesson (a lesson ID).
 * A scope that names nothing in the course, or a bank without a question, is `invalid_arguments`.
 */
export function questionBank(course: ExportCourse, scope?: string): QuestionBank {
  const pools: BankPool[] = [];
  let found = scope === undefined;
  for (const module of course.modules) {
    const wholeModule = scope === undefined || scope === module.id;
    if (scope === module.id) found = true;
    for (const lesson of module.lessons) {
      if (!wholeModule && scope !== lesson.id) continue;
      if (scope === lesson.id) found = true;
      const pool = poolOf(lesson, module.title);
      if (pool.questions.length > 0) pools.push(pool);
    }
  }
  if (!found) {
    throw new CourseAuthoringError("invalid_arguments", `scope: "${scope}" is neither a module nor a lesson of course ${course.id}; give a module ID, a lesson ID, or omit scope for the whole course.`, {
      field: "scope",
    });
  }
  if (pools.length === 0) {
    const where = scope === undefined ? `course ${course.id}` : `${scope}`;
    throw new CourseAuthoringError("invalid_state", `${where} has no question blocks, so there is no question bank to export; add questions with add_blocks, or choose another scope.`, {
      field: "scope",
    });
  }
  return { courseId: course.id, title: course.title, language: course.language ?? "en", pools };
}

/** The course narrowed to the bank's lessons (and no theme), so only the assets its questions use are packed. */
export function bankCourse(course: ExportCourse, bank: QuestionBank): ExportCourse {
  const kept = new Set(bank.pools.map((pool) => pool.lessonId));
  return {
    ...course,
    theme: null,
    modules: course.modules.map((module) => ({
      ...module,
      lessons: module.lessons.filter((lesson) => kept.has(lesson.id)).map((lesson) => ({ ...lesson, blocks: (lesson.blocks ?? []).filter((block) => isQuestionType(block.type)) })),
    })),
  };
}

/** What a format could not carry, per question and per pool, in words for the author. */
export class BankNotices {
  private readonly lines: string[] = [];

  question(question: { id: string; type: string }, pool: BankPool, what: string): void {
    this.lines.push(`Question ${question.id} (${question.type}) in "${pool.title}": ${what}`);
  }

  pool(pool: BankPool, what: string): void {
    this.lines.push(`Lesson "${pool.title}" (${pool.lessonId}): ${what}`);
  }

  get all(): readonly string[] {
    return this.lines;
  }

  /** The notices as a file for the package, or a comment block. */
  text(formatName: string): string {
    if (this.lines.length === 0) return `Everything in this bank was carried into ${formatName}.\n`;
    return `What ${formatName} could not carry:\n${this.lines.map((line) => `- ${line}`).join("\n")}\n`;
  }
}

/**
 * The notice of a question a format does not write yet (the round-5 types before the format learns
 * them): left out, and said so, never dropped silently.
 */
export function notCarriedYet(question: { id: string; type: string }, pool: BankPool, notices: BankNotices, formatName: string): null {
  notices.question(question, pool, `left out: ${question.type} questions are not written to ${formatName} yet.`);
  return null;
}

/** Points a question is worth; a likert scale has none (it is never scored). */
export function questionPoints(question: object): number {
  return "points" in question && typeof question.points === "number" ? question.points : 0;
}

/** Notices every format shares: blocks that are not questions, and question objectives (no bank format keeps course objectives). */
export function commonNotices(bank: QuestionBank, notices: BankNotices): void {
  for (const pool of bank.pools) {
    if (pool.otherBlocks.length > 0) notices.pool(pool, `blocks ${pool.otherBlocks.map((block) => `${block.id} (${block.type})`).join(", ")} are not questions and were left out.`);
    if (pool.drawByObjective) notices.pool(pool, "drawing questions per learning objective (drawByObjective) has no equivalent; the draw takes any questions.");
    const withObjectives = pool.questions.filter((question) => (question.objectiveIds ?? []).length > 0);
    if (withObjectives.length > 0) notices.pool(pool, `the learning objectives of questions ${withObjectives.map((question) => question.id).join(", ")} are not carried.`);
  }
}

/** The asset IDs and URLs of a question's pictures (pictured choices). */
export function questionPictures(question: QuestionBlock): { readonly assetId?: string | undefined; readonly url?: string | undefined; readonly alt?: string | undefined }[] {
  if (question.type !== "single_choice" && question.type !== "multiple_choice") return [];
  return question.choices.flatMap((choice) => (choice.image ? [choice.image] : []));
}
