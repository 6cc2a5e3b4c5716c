/**
 * Browser-side helpers shared by the SCORM and cmi5 adapters, a compact encoding of the learner's progress
 * for `suspend_data` (SCORM 1.2 allows only 4,096 characters, so lessons are a bitset, not a list of
 * IDs) and the verdict an LMS is told: completed, passed or failed, and the score.
 */
import type { CourseProgress, CourseState, LessonSummary, QuizRecord } from "../../page-contract/course-runtime.ts";
import { ClassName } from "../../page-contract/markup-names.ts";

export interface ProgressVerdict {
  /** Every lesson has been visited. */
  readonly completed: boolean;
  /** True once every quiz lesson is passed; false when every quiz was attempted and one is not; null otherwise. */
  readonly passed: boolean | null;
  /** 0-100, or null when no quiz lesson has been attempted yet. */
  readonly scorePercent: number | null;
  readonly hasQuizzes: boolean;
  /** Share of lessons visited, 0-1. */
  readonly progressMeasure: number;
}

export interface ProgressTools {
  /**
   * The progress as compact JSON. Over `limit` characters, quiz answers are dropped first (draws and
   * choice orders kept), then the open attempts, so the bookmark, visits and scores always fit.
   */
  encode(progress: CourseState, limit?: number): string;
  decode(text: string): Partial<CourseState> | null;
  verdict(progress: CourseProgress): ProgressVerdict;
  /** Seconds as an ISO 8601 duration (`PT1H2M3.5S`), as SCORM 2004 and xAPI expect. */
  isoDuration(seconds: number): string;
  /** Seconds as a SCORM 1.2 `CMITimespan` (`HHHH:MM:SS.SS`). */
  scorm12Timespan(seconds: number): string;
  /** Shows a message to the learner above the course (replacing any earlier one); null removes it. */
  notify(message: string | null): void;
}

