/**
 * Three replicas as separate processes on one fresh PostgreSQL database, behind a round-robin proxy
 * with no sticky sessions, sharing a test identity provider (keys published as a JWKS). One SDK client
 * session is served by all three; a stranger's use of that session id is refused by each; an export
 * and an asset made through one replica are read through another; a replica killed with SIGKILL
 * mid-session loses no acknowledged write; two replicas racing on one course yield exactly one winner;
 * a full restart keeps the data and the session; nothing is written to local disk.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { SQL } from "bun";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { createTestDatabase, type TestDatabase } from "./support/postgres.ts";
import { emptyWorkingDirectory, startReplica, startRoundRobinProxy, type Replica, type RoundRobinProxy } from "./support/replicas.ts";
import { AgentToolError, connectAgent, type Agent } from "./support/mcp-client.ts";
import { readExport } from "./support/transfer.ts";
import { postgresMigrations } from "../src/store/postgres/migrations.ts";

type Json = Record<string, unknown>;

let issuer: TestIssuer;
let database: TestDatabase;
let workDir: string;
let replicas: Replica[] = [];
let proxy: RoundRobinProxy;
let alice: Agent;

const audience = "https://courses.test/mcp";

function replicaEnv(): Record<string, string> {
  return { DATABASE_URL: database.url, AUTH_URL: issuer.url, AUTH_AUDIENCE: audience, BASE_URL: proxy?.url ?? "http://127.0.0.1:1" };
}

async function startThree(): Promise<Replica[]> {
  return Promise.all([0, 1, 2].map(() => startReplica(replicaEnv(), workDir)));
}

const sessionIdOf = (agent: Agent) => (agent.client.transport as StreamableHTTPClientTransport).sessionId!;

/** Retries a call once when the request in flight died with its replica, as a client would. */
async function callWithRetry(agent: Agent, name: string, args: Json): Promise<Json> {
  try {
    return await agent.call(name, args);
  } catch (error) {
    // A tool error is an answer; anything else (a 502 from the balancer) means the request died in flight.
    if (error instanceof AgentToolError) throw error;
    return agent.call(name, args);
  }
}

async function rawMcp(url: string, token: string, sessionId: string): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": sessionId },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
}

beforeAll(async () => {
  issuer = await startTestIssuer({ audience });
  database = await createTestDatabase({ migrated: false });
  workDir = emptyWorkingDirectory();
  // The proxy's URL is the public base URL; its backends are filled in once the replicas listen.
  proxy = startRoundRobinProxy([]);
  replicas = await startThree();
  proxy.backends.push(...replicas.map((replica) => replica.url));
  alice = await connectAgent({ mcpUrl: `${proxy.url}/mcp` }, await issuer.sign({ sub: "alice", aud: audience }), "alice-agent");
}, 90_000);

afterAll(async () => {
  await alice?.close().catch(() => undefined);
  for (const replica of replicas) replica.process.kill("SIGKILL");
  await Promise.all(replicas.map((replica) => replica.exited));
  await proxy?.stop();
  await issuer?.stop();
  await database?.drop();
  rmSync(workDir, { recursive: true, force: true });
});

