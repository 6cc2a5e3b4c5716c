/**
 * A small cmi5 LMS + LRS for player tests, on its own 127.0.0.1 origin (so the AU talks to it
 * cross-origin, as in a real deployment): a one-time fetch URL that hands out the auth token, the State
 * API (with `LMS.LaunchData` written per launch), agent profiles, and a statement store that checks the
 * token and, like a conforming LRS, stores a statement id once however often it is sent. Faults can be
 * injected into the statement resource: a number of failing answers (503, 401...) before it accepts
 * again, or failing every POST until told otherwise. `launch` builds the AU's URL the way an LMS does
 * (cmi5 section 8.1).
 */

export interface Statement {
  id: string;
  timestamp: string;
  actor: Record<string, unknown>;
  verb: { id: string };
  object: { id: string; definition?: Record<string, unknown> };
  result?: { score?: { scaled?: number; raw?: number; min?: number; max?: number }; success?: boolean; completion?: boolean; duration?: string; response?: string };
  context: {
    registration: string;
    contextActivities: { category?: { id: string }[]; grouping?: { id: string }[]; parent?: { id: string }[] };
    extensions: Record<string, unknown>;
  };
}

export interface LaunchOptions {
  readonly auUrl: string;
  readonly auId: string;
  readonly registration: string;
  readonly moveOn: string;
  readonly masteryScore?: number;
  readonly launchMode?: "Normal" | "Browse" | "Review";
}

export interface Cmi5Lms {
  readonly origin: string;
  readonly statements: Statement[];
  readonly actor: Record<string, unknown>;
  /** Writes LMS.LaunchData, records "launched", and returns the AU launch URL and its session id. */
  launch(options: LaunchOptions): { url: string; sessionId: string };
  /** Statements the AU sent in one session. */
  sessionStatements(sessionId: string): Statement[];
  readonly unauthorised: number;
  /** POSTs to the statement resource so far, accepted or not. */
  readonly statementPosts: number;
  /** Every statement POST that carried this statement id, in order, with the status the LRS answered. */
  receipts(statementId: string): number[];
  /** Receives (and stores) the next statement POST but answers it only when `release` is called. */
  holdNextStatementPost(): { readonly arrived: Promise<void>; release(): void };
  /** Answers the next statement POSTs with these statuses, one each, then accepts again. */
  failNextStatementPosts(...statuses: number[]): void;
  /** Answers every statement POST with `status` until called with null. */
  failStatementPostsWith(status: number | null): void;
  /** The AU's State document as stored, or undefined. */
  stateDocument(registration: string, activityId: string, stateId: string): string | undefined;
  /** Replaces a State document (to simulate a corrupted one). */
  putStateDocument(registration: string, activityId: string, stateId: string, body: string): void;
  stop(): void;
}

export const sessionIdExtension = "https://w3id.org/xapi/cmi5/context/extensions/sessionid";
const token = btoa("au-user:au-secret");

const cors = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, PUT, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, X-Experience-API-Version",
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...cors, "Content-Type": "application/json" } });
}

