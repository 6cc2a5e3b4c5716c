/**
 * Diagnoses from a course's results: each finding names the question, lesson or video, the evidence, and
 * one proposed `edit_course` step. Nothing is changed here: the agent decides and calls edit_course. A
 * step whose new text only the author can write carries placeholders in angle brackets (`needsText`).
 */
import type { BlockRow } from "../../store/types.ts";
import type { CourseOutline, CourseResults, QuestionResults } from "./course-results.ts";
import { lessonsInOrder } from "./course-results.ts";

export type DiagnosisKind = "probably_wrong_key" | "unused_distractor" | "too_easy" | "lesson_drop_off" | "video_not_finished";

export interface Diagnosis {
  kind: DiagnosisKind;
  /** The question's or video's block id, or the lesson id. */
  target: string;
  title: string;
  evidence: string;
  proposedStep: Record<string, unknown>;
  /** The step holds placeholders (<…>) the author's words must replace before it is applied. */
  needsText: boolean;
}

/** A question everyone gets right: facility of first attempts at least this. */
export const tooEasyFacility = 0.95;
/** A lesson where this share of the learners who reach it stop. */
export const dropOffShare = 1 / 3;

const percent = (value: number): string => `${Math.round(value * 100)}%`;

function choicesStep(block: BlockRow, change: (choices: Record<string, unknown>[]) => Record<string, unknown>[]): Record<string, unknown> {
  const choices = (block.body.choices as Record<string, unknown>[]).map((choice) => ({ ...choice }));
  return { op: "update_block", blockId: block.id, changes: { choices: change(choices) } };
}

function keyFinding(question: QuestionResults, block: BlockRow): Diagnosis | null {
  const all = question.allAttempts;
  if (!all || all.discriminationIndex === null || all.discriminationIndex >= 0 || !question.choices) return null;
  const key = question.choices.filter((choice) => choice.correct);
  const keyTop = Math.max(0, ...key.map((choice) => choice.topThirdRate));
  const rival = question.choices.filter((choice) => !choice.correct).sort((a, b) => b.topThirdRate - a.topThirdRate)[0];
  if (!rival || rival.topThirdRate <= keyTop) return null;
  const index = Number(rival.choice.replace("choice_", "")) - 1;
  const proposedStep =
    block.type === "true_false"
      ? { op: "update_block", blockId: block.id, changes: { answer: rival.choice === "true" } }
      : choicesStep(block, (choices) => choices.map((choice, at) => ({ ...choice, correct: block.type === "multiple_choice" ? (at === index ? true : choice.correct) : at === index })));
  return {
    kind: "probably_wrong_key",
    target: question.questionId,
    title: question.title,
    evidence: `Discrimination index ${all.discriminationIndex} over ${all.attempts} attempts: learners who do well on the rest of the quiz do worse here. The best third chose "${rival.text}" ${percent(rival.topThirdRate)} of the time, the key ${percent(keyTop)}.`,
    proposedStep,
    needsText: false,
  };
}

/** One finding per question: every choice nobody chose, removed in one step while two choices remain (else rewritten). */
function distractorFindings(question: QuestionResults, block: BlockRow): Diagnosis[] {
  if (!question.choices || !Array.isArray(block.body.choices) || block.type === "true_false") return [];
  const unused = question.choices.filter((choice) => !choice.correct && choice.selectionRate === 0);
  if (unused.length === 0) return [];
  const indexes = new Set(unused.map((choice) => Number(choice.choice.replace("choice_", "")) - 1));
  const removable = question.choices.length - indexes.size >= 2;
  const proposedStep = removable
    ? choicesStep(block, (choices) => choices.filter((_, at) => !indexes.has(at)))
    : choicesStep(block, (choices) => choices.map((entry, at) => (indexes.has(at) ? { ...entry, text: "<a more plausible wrong answer>" } : entry)));
  return [{
    kind: "unused_distractor",
    target: question.questionId,
    title: question.title,
    evidence: `Nobody chose ${unused.map((choice) => `"${choice.text}"`).join(", ")} in ${question.allAttempts?.attempts ?? 0} attempts; ${unused.length > 1 ? "they do" : "it does"} not distract.`,
    proposedStep,
    needsText: !removable,
  }];
}

function easyFinding(question: QuestionResults): Diagnosis | null {
  const first = question.firstAttempts;
  if (!first || first.facilityIndex < tooEasyFacility) return null;
  return {
    kind: "too_easy",
    target: question.questionId,
    title: question.title,
    evidence: `Facility index ${first.facilityIndex} on first attempts (${first.attempts} attempts): nearly everyone gets it right, so it tells learners apart little.`,
    proposedStep: { op: "update_block", blockId: question.questionId, changes: { prompt: "<a harder prompt testing the same objective>" } },
    needsText: true,
  };
}

export function diagnose(outline: CourseOutline, results: CourseResults): Diagnosis[] {
  const blocks = new Map(outline.blocks.map((block) => [block.id, block]));
  const findings: Diagnosis[] = [];
  for (const question of results.questions) {
    const block = blocks.get(question.questionId);
    if (!block || question.withheld) continue;
    const key = keyFinding(question, block);
    // A wrong key first: which choices are distractors changes with it.
    if (key) findings.push(key);
    else findings.push(...distractorFindings(question, block));
    const easy = key ? null : easyFinding(question);
    if (easy) findings.push(easy);
  }
  const ordered = lessonsInOrder(outline);
  for (const lesson of results.lessons) {
    if (lesson.withheld || lesson.dropOffRate === undefined || lesson.dropOffRate < dropOffShare) continue;
    const position = ordered.findIndex((entry) => entry.id === lesson.lessonId);
    if (position === ordered.length - 1) continue;
    findings.push({
      kind: "lesson_drop_off",
      target: lesson.lessonId,
      title: lesson.title,
      evidence: `${lesson.stoppedHere} of the ${lesson.reached} learners who reached it (${percent(lesson.dropOffRate)}) went no further${lesson.medianSeconds ? `; median time ${Math.round(lesson.medianSeconds / 60)} min` : ""}.`,
      proposedStep: { op: "add_lesson", moduleId: lesson.moduleId, title: `<second part of "${lesson.title}">`, position: ordered.filter((entry) => entry.moduleId === lesson.moduleId).findIndex((entry) => entry.id === lesson.lessonId) + 1 },
      needsText: true,
    });
  }
  for (const video of results.videos) {
    if (video.withheld || !video.played || (video.finished ?? 0) > 0) continue;
    findings.push({
      kind: "video_not_finished",
      target: video.blockId,
      title: `video in lesson ${video.lessonId}`,
      evidence: `${video.played} learners played it; none finished it.`,
      proposedStep: { op: "update_block", blockId: video.blockId, changes: { transcript: "<a transcript or a summary of its key points>" } },
      needsText: true,
    });
  }
  return findings;
}
