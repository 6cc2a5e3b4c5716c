/**
 * The events of MCP event streams (SSE), kept so a client that lost a stream can resume it with
 * `Last-Event-ID`, on any replica: PostgreSQL shares them (`postgres/stream-events.ts`); a single
 * SQLite process keeps them in memory (`InProcessStreamEvents` below). Each event belongs to one
 * session and one stream of it (a POST's request stream, or the standalone GET stream), and its id
 * orders it within that stream. A `null` message is a marker (a priming event): it carries an id and
 * nothing to deliver.
 *
 * Bounded in time and size (`streamEventLimits`): an event is kept at most `ttlMs`, and a session keeps
 * at most `maxEventsPerSession` events and `maxBytesPerSession` bytes of them, its oldest dropped first;
 * one event over `maxEventBytes` is kept only as a stand-in (`keptForResumption`). In memory, each user
 * (the sessions' owner) keeps at most `maxBytesPerUser`, and all together at most `maxBytesInProcess`:
 * past that, the user holding the most gives way first (their longest-open session's oldest events), so
 * one user's large reads cannot evict another's resumable streams. An event id that was dropped is
 * answered like one that never existed.
 */
import type { JsonObject } from "./types.ts";

export interface StreamEvent {
  id: string;
  /** The JSON-RPC message, or null for a marker. */
  message: JsonObject | null;
}

export interface StreamEventLimits {
  ttlMs: number;
  maxEventsPerSession: number;
  maxBytesPerSession: number;
  /** One event; a larger one is stored as a stand-in without its content. */
  maxEventBytes: number;
  /** All sessions of one user together, for the in-memory store. */
  maxBytesPerUser: number;
  /** All sessions together, for the in-memory store (PostgreSQL keeps them on disk). */
  maxBytesInProcess: number;
}

/** Fifteen minutes covers a reconnect after any network hiccup and the longest tool call (255 s). */
export const streamEventLimits: StreamEventLimits = {
  ttlMs: 15 * 60_000,
  maxEventsPerSession: 2000,
  maxBytesPerSession: 16 * 1024 * 1024,
  maxEventBytes: 4 * 1024 * 1024,
  maxBytesPerUser: 64 * 1024 * 1024,
  maxBytesInProcess: 256 * 1024 * 1024,
};

/**
 * What is stored of `message` so a resumed stream can go on: the message itself, or, past
 * `maxEventBytes`, a stand-in: a response becomes an error response for the same request (a resuming
 * client learns to ask again instead of waiting), anything else a marker (its id stays valid).
 */
export function keptForResumption(message: JsonObject, bytes: number, limits: Pick<StreamEventLimits, "maxEventBytes"> = streamEventLimits): JsonObject | null {
  if (bytes <= limits.maxEventBytes) return message;
  if (!("id" in message) || "method" in message) return null;
  return {
    jsonrpc: "2.0",
    id: message.id ?? null,
    error: {
      code: -32000,
      message: `limit_exceeded: the answer was ${bytes} bytes, more than the ${limits.maxEventBytes} kept for a resumed stream; send the request again, or read less at once.`,
    },
  };
}

export interface StreamEventStore {
  /**
   * Milliseconds after which a follower of a stream appended to without `concurrentWriters` reads
   * again: such appends may not wake followers on other replicas. Undefined: every append wakes them.
   */
  readonly quietPollMs: number | undefined;
  /**
   * Stores an event and returns its id. `concurrentWriters`: other processes may append to this stream
   * at the same time (the standalone stream gets notifications from every replica), so the append is
   * serialised with theirs and wakes its followers everywhere; a request stream has one writer, which
   * serialises its own appends, and is followed elsewhere only after a resume.
   */
  append(sessionId: string, streamId: string, message: JsonObject | null, options?: AppendOptions): Promise<string>;
  /** The stream event `eventId` belongs to when it is an event of session `sessionId` still kept; else undefined. */
  streamOf(sessionId: string, eventId: string): Promise<string | undefined>;
  /** Events of the stream after `afterId` (all when undefined), oldest first, at most `limit`. */
  after(sessionId: string, streamId: string, afterId: string | undefined, limit: number): Promise<StreamEvent[]>;
  /** The id of the stream's newest marker, or undefined when it has none. */
  lastMarker(sessionId: string, streamId: string): Promise<string | undefined>;
  /**
   * Calls `wake` whenever an event may have been appended to the stream (by any replica). Resolves,
   * with the way to stop, once watching is in effect: what is read after that misses nothing.
   */
  watch(sessionId: string, streamId: string, wake: () => void): Promise<() => void>;
  /** Drops everything of a session (it ended). */
  forgetSession(sessionId: string): Promise<void>;
  close(): void;
}

