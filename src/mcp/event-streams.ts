/**
 * Resumable event streams. Every SSE event of a session is stored (`StreamEventStore`, shared between
 * replicas on PostgreSQL) with an id: the SDK transport stores its own (given `eventStoreFor`), and its
 * request streams open with a priming event (id and `retry`). GET requests do not reach the transport:
 * they are served here from the store, so a stream resumes on any replica, and keeps following what
 * other replicas add to it:
 * - with `Last-Event-ID`, the events after it, of the stream it belongs to, then what comes next: on a
 *   request stream until its JSON-RPC response is delivered (the SDK's clients send no batches once they
 *   resume), on the standalone stream until the client leaves. An id that is not an event of the
 *   caller's session is answered exactly like one that never existed.
 * - without, the standalone stream: a priming event, then what comes; the session's first standalone
 *   stream also delivers what was stored before it opened (a notification racing the client's first
 *   GET is not lost).
 * The transport sends server-initiated messages to the standalone stream's key; with no stream of its
 * own open, it only stores them, and the follower here delivers them.
 */
import type { EventStore, WebStandardStreamableHTTPServerTransportOptions } from "@modelcontextprotocol/server";
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from "@modelcontextprotocol/server";
import type { AppendOptions, StreamEventStore } from "../store/stream-events.ts";
import type { JsonObject } from "../store/types.ts";
import type { Logger } from "../log.ts";
import { jsonRpcErrorResponse } from "../http/jsonrpc-error.ts";
import { temporarilyUnavailableResponse } from "../auth/challenge.ts";
import { DatabaseUnavailableError, outageDetail } from "../store/unavailable.ts";

/** The key the SDK transport files server-initiated messages under (its standalone GET stream). */
export const standaloneStreamId = "_GET_stream";

/** Priming events go only to clients that can read an event without data (protocol 2025-11-25 on). */
const primingSince = "2025-11-25";
const readBatch = 100;
const encoder = new TextEncoder();

export interface EventStreamOptions {
  events: StreamEventStore;
  logger: Logger;
  /** How long a client waits before reconnecting (the SSE `retry` field), in milliseconds. */
  retryMs?: number;
  /** Silence after which a followed stream gets an SSE comment (and reads the store again). */
  keepAliveMs?: number;
}

/** The SDK's EventStore for one session, plus a switch to keep a replayed handshake out of the store. */
interface SessionEventStore extends EventStore {
  muted: boolean;
  /** `storeEvent` for a message whose JSON the caller has made already (session-transport.ts). */
  storeSerialized(streamId: string, message: JSONRPCMessage, serialized: string): Promise<string>;
}

const isResponse = (message: JsonObject): boolean => "id" in message && ("result" in message || "error" in message) && !("method" in message);

const sseEvent = (id: string, message: JsonObject) => encoder.encode(`event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`);

const eventNotFound = () => jsonRpcErrorResponse(404, -32002, "not_found: Last-Event-ID names no event of this session that is still kept; open the stream again without it");

/** What the parts below share: the store, the settings, and the streams followed on this replica. */
interface StreamsContext {
  readonly events: StreamEventStore;
  readonly logger: Logger;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  /** Streams followed here, by session, so closing a session ends them. */
  readonly following: Map<string, Set<Followed>>;
  /** The standalone stream of each session open here (a new one supersedes it). */
  readonly standalone: Map<string, Followed>;
}

interface Followed {
  close(): void;
}

