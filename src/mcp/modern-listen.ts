/**
 * `subscriptions/listen` for 2026-07-28 clients: one SSE stream per request, opened with
 * `notifications/subscriptions/acknowledged` naming what is honored, then
 * `notifications/resources/updated` for each watched course, outline, module, lesson or preview URI
 * that a write on any replica changed. Every message carries the request's id as its subscription id.
 *
 * It runs on the 2025 subscription machinery (resource-subscriptions.ts): the stream is a listener of
 * its own in the shared subscription records, so a write on any replica finds it, the subscriber's access
 * is checked again at each change (one who lost it hears nothing more), and the notification travels
 * through the shared event store, whose appends wake this replica (PostgreSQL LISTEN/NOTIFY). A URI the
 * caller may not read is left out of the acknowledgment, as one that does not exist is. The server
 * declares no list changes, so none are honored. Closing the stream ends the subscription; a stopping
 * server ends it gracefully with the empty result.
 *
 * Answered beside the SDK's `createMcpHandler`, whose own listen router delivers every event to every
 * stream: "any per-request authorization still belong[s] at the middleware layer".
 */
import { ProtocolErrorCode, SUBSCRIPTION_ID_META_KEY, type JSONRPCRequest } from "@modelcontextprotocol/server";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import type { Logger } from "../log.ts";
import type { StreamEventStore } from "../store/stream-events.ts";
import type { SessionRecordStore } from "../store/session-records.ts";
import { standaloneStreamId } from "./event-streams.ts";
import type { CallerIdentity } from "./registry.ts";
import type { ResourceSubscriptions } from "./resource-subscriptions.ts";
import { maxSubscriptionsPerSession } from "./resource-subscriptions.ts";

export interface ModernListenDeps {
  subscriptions: ResourceSubscriptions;
  events: StreamEventStore;
  logger: Logger;
  /**
   * The shared session records (PostgreSQL), where the stream's subscriptions and events belong to a
   * record of their own for the stream's lifetime (the idle sweep ends a stream's record like a session's).
   */
  records?: SessionRecordStore;
  /** Milliseconds between SSE comment frames that keep an idle stream open. */
  keepAliveMs?: number;
  /** Streams one user may hold open on this replica (`MCP_MAX_LISTEN_STREAMS_PER_USER`, at most 100). */
  maxStreamsPerUser: number;
}

const encoder = new TextEncoder();
const sseHeaders = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" };

/**
 * Open streams counted per user, as sessions are: each holds a connection, a keep-alive timer and shared
 * records, so one user must not open them without end. A slot is taken before any await, so requests
 * arriving together cannot all pass the check, and given back exactly once when the stream ends or its
 * opening fails.
 */
function streamSlots(maxPerUser: number) {
  const openPerUser = new Map<string, number>();
  return {
    /** A release function, or undefined when the user already holds `maxPerUser` streams. */
    take(sub: string): (() => void) | undefined {
      const current = openPerUser.get(sub) ?? 0;
      if (current >= maxPerUser) return undefined;
      openPerUser.set(sub, current + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (openPerUser.get(sub) ?? 1) - 1;
        if (left <= 0) openPerUser.delete(sub);
        else openPerUser.set(sub, left);
      };
    },
  };
}

const refuse = (id: JSONRPCRequest["id"], code: number, message: string, data?: unknown) =>
  Response.json({ jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } });

/**
 * Runs `open` holding one of the user's slots, or refuses as 2026-07-28 refuses a task beyond its cap
 * (`-32600`, `limit_exceeded`). An answer that is not a stream gives its slot back at once.
 */
async function withStreamSlot(
  slots: ReturnType<typeof streamSlots>,
  max: number,
  message: JSONRPCRequest,
  user: CallerIdentity,
  open: (release: () => void) => Promise<Response>,
): Promise<Response> {
  const release = slots.take(user.sub);
  if (!release) {
    return refuse(
      message.id,
      ProtocolErrorCode.InvalidRequest,
      `limit_exceeded: you already have ${max} subscriptions/listen streams open (at most ${max} per user, MCP_MAX_LISTEN_STREAMS_PER_USER); close one, or watch more resources on one stream, before opening another`,
      { code: "limit_exceeded", limit: max, current: max, setting: "MCP_MAX_LISTEN_STREAMS_PER_USER" },
    );
  }
  try {
    const response = await open(release);
    if (!response.headers.get("Content-Type")?.startsWith("text/event-stream")) release();
    return response;
  } catch (error) {
    release();
    throw error;
  }
}

