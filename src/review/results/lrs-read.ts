/**
 * `connect_lrs`: statements read from a learning record store the author names, with the xAPI Statement
 * API (`GET statements?activity=…&related_activities=true&since=…&limit=…`, following `more`), into the
 * course's results store. Only hosts the operator lists in `LRS_ALLOWED_HOSTS` are contacted, checked
 * before any connection; a loopback or private address only when it is listed itself. The key and
 * secret go into the Authorization header and nowhere else: never into a result, an error or a log.
 * Every answer is bounded in bytes and time, redirects to another host are refused, a `more` link seen
 * twice ends the read, and nothing is stored until every page has been read (one transaction).
 */
import * as v from "valibot";
import type { Actor } from "../../authoring/context.ts";
import { idField } from "../../authoring/schemas/fields.ts";
import type { AuthoringServices } from "../../authoring/services.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { courseIriField } from "../../formats/xapi/course-iri.ts";
import { maxStatementsPerImport, type ReadStatementsResult, type SkipReport, type StatementFact } from "../../formats/xapi/statements-read.ts";
import { courseIrisOf, prepareResults, resultsSettings, storeStatements, type ImportedResults } from "./import-results.ts";

export const lrsLimits = {
  /** The largest single answer read. */
  maxAnswerBytes: 16 * 1024 * 1024,
  /** Time for one request, headers and body. */
  requestMs: 20_000,
  /** Time for the whole read. */
  totalMs: 5 * 60_000,
  /** Pages followed at most. */
  maxPages: 2000,
  /** Redirects followed (to the same host) per request. */
  maxRedirects: 3,
  /** Statements asked for per page. */
  pageSize: 500,
} as const;

export const connectLrsArguments = v.strictObject({
  courseId: idField("course"),
  endpoint: v.pipe(v.string(), v.check((text) => text.length <= 2000, "must be at most 2000 characters"), v.url("must be the LRS's xAPI endpoint URL (https://host/xapi/)")),
  key: v.pipe(v.string("must be text"), v.check((text) => text.length > 0 && text.length <= 1000, "must be 1 to 1000 characters")),
  secret: v.pipe(v.string("must be text"), v.check((text) => text.length > 0 && text.length <= 1000, "must be 1 to 1000 characters")),
  since: v.optional(v.pipe(v.string(), v.isoTimestamp("must be an ISO 8601 timestamp"))),
  courseIri: courseIriField,
});

export type ConnectLrsArguments = v.InferOutput<typeof connectLrsArguments>;

export interface LrsRead extends ImportedResults {
  host: string;
  pages: number;
  /** Pass as since to read only what arrived after this read. */
  since: string | null;
  /** Why the read stopped early, if it did; what was read before is stored. */
  stoppedEarly?: string;
}

