/**
 * The 2025-11-25 leg of /mcp (endpoint.ts tells the era): routes each request, its body already read, to a cached
 * streamable HTTP transport (one per `Mcp-Session-Id`, idle time-out), or in stateless mode to a fresh
 * server and transport per request. A session belongs to the user who opened it: anyone else
 * presenting its id is told it does not exist. The parts, each one job: `session-table.ts` (admission,
 * eviction, leases), `session-restore.ts` (rebuilding a session another replica opened),
 * `request-body.ts` (reading the body), `event-stream.ts` (the standalone GET stream), `event-streams.ts`
 * (resumable streams: with it, every event is stored and GET requests are served from the store).
 */
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport, type InitializeRequest, type JSONRPCMessage, type Server } from "@modelcontextprotocol/server";
import type { CallerIdentity } from "./registry.ts";
import { authInfoFor, type McpCaller } from "./caller.ts";
export type { McpCaller } from "./caller.ts";
import type { Logger } from "../log.ts";
import type { McpSessionRecord } from "../store/session-records.ts";
import type { SessionSharing } from "./session-sharing.ts";
import { jsonRpcErrorResponse } from "../http/jsonrpc-error.ts";
import { openedStream } from "./event-stream.ts";
import { createSessionTable, type OpenSession } from "./session-table.ts";
import { createSessionRestore } from "./session-restore.ts";
import type { EventStreams } from "./event-streams.ts";
import { SessionTransport } from "./session-transport.ts";
import { responsesOf, type ServerRequestRelay } from "./server-request-relay.ts";


export interface SessionOptions {
  stateless: boolean;
  createServer: () => Server;
  logger: Logger;
  idleTimeoutMs?: number;
  /** Sessions in all; beyond it a new session is refused (503). */
  maxSessions?: number;
  /** Sessions of one user; beyond it the user's least recently used idle session is closed. */
  maxSessionsPerUser?: number;
  /** Shares session records between replicas (PostgreSQL); absent, sessions live in this process only. */
  sharing?: SessionSharing;
  /** Resumable streams (event-streams.ts); absent, streams are the SDK transport's own and not stored. */
  streams?: EventStreams;
  /**
   * Answers a POST message the server cannot (the task-augmented `tools/call`, tasks/task-call.ts, since
   * the SDK's server admits only a `CallToolResult`); undefined hands the message to the session's server.
   */
  answeredBesideServer?: (parsedBody: unknown, user: CallerIdentity) => Promise<Response> | undefined;
  /** Told when a session ends for good (DELETE, or closed in a single process), to drop what it held. */
  onSessionEnded?: (id: string) => void;
  /**
   * Carries the client's answers to a server request to the replica that sent it (shared sessions);
   * absent, an answer reaches only this replica's server.
   */
  relay?: ServerRequestRelay;
  /** The headers the HTTP layer gives every answer, built into a session's one-string answers (session-transport.ts). */
  answerHeaders?: Readonly<Record<string, string>>;
}

const sessionNotFound = () => jsonRpcErrorResponse(404, -32001, "Session not found: start a new session with initialize");

/**
 * The session table's side (admission, eviction, leases): sessions opened here, restored here from another
 * replica's record, found for their user, and closed; the request handling is `createMcpSessions`.
 */
function createSessionKeeping(options: SessionOptions) {
  const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  const table = createSessionTable({
    logger: options.logger,
    idleTimeoutMs,
    maxSessions: options.maxSessions ?? 1000,
    maxSessionsPerUser: options.maxSessionsPerUser ?? 20,
  });
  const restores = createSessionRestore();

  function closeSession(id: string, reason: string): Promise<void> {
    options.sharing?.forgetLocally(id);
    // Shared sessions live on in the record (and another replica may restore them) until DELETE or the sweep.
    void options.streams?.closed(id, !options.sharing);
    if (!options.sharing) options.onSessionEnded?.(id);
    return table.close(id, reason);
  }

  /** Rebuilds, here, a session another replica opened: it takes a place like a new one. */
  async function rebuild(sharing: SessionSharing, record: McpSessionRecord, caller: McpCaller, url: string): Promise<OpenSession | Response> {
    const place = table.reserve(caller.user.sub);
    if (place instanceof Response) return place;
    try {
      const server = options.createServer();
      const streams = options.streams?.transportOptions(record.id, caller.user.sub);
      const transport = new SessionTransport(
        new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => record.id,
          onsessionclosed: (closedId) => void closeSession(closedId, "closed"),
          ...streams,
        }),
        { ...streams, relay: options.relay, answerHeaders: options.answerHeaders },
      );
      await server.connect(transport);
      // The replayed handshake's answer goes nowhere: nothing of it is stored.
      if (streams) streams.eventStore.muted = true;
      await sharing.replayHandshake(transport, record, url, authInfoFor(caller));
      if (streams) streams.eventStore.muted = false;
      const session = { transport, server, sub: caller.user.sub };
      table.register(record.id, session);
      options.logger.debug("mcp session restored", { session: record.id, sub: caller.user.sub });
      return session;
    } finally {
      place.release();
    }
  }

  /** The caller's session `id`: cached here, or restored from the shared record; else undefined. */
  async function sessionFor(id: string, caller: McpCaller, url: string): Promise<OpenSession | Response | undefined> {
    const sharing = options.sharing;
    const cached = table.find(id, caller.user.sub);
    if (!sharing) return cached;
    if (cached && (await sharing.stillExists(id))) return cached;
    if (cached) await closeSession(id, "ended on another replica");
    return restores.restore(id, caller.user.sub, {
      lookup: (sessionId, sub) => sharing.lookup(sessionId, sub),
      rebuild: (record) => rebuild(sharing, record, caller, url),
    });
  }

  async function openSession(request: Request, caller: McpCaller, parsedBody: unknown): Promise<Response> {
    const place = table.reserve(caller.user.sub);
    if (place instanceof Response) return place;
    try {
      const server = options.createServer();
      // Chosen here, as the transport would, so the session's event store knows it from the start.
      const sessionId = crypto.randomUUID();
      const streams = options.streams?.transportOptions(sessionId, caller.user.sub);
      const sdkTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => sessionId,
        ...streams,
        onsessioninitialized: async (id) => {
          table.register(id, { transport, server, sub: caller.user.sub });
          options.logger.debug("mcp session opened", { session: id, sub: caller.user.sub });
          // Recorded before the answer leaves, so the client's next request finds it on any replica.
          if (options.sharing) await options.sharing.opened(id, caller.user.sub, initializeRequestOf(parsedBody));
        },
        onsessionclosed: (id) => void closeSession(id, "closed"),
      });
      const transport = new SessionTransport(sdkTransport, { ...streams, relay: options.relay, answerHeaders: options.answerHeaders });
      await server.connect(transport);
      return await transport.handleRequest(request, { parsedBody, authInfo: authInfoFor(caller) });
    } finally {
      place.release();
    }
  }

  return { table, closeSession, sessionFor, openSession };
}