describe("three replicas on one PostgreSQL", () => {
  test("replicas started together on an empty database apply each migration exactly once", async () => {
    const sql = new SQL(database.url, { max: 1 });
    const rows = (await sql.unsafe("SELECT version FROM schema_migrations ORDER BY version")) as { version: number }[];
    await sql.close();
    expect(rows.map((row) => row.version)).toEqual(postgresMigrations.map((migration) => migration.version));
  });

  test("one client session is served by all three replicas in turn", async () => {
    const created = await alice.call("create_course", { title: "Across replicas" });
    for (let i = 0; i < 6; i++) await alice.call("update_course", { courseId: created.id, expectedVersion: 1 + i, title: `Edit ${i}` });
    const course = await alice.call("get_course", { courseId: created.id });
    expect(course.title).toBe("Edit 5");
    expect(course.version).toBe(7);
    const session = sessionIdOf(alice);
    const servedBy = new Set(proxy.served.filter((entry) => entry.sessionId === session && entry.status < 400).map((entry) => entry.replica));
    expect([...servedBy].sort()).toEqual([0, 1, 2]);
  });

  test("another user's session id is refused by every replica, and an unknown one is 404 everywhere", async () => {
    const session = sessionIdOf(alice);
    const mallory = await issuer.sign({ sub: "mallory", aud: audience });
    for (const replica of replicas) {
      expect((await rawMcp(replica.url, mallory, session)).status).toBe(404);
      expect((await rawMcp(replica.url, await issuer.sign({ sub: "alice", aud: audience }), crypto.randomUUID())).status).toBe(404);
    }
  });

  test("a stranger racing the owner with the owner's session id on a replica that has not seen it never makes the owner's request fail", async () => {
    const aliceToken = await issuer.sign({ sub: "alice", aud: audience });
    const malloryToken = await issuer.sign({ sub: "mallory", aud: audience });
    for (let round = 0; round < 12; round++) {
      // A fresh session each round, opened on one replica, so the next one must restore it.
      const opened = await fetch(`${replicas[0]!.url}/mcp`, {
        method: "POST",
        headers: { Authorization: `Bearer ${aliceToken}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "race", version: "1" } } }),
      });
      await opened.text();
      const session = opened.headers.get("mcp-session-id")!;
      const target = replicas[1 + (round % 2)]!.url;
      // The stranger's request leaves first, so its restore is in flight when the owner's arrives.
      const strangers = rawMcp(target, malloryToken, session);
      const owners = rawMcp(target, aliceToken, session);
      const [stranger, owner] = await Promise.all([strangers, owners]);
      await Promise.all([stranger.text(), owner.text()]);
      expect({ round, owner: owner.status, stranger: stranger.status }).toEqual({ round, owner: 200, stranger: 404 });
    }
  });

  test("an asset uploaded and an export made through one replica are read through the others", async () => {
    const created = await alice.call("create_course", { title: "Shared packages", modules: [{ title: "M", lessons: [{ title: "L" }] }] });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]);
    const asset = (await alice.call("upload_asset", { courseId: created.id, filename: "pixel.png", dataBase64: png.toString("base64") })).asset as Json;
    const lessonId = String(((created.modules as Json[])[0]!.lessons as Json[])[0]!.id);
    await alice.call("add_blocks", { courseId: created.id, lessonId, blocks: [{ type: "image", assetId: asset.id, alt: "A pixel" }] });
    const exported = await alice.call("export_course", { courseId: created.id, format: "json" });
    const exportedOn = proxy.served.at(-1)!.replica;
    // Read the package twice, so at least one read lands on a replica other than the one that built it.
    const first = await readExport(alice, String(exported.uri));
    const second = await readExport(alice, String(exported.uri));
    const readOn = proxy.served.slice(-2).map((entry) => entry.replica);
    expect(readOn.some((replica) => replica !== exportedOn)).toBe(true);
    expect(second.bytes).toEqual(first.bytes);
    expect(first.bytes.byteLength).toBe(Number(exported.size));
    const document = JSON.parse(new TextDecoder().decode(first.bytes)) as { assets: { id: string; dataBase64: string }[] };
    expect(JSON.stringify(document)).toContain(png.toString("base64"));
    expect(JSON.stringify(document)).toContain(String(asset.id));
  });

  test("two replicas racing on one course: exactly one write wins, the other gets conflict, nothing is lost", async () => {
    const token = await issuer.sign({ sub: "alice", aud: audience });
    const onA = await connectAgent({ mcpUrl: `${replicas[0]!.url}/mcp` }, token, "racer-a");
    const onB = await connectAgent({ mcpUrl: `${replicas[1]!.url}/mcp` }, token, "racer-b");
    const created = await onA.call("create_course", { title: "Race" });
    let version = Number(created.version);
    for (let round = 0; round < 8; round++) {
      const results = (await Promise.all([
        onA.callRaw("update_course", { courseId: created.id, expectedVersion: version, title: `A${round}` }),
        onB.callRaw("update_course", { courseId: created.id, expectedVersion: version, title: `B${round}` }),
      ])) as CallToolResult[];
      const winners = results.filter((result) => !result.isError);
      const losers = results.filter((result) => result.isError);
      expect(winners).toHaveLength(1);
      expect(JSON.stringify(losers[0]!.structuredContent ?? losers[0]!.content)).toContain("conflict");
      version++;
    }
    // Without expectedVersion both writes apply: two lessons added at once, both present.
    const module = (await onA.call("add_module", { courseId: created.id, title: "Module" })) as Json;
    const moduleId = String((module.module as Json | undefined)?.id ?? module.id);
    await Promise.all([
      onA.call("add_lesson", { courseId: created.id, moduleId, title: "From A" }),
      onB.call("add_lesson", { courseId: created.id, moduleId, title: "From B" }),
    ]);
    const course = await onA.call("get_course", { courseId: created.id });
    const titles = ((course.modules as Json[])[0]!.lessons as Json[]).map((lesson) => lesson.title).sort();
    expect(titles).toEqual(["From A", "From B"]);
    expect(course.version).toBe(version + 3);
    await onA.close();
    await onB.close();
  });

  test("a replica killed with SIGKILL mid-session loses no acknowledged write and the session goes on", async () => {
    const created = await alice.call("create_course", { title: "Durable" });
    const session = sessionIdOf(alice);
    let version = Number(created.version);
    for (let i = 0; i < 3; i++) version = Number((await alice.call("update_course", { courseId: created.id, expectedVersion: version, title: `Before ${i}` })).version);
    replicas[1]!.process.kill("SIGKILL");
    expect(await replicas[1]!.exited).not.toBe(0);
    for (let i = 0; i < 4; i++) version = Number((await callWithRetry(alice, "update_course", { courseId: created.id, title: `After ${i}` })).version);
    const course = await alice.call("get_course", { courseId: created.id });
    expect(course.title).toBe("After 3");
    expect(course.version).toBe(version);
    expect(sessionIdOf(alice)).toBe(session);
    const history = (await alice.call("list_revisions", { courseId: created.id })).revisions as Json[];
    expect(history.map((revision) => revision.version)).toEqual([8, 7, 6, 5, 4, 3, 2, 1].filter((v) => v <= version));
  });

  test("after a full restart of every replica the data and the client's session are still there", async () => {
    const created = await alice.call("create_course", { title: "Survives restart" });
    for (const replica of replicas) replica.process.kill("SIGTERM");
    await Promise.all(replicas.map((replica) => replica.exited));
    replicas = await startThree();
    proxy.backends.splice(0, proxy.backends.length, ...replicas.map((replica) => replica.url));
    const course = await alice.call("get_course", { courseId: created.id });
    expect(course.title).toBe("Survives restart");
  }, 90_000);

  test("in PostgreSQL mode the replicas write nothing to local disk", () => {
    expect(readdirSync(workDir)).toEqual([]);
  });
});
