/**
 * The SCORM adapter run inside a packaged SCO (the `scorm` bundle). It finds the LMS API (`API` for 1.2, `API_1484_11`
 * for 2004) in a parent frame or the opener, or tells the learner their progress is not being saved;
 * resumes from `suspend_data` or the bookmark (unreadable data restarts the course cleanly); on every
 * lesson visit and quiz submission records location, progress, status and score, and each answered
 * question as an interaction, then commits. `exit` is `suspend` until the learner is done (completed,
 * and passed where graded), then normal. It finishes the session once, when the page is hidden for good.
 */
import type { CourseProgress, CourseRuntimeApi, QuestionAnswer } from "../../page-contract/course-runtime.ts";
import type { AnswerTools, InteractionRecord, QuestionFacts } from "./answers.ts";
import type { ProgressTools } from "./progress.ts";
import type { ScormAdapterConfig } from "../../page-contract/config.ts";
import type { AdapterText } from "../../page-contract/text.ts";

export type { ScormAdapterConfig };

export interface ScormHelpers {
  createProgressTools(lessons: CourseRuntimeApi["lessons"]): ProgressTools;
  createAnswerTools(questions: Readonly<Record<string, QuestionFacts>>): AnswerTools;
}

/** The calls both SCORM APIs share, under their 1.2 or 2004 names. */
interface LmsApi {
  initialize(): boolean;
  get(element: string): string;
  set(element: string, value: string): boolean;
  commit(): boolean;
  finish(): boolean;
}

type ApiObject = Record<string, (argument?: string, value?: string) => unknown>;

/**
 * The LMS's SCORM API (`API_1484_11` for 2004, `API` for 1.2) found in this window's parents or its
 * opener's, with both versions' calls under one set of names; null when no frame offers one.
 */
function findScormApi(is2004: boolean): LmsApi | null {
  const apiName = is2004 ? "API_1484_11" : "API";

  function apiIn(start: Window | null): ApiObject | null {
    let current: Window | null = start;
    for (let depth = 0; current && depth < 500; depth++) {
      try {
        const candidate = (current as unknown as Record<string, unknown>)[apiName];
        if (candidate && typeof candidate === "object") return candidate as ApiObject;
      } catch {
        // A cross-origin frame in the chain: keep walking up.
      }
      if (current.parent === current) break;
      current = current.parent;
    }
    return null;
  }

  const raw = apiIn(window) ?? apiIn(window.opener as Window | null);
  if (!raw) return null;
  const call = (name: string, argument = "", value?: string): string => {
    const method = raw[name];
    if (typeof method !== "function") return "";
    const result = value === undefined ? method.call(raw, argument) : method.call(raw, argument, value);
    return result === undefined || result === null ? "" : String(result);
  };
  return is2004
    ? {
        initialize: () => call("Initialize") === "true",
        get: (element) => call("GetValue", element),
        set: (element, value) => call("SetValue", element, value) === "true",
        commit: () => call("Commit") === "true",
        finish: () => call("Terminate") === "true",
      }
    : {
        initialize: () => call("LMSInitialize") === "true",
        get: (element) => call("LMSGetValue", element),
        set: (element, value) => call("LMSSetValue", element, value) === "true",
        commit: () => call("LMSCommit") === "true",
        finish: () => call("LMSFinish") === "true",
      };
}

