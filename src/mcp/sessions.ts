/**
 * The /mcp transport edge: routes each authenticated request to a cached streamable HTTP transport
 * (one per `Mcp-Session-Id`, idle time-out, bounded count with least-recently-used eviction), or in
 * stateless mode to a fresh server and transport per request. A session belongs to the user who
 * opened it: anyone else presenting its id is told it does not exist.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { isInitializeRequest, type InitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { CallerIdentity } from "./registry.ts";
import type { Logger } from "../log.ts";
import { jsonResponse } from "../http/json.ts";
import type { SessionSharing } from "./session-sharing.ts";

export interface SessionOptions {
  stateless: boolean;
  createServer: () => Server;
  logger: Logger;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  idleTimeoutMs?: number;
  maxSessions?: number;
  /** Shares session records between replicas (PostgreSQL); absent, sessions live in this process only. */
  sharing?: SessionSharing;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  sub: string;
  lastUsed: number;
}

/** A JSON-RPC error body: the transport's own error form, never problem+json. */
export function jsonRpcErrorResponse(status: number, code: number, message: string, headers: HeadersInit = {}): Response {
  return jsonResponse({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}

const streamOpening = new TextEncoder().encode(": stream open\n\n");

/**
 * Bun holds a streaming response's headers back until its first body chunk, and the standalone GET
 * stream may stay silent for minutes: an SSE comment up front lets the client see the 200 at once.
 */
function openedStream(response: Response): Response {
  if (response.status !== 200 || !response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(streamOpening);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

export function createMcpSessions(options: SessionOptions) {
  const sessions = new Map<string, Session>();
  const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;

  const sweep = setInterval(() => {
    const cutoff = Date.now() - idleTimeoutMs;
    for (const [id, session] of sessions) if (session.lastUsed < cutoff) void closeSession(id, "idle");
  }, Math.min(60_000, idleTimeoutMs));
  sweep.unref?.();

  async function closeSession(id: string, reason: string) {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    options.logger.debug("mcp session closed", { session: id, reason });
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  }

  function evictIfFull() {
    if (sessions.size < maxSessions) return;
    // Map iteration order is insertion order; touch() re-inserts, so the first entry is the least recently used.
    const oldest = sessions.keys().next().value;
    if (oldest !== undefined) void closeSession(oldest, "evicted");
  }

  function touch(id: string, session: Session) {
    session.lastUsed = Date.now();
    sessions.delete(id);
    sessions.set(id, session);
  }

  async function readJsonBody(request: Request): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> {
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > options.maxBodyBytes) {
      return { ok: false, response: jsonRpcErrorResponse(413, -32600, `request body exceeds ${options.maxBodyBytes} bytes`) };
    }
    const contentType = request.headers.get("content-type") ?? "";
    if (!contentType.toLowerCase().startsWith("application/json")) {
      return { ok: false, response: jsonRpcErrorResponse(415, -32600, "Content-Type must be application/json") };
    }
    const bytes = await request.arrayBuffer();
    if (bytes.byteLength > options.maxBodyBytes) {
      return { ok: false, response: jsonRpcErrorResponse(413, -32600, `request body exceeds ${options.maxBodyBytes} bytes`) };
    }
    try {
      return { ok: true, body: JSON.parse(new TextDecoder().decode(bytes)) };
    } catch {
      return { ok: false, response: jsonRpcErrorResponse(400, -32700, "Parse error: the request body is not valid JSON") };
    }
  }

  const authInfoFor = (token: string, user: CallerIdentity) => ({
    token,
    clientId: user.clientId ?? "",
    scopes: user.scopes,
    extra: { identity: user },
  });

  async function handleStateless(request: Request, token: string, user: CallerIdentity, parsedBody: unknown): Promise<Response> {
    const server = options.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody, authInfo: authInfoFor(token, user) });
    } finally {
      // The JSON response is complete once returned; release the per-request server.
      void server.close().catch(() => undefined);
    }
  }

    /** Rebuilds a session another replica opened, when its record exists and belongs to `user`. */
  const restoring = new Map<string, Promise<Session | undefined>>();

  /** Concurrent first requests for one session share a single restore. */
  function restoreShared(sharing: SessionSharing, id: string, token: string, user: CallerIdentity, url: string): Promise<Session | undefined> {
    let pending = restoring.get(id);
    if (!pending) {
      pending = restoreSession(sharing, id, token, user, url).finally(() => restoring.delete(id));
      restoring.set(id, pending);
    }
    return pending;
  }

  async function restoreSession(sharing: SessionSharing, id: string, token: string, user: CallerIdentity, url: string): Promise<Session | undefined> {
    const record = await sharing.lookup(id, user.sub);
    if (!record) return undefined;
    evictIfFull();
    const server = options.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => record.id,
      onsessionclosed: (closedId) => void closeSession(closedId, "closed"),
    });
    await server.connect(transport);
    await sharing.replayHandshake(transport, record, url, authInfoFor(token, user));
    const session = { transport, server, sub: user.sub, lastUsed: Date.now() };
    sessions.set(id, session);
    options.logger.debug("mcp session restored", { session: id, sub: user.sub });
    return session;
  }

  return {
    get size() {
      return sessions.size;
    },

    async handle(request: Request, token: string, user: CallerIdentity): Promise<Response> {
      let parsedBody: unknown;
      if (request.method === "POST") {
        const body = await readJsonBody(request);
        if (!body.ok) return body.response;
        parsedBody = body.body;
      }
      if (options.stateless) {
        if (request.method !== "POST") return jsonRpcErrorResponse(405, -32000, "this server is stateless: only POST is supported", { Allow: "POST" });
        return handleStateless(request, token, user, parsedBody);
      }

      const sessionId = request.headers.get("mcp-session-id");
      if (sessionId) {
        let session = sessions.get(sessionId);
        const sharing = options.sharing;
        if (sharing && session?.sub === user.sub && !(await sharing.stillExists(sessionId))) {
          await closeSession(sessionId, "ended on another replica");
          session = undefined;
        }
        if (sharing && !session) session = await restoreShared(sharing, sessionId, token, user, request.url);
        if (!session || session.sub !== user.sub) return jsonRpcErrorResponse(404, -32001, "Session not found: start a new session with initialize");
        touch(sessionId, session);
        const response = await session.transport.handleRequest(request, { parsedBody, authInfo: authInfoFor(token, user) });
        if (request.method === "DELETE" && response.ok) {
          await closeSession(sessionId, "deleted");
          await sharing?.closed(sessionId);
        }
        if (request.method === "GET") return openedStream(response);
        return response;
      }

      const initializing = Array.isArray(parsedBody) ? parsedBody.some(isInitializeRequest) : isInitializeRequest(parsedBody);
      if (request.method !== "POST" || !initializing) {
        return jsonRpcErrorResponse(400, -32000, "Bad Request: Mcp-Session-Id header is required (send initialize first)");
      }
      evictIfFull();
      const server = options.createServer();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: async (id) => {
          sessions.set(id, { transport, server, sub: user.sub, lastUsed: Date.now() });
          options.logger.debug("mcp session opened", { session: id, sub: user.sub });
          // Recorded before the answer leaves, so the client's next request finds it on any replica.
          if (options.sharing) await options.sharing.opened(id, user.sub, initializeRequestOf(parsedBody));
        },
        onsessionclosed: (id) => void closeSession(id, "closed"),
      });
      await server.connect(transport);
      return transport.handleRequest(request, { parsedBody, authInfo: authInfoFor(token, user) });
    },

    async closeAll() {
      clearInterval(sweep);
      options.sharing?.stop();
      await Promise.all([...sessions.keys()].map((id) => closeSession(id, "shutdown")));
    },
  };
}

export type McpSessions = ReturnType<typeof createMcpSessions>;

function initializeRequestOf(parsedBody: unknown): InitializeRequest {
  const messages = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
  return messages.find(isInitializeRequest) as InitializeRequest;
}
