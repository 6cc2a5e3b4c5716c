/**
 * MCP stream events in PostgreSQL (`mcp_stream_events`), so a stream resumes on any replica. Ids come
 * from one sequence. A stream that several replicas append to (the standalone stream) takes a
 * per-session advisory lock for the append, so within it ids are committed in order and a follower
 * reading "after id N" never skips one committed late; and the append sends `NOTIFY
 * mcp_stream_events` with the stream's key, delivered at commit, which every replica LISTENs for on one
 * connection to wake the streams it follows. A request stream's appends do not notify: NOTIFY
 * serialises the commits of every transaction that sends one, which would cost each tool call, and
 * such a stream is followed elsewhere only after a resume, by a follower that reads every
 * `quietPollMs`. The limits of `streamEventLimits`
 * are kept by a sweep (age) and by pruning a session after every few appends (count and bytes). A
 * lost connection marks the database unavailable, as the authoring store does.
 */
import type { SQL } from "bun";
import type { JsonObject } from "../types.ts";
import { isEventId, storedText, streamEventLimits, StreamWatchers, type AppendOptions, type StreamEvent, type StreamEventLimits, type StreamEventStore } from "../stream-events.ts";
import { classify } from "./connect.ts";
import { DatabaseUnavailableError } from "../unavailable.ts";

const channel = "mcp_stream_events";
/** The first key of the two-key advisory lock space: "mcpe" in ASCII, recognisable in pg_locks. */
const appendLockSpace = 0x6d637065;
/** A session is pruned to its limits after this many appends from one replica (or a quarter of its byte limit). */
const pruneEvery = 64;

interface Health {
  setAvailable(available: boolean): void;
}

export class PostgresStreamEvents implements StreamEventStore {
  readonly quietPollMs = 200;
  private readonly watchers = new StreamWatchers();
  private listening: Promise<unknown> | undefined;
  private readonly appended = new Map<string, { count: number; bytes: number }>();
  private readonly sweep: ReturnType<typeof setInterval>;

  constructor(
    private readonly sql: SQL,
    private readonly health: Health,
    private readonly limits: StreamEventLimits = streamEventLimits,
  ) {
    this.sweep = setInterval(() => {
      // Tallies of sessions that ended without a word would pile up; counting starts again instead.
      this.appended.clear();
      this.query("DELETE FROM mcp_stream_events WHERE created_at < now() - $1::int * interval '1 millisecond'", [limits.ttlMs]).catch(() => undefined);
    }, Math.min(60_000, limits.ttlMs));
    this.sweep.unref?.();
  }

  private async query(text: string, bindings: unknown[] = [], on: SQL = this.sql): Promise<Record<string, unknown>[]> {
    try {
      return (await on.unsafe(text, bindings)) as Record<string, unknown>[];
    } catch (error) {
      const classified = classify(error);
      if (classified instanceof DatabaseUnavailableError) this.health.setAvailable(false);
      throw classified;
    }
  }

  async append(sessionId: string, streamId: string, message: JsonObject | null, options: AppendOptions = {}): Promise<string> {
    const text = storedText(message, this.limits, options);
    const bytes = text?.length ?? 0;
    const insert = "INSERT INTO mcp_stream_events (session_id, stream_id, message, bytes) VALUES ($1, $2, $3, $4) RETURNING id";
    const bindings = [sessionId, streamId, text, bytes];
    let rows: Record<string, unknown>[];
    if (options.concurrentWriters) {
      rows = await this.transaction(async (tx) => {
        await this.query("SELECT pg_advisory_xact_lock($1::int, hashtext($2))", [appendLockSpace, sessionId], tx);
        const added = await this.query(insert, bindings, tx);
        await this.query(`SELECT pg_notify('${channel}', $1)`, [StreamWatchers.key(sessionId, streamId)], tx);
        return added;
      });
    } else {
      rows = await this.query(insert, bindings);
    }
    this.pruneNowAndThen(sessionId, bytes);
    return String(rows[0]!.id);
  }

