/**
 * Restoring a shared session (PostgreSQL): restores in flight are keyed by user and session, so
 * another user's concurrent request with the owner's session id never changes the outcome of the
 * owner's. Two session managers on one real PostgreSQL database play two replicas; the stranger's
 * restore is held at a known point (its record lookup) by a wrapper around the real record store,
 * so the race is the same on every run.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { McpServer } from "@modelcontextprotocol/server";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { createMcpSessions, type McpCaller } from "../src/mcp/sessions.ts";
import { createSessionSharing } from "../src/mcp/session-sharing.ts";
import { createSessionRestore } from "../src/mcp/session-restore.ts";
import { PostgresSessionRecords } from "../src/store/postgres/session-records.ts";
import type { McpSessionRecord, SessionRecordStore } from "../src/store/session-records.ts";
import { createLogger } from "../src/log.ts";
import { createTestDatabase, type TestDatabase } from "./support/postgres.ts";
import { waitFor as within } from "./support/wait.ts";

let database: TestDatabase;
let sql: SQL;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = new SQL(database.url, { max: 4 });
});

afterAll(async () => {
  await sql?.close();
  await database?.drop();
});

const logger = createLogger("error");
const caller = (sub: string): McpCaller => ({ token: `token-of-${sub}`, user: { sub, scopes: ["openid"] } });

/** A record store whose lookups of one session id stop at `find` until released, one at a time. */
function heldRecords(records: SessionRecordStore) {
  const held: { id: string; reached: () => void; release: Promise<void> }[] = [];
  return {
    records: {
      ...bind(records),
      async find(id: string): Promise<McpSessionRecord | undefined> {
        const hold = held.find((entry) => entry.id === id);
        if (hold) {
          held.splice(held.indexOf(hold), 1);
          hold.reached();
          await hold.release;
        }
        return records.find(id);
      },
    } satisfies SessionRecordStore,
    /** The next lookup of `id` stops; resolves `reached` when it does, and goes on when `release` runs. */
    holdNextLookup(id: string) {
      let reached!: () => void;
      let release!: () => void;
      const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
      held.push({ id, reached, release: new Promise<void>((resolve) => (release = resolve)) });
      return { reached: reachedPromise, release: () => release() };
    },
  };
}

function bind(records: SessionRecordStore): SessionRecordStore {
  return {
    save: (record) => records.save(record),
    find: (id) => records.find(id),
    touch: (id) => records.touch(id),
    remove: (id) => records.remove(id),
    setLogLevel: (id, level) => records.setLogLevel(id, level),
    removeIdleSince: (cutoff) => records.removeIdleSince(cutoff),
    count: () => records.count(),
  };
}

function replica(records: SessionRecordStore) {
  return createMcpSessions({
    stateless: false,
    logger,
    sharing: createSessionSharing({ records, logger, idleTimeoutMs: 60_000 }),
    createServer: () => {
      const server = new McpServer({ name: "restore-test", version: "1.0.0" });
      server.registerTool("ping", { description: "Answers pong" }, () => ({ content: [{ type: "text", text: "pong" }] }));
      return server.server;
    },
  });
}

const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function initialize(sessions: ReturnType<typeof replica>, who: McpCaller): Promise<string> {
  const body = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "t", version: "1" } } };
  const response = await sessions.handle(new Request("http://replica/mcp", { method: "POST", headers, body: JSON.stringify(body) }), who, body);
  await response.text();
  expect(response.status).toBe(200);
  return response.headers.get("mcp-session-id")!;
}

function listTools(sessions: ReturnType<typeof replica>, who: McpCaller, sessionId: string): Promise<Response> {
  const body = { jsonrpc: "2.0", id: 2, method: "tools/list" };
  const sessionHeaders = { ...headers, "mcp-session-id": sessionId, "mcp-protocol-version": LATEST_PROTOCOL_VERSION };
  return sessions.handle(new Request("http://replica/mcp", { method: "POST", headers: sessionHeaders, body: JSON.stringify(body) }), who, body);
}

