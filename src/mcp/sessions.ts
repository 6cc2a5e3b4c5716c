/**
 * The /mcp transport edge: routes each authenticated request to a cached streamable HTTP transport
 * (one per `Mcp-Session-Id`, idle time-out), or in stateless mode to a fresh server and transport per
 * request. A session belongs to the user who opened it: anyone else presenting its id is told it does
 * not exist. Sessions are bounded per user (a new one evicts only that user's least recently used idle
 * session) and in all (a new one beyond the cap is refused with 503, never by evicting anyone's).
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { isInitializeRequest, type InitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { CallerIdentity } from "./registry.ts";
import type { Logger } from "../log.ts";
import { jsonResponse } from "../http/json.ts";
import type { McpRateLimit } from "./rate-limit.ts";
import type { SessionSharing } from "./session-sharing.ts";

export interface SessionOptions {
  stateless: boolean;
  createServer: () => Server;
  logger: Logger;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  idleTimeoutMs?: number;
  /** Sessions in all; beyond it a new session is refused (503). */
  maxSessions?: number;
  /** Sessions of one user; beyond it the user's least recently used idle session is closed. */
  maxSessionsPerUser?: number;
  /** The per-user rate limit (mcp/rate-limit.ts); absent when rate limiting is off. */
  rateLimit?: McpRateLimit;
  /** Shares session records between replicas (PostgreSQL); absent, sessions live in this process only. */
  sharing?: SessionSharing;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  sub: string;
  lastUsed: number;
  /** Requests being handled plus open event streams: a busy session is never evicted. */
  busy: number;
}

/** A JSON-RPC error body: the transport's own error form, never problem+json. */
export function jsonRpcErrorResponse(status: number, code: number, message: string, headers: HeadersInit = {}): Response {
  return jsonResponse({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}

/**
 * Why a POST body's `Content-Type` is refused, or undefined when it is `application/json` in UTF-8:
 * the body is decoded as UTF-8 (RFC 8259 §8.1), so another declared charset would be misread.
 */
function unsupportedContentType(contentType: string): string | undefined {
  const [mediaType = "", ...parameters] = contentType.split(";");
  if (mediaType.trim().toLowerCase() !== "application/json") return "Content-Type must be application/json";
  for (const parameter of parameters) {
    const [name = "", value = ""] = parameter.split("=", 2);
    if (name.trim().toLowerCase() !== "charset") continue;
    const charset = value.trim().replace(/^"(.*)"$/, "$1");
    if (charset.toLowerCase() !== "utf-8") return `Content-Type charset "${charset.slice(0, 40)}" is not supported: send UTF-8 (charset=utf-8, or no charset)`;
  }
  return undefined;
}

const streamOpening = new TextEncoder().encode(": stream open\n\n");

/**
 * Bun holds a streaming response's headers back until its first body chunk, and the standalone GET
 * stream may stay silent for minutes: an SSE comment up front lets the client see the 200 at once.
 * `onEnd` runs once when the stream ends or is cancelled (at once when there is no stream).
 */
function openedStream(response: Response, onEnd: () => void): Response {
  if (response.status !== 200 || !response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
    onEnd();
    return response;
  }
  const reader = response.body.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(streamOpening);
    },
    async pull(controller) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        end();
        throw error;
      });
      if (done) {
        end();
        controller.close();
      } else controller.enqueue(value);
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

