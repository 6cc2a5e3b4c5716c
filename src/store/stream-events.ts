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
 * in memory, all sessions together keep at most `maxBytesInProcess`, the longest-open sessions' oldest
 * events dropped first. An event id that was dropped is answered like one that never existed.
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
  /** All sessions together, for the in-memory store (PostgreSQL keeps them on disk). */
  maxBytesInProcess: number;
}

/** Fifteen minutes covers a reconnect after any network hiccup and the longest tool call (255 s). */
export const streamEventLimits: StreamEventLimits = {
  ttlMs: 15 * 60_000,
  maxEventsPerSession: 2000,
  maxBytesPerSession: 16 * 1024 * 1024,
  maxBytesInProcess: 256 * 1024 * 1024,
};

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
  append(sessionId: string, streamId: string, message: JsonObject | null, options?: { concurrentWriters?: boolean }): Promise<string>;
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

export const isEventId = (value: string): boolean => /^[1-9][0-9]{0,17}$/.test(value);

interface KeptEvent {
  id: number;
  streamId: string;
  message: JsonObject | null;
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

/** One process's events in memory, for SQLite: only this process serves the sessions. */
export class InProcessStreamEvents implements StreamEventStore {
  readonly quietPollMs = undefined;
  private readonly sessions = new Map<string, { events: KeptEvent[]; bytes: number }>();
  private readonly watchers = new StreamWatchers();
  private lastId = 0;
  private totalBytes = 0;
  private readonly sweep: ReturnType<typeof setInterval>;

  constructor(private readonly limits: StreamEventLimits = streamEventLimits) {
    this.sweep = setInterval(() => this.dropExpired(), Math.min(60_000, limits.ttlMs));
    this.sweep.unref?.();
  }

  async append(sessionId: string, streamId: string, message: JsonObject | null): Promise<string> {
    let session = this.sessions.get(sessionId);
    if (!session) this.sessions.set(sessionId, (session = { events: [], bytes: 0 }));
    const bytes = message === null ? 0 : JSON.stringify(message).length;
    const event = { id: ++this.lastId, streamId, message, bytes, at: Date.now() };
    session.events.push(event);
    session.bytes += bytes;
    this.totalBytes += bytes;
    while (session.events.length > this.limits.maxEventsPerSession || (session.bytes > this.limits.maxBytesPerSession && session.events.length > 1)) {
      this.dropOldest(session);
    }
    // Map order is opening order: the longest-open sessions give up their oldest events first.
    for (const [id, other] of this.sessions) {
      if (this.totalBytes <= this.limits.maxBytesInProcess) break;
      while (other.events.length > (other === session ? 1 : 0) && this.totalBytes > this.limits.maxBytesInProcess) this.dropOldest(other);
      if (other.events.length === 0) this.sessions.delete(id);
    }
    this.watchers.wake(StreamWatchers.key(sessionId, streamId));
    return String(event.id);
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
      if (event.streamId === streamId) found.push({ id: String(event.id), message: event.message });
    }
    return found;
  }

  async lastMarker(sessionId: string, streamId: string): Promise<string | undefined> {
    const events = this.sessions.get(sessionId)?.events ?? [];
    for (let index = events.length - 1; index >= 0; index--) {
      const event = events[index]!;
      if (event.streamId === streamId && event.message === null) return String(event.id);
    }
    return undefined;
  }

  async watch(sessionId: string, streamId: string, wake: () => void): Promise<() => void> {
    return this.watchers.add(StreamWatchers.key(sessionId, streamId), wake);
  }

  async forgetSession(sessionId: string): Promise<void> {
    this.totalBytes -= this.sessions.get(sessionId)?.bytes ?? 0;
    this.sessions.delete(sessionId);
  }

  private dropOldest(session: { events: KeptEvent[]; bytes: number }): void {
    const bytes = session.events.shift()!.bytes;
    session.bytes -= bytes;
    this.totalBytes -= bytes;
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
      if (session.events.length === 0) this.sessions.delete(sessionId);
    }
  }
}