/** The SDK transport's store for one session: appends in call order per stream, replay from the shared store. */
function eventStoreFor({ events, logger }: StreamsContext, sessionId: string, owner: string | undefined): SessionEventStore {
  // The transport may store several events of one stream at once; appends keep their call order.
  const tails = new Map<string, Promise<string>>();
  const onOversize = (bytes: number, limit: number) => logger.warn("an MCP stream event is too large to keep for a resumed stream; a stand-in is kept", { sub: owner, bytes, limit });
  const byOwner: AppendOptions = { ...(owner !== undefined && { owner }), onOversize };
  const standaloneAppend: AppendOptions = { ...byOwner, concurrentWriters: true };
  const requestAppend: AppendOptions = { ...byOwner, concurrentWriters: false };
  const append = (streamId: string, message: JSONRPCMessage, serialized?: string): Promise<string> => {
    if (store.muted) return Promise.resolve("0");
    const stored = message as unknown as JsonObject;
    // The SDK primes a stream by storing an empty message: that is a marker.
    const kept = "jsonrpc" in stored ? stored : null;
    const options = streamId === standaloneStreamId ? standaloneAppend : serialized === undefined ? requestAppend : { ...requestAppend, serialized };
    const write = () =>
      events.append(sessionId, streamId, kept, options).catch((error: unknown) => {
        // Delivered live all the same; only a resume after it will miss it (and the outage answers 503 meanwhile).
        logger.warn("storing an MCP stream event failed", { error: error instanceof Error ? error.message : String(error) });
        return "0";
      });
    const next = (tails.get(streamId) ?? Promise.resolve("")).then(write);
    tails.set(streamId, next);
    void next.then(() => {
      if (tails.get(streamId) === next) tails.delete(streamId);
    });
    return next;
  };
  const store: SessionEventStore = {
    muted: false,
    storeEvent: (streamId, message) => append(streamId, message),
    storeSerialized: append,
    async getStreamIdForEventId(eventId) {
      return events.streamOf(sessionId, eventId);
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = await events.streamOf(sessionId, lastEventId);
      if (streamId === undefined) throw new Error("unknown event id");
      for (const event of await events.after(sessionId, streamId, lastEventId, readBatch)) {
        if (event.message) await send(event.id, event.message as unknown as JSONRPCMessage);
      }
      return streamId;
    },
  };
  return store;
}

/** Counts `followed` among the session's streams here; the returned function takes it off again. */
function track(following: StreamsContext["following"], sessionId: string, followed: Followed): () => void {
  let set = following.get(sessionId);
  if (!set) following.set(sessionId, (set = new Set()));
  set.add(followed);
  return () => {
    set.delete(followed);
    if (set.size === 0 && following.get(sessionId) === set) following.delete(sessionId);
  };
}

/**
 * The live fan-out: the response streaming the session's `streamId` from after `cursor`: `first` is
 * written at once (Bun sends the headers with the first chunk), then stored events as they come.
 */
async function follow(context: StreamsContext, sessionId: string, streamId: string, cursor: string | undefined, first: Uint8Array, untilResponse: boolean, release: () => void): Promise<Response> {
  const { events, keepAliveMs, standalone } = context;
  let woken = false;
  let wakeUp: (() => void) | undefined;
  const stopWatching = await events.watch(sessionId, streamId, () => {
    woken = true;
    wakeUp?.();
  });
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  const followed: Followed = { close: () => end(true) };
  const untrack = track(context.following, sessionId, followed);
  function end(closeStream: boolean): void {
    if (ended) return;
    ended = true;
    stopWatching();
    untrack();
    if (standalone.get(sessionId) === followed) standalone.delete(sessionId);
    release();
    wakeUp?.();
    if (closeStream) {
      try {
        controller.close();
      } catch {
        // Already closed or cancelled.
      }
    }
  }
  if (streamId === standaloneStreamId) {
    standalone.get(sessionId)?.close();
    standalone.set(sessionId, followed);
  }
  // A request stream's appends may wake nobody on this replica (see StreamEventStore.quietPollMs).
  const waitMs = streamId === standaloneStreamId ? keepAliveMs : Math.min(keepAliveMs, events.quietPollMs ?? keepAliveMs);
  let lastWritten = Date.now();
  /** Resolves true after `waitMs` of silence, false when woken first. */
  const nextWake = () =>
    new Promise<boolean>((resolve) => {
      if (woken || ended) return resolve(false);
      const timer = setTimeout(() => resolve(true), waitMs);
      wakeUp = () => {
        clearTimeout(timer);
        resolve(false);
      };
    });
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      controller.enqueue(first);
    },
    async pull() {
      while (!ended) {
        woken = false;
        const batch = await events.after(sessionId, streamId, cursor, readBatch).catch(() => undefined);
        if (ended) return;
        if (batch === undefined) return end(true);
        let wrote = false;
        for (const event of batch) {
          cursor = event.id;
          if (event.message === null) continue;
          controller.enqueue(sseEvent(event.id, event.message));
          wrote = true;
          lastWritten = Date.now();
          if (untilResponse && isResponse(event.message)) return end(true);
        }
        if (wrote) return;
        if (batch.length === readBatch) continue;
        if ((await nextWake()) && !ended && Date.now() - lastWritten >= keepAliveMs) {
          controller.enqueue(encoder.encode(": keepalive\n\n"));
          lastWritten = Date.now();
          return;
        }
      }
    },
    cancel() {
      end(false);
    },
  });
  return new Response(body, {
    status: 200,
    headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no", "mcp-session-id": sessionId },
  });
}