export function createMcpSessions(options: SessionOptions) {
  const sessions = new Map<string, Session>();
  const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;
  const maxSessionsPerUser = options.maxSessionsPerUser ?? 20;
  // Initializes admitted but not yet registered (the transport registers the session mid-request):
  // they hold a place, so concurrent initializes cannot overshoot either cap.
  const opening = new Map<string, number>();
  let openingTotal = 0;

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

  function closeExpired() {
    const cutoff = Date.now() - idleTimeoutMs;
    for (const [id, session] of sessions) if (session.lastUsed < cutoff && session.busy === 0) void closeSession(id, "idle");
  }

  /**
   * Makes room for one more session of `sub`, or says why not. Per user: the user's least recently
   * used idle sessions are closed (Map order is recency order: touch() re-inserts). In all: nothing of
   * anyone else's is closed; beyond the cap the new session is refused until idle ones expire.
   */
  function admit(sub: string): Response | undefined {
    const own = [...sessions].filter(([, session]) => session.sub === sub);
    let ownCount = own.length + (opening.get(sub) ?? 0);
    for (const [id, session] of own) {
      if (ownCount < maxSessionsPerUser) break;
      if (session.busy > 0) continue;
      void closeSession(id, "evicted: per-user limit");
      ownCount--;
    }
    if (ownCount >= maxSessionsPerUser) {
      return sessionLimitResponse(`you have ${maxSessionsPerUser} MCP sessions open, all busy; close one (DELETE /mcp) or retry later`, 5);
    }
    if (sessions.size + openingTotal >= maxSessions) closeExpired();
    if (sessions.size + openingTotal >= maxSessions) {
      return sessionLimitResponse(`the server has reached its limit of ${maxSessions} MCP sessions; retry later`, secondsUntilOneExpires());
    }
    return undefined;
  }

  /** When the least recently used session expires, a place is free for certain (sooner if one is closed). */
  function secondsUntilOneExpires(): number {
    const oldest = sessions.values().next().value;
    const waitMs = oldest === undefined ? 1000 : oldest.lastUsed + idleTimeoutMs - Date.now();
    return Math.min(300, Math.max(1, Math.ceil(waitMs / 1000)));
  }

  function sessionLimitResponse(message: string, retryAfterSeconds: number): Response {
    options.logger.warn("mcp session refused", { reason: message });
    return jsonRpcErrorResponse(503, -32000, `Service Unavailable: ${message}`, { "Retry-After": String(retryAfterSeconds) });
  }

  function holdPlace(sub: string, delta: 1 | -1) {
    openingTotal += delta;
    const count = (opening.get(sub) ?? 0) + delta;
    if (count === 0) opening.delete(sub);
    else opening.set(sub, count);
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
    const unsupported = unsupportedContentType(request.headers.get("content-type") ?? "");
    if (unsupported !== undefined) return { ok: false, response: jsonRpcErrorResponse(415, -32600, unsupported) };
    let bytes: ArrayBuffer;
    try {
      bytes = await request.arrayBuffer();
    } catch (error) {
      // The client went away mid-body: its business, not a server fault, so not an error in our logs.
      options.logger.info("request body not received", { reason: error instanceof Error ? error.message : String(error) });
      return { ok: false, response: jsonRpcErrorResponse(400, -32700, "Parse error: the request body ended before it was complete") };
    }
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
  const restoring = new Map<string, Promise<Session | Response | undefined>>();

  /** Concurrent first requests for one session share a single restore. */
  function restoreShared(sharing: SessionSharing, id: string, token: string, user: CallerIdentity, url: string): Promise<Session | Response | undefined> {
    let pending = restoring.get(id);
    if (!pending) {
      pending = restoreSession(sharing, id, token, user, url).finally(() => restoring.delete(id));
      restoring.set(id, pending);
    }
    return pending;
  }

  async function restoreSession(sharing: SessionSharing, id: string, token: string, user: CallerIdentity, url: string): Promise<Session | Response | undefined> {
    const record = await sharing.lookup(id, user.sub);
    if (!record) return undefined;
    // A restored session takes a place here like a new one: the same per-user and global caps hold.
    const refused = admit(user.sub);
    if (refused) return refused;
    const server = options.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => record.id,
      onsessionclosed: (closedId) => void closeSession(closedId, "closed"),
    });
    await server.connect(transport);
    await sharing.replayHandshake(transport, record, url, authInfoFor(token, user));
    const session: Session = { transport, server, sub: user.sub, lastUsed: Date.now(), busy: 0 };
    sessions.set(id, session);
    options.logger.debug("mcp session restored", { session: id, sub: user.sub });
    return session;
  }

  return {
    get size() {
      return sessions.size;
    },

    async handle(request: Request, token: string, user: CallerIdentity): Promise<Response> {
      const limited = options.rateLimit?.request(user);
      if (limited) return limited;
      let parsedBody: unknown;
      if (request.method === "POST") {
        const body = await readJsonBody(request);
        if (!body.ok) return body.response;
        parsedBody = body.body;
        const costly = options.rateLimit?.body(user, parsedBody);
        if (costly) return costly;
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
        if (sharing && !session) {
          const restored = await restoreShared(sharing, sessionId, token, user, request.url);
          if (restored instanceof Response) return restored;
          session = restored;
        }
        if (!session || session.sub !== user.sub) return jsonRpcErrorResponse(404, -32001, "Session not found: start a new session with initialize");
        touch(sessionId, session);
        const active = session;
        active.busy++;
        let response: Response;
        try {
          response = await active.transport.handleRequest(request, { parsedBody, authInfo: authInfoFor(token, user) });
        } catch (error) {
          active.busy--;
          throw error;
        }
        if (request.method === "GET") return openedStream(response, () => active.busy--);
        active.busy--;
        if (request.method === "DELETE" && response.ok) {
          await closeSession(sessionId, "deleted");
          await sharing?.closed(sessionId);
        }
        return response;
      }

      const initializing = Array.isArray(parsedBody) ? parsedBody.some(isInitializeRequest) : isInitializeRequest(parsedBody);
      if (request.method !== "POST" || !initializing) {
        return jsonRpcErrorResponse(400, -32000, "Bad Request: Mcp-Session-Id header is required (send initialize first)");
      }
      const refused = admit(user.sub);
      if (refused) return refused;
      holdPlace(user.sub, 1);
      try {
        const server = options.createServer();
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => crypto.randomUUID(),
          onsessioninitialized: async (id) => {
            sessions.set(id, { transport, server, sub: user.sub, lastUsed: Date.now(), busy: 0 });
            options.logger.debug("mcp session opened", { session: id, sub: user.sub });
            // Recorded before the answer leaves, so the client's next request finds it on any replica.
            if (options.sharing) await options.sharing.opened(id, user.sub, initializeRequestOf(parsedBody));
          },
          onsessionclosed: (id) => void closeSession(id, "closed"),
        });
        await server.connect(transport);
        return await transport.handleRequest(request, { parsedBody, authInfo: authInfoFor(token, user) });
      } finally {
        holdPlace(user.sub, -1);
      }
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
