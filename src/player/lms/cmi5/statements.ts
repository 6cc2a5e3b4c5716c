/**
 * The cmi5 statements, in order, through the durable outbox: initialized, completed once, passed (once
 * per registration) or failed (never twice in a session, never after passed), one cmi5-allowed
 * `answered` statement per graded question, terminated last. Completed/passed go into the State
 * document only once the LRS accepted them (`accepted`), so a statement lost to an outage is sent again
 * in the next session.
 */
import type { LessonVisit, QuestionAnswer } from "../../../page-contract/course-runtime.ts";
import { activityIri, attemptExtension, courseVersionExtension } from "../../../page-contract/xapi-ids.ts";
import type { OutboxOptions, StatementOutbox } from "../outbox.ts";
import {
  activityId,
  actor,
  answers,
  authLost,
  cmi5Rules,
  config,
  contextTemplate,
  course,
  documents,
  duration,
  endpoint,
  headers,
  launchMode,
  lessonShownAt,
  masteryScore,
  progressDocument,
  registration,
  reported,
  saveProgress,
  startedAt,
  statementBase,
  stateUrl,
  tools,
  type Json,
} from "./session.ts";

const verbs = {
  initialized: "http://adlnet.gov/expapi/verbs/initialized",
  completed: "http://adlnet.gov/expapi/verbs/completed",
  passed: "http://adlnet.gov/expapi/verbs/passed",
  failed: "http://adlnet.gov/expapi/verbs/failed",
  terminated: "http://adlnet.gov/expapi/verbs/terminated",
  answered: "http://adlnet.gov/expapi/verbs/answered",
  experienced: "http://adlnet.gov/expapi/verbs/experienced",
  played: "https://w3id.org/xapi/video/verbs/played",
} as const;
type DefinedVerb = Exclude<keyof typeof verbs, "answered" | "experienced" | "played">;
/** The xAPI Video Profile's activity type and extensions. */
const video = {
  type: "https://w3id.org/xapi/video/activity-type/video",
  time: "https://w3id.org/xapi/video/extensions/time",
  progress: "https://w3id.org/xapi/video/extensions/progress",
  length: "https://w3id.org/xapi/video/extensions/length",
  sessionId: "https://w3id.org/xapi/video/extensions/session-id",
} as const;
const categories = { cmi5: "https://w3id.org/xapi/cmi5/context/categories/cmi5", moveOn: "https://w3id.org/xapi/cmi5/context/categories/moveon" };
const masteryExtension = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore";

let pendingFailure: { scaled: number } | null = null;
let terminated = false;
let outbox: StatementOutbox | null = null;
let videoSession = "";

/** The outbox for this launch's statements (its storage key names the AU and the registration). */
export function openOutbox(createStatementOutbox: (options: OutboxOptions) => StatementOutbox, sessionId: string): void {
  videoSession = sessionId;
  outbox = createStatementOutbox({
    storageKey: `course-authoring:cmi5-outbox:${activityId}:${registration}`,
    sessionId,
    post: (batch, keepalive) => fetch(`${endpoint}statements`, { method: "POST", headers: headers(), body: JSON.stringify(batch), keepalive }),
    onAccepted: accepted,
    onAuthLost: authLost,
    onDelayed: (delayed) => tools.notify(delayed ? config.text.stillSending : null),
  });
}

