/**
 * Reading level: the Flesch–Kincaid grade of English prose, with syllables counted by the usual
 * vowel-group heuristic (deterministic, no dictionary), and the grade a course's stated level and
 * audience call for. The grade formula is only meaningful for English and for more than a few
 * sentences, so callers measure whole lessons and only for `en` courses.
 */

export interface ReadingStats {
  words: number;
  sentences: number;
  syllables: number;
}

export function emptyStats(): ReadingStats {
  return { words: 0, sentences: 0, syllables: 0 };
}

/**
 * Adds the words, sentences and syllables of `text` to `stats`. A sentence ends at . ! or ? before a
 * space (or the end) and at every line break, so list items count as sentences. Words are runs of
 * letters (apostrophes kept inside). One pass over the characters: this runs on every text block.
 */
export function addReadingStats(stats: ReadingStats, text: string): void {
  let wordsInSentence = 0;
  let wordStart = -1;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : newline;
    if (isLetter(code) || (code === apostrophe && wordStart >= 0)) {
      if (wordStart < 0) wordStart = index;
      continue;
    }
    if (wordStart >= 0) {
      wordsInSentence++;
      stats.syllables += syllablesIn(text, wordStart, index);
      wordStart = -1;
    }
    if (wordsInSentence > 0 && endsSentence(code, index < text.length - 1 ? text.charCodeAt(index + 1) : newline)) {
      stats.words += wordsInSentence;
      stats.sentences++;
      wordsInSentence = 0;
    }
  }
}

const newline = 10;
const apostrophe = 39;

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

function endsSentence(code: number, next: number): boolean {
  if (code === newline) return true;
  return (code === 46 || code === 33 || code === 63) && (isWhitespace(next) || next === 46 || next === 33 || next === 63);
}

/** Vowel groups (two vowels at most per group), less a silent final e/es/ed (but not -le), at least one. */
export function countSyllables(word: string): number {
  return syllablesIn(word, 0, word.length);
}

const letterA = 97;
const letterE = 101;
const letterD = 100;
const letterS = 115;
const letterY = 121;

/** Lower-case letter code, or 0 for anything else (apostrophes are skipped by the callers' indexes). */
function lowerAt(text: string, index: number): number {
  const code = text.charCodeAt(index) | 32;
  return code >= letterA && code <= 122 ? code : 0;
}

function isVowel(code: number): boolean {
  return code === letterA || code === letterE || code === 105 || code === 111 || code === 117 || code === letterY;
}

/** Scratch space for one word's letters; words longer than this are counted on their first 64 letters. */
const letters = new Uint8Array(64);

/** `countSyllables` of text[start, end) without allocating; apostrophes are ignored. */
function syllablesIn(text: string, start: number, end: number): number {
  let length = 0;
  for (let index = start; index < end && length < letters.length; index++) {
    const code = lowerAt(text, index);
    if (code !== 0) letters[length++] = code;
  }
  if (length <= 3) return 1;
  let last = length;
  const silentBefore = (position: number) => position >= 0 && letters[position] !== 108 && !isVowel(letters[position] as number);
  const final = letters[last - 1];
  if ((final === letterS || final === letterD) && letters[last - 2] === letterE && silentBefore(last - 3)) last -= 2;
  else if (final === letterE && silentBefore(last - 2)) last -= 1;
  let groups = 0;
  let run = 0;
  for (let index = letters[0] === letterY ? 1 : 0; index < last; index++) {
    if (isVowel(letters[index] as number)) {
      if (run % 2 === 0) groups++;
      run++;
    } else {
      run = 0;
    }
  }
  return Math.max(1, groups);
}

export function fleschKincaidGrade(stats: ReadingStats): number {
  if (stats.words === 0 || stats.sentences === 0) return 0;
  return 0.39 * (stats.words / stats.sentences) + 11.8 * (stats.syllables / stats.words) - 15.59;
}

/** Fewer words than this and the grade says more about chance than about the text. */
export const minimumWordsForGrade = 100;
/** How far above the audience's grade the text may read before it is reported. */
export const gradeTolerance = 4;

const gradeForLevel: Record<string, number> = { beginner: 8, intermediate: 10, advanced: 12, all_levels: 8 };

/** The school grade the audience should be able to read comfortably. */
export function audienceGrade(level: string | null, audience: string): number {
  const who = audience.toLowerCase();
  if (/\b(child|children|kids?|pupils?|primary|elementary)\b/.test(who)) return 5;
  if (/\b(teens?|teenagers?|secondary|high[- ]school|middle[- ]school)\b/.test(who)) return 8;
  return (level && gradeForLevel[level]) || 10;
}