export function createProgressTools(lessons: readonly LessonSummary[]): ProgressTools {
  const indexOf = new Map(lessons.map((lesson, index) => [lesson.id, index]));

  function bitsetOf(ids: readonly string[]): string {
    const nibbles = new Array<number>(Math.ceil(lessons.length / 4)).fill(0);
    for (const id of ids) {
      const index = indexOf.get(id);
      if (index !== undefined) nibbles[index >> 2] = (nibbles[index >> 2] ?? 0) | (1 << (index & 3));
    }
    return nibbles.map((nibble) => nibble.toString(16)).join("");
  }

  function idsOf(bitset: string): string[] {
    const ids: string[] = [];
    for (let index = 0; index < lessons.length; index++) {
      const nibble = parseInt(bitset.charAt(index >> 2) || "0", 16);
      const lesson = lessons[index];
      if (lesson && nibble & (1 << (index & 3))) ids.push(lesson.id);
    }
    return ids;
  }

  /** An attempt as the quiz script saved it, with each entry's answer emptied. */
  function withoutAnswers(attempt: unknown): unknown {
    if (!Array.isArray(attempt) || !Array.isArray(attempt[1])) return attempt;
    return [attempt[0], (attempt[1] as unknown[]).map((entry) => (Array.isArray(entry) ? [entry[0], entry[1], ""] : entry))];
  }

  function encode(progress: CourseState, limit = Number.POSITIVE_INFINITY): string {
    const quizzes: number[][] = [];
    for (const [lessonId, record] of Object.entries(progress.quizzes)) {
      const index = indexOf.get(lessonId);
      if (index !== undefined) quizzes.push([index, record.attempts, record.lastScorePercent, record.bestScorePercent, record.passed ? 1 : 0]);
    }
    const attempts: [number, unknown][] = [];
    for (const [lessonId, attempt] of Object.entries(progress.attempts ?? {})) {
      const index = indexOf.get(lessonId);
      if (index !== undefined) attempts.push([index, attempt]);
    }
    const current = progress.currentLessonId === null ? -1 : (indexOf.get(progress.currentLessonId) ?? -1);
    const base = { v: 1, c: current, s: bitsetOf(progress.visitedLessonIds), q: quizzes };
    const full = JSON.stringify({ ...base, a: attempts });
    if (full.length <= limit) return full;
    const drawsOnly = JSON.stringify({ ...base, a: attempts.map(([index, attempt]) => [index, withoutAnswers(attempt)]) });
    return drawsOnly.length <= limit ? drawsOnly : JSON.stringify(base);
  }

  function decode(text: string): Partial<CourseState> | null {
    try {
      const data = JSON.parse(text) as { v?: unknown; c?: unknown; s?: unknown; q?: unknown; a?: unknown };
      if (data.v !== 1) return null;
      const current = typeof data.c === "number" ? lessons[data.c] : undefined;
      const quizzes: Record<string, QuizRecord> = {};
      for (const entry of Array.isArray(data.q) ? data.q : []) {
        if (!Array.isArray(entry) || entry.length < 5 || !entry.every((part) => typeof part === "number")) continue;
        const [index, attempts, last, best, passed] = entry as number[];
        const lesson = lessons[index ?? -1];
        if (lesson) quizzes[lesson.id] = { attempts: attempts ?? 0, lastScorePercent: last ?? 0, bestScorePercent: best ?? 0, passed: passed === 1 };
      }
      // Attempts are checked by the quiz script, which starts a new one for any it cannot read.
      const attempts: Record<string, unknown> = {};
      for (const entry of Array.isArray(data.a) ? data.a : []) {
        const lesson = Array.isArray(entry) && typeof entry[0] === "number" ? lessons[entry[0]] : undefined;
        if (lesson && lesson.kind === "quiz") attempts[lesson.id] = (entry as unknown[])[1];
      }
      return {
        currentLessonId: current ? current.id : null,
        visitedLessonIds: typeof data.s === "string" ? idsOf(data.s) : [],
        quizzes,
        attempts,
      };
    } catch {
      return null;
    }
  }

  function verdict(progress: CourseProgress): ProgressVerdict {
    // A final assessment alone decides success and score.
    const final = lessons.filter((lesson) => lesson.finalAssessment);
    const quizLessons = final.length > 0 ? final : lessons.filter((lesson) => lesson.kind === "quiz");
    const attempted = quizLessons.filter((lesson) => (progress.quizzes[lesson.id]?.attempts ?? 0) > 0);
    const allPassed = quizLessons.length > 0 && quizLessons.every((lesson) => progress.quizzes[lesson.id]?.passed === true);
    const allAttempted = quizLessons.length > 0 && attempted.length === quizLessons.length;
    return {
      completed: progress.completed,
      passed: allPassed ? true : allAttempted ? false : null,
      scorePercent: attempted.length === 0 ? null : (progress.scorePercent ?? 0),
      hasQuizzes: quizLessons.length > 0,
      progressMeasure: lessons.length === 0 ? 1 : progress.visitedLessonIds.length / lessons.length,
    };
  }

  function isoDuration(seconds: number): string {
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    const rest = Math.round((seconds % 60) * 100) / 100;
    return `PT${hours}H${minutes}M${rest}S`;
  }

  function scorm12Timespan(seconds: number): string {
    const pad = (value: number, width: number): string => String(value).padStart(width, "0");
    const hours = Math.min(9999, Math.floor(seconds / 3600));
    const minutes = Math.floor((seconds % 3600) / 60);
    const wholeSeconds = Math.floor(seconds % 60);
    const hundredths = Math.floor((seconds % 1) * 100);
    return `${pad(hours, 4)}:${pad(minutes, 2)}:${pad(wholeSeconds, 2)}.${pad(hundredths, 2)}`;
  }

  function notify(message: string | null): void {
    let notice = document.querySelector<HTMLElement>("[data-lms-notice]");
    if (message === null) {
      notice?.remove();
      return;
    }
    if (!notice) {
      notice = document.createElement("div");
      notice.className = `${ClassName.callout} ${ClassName.calloutWarning}`;
      notice.setAttribute("role", "status");
      notice.dataset.lmsNotice = "";
      const main = document.querySelector("main") ?? document.body;
      main.insertBefore(notice, main.firstChild);
    }
    notice.textContent = message;
  }

  return { encode, decode, verdict, isoDuration, scorm12Timespan, notify };
}
