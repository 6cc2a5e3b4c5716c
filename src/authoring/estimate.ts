/**
 * Estimated lesson time when the author has not set one: reading at 200 words a minute, plus the
 * length of videos and audio, plus a minute per question or scenario and a quarter minute per flashcard.
 * A quiz lesson that draws part of its pool counts the average question's time once per question drawn.
 */
import type { BlockRow, JsonValue } from "../store/types.ts";
import { isQuestionType } from "./schemas/question-blocks.ts";

const wordsPerMinute = 200;
const minutesPerQuestion = 1;
const minutesPerFlashcard = 0.25;
/** Fields that hold addresses or settings, not words a learner reads. */
const nonProseFields = new Set(["url", "assetId", "language", "variant", "type", "id", "next", "startSceneId", "outcome", "category"]);

export function estimateLessonMinutes(blocks: readonly Pick<BlockRow, "type" | "body">[], quiz?: { readonly kind: string; readonly drawCount: number | null }): number {
  let other = 0;
  let questions = 0;
  let questionCount = 0;
  for (const block of blocks) {
    let minutes = countWords(block.body) / wordsPerMinute;
    const duration = block.body.durationSeconds;
    if (typeof duration === "number") minutes += duration / 60;
    const cards = block.body.cards;
    if (block.type === "flashcards" && Array.isArray(cards)) minutes += cards.length * minutesPerFlashcard;
    if (isQuestionType(block.type) || block.type === "scenario") {
      questions += minutes + minutesPerQuestion;
      questionCount++;
    } else other += minutes;
  }
  // A quiz that draws part of its pool takes the learner through the questions drawn, not the pool.
  const drawn = quiz?.kind === "quiz" && quiz.drawCount !== null && quiz.drawCount < questionCount ? quiz.drawCount : questionCount;
  const minutes = other + (questionCount === 0 ? 0 : (questions * drawn) / questionCount);
  return blocks.length === 0 ? 0 : Math.max(1, Math.ceil(minutes));
}

/** JavaScript's `\s`: the characters `split(/\s+/)` splits at. */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/**
 * `text.split(/\s+/).filter(Boolean).length` without building the array: every read of a course counts
 * its words, and text of many one-word lines made one string per word on each read.
 */
function wordsIn(text: string): number {
  let words = 0;
  let inWord = false;
  for (let index = 0; index < text.length; index++) {
    const space = isSpace(text.charCodeAt(index));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

function countWords(value: JsonValue, field = ""): number {
  if (nonProseFields.has(field)) return 0;
  if (typeof value === "string") return wordsIn(value);
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + countWords(item), 0);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).reduce<number>((sum, [key, item]) => sum + countWords(item, key), 0);
  }
  return 0;
}