function context(withMoveOn: boolean, extra: Json = {}, cmi5Category = true): Json {
  const template = JSON.parse(JSON.stringify(contextTemplate)) as Json;
  const activities = (template.contextActivities ?? {}) as Json;
  const category = Array.isArray(activities.category) ? (activities.category as Json[]) : [];
  const wanted = cmi5Category && cmi5Rules ? (withMoveOn ? [categories.cmi5, categories.moveOn] : [categories.cmi5]) : [];
  for (const id of wanted) if (!category.some((activity) => activity.id === id)) category.push({ id, objectType: "Activity" });
  if (category.length > 0) activities.category = category;
  template.contextActivities = activities;
  const version = config.courseVersion === undefined ? {} : { [courseVersionExtension]: config.courseVersion };
  template.extensions = { ...((template.extensions ?? {}) as Json), ...version, ...extra };
  if (registration) template.registration = registration;
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
export function send(verb: DefinedVerb, result: Json | null, withMoveOn: boolean, extensions: Json = {}): void {
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

export function evaluate(): void {
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

export function sendFailure(): void {
  if (!pendingFailure || !outbox || outbox.verbs.has("passed") || outbox.verbs.has("failed") || launchMode !== "Normal") return;
  const extensions = masteryScore === null ? {} : { [masteryExtension]: masteryScore };
  send("failed", failedResult(pendingFailure.scaled), true, extensions);
  pendingFailure = null;
}

/** cmi5 "allowed" statement: no cmi5 category, the launch's context template, only between initialized and terminated. */
export function sendAnswered(answer: QuestionAnswer): void {
  if (!outbox || terminated || launchMode !== "Normal") return;
  // The quiz attempt this answer belongs to: answers are reported before the attempt is recorded.
  const attempt = answer.graded ? { [attemptExtension]: (course.getState().quizzes[answer.lessonId]?.attempts ?? 0) + 1 } : {};
  for (const described of answers.xapi(answer, statementBase(), (Date.now() - (lessonShownAt.get(answer.lessonId) ?? startedAt)) / 1000)) {
    const answeredContext = context(false, attempt, false);
    const activities = answeredContext.contextActivities as Json;
    activities.parent = [auObject()];
    outbox.enqueue(statement("answered", described.object, described.result, answeredContext));
  }
}

/** An allowed statement per lesson opened: `experienced` its activity (named under the course's IRI), the AU its parent. */
export function sendExperienced(visit: LessonVisit): void {
  if (!outbox || terminated || launchMode !== "Normal") return;
  const object = {
    id: activityIri(statementBase(), "lesson", visit.lessonId),
    objectType: "Activity",
    definition: { type: "http://adlnet.gov/expapi/activities/lesson", name: { und: visit.title.slice(0, 250) } },
  };
  const lessonContext = context(false, {}, false);
  (lessonContext.contextActivities as Json).parent = [auObject()];
  outbox.enqueue(statement("experienced", object, null, lessonContext));
}

export interface VideoMoment {
  readonly blockId: string;
  readonly title: string;
  /** Where the video stands, in seconds. */
  readonly time: number;
  /** Its length in seconds, when the browser knows it. */
  readonly length: number | null;
}

/**
 * Allowed statements for a video block (xAPI Video Profile): `played` when the learner starts it and
 * `completed` when it plays to its end, its activity named under the course's IRI by the block's stable
 * id, the AU its parent. They give the results the "video nobody finishes" figures.
 */
export function sendVideo(event: "played" | "completed", moment: VideoMoment): void {
  if (!outbox || terminated || launchMode !== "Normal") return;
  const object = {
    id: activityIri(statementBase(), "video", moment.blockId),
    objectType: "Activity",
    definition: { type: video.type, name: { und: (moment.title || moment.blockId).slice(0, 250) } },
  };
  const time = Math.round(moment.time * 1000) / 1000;
  const length = moment.length !== null && Number.isFinite(moment.length) && moment.length > 0 ? { [video.length]: Math.round(moment.length * 1000) / 1000 } : {};
  const videoContext = context(false, { [video.sessionId]: videoSession || crypto.randomUUID(), ...length }, false);
  (videoContext.contextActivities as Json).parent = [auObject()];
  const result = event === "played" ? { extensions: { [video.time]: time } } : { completion: true, extensions: { [video.time]: time, [video.progress]: 1 } };
  outbox.enqueue(statement(event, object, result, videoContext));
}

/** Queues what is left (a held-back failure, terminated) and sends it in a request that outlives the page. */
export function terminate(): Promise<unknown> {
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
