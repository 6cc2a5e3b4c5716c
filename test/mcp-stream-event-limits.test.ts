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
const limits: StreamEventLimits = { ttlMs: 60_000, maxEventsPerSession: 10, maxBytesPerSession: 1_000_000, maxEventBytes: 1_000_000, maxBytesPerUser: 10_000_000, maxBytesInProcess: 10_000_000 };

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

  test("one user's large events never evict another user's: each user keeps within a share, the largest gives way first", async () => {
    const store = new InProcessStreamEvents({ ...limits, maxEventsPerSession: 1000, maxBytesPerUser: 20 * 1100, maxBytesInProcess: 30 * 1100 });
    try {
      const bob = await appendMany(store, "bob-1", 5, 1000);
      for (const session of ["a1", "a2", "a3", "a4"]) {
        for (let n = 0; n < 15; n++) await store.append(session, "stream", message(n, 1000), { owner: "alice" });
      }
      // Alice stays within her share, her own oldest events going first; bob's are all still there.
      const aliceKept = (await Promise.all(["a1", "a2", "a3", "a4"].map((session) => store.after(session, "stream", undefined, 100)))).flat();
      expect(aliceKept.length).toBeLessThanOrEqual(20);
      expect((await store.after("a4", "stream", undefined, 100)).length).toBe(15);
      expect((await store.after("bob-1", "stream", undefined, 100)).map((event) => event.id)).toEqual(bob);
      for (const id of bob) expect(await store.streamOf("bob-1", id)).toBe("stream");
    } finally {
      store.close();
    }
  });

  test("past the process limit the user holding the most gives way, not the one within a fair share", async () => {
    const store = new InProcessStreamEvents({ ...limits, maxEventsPerSession: 1000, maxBytesPerUser: 100 * 1100, maxBytesInProcess: 24 * 1100 });
    try {
      const bob: string[] = [];
      for (let n = 0; n < 6; n++) bob.push(await store.append("bob-1", "stream", message(n, 1000), { owner: "bob" }));
      for (let n = 0; n < 40; n++) await store.append("alice-1", "stream", message(n, 1000), { owner: "alice" });
      expect((await store.after("bob-1", "stream", undefined, 100)).map((event) => event.id)).toEqual(bob);
      expect((await store.after("alice-1", "stream", undefined, 100)).length).toBeLessThanOrEqual(18);
    } finally {
      store.close();
    }
  });

  test("an event over the size cap is kept as a stand-in: a response becomes an error for the same request, a notification a marker", async () => {
    const store = new InProcessStreamEvents({ ...limits, maxEventBytes: 2000 });
    const oversize: number[] = [];
    try {
      const onOversize = (bytes: number) => void oversize.push(bytes);
      const response = await store.append("s", "stream", { jsonrpc: "2.0", id: 7, result: { text: "x".repeat(5000) } }, { owner: "alice", onOversize });
      const notice = await store.append("s", "stream", message(1, 5000), { owner: "alice", onOversize });
      const small = await store.append("s", "stream", message(2, 10), { owner: "alice", onOversize });
      const events = await store.after("s", "stream", undefined, 10);
      expect(events.map((event) => event.id)).toEqual([response, notice, small]);
      expect(events[0]!.message).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32000 } });
      expect(String((events[0]!.message as { error: { message: string } }).error.message)).toStartWith("limit_exceeded:");
      expect(events[1]!.message).toBeNull();
      expect(events[2]!.message).toEqual(message(2, 10));
      expect(oversize).toHaveLength(2);
      expect(oversize.every((bytes) => bytes > 2000)).toBe(true);
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
