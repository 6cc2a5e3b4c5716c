/**
 * The cmi5 AU adapter (the `cmi5` bundle). It reads the
 * launch parameters, trades the one-time fetch URL for the auth token, reads `LMS.LaunchData` (context
 * template, launch mode, mastery score, return URL) and the learner preferences, resumes from its own
 * State document, and sends the cmi5 defined statements in order through a durable outbox: initialized,
 * completed once, passed (once per registration) or failed (never twice in a session, never after
 * passed), one cmi5-allowed `answered` statement per graded question, terminated last. What the State
 * document says was reported is written only after the LRS accepted the statement, so a statement lost
 * to an outage is sent again in the next session.
 */
import type { CourseRuntimeApi } from "../../page-contract/course-runtime.ts";
import type { AnswerTools, QuestionFacts } from "./answers.ts";
import type { LrsDocumentOptions, LrsDocuments } from "./lrs-documents.ts";
import type { StatementOutbox, OutboxOptions } from "./outbox.ts";
import type { ProgressTools } from "./progress.ts";
import type { Cmi5AdapterConfig } from "../../page-contract/config.ts";
import type { AdapterText } from "../../page-contract/text.ts";
import { ClassName } from "../../page-contract/markup-names.ts";

export type { Cmi5AdapterConfig };

export interface Cmi5Helpers {
  createProgressTools(lessons: CourseRuntimeApi["lessons"]): ProgressTools;
  createStatementOutbox(options: OutboxOptions): StatementOutbox;
  createAnswerTools(questions: Readonly<Record<string, QuestionFacts>>): AnswerTools;
  createLrsDocuments(options: LrsDocumentOptions): LrsDocuments;
}

type Json = Record<string, unknown>;

