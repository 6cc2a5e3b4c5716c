/**
 * What every cmi5 module reads: the course, the page's configuration and tools, the launch's learner,
 * registration and LRS, and the session's own state (the auth header, the launch data, what the LRS has
 * accepted). A page runs one AU launch, so `startCmi5Session` sets them once when the adapter is
 * installed. Module bindings, not an object handed round, because the minifier shortens a binding but
 * not a property name.
 */
import type { CourseRuntimeApi } from "../../../page-contract/course-runtime.ts";
import type { Cmi5AdapterConfig } from "../../../page-contract/config.ts";
import type { AnswerTools } from "../answers.ts";
import type { LrsDocuments } from "../lrs-documents.ts";
import type { ProgressTools } from "../progress.ts";

export type Json = Record<string, unknown>;

/** The launch URL's parameters (the fetch URL, the learner, the registration, the AU, the LRS endpoint with its slash). */
export interface Cmi5Launch {
  readonly endpoint: string;
  readonly fetchUrl: string;
  readonly actor: Json;
  readonly registration: string;
  readonly activityId: string;
}

export let course: CourseRuntimeApi;
export let config: Cmi5AdapterConfig;
export let tools: ProgressTools;
export let answers: AnswerTools;
export let documents: LrsDocuments;
export let endpoint: string;
export let fetchUrl: string;
export let actor: Json;
export let registration: string;
export let activityId: string;

export let authorization = "";
/** False for a Tin Can launch: no cmi5 categories, no LaunchData, the auth header given at launch. */
export let cmi5Rules = true;
export let contextTemplate: Json = {};
export let launchMode = "Normal";
export let masteryScore: number | null = null;
export let returnUrl: string | null = null;
export let startedAt: number;
/** What the LRS has accepted in this registration (mirrored in the State document). */
export const reported = { completed: false, passed: false };
export const lessonShownAt = new Map<string, number>();

export function startCmi5Session(runtime: CourseRuntimeApi, adapterConfig: Cmi5AdapterConfig, progressTools: ProgressTools, answerTools: AnswerTools, launch: Cmi5Launch): void {
  course = runtime;
  config = adapterConfig;
  tools = progressTools;
  answers = answerTools;
  startedAt = Date.now();
  ({ endpoint, fetchUrl, actor, registration, activityId } = launch);
}

export function setDocuments(lrsDocuments: LrsDocuments): void {
  documents = lrsDocuments;
}

export function setAuthorization(token: string): void {
  authorization = `Basic ${token}`;
}

/** A Tin Can launch: the Authorization header as the launch gave it, the package's own mastery score. */
export function startTinCan(auth: string, mastery: number | null): void {
  cmi5Rules = false;
  authorization = auth;
  masteryScore = mastery;
  if (mastery !== null) course.setPassMark(mastery * 100);
}

/** The IRI the question and lesson ids are minted under: the course's, else (an older package) the AU's. */
export const statementBase = (): string => config.courseIri ?? activityId;

/** What `LMS.LaunchData` says: the context template, launch mode, mastery score and return URL. */
export function keepLaunchData(launchData: Json): void {
  contextTemplate = (launchData.contextTemplate ?? {}) as Json;
  launchMode = typeof launchData.launchMode === "string" ? launchData.launchMode : "Normal";
  masteryScore = typeof launchData.masteryScore === "number" ? launchData.masteryScore : null;
  // One verdict: the page states and grades by the LMS's mark, the one the passed/failed statements use.
  if (masteryScore !== null) course.setPassMark(masteryScore * 100);
  returnUrl = typeof launchData.returnURL === "string" ? launchData.returnURL : null;
}

export const headers = (): Record<string, string> => ({ Authorization: authorization, "X-Experience-API-Version": "1.0.3", "Content-Type": "application/json" });
export const stateUrl = (stateId: string): string =>
  `${endpoint}activities/state?${new URLSearchParams({ stateId, activityId, agent: JSON.stringify(actor), ...(registration ? { registration } : {}) }).toString()}`;

export const duration = (from: number): string => tools.isoDuration((Date.now() - from) / 1000);

export function authLost(): void {
  tools.notify(config.text.sessionExpired);
}

/** The AU's own State document: the encoded progress and what the LRS accepted in this registration. */
export function progressDocument(): string {
  return JSON.stringify({ progress: tools.encode(course.getState()), reported });
}

/** The encoded progress and flags go to the State document, latest first, retried on transient failures. */
export function saveProgress(): void {
  documents.save(stateUrl(config.progressStateId), progressDocument);
}

/** The State document as saved, or null when it is missing or unreadable (the learner starts afresh). */
export function savedProgress(body: unknown): { progress: string | null; reported: { completed: boolean; passed: boolean } } {
  const document = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Json) : {};
  const flags = typeof document.reported === "object" && document.reported !== null ? (document.reported as Json) : {};
  return { progress: typeof document.progress === "string" ? document.progress : null, reported: { completed: flags.completed === true, passed: flags.passed === true } };
}