export interface AppendOptions {
  concurrentWriters?: boolean;
  /** The user whose session it is, for the in-memory store's per-user share. */
  owner?: string;
  /** Told when the event is over `maxEventBytes` and a stand-in is stored instead (for a log line). */
  onOversize?: (bytes: number, limit: number) => void;
  /** `JSON.stringify(message)`, when the caller has already made it (to write the event): not made again. */
  serialized?: string;
}

/** The JSON stored for `message` (null for a marker), within `maxEventBytes`. */
export function storedText(message: JsonObject | null, limits: Pick<StreamEventLimits, "maxEventBytes">, options: AppendOptions = {}): string | null {
  if (message === null) return null;
  const text = options.serialized ?? JSON.stringify(message);
  if (text.length <= limits.maxEventBytes) return text;
  options.onOversize?.(text.length, limits.maxEventBytes);
  const standIn = keptForResumption(message, text.length, limits);
  return standIn === null ? null : JSON.stringify(standIn);
}

export const isEventId = (value: string): boolean => /^[1-9][0-9]{0,17}$/.test(value);

interface KeptEvent {
  id: number;
  streamId: string;
  /**
   * The message's JSON (null for a marker), parsed again only when a stream is resumed: a kept answer is
   * one string, not the object graph the SDK built, so the collector has a leaf to mark, not a tree.
   */
  text: string | null;
  bytes: number;
  at: number;
}

/** Wakes registered per stream key; shared by both implementations. */
export class StreamWatchers {
  private readonly watchers = new Map<string, Set<() => void>>();

  static key(sessionId: string, streamId: string): string {
    return `${sessionId} ${streamId}`;
  }

  add(key: string, wake: () => void): () => void {
    let set = this.watchers.get(key);
    if (!set) this.watchers.set(key, (set = new Set()));
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0 && this.watchers.get(key) === set) this.watchers.delete(key);
    };
  }

  wake(key: string): void {
    for (const wake of this.watchers.get(key) ?? []) wake();
  }

  wakeAll(): void {
    for (const set of this.watchers.values()) for (const wake of set) wake();
  }
}

interface KeptSession {
  events: KeptEvent[];
  bytes: number;
  owner: string;
}

interface KeptOwner {
  /** In opening order. */
  sessions: Set<KeptSession>;
  bytes: number;
}

/** One process's events in memory, for SQLite: only this process serves the sessions. */
export class InProcessStreamEvents implements StreamEventStore {
  readonly quietPollMs = undefined;
  private readonly sessions = new Map<string, KeptSession>();
  /** Each owner's sessions (in opening order) and bytes. */
  private readonly owners = new Map<string, KeptOwner>();
  private readonly watchers = new StreamWatchers();
  private lastId = 0;
  private totalBytes = 0;
  private readonly sweep: ReturnType<typeof setInterval>;

  constructor(private readonly limits: StreamEventLimits = streamEventLimits) {
    this.sweep = setInterval(() => this.dropExpired(), Math.min(60_000, limits.ttlMs));
    this.sweep.unref?.();
  }