describe("restoring a shared session on a second replica", () => {
  test("the owner's request succeeds while a stranger's restore of the same session id is held mid-lookup", async () => {
    const first = replica(new PostgresSessionRecords(sql));
    const held = heldRecords(new PostgresSessionRecords(sql));
    const second = replica(held.records);
    try {
      const alice = caller("alice");
      const sessionId = await initialize(first, alice);
      const strangersLookup = held.holdNextLookup(sessionId);
      const mallorys = listTools(second, caller("mallory"), sessionId);
      await within(strangersLookup.reached, 30_000, "the stranger's restore to reach its record lookup");
      // While the stranger's restore is stopped, the owner's own request restores and answers.
      const alices = await within(listTools(second, alice, sessionId), 30_000, "the owner's answer while the stranger's restore is held");
      expect(alices.status).toBe(200);
      expect(await alices.text()).toContain("ping");
      strangersLookup.release();
      expect((await mallorys).status).toBe(404);
      // And the stranger learns nothing later either: the session stays the owner's.
      expect((await listTools(second, caller("mallory"), sessionId)).status).toBe(404);
      expect((await listTools(second, alice, sessionId)).status).toBe(200);
    } finally {
      await first.closeAll();
      await second.closeAll();
    }
  });

  test("the owner's restore is not shared with a stranger who sends the id while it is in flight", async () => {
    const first = replica(new PostgresSessionRecords(sql));
    const held = heldRecords(new PostgresSessionRecords(sql));
    const second = replica(held.records);
    try {
      const alice = caller("alice");
      const sessionId = await initialize(first, alice);
      const ownersLookup = held.holdNextLookup(sessionId);
      const alices = listTools(second, alice, sessionId);
      await within(ownersLookup.reached, 30_000, "the owner's restore to reach its record lookup");
      const mallorys = await within(listTools(second, caller("mallory"), sessionId), 30_000, "the stranger's answer while the owner's restore is held");
      expect(mallorys.status).toBe(404);
      ownersLookup.release();
      expect((await alices).status).toBe(200);
    } finally {
      await first.closeAll();
      await second.closeAll();
    }
  });
});

describe("the restore part alone", () => {
  const record = (id: string, ownerSub: string): McpSessionRecord => ({ id, ownerSub, protocolVersion: LATEST_PROTOCOL_VERSION, clientCapabilities: {}, clientInfo: {} });

  test("concurrent restores of one user's session share one rebuild; another user's run apart", async () => {
    const restores = createSessionRestore();
    const records = new PostgresSessionRecords(sql);
    await records.save(record("shared-1", "alice"));
    let rebuilds = 0;
    const parts = {
      lookup: async (id: string, sub: string) => {
        const found = await records.find(id);
        return found?.ownerSub === sub ? found : undefined;
      },
      rebuild: async (found: McpSessionRecord) => ({ rebuilt: found.id, number: ++rebuilds }),
    };
    const [a, b, stranger] = await Promise.all([
      restores.restore("shared-1", "alice", parts),
      restores.restore("shared-1", "alice", parts),
      restores.restore("shared-1", "mallory", parts),
    ]);
    expect(a).toEqual({ rebuilt: "shared-1", number: 1 });
    expect(b).toBe(a);
    expect(stranger).toBeUndefined();
    expect(rebuilds).toBe(1);
    expect(restores.inFlight).toBe(0);
  });

  test("a sub and a session id that would join into the same text still key apart", async () => {
    const restores = createSessionRestore();
    const seen: string[] = [];
    const parts = (label: string) => ({
      lookup: async () => {
        seen.push(label);
        return undefined;
      },
      rebuild: async () => label,
    });
    await Promise.all([restores.restore("b:c", "a", parts("first")), restores.restore("c", "a:b", parts("second"))]);
    expect(seen.sort()).toEqual(["first", "second"]);
  });
});
