/**
 * The /mcp transport edge: routes each authenticated request, its body already read, to a cached
 * streamable HTTP transport (one per `Mcp-Session-Id`, idle time-out), or in stateless mode to a fresh
 * server and transport per request. A session belongs to the user who opened it: anyone else
 * presenting its id is told it does not exist. The parts, each one job: `session-table.ts` (admission,
 * eviction, leases), `session-restore.ts` (rebuilding a session another replica opened),
 * `request-body.ts` (reading the body), `event-stream.ts` (the standalone GET stream), `event-streams.ts`
 * (resumable streams: with it, every event is stored and GET requests are served from the store).
 */
import { classifyInboundRequest, isInitializeRequest, PROTOCOL_VERSION_META_KEY, isLegacyRequest, ProtocolError as SdkProtocolError, WebStandardStreamableHTTPServerTransport, type InitializeRequest, type JSONRPCMessage, type JSONRPCRequest, type McpHttpHandler, type Server } from "@modelcontextprotocol/server";
import type { CallerIdentity } from "./registry.ts";
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
   * Answers a 2025-11-25 task-augmented `tools/call` beside the SDK's server, which admits only a
   * `CallToolResult` as its answer (server.ts, `answerTaskCall`); absent, such calls reach the server.
   */
  taskCalls?: (params: TaskCallParams, user: CallerIdentity) => Promise<unknown>;
  /**
   * Serves 2026-07-28 requests (the SDK's `createMcpHandler`, legacy traffic refused there): every request
   * carrying the per-request `_meta` envelope goes to it, with no session. Absent, only 2025 is served.
   */
  modern?: McpHttpHandler;
  /**
   * What 2026-07-28 requests the SDK cannot answer as this service must are answered by, once the SDK's
   * own inbound ladder has passed them: the tasks extension (tasks/tasks-extension.ts), subscriptions/listen
   * (modern-listen.ts). Each answers its own requests and passes on the rest (undefined).
   */
  besideTheSdk?: BesideTheSdk[];
  /** Told when a session ends for good (DELETE, or closed in a single process), to drop what it held. */
  onSessionEnded?: (id: string) => void;
  /**
   * Carries the client's answers to a server request to the replica that sent it (shared sessions);
   * absent, an answer reaches only this replica's server.
   */
  relay?: ServerRequestRelay;
}

/** What the auth layer established about the caller, handed to the transport as its `authInfo`. */
export interface McpCaller {
  token: string;
  user: CallerIdentity;
}

const authInfoFor = ({ token, user }: McpCaller) => ({
  token,
  clientId: user.clientId ?? "",
  scopes: user.scopes,
  extra: { identity: user },
});

export interface TaskCallParams {
  name: string;
  arguments?: Record<string, unknown>;
  task: { ttl?: number };
}

/** The one `tools/call` carrying `params.task` in a POST body, if that is what it is. */
function taskCallOf(parsedBody: unknown): { id: string | number; params: TaskCallParams } | undefined {
  if (typeof parsedBody !== "object" || parsedBody === null || Array.isArray(parsedBody)) return undefined;
  const message = parsedBody as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown; task?: unknown } };
  if (message.method !== "tools/call" || (typeof message.id !== "string" && typeof message.id !== "number")) return undefined;
  const params = message.params;
  if (typeof params?.name !== "string" || typeof params.task !== "object" || params.task === null || Array.isArray(params.task)) return undefined;
  const args = typeof params.arguments === "object" && params.arguments !== null && !Array.isArray(params.arguments) ? (params.arguments as Record<string, unknown>) : undefined;
  const ttl = (params.task as { ttl?: unknown }).ttl;
  return { id: message.id, params: { name: params.name, ...(args ? { arguments: args } : {}), task: typeof ttl === "number" ? { ttl } : {} } };
}

async function answeredTaskCall(taskCalls: NonNullable<SessionOptions["taskCalls"]>, call: { id: string | number; params: TaskCallParams }, user: CallerIdentity): Promise<Response> {
  try {
    return Response.json({ jsonrpc: "2.0", id: call.id, result: await taskCalls(call.params, user) });
  } catch (error) {
    if (!(error instanceof SdkProtocolError)) throw error;
    const data = error.data === undefined ? {} : { data: error.data };
    return Response.json({ jsonrpc: "2.0", id: call.id, error: { code: error.code, message: error.message, ...data } });
  }
}

/** Answers a 2026-07-28 request it owns; undefined passes the request on. */
export interface BesideTheSdk {
  /**
   * Whether it may answer this body (a quick look at the raw message, before the SDK classifies it);
   * false sends the request straight to the SDK, with no second classification.
   */
  claims(body: { method: string; params?: unknown }): boolean;
  answer(message: JSONRPCRequest, user: CallerIdentity): Promise<Response | undefined>;
}

/** A request the SDK's inbound ladder passes as modern, answered beside the SDK if it is one of those. */
async function answeredBesideTheSdk(answerers: BesideTheSdk[], request: Request, parsedBody: unknown, caller: McpCaller): Promise<Response | undefined> {
  const body = parsedBody as { method?: unknown; params?: unknown } | null;
  if (typeof body?.method !== "string" || !answerers.some((answerer) => answerer.claims(body as { method: string; params?: unknown }))) return undefined;
  const route = classifyInboundRequest({
    httpMethod: request.method,
    protocolVersionHeader: request.headers.get("mcp-protocol-version") ?? undefined,
    mcpMethodHeader: request.headers.get("mcp-method") ?? undefined,
    mcpNameHeader: request.headers.get("mcp-name") ?? undefined,
    body: parsedBody,
  });
  if (route.kind !== "modern" || route.messageKind !== "request") return undefined;
  for (const answerer of answerers) {
    const answered = await answerer.answer(route.message, caller.user);
    if (answered) return answered;
  }
  return undefined;
}

