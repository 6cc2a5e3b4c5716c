/**
 * In-page course runtime: shows one
 * page at a time (the introduction or a lesson) following the URL fragment, keeps the learner's
 * progress, dispatches the `course:*` events and exposes `window.CourseRuntime`.
 */
import { all, around, data, fill, has, hook, listAll, on, one, setInHook, textInHook } from "./dom.ts";
import type { RuntimeText } from "../../page-contract/text.ts";
import { courseEvents as events, type CourseProgress, type CourseRuntimeApi, type CourseState, type LessonSummary, type LessonVisit, type QuizRecord, type QuizRecorder } from "../../page-contract/course-runtime.ts";
import { DataName } from "../../page-contract/markup-names.ts";

export interface RuntimeConfig {
  readonly courseId: string;
  readonly text: RuntimeText;
}


// The page's course, read once by `installCourseRuntime`: a page runs one course, and module bindings
// keep the minified player small (a binding is shortened, a property name is not).
let text: RuntimeText;
let pages: HTMLElement[];
let lessonPages: HTMLElement[];
let lessons: LessonSummary[];
const visited = new Set<string>();
const quizzes = new Map<string, QuizRecord>();
const attempts = new Map<string, unknown>();
let currentPage: HTMLElement | null = null;
let platformPassMark: number | null = null;
let currentLessonId: string | null = null;

const pageForLesson = (lessonId: string): HTMLElement | undefined => lessonPages.find((page) => data(page)[DataName.lessonId] === lessonId);

function pageFromFragment(): HTMLElement | null {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  return around<HTMLElement>(target, hook(DataName.page));
}

/** What the contents say about a lesson: a content lesson opened is completed; a quiz is passed or failed once submitted. */
function lessonState(lessonId: string): keyof RuntimeText["contentsStates"] | null {
  const record = quizzes.get(lessonId);
  if (lessons.find((lesson) => lesson.id === lessonId)?.kind !== "quiz") return visited.has(lessonId) ? "completed" : null;
  if (record?.passed) return "passed";
  if (record && record.attempts > 0) return "failed";
  return visited.has(lessonId) ? "visited" : null;
}

function showStateInContents(lessonId: string): void {
  const page = pageForLesson(lessonId);
  const link = page ? one<HTMLElement>(document, `[data-${DataName.contentsLink}="${page.id}"]`) : null;
  if (!link) return;
  const state = lessonState(lessonId);
  if (state) data(link)[DataName.state] = state;
  else delete data(link)[DataName.state];
  const note = one<HTMLElement>(link, hook(DataName.stateNote));
  if (!note) return;
  note.textContent = state ? ` ${text.contentsStates[state]}` : "";
  note.hidden = state === null;
  showProgress();
}

/** The progress bar (lessons completed or passed of all) and the cover's Start button, which becomes Resume. */
function showProgress(): void {
  const done = lessons.filter((lesson) => {
    const state = lessonState(lesson.id);
    return state === "completed" || state === "passed";
  }).length;
  setInHook<HTMLProgressElement, "value">(document, DataName.progressBar, "value", done);
  textInHook(document, DataName.progressText, fill(text.lessonsCompleted, { done, count: lessons.length }));
  const start = one<HTMLAnchorElement>(document, hook(DataName.startCourse));
  const resumeAt = lessons.find((lesson) => lesson.id === currentLessonId) ?? lessons.find((lesson) => visited.has(lesson.id));
  const page = resumeAt ? pageForLesson(resumeAt.id) : undefined;
  if (!start || !resumeAt || !page) return;
  start.href = `#${page.id}`;
  start.textContent = fill(text.resumeCourse, { title: resumeAt.title });
}