const privateAddress = /^(127\.|10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.|0\.|\[?::1\]?$|\[?f[cd][0-9a-f]{2}:|\[?fe80:|localhost$)/i;

/** The endpoint's host, when the operator allows it; refused before any connection otherwise. */
export function allowedEndpoint(endpoint: string, allowed: readonly string[]): URL {
  const url = new URL(endpoint.endsWith("/") ? endpoint : `${endpoint}/`);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new CourseAuthoringError("invalid_arguments", "endpoint: must be an http or https URL.", { field: "endpoint" });
  if (url.username || url.password) throw new CourseAuthoringError("invalid_arguments", "endpoint: must not carry credentials; give key and secret.", { field: "endpoint" });
  const host = url.hostname.toLowerCase();
  const withPort = `${host}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
  const listed = allowed.some((entry) => entry === host || entry === withPort || (url.port !== "" && entry === url.host.toLowerCase()));
  if (!listed) {
    const why = privateAddress.test(host) ? " (a loopback or private address is read only when listed itself)" : "";
    throw new CourseAuthoringError("forbidden", `endpoint: host ${url.host} is not in LRS_ALLOWED_HOSTS${why}; ${allowed.length ? `allowed: ${allowed.join(", ")}` : "the operator has allowed no LRS host"}.`, { field: "endpoint", host: url.host });
  }
  return url;
}

/**
 * The body of an answer, read up to the limit; more is an error, and so is a body that stops coming (the
 * request's time-out, `timeout`, or the whole read's end, `read`, aborts it) or breaks off.
 */
async function boundedText(response: Response, timeout: AbortSignal, read: AbortSignal): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > lrsLimits.maxAnswerBytes) throw lrsError(`answered with ${declared} bytes; at most ${lrsLimits.maxAnswerBytes} are read per page`);
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    if (timeout.aborted) throw lrsError("took too long to answer");
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      await reader.cancel().catch(() => undefined);
      if (read.aborted) throw lrsError("read was stopped or took too long");
      throw lrsError(timeout.aborted ? `stopped sending before its answer was complete, and did not finish it within ${lrsLimits.requestMs / 1000} s` : "broke off its answer before it was complete");
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > lrsLimits.maxAnswerBytes) {
      await reader.cancel().catch(() => undefined);
      throw lrsError(`sent more than ${lrsLimits.maxAnswerBytes} bytes in one answer; ask for fewer statements per page`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

function lrsError(why: string, code: "invalid_state" | "forbidden" | "limit_exceeded" = "invalid_state"): CourseAuthoringError {
  return new CourseAuthoringError(code, `The LRS ${why}. Nothing was stored.`, { field: "endpoint" });
}

/** One GET, following redirects only to the same host; the answer's text. */
async function getPage(url: URL, authorization: string, signal: AbortSignal): Promise<string> {
  let current = url;
  for (let hop = 0; hop <= lrsLimits.maxRedirects; hop++) {
    const timeout = AbortSignal.any([signal, AbortSignal.timeout(lrsLimits.requestMs)]);
    let response: Response;
    try {
      response = await fetch(current, { headers: { Authorization: authorization, "X-Experience-API-Version": "1.0.3", Accept: "application/json" }, redirect: "manual", signal: timeout });
    } catch {
      throw lrsError(signal.aborted ? "read was stopped or took too long" : `at ${url.host} could not be reached, or took more than ${lrsLimits.requestMs / 1000} s to answer`);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      const target = new URL(response.headers.get("location") ?? "", current);
      if (target.host !== url.host || target.protocol !== url.protocol) throw lrsError(`redirected to another host (${target.host}); refused`, "forbidden");
      current = target;
      continue;
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel().catch(() => undefined);
      throw lrsError(`refused the key and secret (HTTP ${response.status})`, "forbidden");
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw lrsError(`answered HTTP ${response.status}`);
    }
    return boundedText(response, timeout, signal);
  }
  throw lrsError(`redirected more than ${lrsLimits.maxRedirects} times`);
}

function statementsUrl(base: URL, courseIri: string, since: string | undefined): URL {
  const url = new URL("statements", base);
  url.searchParams.set("activity", courseIri);
  url.searchParams.set("related_activities", "true");
  url.searchParams.set("limit", String(lrsLimits.pageSize));
  if (since) url.searchParams.set("since", since);
  return url;
}

function latestStored(text: string, previous: string | null): string | null {
  let latest = previous;
  for (const match of text.matchAll(/"stored"\s*:\s*"([^"]{10,40})"/g)) if (latest === null || (match[1] as string) > latest) latest = match[1] as string;
  return latest;
}

function mergeSkips(into: Map<string, SkipReport>, skipped: readonly SkipReport[]): void {
  for (const entry of skipped) {
    const known = into.get(entry.reason);
    if (known) known.count += entry.count;
    else into.set(entry.reason, { ...entry, examples: [...entry.examples] });
  }
}

export interface LrsReadHooks {
  signal: AbortSignal;
  progress: (read: number, message: string) => Promise<void>;
}

export async function connectLrs(services: AuthoringServices, actor: Actor, args: ConnectLrsArguments, hooks: LrsReadHooks): Promise<LrsRead> {
  const base = allowedEndpoint(args.endpoint, resultsSettings(services).lrsAllowedHosts);
  const salt = await prepareResults(services, actor, args.courseId);
  const authorization = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${args.key}:${args.secret}`)))}`;
  const signal = AbortSignal.any([hooks.signal, AbortSignal.timeout(lrsLimits.totalMs)]);
  const courseIris = courseIrisOf(args.courseId, args.courseIri);
  const facts = new Map<string, StatementFact>();
  const voided: string[] = [];
  const skipped = new Map<string, SkipReport>();
  let [total, pages, since] = [0, 0, null as string | null];
  let stoppedEarly: string | undefined;
  for (const courseIri of courseIris) {
    const seen = new Set<string>();
    let next: URL | null = statementsUrl(base, courseIri, args.since);
    while (next) {
      if (seen.has(next.href)) {
        stoppedEarly = "the LRS sent a more link it had sent before (a loop); the read stopped there";
        break;
      }
      if (pages >= lrsLimits.maxPages) throw lrsError(`needed more than ${lrsLimits.maxPages} pages; read again with since`, "limit_exceeded");
      seen.add(next.href);
      const text = await getPage(next, authorization, signal);
      pages += 1;
      const read: ReadStatementsResult = await services.heavyWork.run("readStatementsJob", { text, courseIris, salt, field: "endpoint", alreadyRead: total });
      total += read.total;
      since = latestStored(text, since);
      for (const fact of read.facts) facts.set(fact.id, fact);
      voided.push(...read.voided);
      mergeSkips(skipped, read.skipped);
      await hooks.progress(total, `Read ${total} statement(s) in ${pages} page(s) from ${base.host}`);
      if (total >= maxStatementsPerImport) throw lrsError(`holds more than ${maxStatementsPerImport} statements for this course since ${args.since ?? "the start"}; read in parts with since`, "limit_exceeded");
      next = read.more ? new URL(read.more, base) : null;
      if (next && next.host !== base.host) throw lrsError(`sent a more link to another host (${next.host}); refused`, "forbidden");
    }
  }
  const stored = await storeStatements(services, actor, args.courseId, { facts: [...facts.values()], voided, total, skipped: [...skipped.values()], more: null });
  return { ...stored, host: base.host, pages, since, ...(stoppedEarly ? { stoppedEarly } : {}) };
}
