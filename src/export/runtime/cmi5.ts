/**
 * The cmi5 AU adapter, shipped as the source of `installCmi5Adapter` (self-contained). It reads the
 * launch parameters, trades the one-time fetch URL for the auth token, reads `LMS.LaunchData` (context
 * template, launch mode, mastery score, return URL) and the learner preferences, resumes from its own
 * State document, and sends the cmi5 defined statements in order: initialized, completed once, passed
 * (once per registration) or failed (never twice in a session, never after passed), terminated last.
 */
import type { CourseRuntimeApi } from "../../render/client/types.ts";
import type { ProgressTools } from "./progress.ts";

export interface Cmi5AdapterConfig {
  /** The AU's State document holding the learner's progress (cmi5 leaves other stateIds to the AU). */
  readonly progressStateId: string;
  readonly exitLabel: string;
}

type Json = Record<string, unknown>;

export function installCmi5Adapter(config: Cmi5AdapterConfig, createTools: (lessons: CourseRuntimeApi["lessons"]) => ProgressTools): void {
  const runtime = window.CourseRuntime;
  const params = new URLSearchParams(window.location.search);
  const endpointParam = params.get("endpoint");
  const fetchUrl = params.get("fetch");
  const actorParam = params.get("actor");
  const registration = params.get("registration");
  const activityId = params.get("activityId");
  if (!runtime || !endpointParam || !fetchUrl || !actorParam || !registration || !activityId) return;
  const course = runtime;
  const endpoint = endpointParam.endsWith("/") ? endpointParam : `${endpointParam}/`;
  const tools = createTools(course.lessons);
  const verbs = {
    initialized: "http://adlnet.gov/expapi/verbs/initialized",
    completed: "http://adlnet.gov/expapi/verbs/completed",
    passed: "http://adlnet.gov/expapi/verbs/passed",
    failed: "http://adlnet.gov/expapi/verbs/failed",
    terminated: "http://adlnet.gov/expapi/verbs/terminated",
  } as const;
  type Verb = keyof typeof verbs;
  const categories = { cmi5: "https://w3id.org/xapi/cmi5/context/categories/cmi5", moveOn: "https://w3id.org/xapi/cmi5/context/categories/moveon" };
  const masteryExtension = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore";

  let actor: Json;
  try {
    actor = JSON.parse(actorParam) as Json;
  } catch {
    return;
  }
  let authorization = "";
  let contextTemplate: Json = {};
  let launchMode = "Normal";
  let masteryScore: number | null = null;
  let returnUrl: string | null = null;
  const startedAt = Date.now();
  const sent = new Set<Verb>();
  const registrationFlags = { completed: false, passed: false };
  let pendingFailure: { scaled: number } | null = null;
  let terminated = false;
  const outbox: Json[] = [];
  let inFlight: Promise<unknown> | null = null;
  let stateInFlight = false;
  let stateDirty = false;

  const headers = (): Record<string, string> => ({ Authorization: authorization, "X-Experience-API-Version": "1.0.3", "Content-Type": "application/json" });
  const stateUrl = (stateId: string): string =>
    `${endpoint}activities/state?${new URLSearchParams({ stateId, activityId, agent: JSON.stringify(actor), registration }).toString()}`;

  /** The fetch URL answers once, so the token is kept for a reload of the same launch. */
  function tokenCache(): Storage | null {
    try {
      return window.sessionStorage;
    } catch {
      return null;
    }
  }

  async function fetchToken(): Promise<string | null> {
    const cacheKey = `cmi5-token:${fetchUrl}`;
    const cached = tokenCache()?.getItem(cacheKey);
    if (cached) return cached;
    const response = await fetch(fetchUrl as string, { method: "POST" });
    const body = (await response.json()) as { "auth-token"?: string };
    const token = body["auth-token"] ?? null;
    if (token) tokenCache()?.setItem(cacheKey, token);
    return token;
  }

  async function readJson(url: string): Promise<Json | null> {
    const response = await fetch(url, { headers: headers() });
    if (!response.ok) return null;
    return (await response.json()) as Json;
  }

  function context(withMoveOn: boolean, extra: Json = {}): Json {
    const template = JSON.parse(JSON.stringify(contextTemplate)) as Json;
    const activities = (template.contextActivities ?? {}) as Json;
    const category = Array.isArray(activities.category) ? (activities.category as Json[]) : [];
    const wanted = withMoveOn ? [categories.cmi5, categories.moveOn] : [categories.cmi5];
    for (const id of wanted) if (!category.some((activity) => activity.id === id)) category.push({ id, objectType: "Activity" });
    activities.category = category;
    template.contextActivities = activities;
    template.extensions = { ...((template.extensions ?? {}) as Json), ...extra };
    template.registration = registration;
    return template;
  }

  function statement(verb: Verb, result: Json | null, withMoveOn: boolean, extensions: Json = {}): Json {
    return {
      id: crypto.randomUUID(),
      timestamp: new Date().toISOString(),
      actor,
      verb: { id: verbs[verb], display: { "en-US": verb } },
      object: { id: activityId, objectType: "Activity" },
      ...(result ? { result } : {}),
      context: context(withMoveOn, extensions),
    };
  }

  /**
   * Statements wait in an outbox and go out in order, in batches (xAPI accepts an array), with
   * `keepalive` so a request in flight survives the page being closed.
   */
  function postStatements(batch: readonly Json[]): Promise<unknown> {
    return fetch(`${endpoint}statements`, { method: "POST", headers: headers(), body: JSON.stringify(batch), keepalive: true }).catch(() => undefined);
  }

  function pump(): void {
    if (inFlight || outbox.length === 0) return;
    inFlight = postStatements(outbox.splice(0)).finally(() => {
      inFlight = null;
      pump();
    });
  }

  function send(verb: Verb, result: Json | null, withMoveOn: boolean, extensions: Json = {}): void {
    if (sent.has(verb) || terminated) return;
    sent.add(verb);
    outbox.push(statement(verb, result, withMoveOn, extensions));
    pump();
  }

  /** The AU's own State document: the encoded progress and what was already reported in this registration. */
  function progressDocument(): string {
    return JSON.stringify({ progress: tools.encode(course.getState()), reported: registrationFlags });
  }

  function putProgress(): Promise<unknown> {
    return fetch(stateUrl(config.progressStateId), { method: "PUT", headers: headers(), body: progressDocument(), keepalive: true }).catch(() => undefined);
  }

  /** One State write at a time; a change made meanwhile is written when the current one finishes. */
  function saveProgress(): void {
    stateDirty = true;
    if (stateInFlight) return;
    stateDirty = false;
    stateInFlight = true;
    void putProgress().finally(() => {
      stateInFlight = false;
      if (stateDirty) saveProgress();
    });
  }

  const duration = (from: number): string => tools.isoDuration((Date.now() - from) / 1000);

  function evaluate(): void {
    const verdict = tools.verdict(course.getState());
    if (launchMode !== "Normal") return;
    if (verdict.completed && !registrationFlags.completed) {
      registrationFlags.completed = true;
      send("completed", { completion: true, duration: duration(startedAt) }, true);
    }
    if (verdict.passed === null || verdict.scorePercent === null || registrationFlags.passed) return;
    const scaled = Math.round(verdict.scorePercent) / 100;
    const passed = masteryScore === null ? verdict.passed : scaled >= masteryScore;
    const extensions = masteryScore === null ? {} : { [masteryExtension]: masteryScore };
    const score = { scaled, raw: Math.round(verdict.scorePercent), min: 0, max: 100 };
    if (passed && !sent.has("failed")) {
      registrationFlags.passed = true;
      pendingFailure = null;
      send("passed", { score, success: true, duration: duration(startedAt) }, true, extensions);
    } else if (!passed) {
      // Only one of passed/failed per session: hold a failure back until the learner leaves, so a retry can still pass.
      pendingFailure = { scaled };
    }
  }

  /** Sends what is left at once, synchronously, because the page may be going away. */
  function terminate(): Promise<unknown> {
    if (terminated || !authorization) return Promise.resolve();
    const finalWrites: Promise<unknown>[] = [putProgress()];
    if (pendingFailure && !sent.has("passed") && !sent.has("failed") && launchMode === "Normal") {
      sent.add("failed");
      outbox.push(failedStatement(pendingFailure.scaled));
    }
    outbox.push(statement("terminated", { duration: duration(startedAt) }, false));
    terminated = true;
    finalWrites.push(postStatements(outbox.splice(0)));
    if (inFlight) finalWrites.push(inFlight);
    return Promise.all(finalWrites);
  }

  function addExitButton(): void {
    const header = document.querySelector(".header-inner");
    if (!header) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.textContent = config.exitLabel;
    button.addEventListener("click", () => {
      void terminate().then(() => {
        if (returnUrl) window.location.href = returnUrl;
      });
    });
    header.appendChild(button);
  }

  async function start(): Promise<void> {
    const token = await fetchToken();
    if (!token) return;
    authorization = `Basic ${token}`;
    const launchData = await readJson(stateUrl("LMS.LaunchData"));
    if (!launchData) return;
    contextTemplate = (launchData.contextTemplate ?? {}) as Json;
    launchMode = typeof launchData.launchMode === "string" ? launchData.launchMode : "Normal";
    masteryScore = typeof launchData.masteryScore === "number" ? launchData.masteryScore : null;
    returnUrl = typeof launchData.returnURL === "string" ? launchData.returnURL : null;
    const agent = encodeURIComponent(JSON.stringify(actor));
    await fetch(`${endpoint}agents/profile?profileId=cmi5LearnerPreferences&agent=${agent}`, { headers: headers() }).catch(() => undefined);
    const saved = (await readJson(stateUrl(config.progressStateId)).catch(() => null)) ?? {};
    const reported = (saved.reported ?? {}) as { completed?: unknown; passed?: unknown };
    registrationFlags.completed = reported.completed === true;
    registrationFlags.passed = reported.passed === true;
    send("initialized", null, false);
    course.onLessonVisited(() => {
      saveProgress();
      evaluate();
    });
    course.onQuizScored((score) => {
      saveProgress();
      evaluate();
      if (score.attemptsLeft === 0) reportFinalFailure();
    });
    const state = typeof saved.progress === "string" ? tools.decode(saved.progress) : null;
    if (state) course.setState(state);
    evaluate();
    window.addEventListener("pagehide", () => void terminate());
    if (returnUrl) addExitButton();
  }

  function failedStatement(scaled: number): Json {
    const extensions = masteryScore === null ? {} : { [masteryExtension]: masteryScore };
    const score = { scaled, raw: Math.round(scaled * 100), min: 0, max: 100 };
    return statement("failed", { score, success: false, duration: duration(startedAt) }, true, extensions);
  }

  /** No attempts left: the failure is final for this session, so it is reported at once. */
  function reportFinalFailure(): void {
    if (!pendingFailure || sent.has("passed") || sent.has("failed") || terminated) return;
    sent.add("failed");
    outbox.push(failedStatement(pendingFailure.scaled));
    pendingFailure = null;
    pump();
  }

  void start();
}
