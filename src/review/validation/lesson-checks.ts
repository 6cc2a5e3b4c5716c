/**
 * Checks of a module or lesson as a whole: empty containers, quizzes without questions, modules that
 * never check understanding, heading levels that skip, lessons far longer than the course's pacing,
 * and prose that reads well above the audience's level.
 */
import { isGradedType } from "../../authoring/schemas/blocks.ts";
import { quizOptionsOf } from "../../authoring/quiz-options.ts";
import { isQuestionType } from "../../authoring/schemas/question-blocks.ts";
import { atField, type WalkedCourse, type WalkedLesson, type WalkedModule } from "./course-walk.ts";
import { markdownHeadingLevels, plainText, proseFields } from "./markdown-text.ts";
import { addReadingStats, audienceGrade, emptyStats, fleschKincaidGrade, gradeTolerance, minimumWordsForGrade } from "./readability.ts";
import { checkAltText } from "./block-checks.ts";
import type { FindingList } from "./rules.ts";

export function checkModule(module: WalkedModule, findings: FindingList): void {
  if (module.lessons.length === 0) {
    findings.report(
      "structure.empty_module",
      module.location,
      "The module has no lessons.",
      `Add a lesson with add_lesson { moduleId: "${module.row.id}" }, or remove the module with remove_module.`,
    );
    return;
  }
  const asksQuestions = module.lessons.some((lesson) => lesson.blocks.some((block) => isGradedType(block.row.type)));
  if (!asksQuestions) {
    findings.report(
      "module.no_knowledge_check",
      module.location,
      "No lesson in this module asks a question, so learners cannot check their understanding.",
      `Add a few question blocks (single_choice, true_false…) with add_blocks, or a quiz lesson with add_lesson { moduleId: "${module.row.id}", kind: "quiz" }.`,
    );
  }
}

/** What the lesson checks need to know about the whole course, computed once. */
export interface Pacing {
  medianMinutes: number;
  lessonCount: number;
}

export function coursePacing(course: WalkedCourse): Pacing {
  const minutes = course.modules.flatMap((module) => module.lessons.filter((lesson) => lesson.blocks.length > 0).map((lesson) => lesson.minutes));
  minutes.sort((a, b) => a - b);
  const middle = Math.floor(minutes.length / 2);
  const median = minutes.length === 0 ? 0 : minutes.length % 2 === 1 ? (minutes[middle] ?? 0) : ((minutes[middle - 1] ?? 0) + (minutes[middle] ?? 0)) / 2;
  return { medianMinutes: median, lessonCount: minutes.length };
}

/** Any lesson over an hour is too long; with three or more lessons, so is one over twice the median (and 10 minutes more). */
export const maximumLessonMinutes = 60;

export function checkLesson(lesson: WalkedLesson, course: WalkedCourse, pacing: Pacing, findings: FindingList): void {
  const banner = lesson.row.banner;
  if (banner && !banner.decorative) checkAltText(banner.alt ?? "", lesson.location, "update_lesson", findings);
  if (lesson.blocks.length === 0) {
    findings.report(
      "structure.empty_lesson",
      lesson.location,
      "The lesson has no content.",
      `Add blocks with add_blocks { lessonId: "${lesson.row.id}" }, or remove the lesson with remove_lesson.`,
    );
    return;
  }
  if (lesson.row.kind === "quiz" && !lesson.blocks.some((block) => isGradedType(block.row.type))) {
    findings.report(
      "quiz.no_questions",
      lesson.location,
      "This quiz lesson has no question blocks, so there is nothing to score.",
      `Add question blocks with add_blocks { lessonId: "${lesson.row.id}" }, or make it a content lesson with update_lesson { kind: "content" }.`,
    );
  }
  if (lesson.row.kind === "quiz") checkQuizPool(lesson, findings);
  // 0.8 is almost surely meant as 80 %: passing scores are percentages, so it would pass nearly everyone.
  if (lesson.row.kind === "quiz" && lesson.row.passingScore !== null && lesson.row.passingScore > 0 && lesson.row.passingScore < 1) {
    findings.report(
      "quiz.passing_score_fraction",
      atField(lesson.location, "passingScore"),
      `The passing score is ${lesson.row.passingScore}, which is ${lesson.row.passingScore} %: nearly any attempt passes. Passing scores are percentages (0-100).`,
      `Set it as a percentage with update_lesson { passingScore: ${Math.round(lesson.row.passingScore * 100)} }.`,
    );
  }
  checkHeadingLevels(lesson, findings);
  checkLength(lesson, pacing, findings);
  checkReadingLevel(lesson, course, findings);
}

