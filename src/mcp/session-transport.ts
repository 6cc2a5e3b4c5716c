/**
 * The transport of one 2025-era session: the SDK's `WebStandardStreamableHTTPServerTransport`, with the
 * session's everyday request answered beside it. A session's server is connected to this object, which
 * implements the SDK's public `Transport` interface and hands everything to the SDK transport except a
 * *plain request* (one well-formed JSON-RPC request with nothing the SDK would need to look at: see
 * `plainLegacyRequest` in endpoint.ts) arriving with the headers the SDK would accept. That one is given
 * to the server here, with the same `extra` the SDK transport gives, and its messages are written as the
 * SDK transport writes them: an SSE stream (priming event and `retry` when the client reads them, each
 * event stored for resumption under an id), so a client cannot tell the two apart. What it skips is the
 * SDK transport's per-message work (four schema parses of every message, a `ReadableStream` for a stream
 * that carries one event): when the answer is the request's only message, it is sent as one string.
 * Anything else (initialize, notifications, responses to the server's own requests, batches, GET,
 * DELETE, a request the SDK would refuse) goes to the SDK transport, which answers it as ever
 * (bench/NOTES.md, "The session read without the SDK transport's parses").
 */
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, isJsonContentType, SUPPORTED_PROTOCOL_VERSIONS, type AuthInfo, type EventStore, type JSONRPCMessage, type JSONRPCRequest, type Transport, type TransportSendOptions, type WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { ServerRequestRelay } from "./server-request-relay.ts";

type RequestId = JSONRPCRequest["id"];

/** Milliseconds between SSE comments on a plain request's stream that stays open (the SDK transport's habit). */
const keepAliveMs = 15_000;
/**
 * A plain request still without any message after this long gets its stream opened (priming event,
 * then keep-alive comments), as the SDK transport opens one at once: a long silent tool call must not
 * leave the connection idle until the server's deadline cuts it.
 */
const openAfterMs = 5_000;
const encoder = new TextEncoder();

/** Plain requests waiting for their first message, checked by one timer for all sessions while any wait. */
const waiting = new Map<InFlight, { since: number; open: () => void }>();
let sweeper: ReturnType<typeof setInterval> | undefined;

function awaitFirstMessage(flight: InFlight, open: () => void): void {
  waiting.set(flight, { since: Date.now(), open });
  if (sweeper === undefined) {
    sweeper = setInterval(openLongWaits, openAfterMs);
    sweeper.unref?.();
  }
}

