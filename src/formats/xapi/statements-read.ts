/**
 * xAPI statements in: a statements file (a JSON array, or Statement API pages `{ statements, more }`, one
 * or several, as an LRS exports them) read into the facts the results store keeps. Every statement is
 * checked against the xAPI 1.0.3 rules that matter here (an id that is a UUID, an actor with exactly one
 * inverse functional identifier, a verb whose id is an IRI, an object, an ISO 8601 duration, a score in
 * range, a registration that is a UUID); one that fails is skipped and reported, never stored. Only
 * statements about this course's activities are kept (ids under the course's IRI, see
 * `page-contract/xapi-ids.ts`). The learner is replaced by a salted hash here, before anything is kept:
 * no name, e-mail or account leaves this module.
 */
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { describeJsonShapeProblem, jsonShapeProblemSliced } from "../../codecs/json.ts";
import { activityPaths, attemptExtension, courseVersionExtension, xapiVerbs } from "../../page-contract/xapi-ids.ts";

/** The most statements one file or one LRS read brings in. */
export const maxStatementsPerImport = 100_000;
/** The largest statements file read. */
export const maxStatementsFileBytes = 50 * 1024 * 1024;

export type FactKind = "course" | "unit" | "lesson" | "question" | "video";

/** One statement as the results store keeps it: who (a salted hash), did what, to which of the course's things. */
export interface StatementFact {
  readonly id: string;
  readonly learner: string;
  /** The verb's last path segment for the verbs we know (`answered`), else the verb IRI. */
  readonly verb: string;
  readonly kind: FactKind;
  /** The question's or video's block id, the lesson id, the AU's identifier; "" for the course. */
  readonly target: string;
  readonly registration: string | null;
  readonly attempt: number | null;
  readonly courseVersion: number | null;
  readonly timestamp: string;
  readonly result: FactResult | null;
}

export interface FactResult {
  readonly response?: string;
  readonly success?: boolean;
  readonly completion?: boolean;
  readonly scaled?: number;
  readonly raw?: number;
  readonly max?: number;
  readonly seconds?: number;
}

export interface SkipReport {
  readonly reason: string;
  count: number;
  /** Where the first few were: the statement's index in the file and its id when it had one. */
  readonly examples: string[];
}

export interface ReadStatementsResult {
  readonly facts: StatementFact[];
  /** Ids of statements voided by a voiding statement in the input. */
  readonly voided: string[];
  readonly total: number;
  readonly skipped: SkipReport[];
  /** The last page's `more` link, when the input was Statement API pages. */
  readonly more: string | null;
}