export function createModernListen(deps: ModernListenDeps) {
  const open = new Set<() => void>();
  const keepAliveMs = deps.keepAliveMs ?? 15_000;
  const maxStreamsPerUser = deps.maxStreamsPerUser;
  const slots = streamSlots(maxStreamsPerUser);

  /** Opens the stream holding one of the user's slots. */
  const listen = (message: JSONRPCRequest, user: CallerIdentity) => withStreamSlot(slots, maxStreamsPerUser, message, user, (release) => openStream(message, user, release));

  async function openStream(message: JSONRPCRequest, user: CallerIdentity, release: () => void): Promise<Response> {
    const id = message.id;
    const filter = (message.params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)?.notifications;
    const requested = filter?.resourceSubscriptions ?? [];
    if (!Array.isArray(requested) || requested.some((uri) => typeof uri !== "string" || uri.length > 2000)) {
      return refuse(id, ProtocolErrorCode.InvalidParams, "invalid_arguments: notifications.resourceSubscriptions must be a list of resource URIs", { code: "invalid_arguments", fields: ["notifications.resourceSubscriptions"] });
    }
    const uris = [...new Set(requested as string[])];
    if (uris.length > maxSubscriptionsPerSession) {
      return refuse(id, ProtocolErrorCode.InvalidParams, `limit_exceeded: one stream watches at most ${maxSubscriptionsPerSession} resources; open another for the rest`, {
        code: "limit_exceeded",
        limit: maxSubscriptionsPerSession,
      });
    }
    // The stream's own key in the shared records and events; nothing else ever names it.
    const listener = `listen:${crypto.randomUUID()}`;
    const forget = () => {
      deps.subscriptions.forgetSession(listener);
      void deps.events.forgetSession(listener).catch(() => undefined);
      void deps.records?.remove(listener).catch(() => undefined);
    };
    await deps.records?.save({ id: listener, ownerSub: user.sub, protocolVersion: "2026-07-28", clientCapabilities: {}, clientInfo: { name: "subscriptions/listen", version: "1" } });
    let wake = () => {};
    const stopWatching = await deps.events.watch(listener, standaloneStreamId, () => wake());
    const honored: string[] = [];
    try {
      for (const uri of uris) {
        try {
          await deps.subscriptions.subscribe(listener, user, uri);
          honored.push(uri);
        } catch (error) {
          // One the caller may not read is as absent as one that does not exist: left out, like an unsupported type.
          if (!(error instanceof CourseAuthoringError && error.code === "not_found")) throw error;
        }
      }
    } catch (error) {
      stopWatching();
      forget();
      if (error instanceof CourseAuthoringError) return refuse(id, ProtocolErrorCode.InternalError, `${error.code}: ${error.message}`, { code: error.code, ...error.details });
      throw error;
    }

    const stamped = (method: string, params: Record<string, unknown>) =>
      encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method, params: { ...params, _meta: { [SUBSCRIPTION_ID_META_KEY]: id } } })}\n\n`);
    let ended = false;
    let closeGracefully = () => {};
    let cancelStream = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let last: string | undefined;
        let reading = false;
        let again = false;
        const end = (graceful: boolean) => {
          if (ended) return;
          ended = true;
          clearInterval(keepAlive);
          stopWatching();
          forget();
          release();
          open.delete(closeGracefully);
          if (graceful) {
            controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID_META_KEY]: id } } })}\n\n`));
            controller.close();
          }
        };
        closeGracefully = () => end(true);
        open.add(closeGracefully);
        cancelStream = () => end(false);
        let beats = 0;
        const keepAlive = setInterval(() => {
          controller.enqueue(encoder.encode(": keep-alive\n\n"));
          // Every twentieth beat, the record is noted as in use, so the idle sweep leaves it.
          if (++beats % 20 === 0) void deps.records?.touch(listener).catch(() => undefined);
        }, keepAliveMs);
        controller.enqueue(stamped("notifications/subscriptions/acknowledged", { notifications: { resourceSubscriptions: honored } }));
        // Reads what arrived since the last read; a wake during a read reads once more after it.
        wake = () => {
          if (reading) {
            again = true;
            return;
          }
          reading = true;
          void (async () => {
            do {
              again = false;
              const events = await deps.events.after(listener, standaloneStreamId, last, 100);
              for (const event of events) {
                last = event.id;
                const params = event.message?.params as Record<string, unknown> | undefined;
                if (!ended && event.message?.method === "notifications/resources/updated" && params) controller.enqueue(stamped("notifications/resources/updated", { uri: params.uri }));
              }
              if (events.length === 100) again = true;
            } while (again && !ended);
          })()
            .catch((error: unknown) => deps.logger.warn("listen stream read failed", { error: error instanceof Error ? error.message : String(error) }))
            .finally(() => (reading = false));
        };
        wake();
      },
      cancel() {
        cancelStream();
      },
    });
    return new Response(body, { headers: sseHeaders });
  }

  return {
    claims: (body: { method: string }) => body.method === "subscriptions/listen",

    /** The answer to a 2026-07-28 `subscriptions/listen`; undefined for any other request. */
    async answer(message: JSONRPCRequest, user: CallerIdentity): Promise<Response | undefined> {
      if (message.method !== "subscriptions/listen") return undefined;
      return listen(message, user);
    },

    /** Ends every open stream with the empty result (the server is stopping). */
    closeAll(): void {
      for (const close of [...open]) close();
    },
  };
}

export type ModernListen = ReturnType<typeof createModernListen>;