export function startCmi5Lms(): Cmi5Lms {
  const statements: Statement[] = [];
  const state = new Map<string, string>();
  const fetchTokens = new Map<string, boolean>();
  const actor = { objectType: "Agent", name: "Ada Learner", account: { homePage: "https://lms.example", name: "ada" } };
  let unauthorised = 0;
  let statementPosts = 0;
  const faults: number[] = [];
  let failAllWith: number | null = null;
  const storedIds = new Set<string>();
  const receiptsById = new Map<string, number[]>();
  let hold: { arrive(): void; released: Promise<void> } | null = null;

  function receive(ids: readonly string[], status: number): void {
    for (const id of ids) receiptsById.set(id, [...(receiptsById.get(id) ?? []), status]);
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
      if (url.pathname.startsWith("/fetch/") && request.method === "POST") {
        const id = url.pathname.slice("/fetch/".length);
        if (fetchTokens.get(id) !== false) return json({ "error-code": "1", "error-text": "The authorization token has already been returned." });
        fetchTokens.set(id, true);
        return json({ "auth-token": token });
      }
      if (!url.pathname.startsWith("/xapi/")) return new Response("not found", { status: 404, headers: cors });
      if (request.headers.get("Authorization") !== `Basic ${token}` || request.headers.get("X-Experience-API-Version") === null) {
        unauthorised += 1;
        return json({ error: "unauthorised" }, 401);
      }
      const resource = url.pathname.slice("/xapi/".length);
      if (resource === "statements" && request.method === "POST") {
        statementPosts += 1;
        const fault = faults.shift() ?? failAllWith;
        const body = (await request.json()) as Statement | Statement[];
        const received = Array.isArray(body) ? body : [body];
        receive(received.map((statement) => statement.id), fault ?? 200);
        if (fault !== null) return json({ error: "injected fault" }, fault);
        for (const statement of received) {
          if (storedIds.has(statement.id)) continue;
          storedIds.add(statement.id);
          statements.push(statement);
        }
        const held = hold;
        hold = null;
        if (held) {
          held.arrive();
          await held.released;
        }
        return json(received.map((statement) => statement.id));
      }
      if (resource === "activities/state") {
        const key = `${url.searchParams.get("registration")}|${url.searchParams.get("activityId")}|${url.searchParams.get("stateId")}`;
        if (request.method === "GET") {
          const document = state.get(key);
          return document === undefined ? new Response(null, { status: 404, headers: cors }) : new Response(document, { headers: { ...cors, "Content-Type": "application/json" } });
        }
        if (request.method === "PUT" || request.method === "POST") {
          if (url.searchParams.get("stateId") === "LMS.LaunchData") return json({ error: "the AU must not modify LMS.LaunchData" }, 403);
          state.set(key, await request.text());
          return new Response(null, { status: 204, headers: cors });
        }
      }
      if (resource === "agents/profile") return new Response(null, { status: 404, headers: cors });
      return new Response("not found", { status: 404, headers: cors });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;

  function launch(options: LaunchOptions): { url: string; sessionId: string } {
    const sessionId = crypto.randomUUID();
    const fetchId = crypto.randomUUID();
    fetchTokens.set(fetchId, false);
    const contextTemplate = {
      contextActivities: { grouping: [{ id: options.auId, objectType: "Activity" }] },
      extensions: { [sessionIdExtension]: sessionId },
    };
    const launchData = {
      contextTemplate,
      launchMode: options.launchMode ?? "Normal",
      moveOn: options.moveOn,
      ...(options.masteryScore === undefined ? {} : { masteryScore: options.masteryScore }),
    };
    state.set(`${options.registration}|${options.auId}|LMS.LaunchData`, JSON.stringify(launchData));
    statements.push({
      id: crypto.randomUUID(),
      timestamp: new Date().toISOString(),
      actor,
      verb: { id: "http://adlnet.gov/expapi/verbs/launched" },
      object: { id: options.auId },
      context: { registration: options.registration, contextActivities: contextTemplate.contextActivities, extensions: { ...contextTemplate.extensions } },
    });
    const query = new URLSearchParams({
      endpoint: `${origin}/xapi/`,
      fetch: `${origin}/fetch/${fetchId}`,
      actor: JSON.stringify(actor),
      registration: options.registration,
      activityId: options.auId,
    });
    return { url: `${options.auUrl}?${query.toString()}`, sessionId };
  }

  return {
    origin,
    statements,
    actor,
    launch,
    sessionStatements: (sessionId) => statements.filter((statement) => statement.context.extensions[sessionIdExtension] === sessionId && !statement.verb.id.endsWith("/launched")),
    get unauthorised() {
      return unauthorised;
    },
    get statementPosts() {
      return statementPosts;
    },
    receipts: (statementId) => [...(receiptsById.get(statementId) ?? [])],
    holdNextStatementPost() {
      let arrive = (): void => undefined;
      let release = (): void => undefined;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = { arrive, released };
      return { arrived, release };
    },
    failNextStatementPosts: (...statuses) => void faults.push(...statuses),
    failStatementPostsWith: (status) => {
      failAllWith = status;
    },
    stateDocument: (registration, activityId, stateId) => state.get(`${registration}|${activityId}|${stateId}`),
    putStateDocument: (registration, activityId, stateId, body) => void state.set(`${registration}|${activityId}|${stateId}`, body),
    stop: () => void server.stop(true),
  };
}