/** A pool that later edits shrank below its draw, and graded questions that teach nothing after submitting. */
function checkQuizPool(lesson: WalkedLesson, findings: FindingList): void {
  const questions = lesson.blocks.filter((walked) => isQuestionType(walked.row.type));
  const { drawCount } = quizOptionsOf(lesson.row);
  if (drawCount !== null && questions.length > 0 && drawCount > questions.length) {
    findings.report(
      "quiz.pool_too_small",
      atField(lesson.location, "drawCount"),
      `The quiz draws ${drawCount} question(s) per attempt but holds only ${questions.length}.`,
      `Add ${drawCount - questions.length} question(s) with add_blocks, or lower the draw with update_lesson { drawCount: ${questions.length} }.`,
    );
  }
  for (const walked of questions) {
    if (hasLearnerFeedback(walked.row.body)) continue;
    findings.report(
      "question.no_feedback",
      atField(walked.location, "explanation"),
      "This graded question has neither an explanation nor feedback, so a learner who gets it wrong learns nothing from the result.",
      "Add an explanation (or feedback on its answers) with update_block.",
    );
  }
}

/** An explanation, or feedback on any answer (`feedback`, `trueFeedback`, … at any depth). */
function hasLearnerFeedback(value: unknown, key = ""): boolean {
  if (typeof value === "string") return value.trim() !== "" && (key === "explanation" || /feedback$/i.test(key));
  if (Array.isArray(value)) return value.some((item) => hasLearnerFeedback(item, key));
  if (typeof value === "object" && value !== null) return Object.entries(value).some(([name, child]) => hasLearnerFeedback(child, name));
  return false;
}

/** The lesson title is level 1; each heading may go at most one level deeper than the one before. */
function checkHeadingLevels(lesson: WalkedLesson, findings: FindingList): void {
  let previous = 1;
  for (const walked of lesson.blocks) {
    const levels = walked.block.type === "heading" ? [walked.block.level ?? 2] : walked.block.type === "text" ? markdownHeadingLevels(walked.block.markdown ?? "") : [];
    for (const level of levels) {
      if (level > previous + 1) {
        findings.report(
          "heading.skipped_level",
          atField(walked.location, walked.block.type === "heading" ? "level" : "markdown"),
          `A level-${level} heading follows a level-${previous} heading${previous === 1 ? " (the lesson title)" : ""}, skipping level ${previous + 1}; screen-reader users navigate by these levels.`,
          walked.block.type === "heading"
            ? `Call update_block with level: ${previous + 1}, or add the missing level-${previous + 1} heading before it.`
            : `Call update_block with the Markdown heading written as ${"#".repeat(previous + 1)} (level ${previous + 1}).`,
        );
      }
      previous = level;
    }
  }
}

function checkLength(lesson: WalkedLesson, pacing: Pacing, findings: FindingList): void {
  const relativeLimit = pacing.lessonCount >= 3 ? Math.max(2 * pacing.medianMinutes, pacing.medianMinutes + 10) : Number.POSITIVE_INFINITY;
  const limit = Math.min(maximumLessonMinutes, relativeLimit);
  if (lesson.minutes <= limit) return;
  const comparison =
    lesson.minutes > relativeLimit && pacing.medianMinutes > 0
      ? `${(lesson.minutes / pacing.medianMinutes).toFixed(1)}× the course's median lesson of ${pacing.medianMinutes} min`
      : `over the ${maximumLessonMinutes}-minute ceiling for one sitting`;
  findings.report(
    "lesson.too_long",
    atField(lesson.location, "estimatedMinutes"),
    `The lesson takes about ${lesson.minutes} min, ${comparison}.`,
    `Split it: add_lesson for a new lesson and move_block { toLessonId } for the second half. If the estimate is wrong, set it with update_lesson { estimatedMinutes }.`,
  );
}

function checkReadingLevel(lesson: WalkedLesson, course: WalkedCourse, findings: FindingList): void {
  if (!/^en(?:-|$)/i.test(course.course.language)) return;
  const stats = emptyStats();
  for (const walked of lesson.blocks) for (const { markdown } of proseFields(walked.block)) addReadingStats(stats, plainText(markdown));
  if (stats.words < minimumWordsForGrade) return;
  const grade = fleschKincaidGrade(stats);
  const target = audienceGrade(course.course.level, course.course.audience);
  if (grade <= target + gradeTolerance) return;
  const audience = [course.course.level?.replace("_", " "), course.course.audience].filter(Boolean).join(", ") || "a general audience";
  findings.report(
    "text.reading_level",
    lesson.location,
    `The lesson's text reads at about grade ${grade.toFixed(1)} (Flesch–Kincaid: ${(stats.words / stats.sentences).toFixed(0)} words per sentence, ${(stats.syllables / stats.words).toFixed(2)} syllables per word); the audience (${audience}) reads comfortably at about grade ${target}.`,
    "Rewrite its text blocks with update_block: shorter sentences (about 15-20 words), everyday words, one idea per sentence; define unavoidable jargon. If the audience is more expert, say so with update_course { level, audience }.",
  );
}
