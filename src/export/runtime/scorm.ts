/**
 * The SCORM adapter run inside a packaged SCO, shipped as the source of `installScormAdapter` (so it
 * uses only its parameters and browser globals). It finds the LMS API (`API` for 1.2, `API_1484_11`
 * for 2004) in a parent frame or the opener, resumes from `suspend_data` or the bookmark, and on every
 * lesson visit and quiz submission records location, progress, status and score, then commits. It
 * finishes the session once, when the page is hidden for good.
 */
import type { CourseProgress, CourseRuntimeApi } from "../../render/client/types.ts";
import type { ProgressTools } from "./progress.ts";

export interface ScormAdapterConfig {
  readonly version: "1.2" | "2004";
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

export function installScormAdapter(config: ScormAdapterConfig, createTools: (lessons: CourseRuntimeApi["lessons"]) => ProgressTools): void {
  const found = window.CourseRuntime;
  if (!found) return;
  const runtime = found;
  const is2004 = config.version === "2004";
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

  const lmsApi = apiIn(window) ?? apiIn(window.opener as Window | null);
  if (!lmsApi) return;
  const raw = lmsApi;
  const call = (name: string, argument = "", value?: string): string => {
    const method = raw[name];
    if (typeof method !== "function") return "";
    const result = value === undefined ? method.call(raw, argument) : method.call(raw, argument, value);
    return result === undefined || result === null ? "" : String(result);
  };
  const api: LmsApi = is2004
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

  if (!api.initialize()) return;
  const tools = createTools(runtime.lessons);
  const startedAt = Date.now();
  const names = is2004
    ? { location: "cmi.location", suspendData: "cmi.suspend_data", exit: "cmi.exit", sessionTime: "cmi.session_time", scoreRaw: "cmi.score.raw", scoreMin: "cmi.score.min", scoreMax: "cmi.score.max" }
    : { location: "cmi.core.lesson_location", suspendData: "cmi.suspend_data", exit: "cmi.core.exit", sessionTime: "cmi.core.session_time", scoreRaw: "cmi.core.score.raw", scoreMin: "cmi.core.score.min", scoreMax: "cmi.core.score.max" };
  const suspendLimit = is2004 ? 64000 : 4096;

  function report(progress: CourseProgress): void {
    const verdict = tools.verdict(progress);
    if (progress.currentLessonId !== null) api.set(names.location, progress.currentLessonId);
    const suspendData = tools.encode(progress);
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
    // Keep the attempt open so the LMS hands the bookmark and suspend data back on the next launch.
    api.set(names.exit, "suspend");
    api.commit();
  }

  runtime.onLessonVisited(() => report(runtime.getState()));
  runtime.onQuizScored(() => report(runtime.getState()));

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