/** The stream replay: a resumed stream from after its `Last-Event-ID`, or the session's standalone stream. */
async function openStream(context: StreamsContext, request: Request, sessionId: string, release: () => void): Promise<Response> {
  const { events, retryMs, standalone } = context;
  const lastEventId = request.headers.get("last-event-id");
  if (lastEventId !== null) {
    const streamId = await events.streamOf(sessionId, lastEventId.trim());
    if (streamId === undefined) {
      release();
      return eventNotFound();
    }
    return follow(context, sessionId, streamId, lastEventId.trim(), encoder.encode(": stream resumed\n\n"), streamId !== standaloneStreamId, release);
  }
  if (standalone.has(sessionId)) {
    release();
    return jsonRpcErrorResponse(409, -32000, "Conflict: Only one SSE stream is allowed per session");
  }
  const protocolVersion = request.headers.get("mcp-protocol-version") ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  const earlier = await events.lastMarker(sessionId, standaloneStreamId);
  const primingId = await events.append(sessionId, standaloneStreamId, null, { concurrentWriters: true });
  const first = protocolVersion >= primingSince ? `id: ${primingId}\nretry: ${retryMs}\ndata: \n\n` : ": stream open\n\n";
  // The session's first stream starts from its beginning; a later one from now, as a client without a cursor expects.
  return follow(context, sessionId, standaloneStreamId, earlier === undefined ? undefined : primingId, encoder.encode(first), false, release);
}

/** GET /mcp's checks before a stream opens, and the outage handling around opening it. */
async function openChecked(context: StreamsContext, request: Request, sessionId: string, release: () => void): Promise<Response> {
  if (!request.headers.get("accept")?.includes("text/event-stream")) {
    release();
    return jsonRpcErrorResponse(406, -32000, "Not Acceptable: Client must accept text/event-stream");
  }
  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    release();
    return jsonRpcErrorResponse(400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`);
  }
  try {
    return await openStream(context, request, sessionId, release);
  } catch (error) {
    release();
    if (error instanceof DatabaseUnavailableError) return temporarilyUnavailableResponse(outageDetail);
    throw error;
  }
}

export function createEventStreams(options: EventStreamOptions) {
  const context: StreamsContext = {
    events: options.events,
    logger: options.logger,
    retryMs: options.retryMs ?? 1000,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    following: new Map(),
    standalone: new Map(),
  };
  const { events, following, retryMs } = context;

  return {
    /** What the session's transport needs to store its events and prime its streams. */
    transportOptions(sessionId: string, owner?: string): Pick<WebStandardStreamableHTTPServerTransportOptions, "eventStore" | "retryInterval"> & { eventStore: SessionEventStore } {
      return { eventStore: eventStoreFor(context, sessionId, owner), retryInterval: retryMs };
    },

    /** GET /mcp of a session, already found to be the caller's; `release` ends its lease on the session. */
    open(request: Request, sessionId: string, release: () => void): Promise<Response> {
      return openChecked(context, request, sessionId, release);
    },

    /** Ends the session's streams here; `forget`: the session is over, drop its stored events too. */
    async closed(sessionId: string, forget: boolean): Promise<void> {
      for (const followed of [...(following.get(sessionId) ?? [])]) followed.close();
      if (forget) await events.forgetSession(sessionId).catch(() => undefined);
    },

    closeAll(): void {
      for (const set of [...following.values()]) for (const followed of [...set]) followed.close();
    },
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