function openLongWaits(): void {
  const now = Date.now();
  for (const [flight, { since, open }] of waiting) {
    if (now - since < openAfterMs) continue;
    waiting.delete(flight);
    if (!flight.answered) open();
  }
  if (waiting.size === 0 && sweeper !== undefined) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

const sseHeaders = (sessionId: string): Record<string, string> => ({
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
  "mcp-session-id": sessionId,
});

const isResponse = (message: JSONRPCMessage): boolean => "id" in message && ("result" in message || "error" in message) && !("method" in message);
const isRequest = (message: JSONRPCMessage): message is JSONRPCRequest => "id" in message && "method" in message;

/** A plain request in flight: answered as one string if its response is its first message, else streamed. */
interface InFlight {
  streamId: string;
  /** The priming event, written before the first message. */
  head: string;
  answer: (response: Response) => void;
  answered: boolean;
  /** Set once the request's messages go out as a stream. */
  controller?: ReadableStreamDefaultController<Uint8Array>;
  keepAlive?: ReturnType<typeof setInterval>;
  /** Closed by the server (`closeSSEStream`) or by the client: later messages are only stored. */
  detached: boolean;
}

export interface SessionTransportOptions {
  /** The session's event store (event-streams.ts), when streams are resumable; given the JSON it writes, if it takes it. */
  eventStore?: (EventStore & { storeSerialized?(streamId: string, message: JSONRPCMessage, serialized: string): Promise<string> }) | undefined;
  /** The SSE `retry` field of priming events, as given to the SDK transport. */
  retryInterval?: number | undefined;
  /** Brings the client's answers to this server's requests from other replicas (server-request-relay.ts). */
  relay?: ServerRequestRelay | undefined;
  /**
   * The headers the HTTP layer gives every answer (the composition root's: API version, the locked-down
   * security policy), written into a one-string answer's headers built once per session: a response made
   * from a built `Headers` is a native copy, where an object of headers, and then each header the HTTP
   * layer set on top, cost ~0.7 µs more a request (bench/NOTES.md, "Performance V").
   */
  answerHeaders?: Readonly<Record<string, string>> | undefined;
}

/** What the session table and the request path use of a session's transport. */
export interface SessionHttpTransport {
  handleRequest(request: Request, options: { parsedBody?: unknown; authInfo?: AuthInfo }, plain?: boolean): Promise<Response>;
  close(): Promise<void>;
  /** Whether the SDK transport would accept this POST's headers in this session (absent: a bare SDK transport). */
  acceptsPost?(request: Request): boolean;
  /** Hands the client's response to the server when it answers one of this server's requests; false if not. */
  deliverResponse?(message: JSONRPCMessage): boolean;
}

export class SessionTransport implements Transport, SessionHttpTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  private supportedVersions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
  private readonly inFlight = new Map<RequestId, InFlight>();
  private closed = false;
  /**
   * This server's requests to the client awaiting an answer, by the id they went out with: a fresh UUID,
   * not the server's counter (which every replica's server of the session starts at 0), so an answer
   * relayed from another replica can only match the request it was written for.
   */
  private readonly awaited = new Map<string, RequestId>();
  private readonly wireIds = new Map<RequestId, string>();
  private relayWatch: Promise<(() => void) | undefined> | undefined;
  /** A one-string answer's headers, built for the session id they name. */
  private answerHeaders: { sessionId: string; headers: Headers } | undefined;

  constructor(
    readonly sdk: WebStandardStreamableHTTPServerTransport,
    private readonly options: SessionTransportOptions = {},
  ) {
    sdk.onmessage = (message, extra) => this.onmessage?.(message, extra);
    sdk.onerror = (error) => this.onerror?.(error);
    sdk.onclose = () => {
      this.closed = true;
      for (const flight of this.inFlight.values()) this.end(flight);
      this.inFlight.clear();
      void this.relayWatch?.then((stop) => stop?.());
      this.onclose?.();
    };
  }

  get sessionId(): string | undefined {
    return this.sdk.sessionId;
  }

  start(): Promise<void> {
    return this.sdk.start();
  }

  close(): Promise<void> {
    return this.sdk.close();
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.supportedVersions = versions;
    this.sdk.setSupportedProtocolVersions(versions);
  }

  /**
   * One HTTP request of the session. `plain` says the body is a plain request (endpoint.ts); it is
   * answered here if the SDK transport would accept its headers, else everything goes to the SDK.
   */
  handleRequest(request: Request, options: { parsedBody?: unknown; authInfo?: AuthInfo }, plain = false): Promise<Response> {
    if (plain && this.acceptsHere(request)) return this.answerPlain(request, options.parsedBody as JSONRPCRequest, options.authInfo);
    return this.sdk.handleRequest(request, options);
  }

  acceptsPost(request: Request): boolean {
    return this.acceptsHere(request);
  }

  deliverResponse(message: JSONRPCMessage): boolean {
    const wireId = (message as { id?: unknown }).id;
    const id = typeof wireId === "string" ? this.awaited.get(wireId) : undefined;
    if (id === undefined) return false;
    this.awaited.delete(wireId as string);
    this.wireIds.delete(id);
    this.onmessage?.({ ...message, id } as JSONRPCMessage);
    return true;
  }

  /** A request of the server's, as it goes out: under a unique id, watched for from every replica. */
  private async outgoing(message: JSONRPCRequest): Promise<JSONRPCMessage> {
    const wireId = crypto.randomUUID();
    this.awaited.set(wireId, message.id);
    this.wireIds.set(message.id, wireId);
    const relay = this.options.relay;
    const sessionId = this.sdk.sessionId;
    if (relay && sessionId !== undefined) {
      // Watching starts before the request leaves, so its answer cannot arrive unseen.
      this.relayWatch ??= relay.watch(sessionId, (answer) => void this.deliverResponse(answer)).catch((error: unknown) => {
        this.relayWatch = undefined;
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        return undefined;
      });
      await this.relayWatch;
    }
    return { ...message, id: wireId };
  }

  /** A cancellation of one of the server's requests names it as the client knows it. */
  private cancellationOnTheWire(message: JSONRPCMessage): JSONRPCMessage {
    const params = (message as { params?: { requestId?: RequestId } }).params;
    const wireId = params?.requestId === undefined ? undefined : this.wireIds.get(params.requestId);
    if (wireId === undefined) return message;
    this.awaited.delete(wireId);
    this.wireIds.delete(params!.requestId!);
    return { ...message, params: { ...params, requestId: wireId } } as JSONRPCMessage;
  }

  /** The SDK transport's own checks for a POST in an established session, all of which pass. */
  private acceptsHere(request: Request): boolean {
    if (this.closed) return false;
    const sessionId = this.sdk.sessionId;
    if (sessionId === undefined || request.headers.get("mcp-session-id") !== sessionId) return false;
    const accept = request.headers.get("accept");
    if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return false;
    if (!isJsonContentType(request.headers.get("content-type"))) return false;
    const version = request.headers.get("mcp-protocol-version");
    return version === null || this.supportedVersions.includes(version);
  }

  /** Priming events go to clients that read an event without data: a supported version from 2025-11-25 on. */
  private primes(version: string): boolean {
    return this.options.eventStore !== undefined && this.supportedVersions.includes(version) && version >= "2025-11-25";
  }

  private async answerPlain(request: Request, message: JSONRPCRequest, authInfo: AuthInfo | undefined): Promise<Response> {
    const streamId = crypto.randomUUID();
    const version = request.headers.get("mcp-protocol-version") ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    const primes = this.primes(version);
    let head = "";
    if (primes) {
      const primingId = await this.options.eventStore!.storeEvent(streamId, {} as JSONRPCMessage);
      const retry = this.options.retryInterval;
      head = retry === undefined ? `id: ${primingId}\ndata: \n\n` : `id: ${primingId}\nretry: ${retry}\ndata: \n\n`;
    }
    return new Promise<Response>((answer) => {
      const flight: InFlight = { streamId, head, answer, answered: false, detached: false };
      this.inFlight.set(message.id, flight);
      awaitFirstMessage(flight, () => this.stream(flight));
      const closeStreams = primes
        ? { closeSSEStream: () => this.detach(flight), closeStandaloneSSEStream: () => this.sdk.closeStandaloneSSEStream() }
        : {};
      this.onmessage?.(message, { authInfo, request, ...closeStreams } as Parameters<NonNullable<Transport["onmessage"]>>[1]);
    });
  }

  async send(outgoing: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    let message = outgoing;
    if (isRequest(message)) message = await this.outgoing(message);
    else if ((message as { method?: unknown }).method === "notifications/cancelled") message = this.cancellationOnTheWire(message);
    const final = isResponse(message);
    const requestId = final ? (message as { id: RequestId }).id : options?.relatedRequestId;
    const flight = requestId === undefined ? undefined : this.inFlight.get(requestId);
    if (!flight) return this.sdk.send(message, options);
    if (final) this.inFlight.delete(requestId!);
    const json = JSON.stringify(message);
    const store = this.options.eventStore;
    const eventId = store === undefined ? undefined : store.storeSerialized ? await store.storeSerialized(flight.streamId, message, json) : await store.storeEvent(flight.streamId, message);
    const event = `event: message\n${eventId === undefined ? "" : `id: ${eventId}\n`}data: ${json}\n\n`;
    if (flight.detached) return;
    if (!flight.answered && final) {
      // The usual case: the response is the request's one message.
      flight.answered = true;
      waiting.delete(flight);
      flight.answer(new Response(flight.head + event, { status: 200, headers: this.oneStringHeaders() }));
      return;
    }
    if (!flight.answered) this.stream(flight);
    try {
      flight.controller?.enqueue(encoder.encode(event));
    } catch {
      flight.detached = true;
    }
    if (final) this.end(flight);
  }

  private oneStringHeaders(): Headers {
    const sessionId = this.sdk.sessionId ?? "";
    if (this.answerHeaders?.sessionId !== sessionId) {
      this.answerHeaders = { sessionId, headers: new Headers({ ...sseHeaders(sessionId), ...this.options.answerHeaders }) };
    }
    return this.answerHeaders.headers;
  }

  /** The request's messages from now on go out as an SSE stream, opened with what was held back. */
  private stream(flight: InFlight): void {
    flight.answered = true;
    waiting.delete(flight);
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        flight.controller = controller;
        if (flight.head) controller.enqueue(encoder.encode(flight.head));
      },
      cancel: () => {
        flight.detached = true;
        this.end(flight);
      },
    });
    flight.keepAlive = setInterval(() => {
      try {
        flight.controller?.enqueue(encoder.encode(": keepalive\n\n"));
      } catch {
        this.end(flight);
      }
    }, keepAliveMs);
    flight.answer(new Response(body, { status: 200, headers: sseHeaders(this.sdk.sessionId ?? "") }));
  }

  /** The server closed the request's stream (polling): the client resumes it from the store. */
  private detach(flight: InFlight): void {
    if (flight.detached) return;
    if (!flight.answered) {
      flight.answered = true;
      waiting.delete(flight);
      flight.answer(new Response(flight.head, { status: 200, headers: sseHeaders(this.sdk.sessionId ?? "") }));
    }
    flight.detached = true;
    this.end(flight);
  }

  private end(flight: InFlight): void {
    if (flight.keepAlive !== undefined) clearInterval(flight.keepAlive);
    flight.keepAlive = undefined;
    try {
      flight.controller?.close();
    } catch {
      // Already closed or cancelled.
    }
    flight.controller = undefined;
    if (!flight.answered) {
      // The session closed before the request had an answer: the SDK transport ends its streams the same way.
      flight.answered = true;
      waiting.delete(flight);
      flight.answer(new Response(flight.head, { status: 200, headers: sseHeaders(this.sdk.sessionId ?? "") }));
    }
  }
}