export interface ReadStatementsInput {
  /** The file's text (or one Statement API answer). */
  readonly text: string;
  /** The IRIs the course's activities live under (its default IRI and any a package was exported with). */
  readonly courseIris: readonly string[];
  /** The per-course salt for the learner hash. */
  readonly salt: string;
  readonly field: string;
  /** Statements already counted toward `maxStatementsPerImport` (an LRS read in pages). */
  readonly alreadyRead?: number;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iriPattern = /^[a-z][a-z0-9+.-]*:[^\s<>"{}|\\^`]+$/i;
const durationPattern = /^P(?!$)(\d+(?:\.\d+)?Y)?(\d+(?:\.\d+)?M)?(\d+(?:\.\d+)?W)?(\d+(?:\.\d+)?D)?(T(?=\d)(\d+(?:\.\d+)?H)?(\d+(?:\.\d+)?M)?(\d+(?:\.\d+)?S)?)?$/;
const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const examplesKept = 5;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

class Invalid extends Error {}
const invalid = (reason: string): never => {
  throw new Invalid(reason);
};

/** Seconds of an ISO 8601 duration (years and months at 365 and 30 days). */
export function durationSeconds(duration: string): number {
  const match = durationPattern.exec(duration);
  if (!match) return Number.NaN;
  const part = (index: number): number => (match[index] ? Number.parseFloat(match[index]) : 0);
  return part(1) * 31_536_000 + part(2) * 2_592_000 + part(3) * 604_800 + part(4) * 86_400 + part(6) * 3600 + part(7) * 60 + part(8);
}

/** The statements in the text: a JSON array, one Statement API page, or an array of pages. */
async function statementsOf(input: ReadStatementsInput): Promise<{ statements: unknown[]; more: string | null }> {
  const { text, field } = input;
  if (text.length > maxStatementsFileBytes) {
    throw new CourseAuthoringError("limit_exceeded", `${field}: the statements file is ${text.length} characters; at most ${maxStatementsFileBytes} are read. Split the export (by date, with since/until) or use connect_lrs.`, { field, limit: maxStatementsFileBytes });
  }
  const problem = await jsonShapeProblemSliced(text, { maxDepth: 48, maxMembers: maxStatementsPerImport, maxMembersInAll: Number.POSITIVE_INFINITY, maxStringLength: 1024 * 1024, maxKeyLength: 4096 });
  if (problem?.limit === "maxMembers") {
    throw new CourseAuthoringError("limit_exceeded", `${field}: more than ${maxStatementsPerImport} statements (or members of one object) in one file; at most ${maxStatementsPerImport} statements are imported at once. Split the export by date, or use connect_lrs, which reads in pages.`, { field, limit: maxStatementsPerImport });
  }
  if (problem) throw new CourseAuthoringError("limit_exceeded", `${field}: the JSON ${describeJsonShapeProblem(problem)}.`, { field, ...problem });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CourseAuthoringError("invalid_arguments", `${field}: is not JSON (${error instanceof Error ? error.message : String(error)}); expected an xAPI statements file: a JSON array of statements or Statement API pages {"statements": [...], "more": "..."}.`, { field });
  }
  const pages = Array.isArray(parsed) && parsed.length > 0 && parsed.every((item) => isObject(item) && Array.isArray(item.statements)) ? parsed : [parsed];
  const statements: unknown[] = [];
  let more: string | null = null;
  for (const page of pages) {
    if (Array.isArray(page)) statements.push(...page);
    else if (isObject(page) && Array.isArray(page.statements)) {
      statements.push(...page.statements);
      more = typeof page.more === "string" && page.more !== "" ? page.more : null;
    } else {
      throw new CourseAuthoringError("invalid_arguments", `${field}: is not an xAPI statements file; expected a JSON array of statements or Statement API pages {"statements": [...], "more": "..."}.`, { field });
    }
    if (statements.length + (input.alreadyRead ?? 0) > maxStatementsPerImport) {
      throw new CourseAuthoringError("limit_exceeded", `${field}: more than ${maxStatementsPerImport} statements; at most ${maxStatementsPerImport} are imported at once. Split the export by date, or read the LRS again with since.`, { field, limit: maxStatementsPerImport });
    }
  }
  if (statements.length > 0 && !statements.some((statement) => isObject(statement) && ("verb" in statement || "actor" in statement))) {
    throw new CourseAuthoringError("invalid_arguments", `${field}: none of its ${statements.length} items is an xAPI statement (no actor, no verb); expected xAPI statements.`, { field });
  }
  return { statements, more };
}

/** The actor's one inverse functional identifier, as a stable key; a group without one by its members. */
async function actorKey(actor: unknown, depth = 0): Promise<string> {
  if (!isObject(actor)) return invalid("actor: missing or not an object");
  const objectType = actor.objectType ?? "Agent";
  if (objectType !== "Agent" && objectType !== "Group") return invalid(`actor.objectType: "${String(objectType)}" is neither Agent nor Group`);
  const identifiers = ["mbox", "mbox_sha1sum", "openid", "account"].filter((name) => actor[name] !== undefined);
  if (identifiers.length > 1) return invalid(`actor: has ${identifiers.join(" and ")}; exactly one identifier is allowed`);
  const [identifier] = identifiers;
  if (identifier === undefined) {
    if (objectType === "Group" && Array.isArray(actor.member) && actor.member.length > 0 && depth === 0) {
      const members = await Promise.all(actor.member.slice(0, 100).map((member) => actorKey(member, depth + 1)));
      return `group:${members.sort().join(",")}`;
    }
    return invalid("actor: has no identifier (mbox, mbox_sha1sum, openid or account)");
  }
  const value = actor[identifier];
  switch (identifier) {
    case "mbox":
      if (typeof value !== "string" || !/^mailto:[^@\s]+@[^@\s]+$/i.test(value)) return invalid("actor.mbox: is not a mailto: IRI");
      return `sha1:${await sha1Hex(value.toLowerCase())}`;
    case "mbox_sha1sum":
      if (typeof value !== "string" || !/^[0-9a-f]{40}$/i.test(value)) return invalid("actor.mbox_sha1sum: is not 40 hexadecimal digits");
      return `sha1:${value.toLowerCase()}`;
    case "openid":
      if (typeof value !== "string" || !iriPattern.test(value)) return invalid("actor.openid: is not an IRI");
      return `openid:${value}`;
    default: {
      if (!isObject(value) || typeof value.homePage !== "string" || !iriPattern.test(value.homePage) || typeof value.name !== "string" || value.name === "") {
        return invalid("actor.account: needs homePage (an IRL) and name");
      }
      return `account:${value.homePage}|${value.name}`;
    }
  }
}

async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The learner's pseudonym: HMAC-SHA-256 of the actor's identifier under the course's salt, 128 bits in hex. */
export function learnerHasher(salt: string): (key: string) => Promise<string> {
  const known = new Map<string, string>();
  const keyPromise = crypto.subtle.importKey("raw", new TextEncoder().encode(salt), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return async (key) => {
    const cached = known.get(key);
    if (cached) return cached;
    const signature = await crypto.subtle.sign("HMAC", await keyPromise, new TextEncoder().encode(key));
    const hash = [...new Uint8Array(signature).slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    if (known.size < 1_000_000) known.set(key, hash);
    return hash;
  };
}

/** The course thing an activity id names, or null when it is not under one of the course's IRIs. */
export function courseActivity(id: string, courseIris: readonly string[]): { kind: FactKind; target: string } | null {
  const base = courseIris.find((iri) => id === iri || id.startsWith(`${iri}/`));
  if (base === undefined) return null;
  const rest = id.slice(base.length);
  if (rest === "") return { kind: "course", target: "" };
  const segments = rest.split("/").filter(Boolean);
  for (const kind of ["question", "lesson", "video"] as const) {
    const at = segments.lastIndexOf(activityPaths[kind]);
    if (at >= 0 && segments[at + 1] !== undefined) return { kind, target: safeDecode(segments[at + 1] as string) };
  }
  if (segments[0] === "au" && segments[1] !== undefined && segments.length === 2) return { kind: "unit", target: safeDecode(segments[1]) };
  return null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function verbName(id: string): string {
  const known = Object.entries(xapiVerbs).find(([, iri]) => iri === id);
  return known ? known[0] : id;
}

function checkResult(result: unknown): FactResult | null {
  if (result === undefined) return null;
  if (!isObject(result)) return invalid("result: is not an object");
  const out: { -readonly [K in keyof FactResult]: FactResult[K] } = {};
  if (result.duration !== undefined) {
    if (typeof result.duration !== "string" || !durationPattern.test(result.duration)) return invalid(`result.duration: "${String(result.duration).slice(0, 40)}" is not an ISO 8601 duration`);
    out.seconds = durationSeconds(result.duration);
  }
  if (result.success !== undefined) {
    if (typeof result.success !== "boolean") return invalid("result.success: is not a boolean");
    out.success = result.success;
  }
  if (result.completion !== undefined) {
    if (typeof result.completion !== "boolean") return invalid("result.completion: is not a boolean");
    out.completion = result.completion;
  }
  if (result.response !== undefined) {
    if (typeof result.response !== "string") return invalid("result.response: is not a string");
    out.response = result.response.slice(0, 1000);
  }
  if (result.score !== undefined) Object.assign(out, checkScore(result.score));
  return out;
}

function checkScore(score: unknown): FactResult {
  if (!isObject(score)) return invalid("result.score: is not an object");
  const numberOrUndefined = (name: string): number | undefined => {
    const value = score[name];
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value)) return invalid(`result.score.${name}: is not a number`);
    return value;
  };
  const [scaled, raw, min, max] = [numberOrUndefined("scaled"), numberOrUndefined("raw"), numberOrUndefined("min"), numberOrUndefined("max")];
  if (scaled !== undefined && (scaled < -1 || scaled > 1)) return invalid("result.score.scaled: is outside -1 to 1");
  if (min !== undefined && max !== undefined && max <= min) return invalid("result.score.max: is not above min");
  if (raw !== undefined && ((min !== undefined && raw < min) || (max !== undefined && raw > max))) return invalid("result.score.raw: is outside min to max");
  return { ...(scaled !== undefined ? { scaled } : {}), ...(raw !== undefined ? { raw } : {}), ...(max !== undefined ? { max } : {}) };
}

function contextNumbers(context: unknown): { registration: string | null; attempt: number | null; courseVersion: number | null; parents: string[] } {
  if (context === undefined) return { registration: null, attempt: null, courseVersion: null, parents: [] };
  if (!isObject(context)) return invalid("context: is not an object");
  const registration = context.registration;
  if (registration !== undefined && (typeof registration !== "string" || !uuidPattern.test(registration))) return invalid("context.registration: is not a UUID");
  const extensions = isObject(context.extensions) ? context.extensions : {};
  const whole = (value: unknown): number | null => {
    const number = typeof value === "string" ? Number(value) : value;
    return typeof number === "number" && Number.isInteger(number) && number >= 0 && number < 1e9 ? number : null;
  };
  const activities = isObject(context.contextActivities) ? context.contextActivities : {};
  const parents = ["parent", "grouping"].flatMap((name) => {
    const list = activities[name];
    const items = Array.isArray(list) ? list : list === undefined ? [] : [list];
    return items.flatMap((item) => (isObject(item) && typeof item.id === "string" ? [item.id] : []));
  });
  return { registration: typeof registration === "string" ? registration.toLowerCase() : null, attempt: whole(extensions[attemptExtension]), courseVersion: whole(extensions[courseVersionExtension]), parents };
}

type Checked = { fact: StatementFact } | { voids: string } | { outside: true };

async function checkStatement(statement: unknown, input: ReadStatementsInput, hash: (key: string) => Promise<string>, fallbackId: () => Promise<string>): Promise<Checked> {
  if (!isObject(statement)) return invalid("is not an object");
  const id = statement.id === undefined ? await fallbackId() : statement.id;
  if (typeof id !== "string" || !uuidPattern.test(id)) return invalid("id: is not a UUID");
  const key = await actorKey(statement.actor);
  const verb = statement.verb;
  if (!isObject(verb) || typeof verb.id !== "string" || !iriPattern.test(verb.id)) return invalid("verb.id: is missing or not an IRI");
  const object = statement.object;
  if (!isObject(object)) return invalid("object: is missing or not an object");
  if (statement.timestamp !== undefined && (typeof statement.timestamp !== "string" || !timestampPattern.test(statement.timestamp))) return invalid("timestamp: is not an ISO 8601 date and time");
  const result = checkResult(statement.result);
  const context = contextNumbers(statement.context);
  if (verb.id === xapiVerbs.voided) {
    if (object.objectType !== "StatementRef" || typeof object.id !== "string" || !uuidPattern.test(object.id)) return invalid("object: a voiding statement's object must be a StatementRef with a UUID id");
    return { voids: object.id.toLowerCase() };
  }
  const objectType = object.objectType ?? "Activity";
  if (objectType !== "Activity") return { outside: true };
  if (typeof object.id !== "string" || !iriPattern.test(object.id)) return invalid("object.id: is missing or not an IRI");
  const activity = courseActivity(object.id, input.courseIris);
  if (!activity) return { outside: true };
  const timestamp = typeof statement.timestamp === "string" ? statement.timestamp : typeof statement.stored === "string" ? statement.stored : "";
  return {
    fact: { id: id.toLowerCase(), learner: await hash(key), verb: verbName(verb.id), kind: activity.kind, target: activity.target, registration: context.registration, attempt: context.attempt, courseVersion: context.courseVersion, timestamp, result },
  };
}

function skip(skipped: Map<string, SkipReport>, reason: string, where: string): void {
  const entry = skipped.get(reason) ?? { reason, count: 0, examples: [] };
  entry.count += 1;
  if (entry.examples.length < examplesKept) entry.examples.push(where);
  if (skipped.size < 50 || skipped.has(reason)) skipped.set(reason, entry);
}

/** Reads a statements file into facts; statements that break the rules or are about other courses are skipped and counted. */
export async function readStatements(input: ReadStatementsInput): Promise<ReadStatementsResult> {
  const { statements, more } = await statementsOf(input);
  const hash = learnerHasher(input.salt);
  const facts: StatementFact[] = [];
  const voided: string[] = [];
  const skipped = new Map<string, SkipReport>();
  const seen = new Set<string>();
  for (const [index, statement] of statements.entries()) {
    const fallbackId = async (): Promise<string> => uuidFromHash(await sha1Hex(JSON.stringify(statement)));
    const where = `#${index}${isObject(statement) && typeof statement.id === "string" ? ` (${statement.id.slice(0, 40)})` : ""}`;
    try {
      const checked = await checkStatement(statement, input, hash, fallbackId);
      if ("voids" in checked) voided.push(checked.voids);
      else if ("outside" in checked) skip(skipped, "not about this course's activities", where);
      else if (seen.has(checked.fact.id)) skip(skipped, "the same statement id twice (counted once)", where);
      else {
        seen.add(checked.fact.id);
        facts.push(checked.fact);
      }
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      skip(skipped, `breaks the xAPI rules: ${error.message}`, where);
    }
  }
  return { facts, voided, total: statements.length, skipped: [...skipped.values()], more };
}

/** A UUID-shaped id from a content hash, for a statement sent without one (an LRS always assigns one). */
function uuidFromHash(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
