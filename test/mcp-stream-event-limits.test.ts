/**
 * The stream event stores keep their bounds (store/stream-events.ts): per session a count and a byte
 * limit, oldest dropped first; in memory also a limit for all sessions together; and an event past its
 * time is answered like one that never existed. Both stores, PostgreSQL on a database of its own.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { InProcessStreamEvents, type StreamEventLimits, type StreamEventStore } from "../src/store/stream-events.ts";
import { PostgresStreamEvents } from "../src/store/postgres/stream-events.ts";
import { PostgresSessionRecords } from "../src/store/postgres/session-records.ts";
import { applyPostgresMigrations } from "../src/store/postgres/migrations.ts";
import { createTestDatabase, type TestDatabase } from "./support/postgres.ts";

const message = (n: number, padding = 0) => ({ jsonrpc: "2.0", method: "notifications/message", params: { n, text: "x".repeat(padding) } });
const limits: StreamEventLimits = { ttlMs: 60_000, maxEventsPerSession: 10, maxBytesPerSession: 1_000_000, maxBytesInProcess: 10_000_000 };

async function appendMany(store: StreamEventStore, sessionId: string, count: number, padding = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) ids.push(await store.append(sessionId, "stream", message(n, padding)));
  return ids;
}

describe("in memory", () => {
  test("a session keeps its newest events within the count and byte limits; older ids are unknown", async () => {
    const store = new InProcessStreamEvents({ ...limits, maxBytesPerSession: 5 * 1100 });
    try {
      const ids = await appendMany(store, "s1", 30);
      expect(await store.streamOf("s1", ids[19]!)).toBeUndefined();
      expect(await store.streamOf("s1", ids[29]!)).toBe("stream");
      expect((await store.after("s1", "stream", undefined, 100)).map((event) => event.id)).toEqual(ids.slice(20));
      const large = await appendMany(store, "s2", 8, 1000);
      expect((await store.after("s2", "stream", undefined, 100)).map((event) => event.id)).toEqual(large.slice(3));
      // Another session's id is unknown here, whatever it is.
      expect(await store.streamOf("s2", ids[29]!)).toBeUndefined();
    } finally {
      store.close();
    }
  });

  test("all sessions together stay within the process limit, the longest-open session giving way first", async () => {
    const store = new InProcessStreamEvents({ ...limits, maxBytesInProcess: 12 * 1100 });
    try {
      const first = await appendMany(store, "old", 8, 1000);
      const second = await appendMany(store, "new", 8, 1000);
      expect(await store.after("new", "stream", undefined, 100)).toHaveLength(8);
      const kept = (await store.after("old", "stream", undefined, 100)).map((event) => event.id);
      expect(kept.length).toBeLessThanOrEqual(4);
      expect(kept).toEqual(first.slice(first.length - kept.length));
      expect(second).toHaveLength(8);
    } finally {
      store.close();
    }
  });

  test("an event past its time is answered like one that never existed", async () => {
    const store = new InProcessStreamEvents({ ...limits, ttlMs: 1 });
    try {
      const [id] = await appendMany(store, "s", 1);
      const until = Date.now() + 5;
      while (Date.now() < until); // the event outlives its 1 ms on the clock itself
      expect(await store.streamOf("s", id!)).toBeUndefined();
    } finally {
      store.close();
    }
  });
});

describe("in PostgreSQL", () => {
  let database: TestDatabase;
  let sql: SQL;
  let store: PostgresStreamEvents;

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: false });
    sql = new SQL(database.url, { max: 3 });
    await applyPostgresMigrations(sql);
    store = new PostgresStreamEvents(sql, { setAvailable: () => undefined }, limits);
    const records = new PostgresSessionRecords(sql);
    for (const id of ["p1", "p2"]) await records.save({ id, ownerSub: "alice", protocolVersion: "2025-11-25", clientCapabilities: {}, clientInfo: {} });
  });

  afterAll(async () => {
    store?.close();
    await sql?.close();
    await database?.drop();
  });

  test("a session is pruned to its newest events after a run of appends (64 from one replica), oldest first", async () => {
    const ids = await appendMany(store, "p1", 64);
    // The prune runs beside the appends; wait for it, with a limit that names what it waited for.
    const deadline = Date.now() + 20_000;
    let kept = await store.after("p1", "stream", undefined, 100);
    while (kept.length > limits.maxEventsPerSession) {
      if (Date.now() > deadline) throw new Error(`the session still keeps ${kept.length} events 20 s after the prune was due`);
      await Bun.sleep(50);
      kept = await store.after("p1", "stream", undefined, 100);
    }
    expect(kept.map((event) => event.id)).toEqual(ids.slice(ids.length - kept.length));
    expect(await store.streamOf("p1", ids[0]!)).toBeUndefined();
    expect(await store.streamOf("p2", ids[ids.length - 1]!)).toBeUndefined();
    expect(await store.streamOf("p1", ids[ids.length - 1]!)).toBe("stream");
  });

  test("ending a session drops its events with it", async () => {
    const [id] = await appendMany(store, "p2", 1);
    expect(await store.streamOf("p2", id!)).toBe("stream");
    await new PostgresSessionRecords(sql).remove("p2");
    expect(await store.streamOf("p2", id!)).toBeUndefined();
  });
});