export function createMcpSessions(options: SessionOptions) {
  const { table, closeSession, sessionFor, openSession } = createSessionKeeping(options);

  async function handleStateless(request: Request, caller: McpCaller, parsedBody: unknown): Promise<Response> {
    const answeredBeside = options.answeredBesideServer?.(parsedBody, caller.user);
    if (answeredBeside) return answeredBeside;
    const server = options.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody, authInfo: authInfoFor(caller) });
    } finally {
      // The JSON response is complete once returned; release the per-request server.
      void server.close().catch(() => undefined);
    }
  }

  async function handleInSession(request: Request, id: string, caller: McpCaller, parsedBody: unknown, plain: boolean): Promise<Response> {
    const session = await sessionFor(id, caller, request.url);
    if (session instanceof Response) return session;
    if (!session) return sessionNotFound();
    table.touch(id);
    const answeredBeside = request.method === "POST" ? options.answeredBesideServer?.(parsedBody, caller.user) : undefined;
    if (answeredBeside) return answeredBeside;
    // A plain request is no answer: its headers are checked once, by the transport that answers it.
    const answers = !plain && request.method === "POST" && session.transport.acceptsPost?.(request) ? responsesOf(parsedBody) : undefined;
    if (answers) return answered(session, id, answers);
    const response = await table.during(id, async () => {
      if (request.method === "GET" && options.streams) return options.streams.open(request, id, table.lease(id));
      const answer = await session.transport.handleRequest(request, { parsedBody, authInfo: authInfoFor(caller) }, plain);
      // The standalone GET stream keeps the session in use until it ends.
      return request.method === "GET" ? openedStream(answer, table.lease(id)) : answer;
    });
    if (request.method === "DELETE" && response.ok) {
      await closeSession(id, "deleted");
      await options.sharing?.closed(id);
      if (options.sharing) options.onSessionEnded?.(id);
    }
    return response;
  }

  /**
   * The client's answers to the server's requests: to this replica's server when it sent the request,
   * else to the replica that did (through the relay). Accepted as the SDK transport accepts them (202).
   */
  async function answered(session: OpenSession, id: string, answers: JSONRPCMessage[]): Promise<Response> {
    for (const answer of answers) {
      if (session.transport.deliverResponse?.(answer)) continue;
      await options.relay?.forward(id, answer);
    }
    return new Response(null, { status: 202 });
  }

  return {
    get size() {
      return table.size;
    },

    /**
     * One authenticated 2025-11-25 /mcp request (endpoint.ts told its era); `parsedBody` is the POST body
     * already read (request-body.ts), `plain` says it is a plain request (endpoint.ts, `plainLegacyRequest`).
     */
    async handle(request: Request, caller: McpCaller, parsedBody: unknown, plain = false): Promise<Response> {
      if (options.stateless) {
        if (request.method !== "POST") return Promise.resolve(jsonRpcErrorResponse(405, -32000, "this server is stateless: only POST is supported", { Allow: "POST" }));
        return handleStateless(request, caller, parsedBody);
      }
      const sessionId = request.headers.get("mcp-session-id");
      if (sessionId) return handleInSession(request, sessionId, caller, parsedBody, plain);
      if (request.method !== "POST" || !isInitializing(parsedBody)) {
        return Promise.resolve(jsonRpcErrorResponse(400, -32000, "Bad Request: Mcp-Session-Id header is required (send initialize first)"));
      }
      return openSession(request, caller, parsedBody);
    },

    async closeAll() {
      options.sharing?.stop();
      options.streams?.closeAll();
      await table.closeAll();
    },
  };
}

export type McpSessions = ReturnType<typeof createMcpSessions>;

function isInitializing(parsedBody: unknown): boolean {
  return Array.isArray(parsedBody) ? parsedBody.some(isInitializeRequest) : isInitializeRequest(parsedBody);
}

function initializeRequestOf(parsedBody: unknown): InitializeRequest {
  const messages = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
  return messages.find(isInitializeRequest) as InitializeRequest;
}