  async append(sessionId: string, streamId: string, message: JsonObject | null, options: AppendOptions = {}): Promise<string> {
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = { events: [], bytes: 0, owner: options.owner ?? "" };
      this.sessions.set(sessionId, session);
      this.ownerOf(session).sessions.add(session);
    } else if (options.owner !== undefined && session.owner !== options.owner) {
      // First stored without its owner (a priming marker): it moves to its owner's share.
      const from = this.ownerOf(session);
      from.sessions.delete(session);
      from.bytes -= session.bytes;
      if (from.sessions.size === 0) this.owners.delete(session.owner);
      session.owner = options.owner;
      const to = this.ownerOf(session);
      to.sessions.add(session);
      to.bytes += session.bytes;
    }
    const text = storedText(message, this.limits, options);
    const bytes = text === null ? 0 : text.length;
    const event = { id: ++this.lastId, streamId, text, bytes, at: Date.now() };
    session.events.push(event);
    session.bytes += bytes;
    this.ownerOf(session).bytes += bytes;
    this.totalBytes += bytes;
    while (session.events.length > this.limits.maxEventsPerSession || (session.bytes > this.limits.maxBytesPerSession && session.events.length > 1)) {
      this.dropOldest(session);
    }
    const owner = this.ownerOf(session);
    this.shrink(owner, () => owner.bytes > this.limits.maxBytesPerUser, session);
    // Past the process limit, whoever holds the most gives way, one event at a time, so shares even out from the top.
    while (this.totalBytes > this.limits.maxBytesInProcess) {
      let largest: KeptOwner | undefined;
      for (const candidate of this.owners.values()) {
        if (candidate.bytes > (largest?.bytes ?? -1) && this.oldestDroppable(candidate, session)) largest = candidate;
      }
      const from = largest && this.oldestDroppable(largest, session);
      if (!from) break;
      this.dropOldest(from);
    }
    this.watchers.wake(StreamWatchers.key(sessionId, streamId));
    return String(event.id);
  }

  private ownerOf(session: KeptSession): KeptOwner {
    let owner = this.owners.get(session.owner);
    if (!owner) this.owners.set(session.owner, (owner = { sessions: new Set(), bytes: 0 }));
    return owner;
  }

  /** Drops the owner's oldest events, longest-open session first, while `over`; keeps `current`'s newest. */
  private shrink(owner: KeptOwner, over: () => boolean, current: KeptSession): void {
    while (over()) {
      const from = this.oldestDroppable(owner, current);
      if (!from) return;
      this.dropOldest(from);
    }
  }

  /** The owner's longest-open session with an event that may go (never `current`'s newest). */
  private oldestDroppable(owner: KeptOwner, current: KeptSession): KeptSession | undefined {
    for (const session of owner.sessions) if (session.events.length > (session === current ? 1 : 0)) return session;
    return undefined;
  }

  async streamOf(sessionId: string, eventId: string): Promise<string | undefined> {
    if (!isEventId(eventId)) return undefined;
    const events = this.sessions.get(sessionId)?.events ?? [];
    const index = this.indexAfter(events, Number(eventId)) - 1;
    const event = events[index];
    return event?.id === Number(eventId) && event.at >= Date.now() - this.limits.ttlMs ? event.streamId : undefined;
  }

  async after(sessionId: string, streamId: string, afterId: string | undefined, limit: number): Promise<StreamEvent[]> {
    const events = this.sessions.get(sessionId)?.events ?? [];
    const found: StreamEvent[] = [];
    for (let index = afterId === undefined ? 0 : this.indexAfter(events, Number(afterId)); index < events.length && found.length < limit; index++) {
      const event = events[index]!;
      if (event.streamId === streamId) found.push({ id: String(event.id), message: event.text === null ? null : (JSON.parse(event.text) as JsonObject) });
    }
    return found;
  }

  async lastMarker(sessionId: string, streamId: string): Promise<string | undefined> {
    const events = this.sessions.get(sessionId)?.events ?? [];
    for (let index = events.length - 1; index >= 0; index--) {
      const event = events[index]!;
      if (event.streamId === streamId && event.text === null) return String(event.id);
    }
    return undefined;
  }

  async watch(sessionId: string, streamId: string, wake: () => void): Promise<() => void> {
    return this.watchers.add(StreamWatchers.key(sessionId, streamId), wake);
  }

  async forgetSession(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    while (session.events.length > 0) this.dropOldest(session);
    this.forget(sessionId, session);
  }

  private forget(sessionId: string, session: KeptSession): void {
    this.sessions.delete(sessionId);
    const owner = this.owners.get(session.owner);
    owner?.sessions.delete(session);
    if (owner?.sessions.size === 0) this.owners.delete(session.owner);
  }

  private dropOldest(session: KeptSession): void {
    const bytes = session.events.shift()!.bytes;
    session.bytes -= bytes;
    this.totalBytes -= bytes;
    const owner = this.owners.get(session.owner);
    if (owner) owner.bytes -= bytes;
  }

  close(): void {
    clearInterval(this.sweep);
  }

  /** The index of the first event with an id greater than `id` (ids ascend within a session). */
  private indexAfter(events: KeptEvent[], id: number): number {
    let low = 0;
    let high = events.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (events[middle]!.id <= id) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private dropExpired(): void {
    const cutoff = Date.now() - this.limits.ttlMs;
    for (const [sessionId, session] of this.sessions) {
      while (session.events.length > 0 && session.events[0]!.at < cutoff) this.dropOldest(session);
      if (session.events.length === 0) this.forget(sessionId, session);
    }
  }
}