export function installScormAdapter(config: ScormAdapterConfig, helpers: ScormHelpers): void {
  const found = window.CourseRuntime;
  if (!found) return;
  const runtime = found;
  const tools = helpers.createProgressTools(runtime.lessons);
  const is2004 = config.version === "2004";

  const foundApi = findScormApi(is2004);
  if (!foundApi) {
    tools.notify(config.text.noLmsFound);
    return;
  }
  const api = foundApi;

  if (!api.initialize()) {
    tools.notify(config.text.lmsUnavailable);
    return;
  }
  const answers = helpers.createAnswerTools(config.questions);
  const startedAt = Date.now();
  // One verdict: the LMS's pass mark, when it has one, is the page's (SCORM 2004 scaled 0-1, SCORM 1.2 0-100).
  const platformMark = Number.parseFloat(api.get(is2004 ? "cmi.scaled_passing_score" : "cmi.student_data.mastery_score"));
  if (Number.isFinite(platformMark)) runtime.setPassMark(is2004 ? platformMark * 100 : platformMark);
  const names = is2004
    ? { location: "cmi.location", suspendData: "cmi.suspend_data", exit: "cmi.exit", sessionTime: "cmi.session_time", scoreRaw: "cmi.score.raw", scoreMin: "cmi.score.min", scoreMax: "cmi.score.max" }
    : { location: "cmi.core.lesson_location", suspendData: "cmi.suspend_data", exit: "cmi.core.exit", sessionTime: "cmi.core.session_time", scoreRaw: "cmi.core.score.raw", scoreMin: "cmi.core.score.min", scoreMax: "cmi.core.score.max" };
  const suspendLimit = is2004 ? 64000 : 4096;

  function report(progress: CourseProgress): void {
    const verdict = tools.verdict(progress);
    if (progress.currentLessonId !== null) api.set(names.location, progress.currentLessonId);
    const suspendData = tools.encode(progress, suspendLimit);
    if (suspendData.length <= suspendLimit) api.set(names.suspendData, suspendData);
    if (verdict.scorePercent !== null) {
      api.set(names.scoreMin, "0");
      api.set(names.scoreMax, "100");
      api.set(names.scoreRaw, String(verdict.scorePercent));
    }
    if (is2004) {
      api.set("cmi.progress_measure", String(Math.round(verdict.progressMeasure * 1000) / 1000));
      api.set("cmi.completion_status", verdict.completed ? "completed" : "incomplete");
      api.set("cmi.success_status", verdict.passed === true ? "passed" : verdict.passed === false ? "failed" : "unknown");
      if (verdict.scorePercent !== null) api.set("cmi.score.scaled", String(verdict.scorePercent / 100));
    } else {
      const status = verdict.hasQuizzes
        ? verdict.passed === true
          ? "passed"
          : verdict.passed === false
            ? "failed"
            : "incomplete"
        : verdict.completed
          ? "completed"
          : "incomplete";
      api.set("cmi.core.lesson_status", status);
    }
    // Until the learner is done, keep the attempt open so the LMS hands the bookmark and suspend data back.
    const done = verdict.completed && (!verdict.hasQuizzes || verdict.passed === true);
    api.set(names.exit, done ? (is2004 ? "normal" : "") : "suspend");
    api.commit();
  }

  const lessonShownAt = new Map<string, number>();
  let interactionCount = Number.parseInt(api.get("cmi.interactions._count"), 10) || 0;

  /** Journals each answer as a new interaction (id, type, objectives, time, answers, result, latency). */
  function recordAnswer(answer: QuestionAnswer): void {
    const latency = (Date.now() - (lessonShownAt.get(answer.lessonId) ?? startedAt)) / 1000;
    for (const entry of is2004 ? answers.scorm2004(answer, latency) : answers.scorm12(answer, latency)) writeInteraction(entry);
  }

  function writeInteraction(entry: InteractionRecord): void {
    const prefix = `cmi.interactions.${interactionCount}.`;
    if (!api.set(`${prefix}id`, entry.id)) return;
    interactionCount += 1;
    api.set(`${prefix}type`, entry.type);
    entry.objectiveIds.forEach((objectiveId, index) => api.set(`${prefix}objectives.${index}.id`, objectiveId));
    if (is2004) {
      api.set(`${prefix}timestamp`, entry.timestamp);
      api.set(`${prefix}description`, entry.description);
    } else {
      api.set(`${prefix}time`, entry.timestamp.slice(11, 19));
    }
    if (entry.weighting !== "") api.set(`${prefix}weighting`, entry.weighting);
    entry.correctPatterns.forEach((pattern, index) => api.set(`${prefix}correct_responses.${index}.pattern`, pattern));
    if (entry.learnerResponse !== "") api.set(`${prefix}${is2004 ? "learner_response" : "student_response"}`, entry.learnerResponse);
    api.set(`${prefix}result`, entry.result);
    api.set(`${prefix}latency`, entry.latency);
  }

  runtime.onLessonVisited((visit) => {
    lessonShownAt.set(visit.lessonId, Date.now());
    report(runtime.getState());
  });
  runtime.onQuestionAnswered(recordAnswer);
  // Answers are kept as they are given, so a learner who leaves mid-quiz resumes the same attempt.
  runtime.onAttemptSaved(() => {
    api.set(names.suspendData, tools.encode(runtime.getState(), suspendLimit));
    api.commit();
  });
  runtime.onQuizScored((score) => {
    lessonShownAt.set(score.lessonId, Date.now());
    report(runtime.getState());
  });

  const saved = tools.decode(api.get(names.suspendData));
  const bookmark = api.get(names.location);
  if (saved) runtime.setState(saved);
  else if (bookmark && runtime.lessons.some((lesson) => lesson.id === bookmark)) runtime.setState({ currentLessonId: bookmark });

  let finished = false;
  function finish(): void {
    if (finished) return;
    finished = true;
    report(runtime.getState());
    const seconds = (Date.now() - startedAt) / 1000;
    api.set(names.sessionTime, is2004 ? tools.isoDuration(seconds) : tools.scorm12Timespan(seconds));
    api.commit();
    api.finish();
  }
  window.addEventListener("pagehide", finish);
  window.addEventListener("beforeunload", finish);
}