function showPage(page: HTMLElement, moveFocus: boolean): void {
  for (const other of pages) other.hidden = other !== page;
  currentPage = page;
  for (const link of all<HTMLElement>(document, hook(DataName.contentsLink))) {
    if (data(link)[DataName.contentsLink] === page.id) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (moveFocus) one<HTMLElement>(page, hook(DataName.pageHeading))?.focus();
  const lessonId = data(page)[DataName.lessonId];
  const position = lessonPages.indexOf(page) + 1;
  textInHook(document, DataName.progress, lessonId === undefined ? "" : fill(text.lessonProgress, { position, count: lessonPages.length }));
  if (lessonId === undefined) {
    if (has(page, `data-${DataName.completion}`)) showCompletion(page);
    return;
  }
  currentLessonId = lessonId;
  visited.add(lessonId);
  showStateInContents(lessonId);
  const visit: LessonVisit = { lessonId, title: data(page)[DataName.lessonTitle] ?? "", position, lessonCount: lessonPages.length };
  emit(events.lessonVisited, visit);
}

/** The completion screen says what the learner has left, or the verdict and score the course reports. */
function showCompletion(page: HTMLElement): void {
  const status = one<HTMLElement>(page, hook(DataName.completionStatus));
  if (!status) return;
  const state = progress();
  const remaining = lessons.length - state.visitedLessonIds.length;
  if (remaining > 0) status.textContent = fill(text.completionRemaining, { count: remaining, total: lessons.length });
  else if (state.passed === null || state.scorePercent === null) status.textContent = text.completionDone;
  else status.textContent = fill(state.passed ? text.completionPassed : text.completionFailed, { score: state.scorePercent });
  data(page)[DataName.outcome] = remaining > 0 ? "incomplete" : state.passed === false ? "failed" : "passed";
}

/** The lesson's setting: the last attempt counts, not the best. */
const countsLast = (lessonId: string): boolean => data(pageForLesson(lessonId))?.[DataName.attemptScoring] === "last";

const countedScore = (lessonId: string, record: QuizRecord | undefined): number => (countsLast(lessonId) ? record?.lastScorePercent : record?.bestScorePercent) ?? 0;

/** The quiz lessons whose result decides the course: a final assessment alone, else every quiz lesson. */
function decidingLessons(): LessonSummary[] {
  const final = lessons.filter((lesson) => lesson.finalAssessment);
  return final.length > 0 ? final : lessons.filter((lesson) => lesson.kind === "quiz");
}

function progress(): CourseProgress {
  const quizLessons = decidingLessons();
  const bestScores = quizLessons.map((lesson) => countedScore(lesson.id, quizzes.get(lesson.id)));
  return {
    currentLessonId,
    visitedLessonIds: lessons.filter((lesson) => visited.has(lesson.id)).map((lesson) => lesson.id),
    quizzes: Object.fromEntries(quizzes),
    attempts: Object.fromEntries(attempts),
    completed: lessons.every((lesson) => visited.has(lesson.id)),
    passed: quizLessons.length === 0 ? null : quizLessons.every((lesson) => quizzes.get(lesson.id)?.passed === true),
    scorePercent: quizLessons.length === 0 ? null : Math.round(bestScores.reduce((sum, score) => sum + score, 0) / quizLessons.length),
  };
}

function emit(eventName: string, detail: unknown): void {
  document.dispatchEvent(new CustomEvent(eventName, { detail }));
}

function listen<Detail>(eventName: string, listener: (detail: Detail) => void): () => void {
  const handler = (event: Event): void => listener((event as CustomEvent<Detail>).detail);
  on(eventName, handler);
  return () => document.removeEventListener(eventName, handler);
}

function restore(state: Partial<CourseState>): void {
  for (const lessonId of state.visitedLessonIds ?? []) {
    if (!pageForLesson(lessonId)) continue;
    visited.add(lessonId);
    showStateInContents(lessonId);
  }
  for (const [lessonId, record] of Object.entries(state.quizzes ?? {})) {
    quizzes.set(lessonId, record);
    showStateInContents(lessonId);
  }
  for (const [lessonId, attempt] of Object.entries(state.attempts ?? {})) if (pageForLesson(lessonId)) attempts.set(lessonId, attempt);
  emit(events.stateRestored, progress());
  const page = state.currentLessonId ? pageForLesson(state.currentLessonId) : undefined;
  if (page && page !== currentPage) showPage(page, false);
}

const decides = (lessonId: string): boolean => decidingLessons().some((lesson) => lesson.id === lessonId);

const passMarkOf = (lessonId: string, own: number | null): number | null => platformPassMark !== null && decides(lessonId) ? platformPassMark : own;

function setPassMark(percent: number | null): void {
  platformPassMark = typeof percent === "number" && Number.isFinite(percent) ? Math.min(100, Math.max(0, Math.round(percent * 100) / 100)) : null;
  for (const page of lessonPages) {
    const lessonId = data(page)[DataName.lessonId] ?? "";
    const mark = passMarkOf(lessonId, data(page)[DataName.passingScore] === undefined ? null : Number(data(page)[DataName.passingScore]));
    const label = one<HTMLElement>(page, hook(DataName.passMark));
    if (label && mark !== null) label.textContent = fill(text.passMarkLabel, { passMark: mark });
  }
}

export function installCourseRuntime(config: RuntimeConfig): QuizRecorder {
  text = config.text;
  pages = listAll<HTMLElement>(document, hook(DataName.page));
  lessonPages = pages.filter((page) => data(page)[DataName.lessonId] !== undefined);
  lessons = lessonPages.map((page) => {
    const quiz = data(page)[DataName.lessonKind] === "quiz";
    return { id: data(page)[DataName.lessonId] ?? "", title: data(page)[DataName.lessonTitle] ?? "", kind: quiz ? "quiz" : "content", finalAssessment: quiz && has(page, `data-${DataName.finalAssessment}`) };
  });

  const api: CourseRuntimeApi = {
    version: 1,
    courseId: config.courseId,
    lessons,
    onLessonVisited: (listener) => listen(events.lessonVisited, listener),
    onQuizScored: (listener) => listen(events.quizScored, listener),
    onQuestionAnswered: (listener) => listen(events.questionAnswered, listener),
    onAttemptSaved: (listener) => listen(events.attemptSaved, listener),
    getState: progress,
    setState: restore,
    goToLesson(lessonId) {
      const page = pageForLesson(lessonId);
      if (page) showPage(page, true);
    },
    setPassMark,
  };
  window.CourseRuntime = api;

  window.addEventListener("hashchange", () => {
    const page = pageFromFragment();
    if (page && page !== currentPage) showPage(page, true);
  });

  // Start once every inline script (including a SCORM adapter) has run, so its listeners see the first visit.
  function start(): void {
    const resumed = currentLessonId === null ? undefined : pageForLesson(currentLessonId);
    const first = pageFromFragment() ?? resumed ?? pages[0];
    if (first && first !== currentPage) showPage(first, false);
    document.documentElement.classList.add("course-ready");
    emit(events.ready, progress());
  }
  if (document.readyState === "loading") on("DOMContentLoaded", start);
  else setTimeout(start, 0);

  return {
    recordQuizAttempt(result, maxAttempts) {
      const previous = quizzes.get(result.lessonId);
      const attempt = (previous?.attempts ?? 0) + 1;
      quizzes.set(result.lessonId, {
        attempts: attempt,
        lastScorePercent: result.scorePercent,
        bestScorePercent: Math.max(previous?.bestScorePercent ?? 0, result.scorePercent),
        // With the last attempt counting, a worse retake takes the pass back (the LMS is told the same).
        passed: countsLast(result.lessonId) ? result.passed : (previous?.passed ?? false) || result.passed,
      });
      showStateInContents(result.lessonId);
      const score = { ...result, attempt, attemptsLeft: maxAttempts === null ? null : Math.max(0, maxAttempts - attempt) };
      emit(events.quizScored, score);
      return score;
    },
    quizRecord: (lessonId) => quizzes.get(lessonId),
    announceQuestionAnswer(answer) {
      emit(events.questionAnswered, answer);
    },
    saveAttempt(lessonId, attempt) {
      if (attempt === null) attempts.delete(lessonId);
      else attempts.set(lessonId, attempt);
      emit(events.attemptSaved, lessonId);
    },
    attemptOf: (lessonId) => attempts.get(lessonId),
    passMarkOf,
  };
}