  private async transaction<T>(work: (tx: SQL) => Promise<T>): Promise<T> {
    try {
      return (await this.sql.begin((tx) => work(tx))) as T;
    } catch (error) {
      const classified = classify(error);
      if (classified instanceof DatabaseUnavailableError) this.health.setAvailable(false);
      throw classified;
    }
  }

  /** Keeps the session within its count and byte limits, checked every few appends rather than on each. */
  private pruneNowAndThen(sessionId: string, bytes: number): void {
    const tally = this.appended.get(sessionId) ?? { count: 0, bytes: 0 };
    tally.count++;
    tally.bytes += bytes;
    if (tally.count < pruneEvery && tally.bytes < this.limits.maxBytesPerSession / 4) {
      this.appended.set(sessionId, tally);
      return;
    }
    this.appended.delete(sessionId);
    void this.query(
      `DELETE FROM mcp_stream_events WHERE id IN (
         SELECT id FROM (
           SELECT id, SUM(bytes) OVER (ORDER BY id DESC) AS total, ROW_NUMBER() OVER (ORDER BY id DESC) AS newer
           FROM mcp_stream_events WHERE session_id = $1
         ) ranked WHERE ranked.total > $2::bigint OR ranked.newer > $3::int)`,
      [sessionId, this.limits.maxBytesPerSession, this.limits.maxEventsPerSession],
    ).catch(() => undefined);
  }

  async streamOf(sessionId: string, eventId: string): Promise<string | undefined> {
    if (!isEventId(eventId)) return undefined;
    const [row] = await this.query(
      "SELECT stream_id FROM mcp_stream_events WHERE id = $1::bigint AND session_id = $2 AND created_at >= now() - $3::int * interval '1 millisecond'",
      [eventId, sessionId, this.limits.ttlMs],
    );
    return row ? String(row.stream_id) : undefined;
  }

  async after(sessionId: string, streamId: string, afterId: string | undefined, limit: number): Promise<StreamEvent[]> {
    const rows = await this.query(
      "SELECT id, message FROM mcp_stream_events WHERE session_id = $1 AND stream_id = $2 AND id > $3::bigint ORDER BY id LIMIT $4::int",
      [sessionId, streamId, afterId ?? "0", limit],
    );
    return rows.map((row) => ({ id: String(row.id), message: row.message === null ? null : (JSON.parse(String(row.message)) as JsonObject) }));
  }

  async lastMarker(sessionId: string, streamId: string): Promise<string | undefined> {
    const [row] = await this.query(
      "SELECT MAX(id) AS id FROM mcp_stream_events WHERE session_id = $1 AND stream_id = $2 AND message IS NULL",
      [sessionId, streamId],
    );
    return row?.id === null || row?.id === undefined ? undefined : String(row.id);
  }

  async watch(sessionId: string, streamId: string, wake: () => void): Promise<() => void> {
    this.listening ??= this.sql
      .listen(
        channel,
        (payload) => this.watchers.wake(payload),
        // After a reconnect, notifications sent meanwhile are lost: every follower reads again.
        () => this.watchers.wakeAll(),
      )
      .catch((error: unknown) => {
        this.listening = undefined;
        throw error;
      });
    const stop = this.watchers.add(StreamWatchers.key(sessionId, streamId), wake);
    try {
      // The LISTEN must be acknowledged before the follower reads, or a notification could fall between.
      await this.listening;
    } catch (error) {
      stop();
      const classified = classify(error);
      if (classified instanceof DatabaseUnavailableError) this.health.setAvailable(false);
      throw classified;
    }
    return stop;
  }

  async forgetSession(sessionId: string): Promise<void> {
    this.appended.delete(sessionId);
    await this.query("DELETE FROM mcp_stream_events WHERE session_id = $1", [sessionId]);
  }

  close(): void {
    clearInterval(this.sweep);
    void this.listening?.then((subscription) => (subscription as { unlisten(): Promise<void> }).unlisten()).catch(() => undefined);
  }
}