const mixedEras = () =>
  jsonRpcErrorResponse(
    400,
    -32600,
    "Bad Request: a request in protocol revision 2026-07-28 (its _meta carries io.modelcontextprotocol/protocolVersion) has no session: send it without Mcp-Session-Id, or speak 2025-11-25 inside the session",
  );

const sessionNotFound = () => jsonRpcErrorResponse(404, -32001, "Session not found: start a new session with initialize");

export function createMcpSessions(options: SessionOptions) {
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

  async function handleStateless(request: Request, caller: McpCaller, parsedBody: unknown): Promise<Response> {
    const taskCall = options.taskCalls ? taskCallOf(parsedBody) : undefined;
    if (taskCall) return answeredTaskCall(options.taskCalls!, taskCall, caller.user);
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
        { ...streams, relay: options.relay },
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

  async function handleInSession(request: Request, id: string, caller: McpCaller, parsedBody: unknown, plain: boolean): Promise<Response> {
    const session = await sessionFor(id, caller, request.url);
    if (session instanceof Response) return session;
    if (!session) return sessionNotFound();
    table.touch(id);
    const taskCall = request.method === "POST" && options.taskCalls ? taskCallOf(parsedBody) : undefined;
    if (taskCall) return answeredTaskCall(options.taskCalls!, taskCall, caller.user);
    const answers = request.method === "POST" && session.transport.acceptsPost?.(request) ? responsesOf(parsedBody) : undefined;
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
      const transport = new SessionTransport(sdkTransport, { ...streams, relay: options.relay });
      await server.connect(transport);
      return await transport.handleRequest(request, { parsedBody, authInfo: authInfoFor(caller) });
    } finally {
      place.release();
    }
  }

  return {
    get size() {
      return table.size;
    },

    /** One authenticated /mcp request; `parsedBody` is the POST body already read (request-body.ts). */
    async handle(request: Request, caller: McpCaller, parsedBody: unknown): Promise<Response> {
      // The SDK's own classification: a request carrying the 2026-07-28 envelope (or claiming that
      // revision in its header) is modern, and the modern path answers its malformed variants itself.
      const plain = request.method === "POST" && plainLegacyRequest(request, parsedBody);
      if (options.modern && request.method === "POST" && !plain && (claimsModernRevision(parsedBody) || !(await isLegacyRequest(request, parsedBody)))) {
        // Mixed eras are refused, not guessed: a 2026-07-28 request belongs to no session.
        if (request.headers.has("mcp-session-id")) return mixedEras();
        const answered = options.besideTheSdk && (await answeredBesideTheSdk(options.besideTheSdk, request, parsedBody, caller));
        return answered ?? options.modern.fetch(request, { parsedBody, authInfo: authInfoFor(caller) });
      }
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

const firstModernRevision = "2026-07-28";
const requestKeys = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * A POST the SDK's `isLegacyRequest` would certainly call legacy, told without its schema checks: one
 * well-formed JSON-RPC request (no other members; id a string or an integer; params absent or an
 * object with no `_meta` at all, so no envelope claim), not `initialize`, and no header naming a
 * 2026-07-28-or-later revision. Anything else, however ordinary, is left to the SDK's classification,
 * which also owns every modern error answer. The SDK's check parsed each session request's body with
 * four schemas before the transport parsed it again (bench/NOTES.md, "The session read on SDK v2").
 */
export function plainLegacyRequest(request: Request, parsedBody: unknown): boolean {
  if (typeof parsedBody !== "object" || parsedBody === null || Array.isArray(parsedBody)) return false;
  const message = parsedBody as Record<string, unknown>;
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string" || message.method === "initialize") return false;
  const id = message.id;
  if (typeof id !== "string" && !(typeof id === "number" && Number.isSafeInteger(id))) return false;
  for (const key in message) if (!requestKeys.has(key)) return false;
  const params = message.params;
  if (params !== undefined) {
    if (typeof params !== "object" || params === null || Array.isArray(params) || Object.hasOwn(params, "_meta")) return false;
  }
  const version = request.headers.get("mcp-protocol-version");
  return version === null || version.trim() < firstModernRevision;
}

/**
 * A POST the SDK's `isLegacyRequest` certainly calls modern, told without its schema checks: one JSON-RPC
 * message (not a batch) with a method whose `params._meta` carries the per-request envelope's
 * protocol-version claim, whatever its value ("a request carrying the envelope claim, even one naming a
 * revision the endpoint does not serve", in the SDK's words: the modern path answers it, errors
 * included). Anything else is left to `isLegacyRequest`. The check was a tenth of a modern request's CPU.
 */
export function claimsModernRevision(parsedBody: unknown): boolean {
  if (typeof parsedBody !== "object" || parsedBody === null || Array.isArray(parsedBody)) return false;
  const message = parsedBody as { method?: unknown; params?: unknown };
  if (typeof message.method !== "string" || typeof message.params !== "object" || message.params === null) return false;
  const meta = (message.params as { _meta?: unknown })._meta;
  return typeof meta === "object" && meta !== null && !Array.isArray(meta) && Object.hasOwn(meta, PROTOCOL_VERSION_META_KEY);
}

function isInitializing(parsedBody: unknown): boolean {
  return Array.isArray(parsedBody) ? parsedBody.some(isInitializeRequest) : isInitializeRequest(parsedBody);
}

function initializeRequestOf(parsedBody: unknown): InitializeRequest {
  const messages = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
  return messages.find(isInitializeRequest) as InitializeRequest;
}