export function installCmi5Adapter(config: Cmi5AdapterConfig, helpers: Cmi5Helpers): void {
  const runtime = window.CourseRuntime;
  if (!runtime) return;
  const course = runtime;
  const tools = helpers.createProgressTools(course.lessons);
  const answers = helpers.createAnswerTools(config.questions);
  const params = new URLSearchParams(window.location.search);
  const endpointParam = params.get("endpoint");
  const fetchUrl = params.get("fetch");
  const actorParam = params.get("actor");
  const registration = params.get("registration");
  const activityId = params.get("activityId");
  let actor: Json | null = null;
  try {
    actor = actorParam ? (JSON.parse(actorParam) as Json) : null;
  } catch {
    actor = null;
  }
  if (!endpointParam || !fetchUrl || !actor || !registration || !activityId) {
    tools.notify(config.text.noLmsFound);
    return;
  }
  const endpoint = endpointParam.endsWith("/") ? endpointParam : `${endpointParam}/`;
  const verbs = {
    initialized: "http://adlnet.gov/expapi/verbs/initialized",
    completed: "http://adlnet.gov/expapi/verbs/completed",
    passed: "http://adlnet.gov/expapi/verbs/passed",
    failed: "http://adlnet.gov/expapi/verbs/failed",
    terminated: "http://adlnet.gov/expapi/verbs/terminated",
    answered: "http://adlnet.gov/expapi/verbs/answered",
  } as const;
  type DefinedVerb = Exclude<keyof typeof verbs, "answered">;
  const categories = { cmi5: "https://w3id.org/xapi/cmi5/context/categories/cmi5", moveOn: "https://w3id.org/xapi/cmi5/context/categories/moveon" };
  const masteryExtension = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore";
  const sessionExtension = "https://w3id.org/xapi/cmi5/context/extensions/sessionid";

  let authorization = "";
  let contextTemplate: Json = {};
  let launchMode = "Normal";
  let masteryScore: number | null = null;
  let returnUrl: string | null = null;
  const startedAt = Date.now();
  /** What the LRS has accepted in this registration (mirrored in the State document). */
  const reported = { completed: false, passed: false };
  let pendingFailure: { scaled: number } | null = null;
  let terminated = false;
  let outbox: StatementOutbox | null = null;
  const lessonShownAt = new Map<string, number>();

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

  function authLost(): void {
    tools.notify(config.text.sessionExpired);
  }

  const documents = helpers.createLrsDocuments({ headers, onAuthLost: authLost });

  function context(withMoveOn: boolean, extra: Json = {}, cmi5Category = true): Json {
    const template = JSON.parse(JSON.stringify(contextTemplate)) as Json;
    const activities = (template.contextActivities ?? {}) as Json;
    const category = Array.isArray(activities.category) ? (activities.category as Json[]) : [];
    const wanted = cmi5Category ? (withMoveOn ? [categories.cmi5, categories.moveOn] : [categories.cmi5]) : [];
    for (const id of wanted) if (!category.some((activity) => activity.id === id)) category.push({ id, objectType: "Activity" });
    if (category.length > 0) activities.category = category;
    template.contextActivities = activities;
    template.extensions = { ...((template.extensions ?? {}) as Json), ...extra };
    template.registration = registration;
    return template;
  }

  function statement(verb: keyof typeof verbs, object: Json, result: Json | null, statementContext: Json): Json {
    return {
      id: crypto.randomUUID(),
      timestamp: new Date().toISOString(),
      actor,
      verb: { id: verbs[verb], display: { "en-US": verb } },
      object,
      ...(result ? { result } : {}),
      context: statementContext,
    };
  }

  const auObject = (): Json => ({ id: activityId, objectType: "Activity" });

  /** Queues a cmi5 defined statement, at most once per session per verb. */
  function send(verb: DefinedVerb, result: Json | null, withMoveOn: boolean, extensions: Json = {}): void {
    if (!outbox || outbox.verbs.has(verb) || terminated) return;
    outbox.remember(verb);
    outbox.enqueue(statement(verb, auObject(), result, context(withMoveOn, extensions)));
  }

  /** After the LRS accepted them: remember completed/passed for the registration in the State document. */
  function accepted(batch: readonly Json[]): void {
    let changed = false;
    for (const sent of batch) {
      const verbId = (sent.verb as Json | undefined)?.id;
      if (verbId === verbs.completed && !reported.completed) changed = reported.completed = true;
      if (verbId === verbs.passed && !reported.passed) changed = reported.passed = true;
    }
    if (changed) saveProgress();
  }

  /** The AU's own State document: the encoded progress and what the LRS accepted in this registration. */
  function progressDocument(): string {
    return JSON.stringify({ progress: tools.encode(course.getState()), reported });
  }

  /** The encoded progress and flags go to the State document, latest first, retried on transient failures. */
  function saveProgress(): void {
    documents.save(stateUrl(config.progressStateId), progressDocument);
  }

  const duration = (from: number): string => tools.isoDuration((Date.now() - from) / 1000);

  function evaluate(): void {
    const verdict = tools.verdict(course.getState());
    if (launchMode !== "Normal") return;
    if (verdict.completed && !reported.completed) send("completed", { completion: true, duration: duration(startedAt) }, true);
    if (verdict.passed === null || verdict.scorePercent === null || reported.passed) return;
    const scaled = Math.round(verdict.scorePercent) / 100;
    const passed = masteryScore === null ? verdict.passed : scaled >= masteryScore;
    const extensions = masteryScore === null ? {} : { [masteryExtension]: masteryScore };
    const score = { scaled, raw: Math.round(verdict.scorePercent), min: 0, max: 100 };
    if (passed && !outbox?.verbs.has("failed")) {
      pendingFailure = null;
      send("passed", { score, success: true, duration: duration(startedAt) }, true, extensions);
    } else if (!passed) {
      // Only one of passed/failed per session: hold a failure back until the learner leaves, so a retry can still pass.
      pendingFailure = { scaled };
    }
  }

  function failedResult(scaled: number): Json {
    return { score: { scaled, raw: Math.round(scaled * 100), min: 0, max: 100 }, success: false, duration: duration(startedAt) };
  }

  function sendFailure(): void {
    if (!pendingFailure || !outbox || outbox.verbs.has("passed") || outbox.verbs.has("failed") || launchMode !== "Normal") return;
    const extensions = masteryScore === null ? {} : { [masteryExtension]: masteryScore };
    send("failed", failedResult(pendingFailure.scaled), true, extensions);
    pendingFailure = null;
  }

  /** cmi5 "allowed" statement: no cmi5 category, the launch's context template, only between initialized and terminated. */
  function sendAnswered(answer: Parameters<Parameters<CourseRuntimeApi["onQuestionAnswered"]>[0]>[0]): void {
    if (!outbox || terminated || launchMode !== "Normal") return;
    const described = answers.xapi(answer, activityId as string, (Date.now() - (lessonShownAt.get(answer.lessonId) ?? startedAt)) / 1000);
    if (!described) return;
    const answeredContext = context(false, {}, false);
    const activities = answeredContext.contextActivities as Json;
    activities.parent = [auObject()];
    outbox.enqueue(statement("answered", described.object, described.result, answeredContext));
  }

  /** Queues what is left (a held-back failure, terminated) and sends it in a request that outlives the page. */
  function terminate(): Promise<unknown> {
    if (terminated || !outbox) return Promise.resolve();
    const finalWrites: Promise<unknown>[] = [documents.saveOnLeave(stateUrl(config.progressStateId), progressDocument())];
    sendFailure();
    if (!outbox.verbs.has("terminated")) {
      outbox.remember("terminated");
      outbox.enqueue(statement("terminated", auObject(), { duration: duration(startedAt) }, context(false)));
    }
    terminated = true;
    finalWrites.push(outbox.flushOnLeave());
    return Promise.all(finalWrites);
  }

  function addExitButton(): void {
    const header = document.querySelector(`.${ClassName.headerInner}`);
    if (!header) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = ClassName.button;
    button.textContent = config.text.exitCourse;
    button.addEventListener("click", () => {
      void terminate().then(() => {
        if (returnUrl) window.location.href = returnUrl;
      });
    });
    header.appendChild(button);
  }

  /** The State document as saved, or null when it is missing or unreadable (the learner starts afresh). */
  function savedProgress(body: unknown): { progress: string | null; reported: { completed: boolean; passed: boolean } } {
    const document = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Json) : {};
    const flags = typeof document.reported === "object" && document.reported !== null ? (document.reported as Json) : {};
    return { progress: typeof document.progress === "string" ? document.progress : null, reported: { completed: flags.completed === true, passed: flags.passed === true } };
  }

  async function start(): Promise<void> {
    const token = await fetchToken().catch(() => null);
    if (!token) return tools.notify(config.text.lmsUnavailable);
    authorization = `Basic ${token}`;
    const launch = await documents.read(stateUrl("LMS.LaunchData"));
    if (launch.status === 401 || launch.status === 403) return authLost();
    const launchData = typeof launch.body === "object" && launch.body !== null ? (launch.body as Json) : null;
    if (!launchData) return tools.notify(config.text.lmsUnavailable);
    contextTemplate = (launchData.contextTemplate ?? {}) as Json;
    launchMode = typeof launchData.launchMode === "string" ? launchData.launchMode : "Normal";
    masteryScore = typeof launchData.masteryScore === "number" ? launchData.masteryScore : null;
    // One verdict: the page states and grades by the LMS's mark, the one the passed/failed statements use.
    if (masteryScore !== null) course.setPassMark(masteryScore * 100);
    returnUrl = typeof launchData.returnURL === "string" ? launchData.returnURL : null;
    const sessionId = String(((contextTemplate.extensions ?? {}) as Json)[sessionExtension] ?? "");
    const agent = encodeURIComponent(JSON.stringify(actor));
    await fetch(`${endpoint}agents/profile?profileId=cmi5LearnerPreferences&agent=${agent}`, { headers: headers() }).catch(() => undefined);
    const saved = await documents.read(stateUrl(config.progressStateId));
    const previous = savedProgress(saved.body);
    reported.completed = previous.reported.completed;
    reported.passed = previous.reported.passed;
    outbox = helpers.createStatementOutbox({
      storageKey: `course-authoring:cmi5-outbox:${activityId}:${registration}`,
      sessionId,
      post: (batch, keepalive) => fetch(`${endpoint}statements`, { method: "POST", headers: headers(), body: JSON.stringify(batch), keepalive }),
      onAccepted: accepted,
      onAuthLost: authLost,
      onDelayed: (delayed) => tools.notify(delayed ? config.text.stillSending : null),
    });
    send("initialized", null, false);
    course.onLessonVisited((visit) => {
      lessonShownAt.set(visit.lessonId, Date.now());
      saveProgress();
      evaluate();
    });
    course.onQuestionAnswered(sendAnswered);
    course.onAttemptSaved(() => saveProgress());
    course.onQuizScored((score) => {
      lessonShownAt.set(score.lessonId, Date.now());
      saveProgress();
      evaluate();
      // No attempts left: the failure is final for this session, so it is reported at once.
      if (score.attemptsLeft === 0) sendFailure();
    });
    const state = previous.progress === null ? null : tools.decode(previous.progress);
    // A learner who moved on while the LRS answered keeps their page; what they did before is still merged in.
    const learnerMoved = course.getState().currentLessonId !== null;
    if (state) course.setState(learnerMoved ? { ...state, currentLessonId: null } : state);
    evaluate();
    window.addEventListener("pagehide", () => void terminate());
    if (returnUrl) addExitButton();
  }

  void start();
}
