/**
 * The confirmations' sealed requestState on two replicas of one PostgreSQL database: the key is a random
 * secret the first replica stored there (not derived from any setting), so a state one replica sealed is
 * accepted by the other; a state sealed with another key, or expired, is refused and nothing is deleted.
 * The test seals its own states with the SDK's codec (the stored key, and a key of its own) to prove both.
 * A 2025 session client (the official SDK v1) behind a round-robin proxy with no sticky routing answers
 * delete_course's elicitation, asked through the legacy shim: its answer often reaches the other replica,
 * which relays it to the one waiting (issue 39, item 8), so every call completes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { SQL } from "bun";
import { createRequestStateCodec } from "@modelcontextprotocol/server";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { createTestDatabase, type TestDatabase } from "./support/postgres.ts";
import { emptyWorkingDirectory, startReplica, startRoundRobinProxy, type Replica } from "./support/replicas.ts";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { modernRequest } from "./support/modern-client.ts";

type Json = Record<string, any>;
const audience = "https://courses.test/mcp";
const canElicit = { elicitation: { form: {} } };
const yes = { confirm: { action: "accept", content: { confirm: true } } };
let issuer: TestIssuer;
let database: TestDatabase;
let workDir: string;
let replicas: Replica[] = [];
let sql: SQL;
let aliceToken: string;

beforeAll(async () => {
  issuer = await startTestIssuer({ audience });
  database = await createTestDatabase({ migrated: false });
  workDir = emptyWorkingDirectory();
  const env = { DATABASE_URL: database.url, AUTH_URL: issuer.url, AUTH_AUDIENCE: audience, BASE_URL: "http://127.0.0.1:1" };
  // Started together: both insert a key if absent, and must end up with the one that was stored.
  replicas = await Promise.all([0, 1].map(() => startReplica(env, workDir)));
  aliceToken = await issuer.sign({ sub: "alice", aud: audience });
  sql = new SQL(database.url, { max: 2 });
}, 90_000);

afterAll(async () => {
  await sql?.close();
  for (const replica of replicas) replica.process.kill("SIGKILL");
  await Promise.all(replicas.map((replica) => replica.exited));
  await issuer?.stop();
  await database?.drop();
  rmSync(workDir, { recursive: true, force: true });
});

async function rpc(at: number, method: string, params: Json): Promise<Json> {
  const request = modernRequest(method, { ...params, _meta: { "io.modelcontextprotocol/clientCapabilities": canElicit } });
  const response = await fetch(`${replicas[at]!.url}/mcp`, {
    method: "POST",
    headers: { ...request.headers, Authorization: `Bearer ${aliceToken}` },
    body: JSON.stringify(request.body),
  });
  const text = await response.text();
  return JSON.parse(text.startsWith("{") ? text : text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).pop()!) as Json;
}

async function course(title: string): Promise<string> {
  const { result } = await rpc(0, "tools/call", { name: "create_course", arguments: { title } });
  return result.structuredContent.id as string;
}

async function courseCount(courseId: string): Promise<number> {
  const [row] = (await sql.unsafe("SELECT count(*)::int AS n FROM courses WHERE id = $1", [courseId])) as { n: number }[];
  return row!.n;
}

/** A state as the service seals one for alice's delete_course of `courseId`, with `key` and `ttlSeconds`. */
async function sealed(key: string, courseId: string, ttlSeconds: number): Promise<string> {
  const codec = createRequestStateCodec<Json>({ key, ttlSeconds, bind: () => "tools/call\0alice" });
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify({ courseId })));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return codec.mint({ sub: "alice", tool: "delete_course", arguments: hex, nonce: crypto.randomUUID() }, {} as never);
}

async function storedKey(): Promise<string> {
  const rows = (await sql.unsafe("SELECT secret FROM service_secrets WHERE name = 'mcp-request-state'")) as { secret: string }[];
  expect(rows).toHaveLength(1);
  return rows[0]!.secret;
}

describe("the requestState key shared through the database", () => {
  test("the key is random, stored once, and no setting derives it", async () => {
    const key = await storedKey();
    expect(key.length).toBeGreaterThanOrEqual(43);
    const derived = new Bun.CryptoHasher("sha256").update(`course-authoring mcp requestState\0${database.url}\0${audience}\0${issuer.url}`).digest("hex");
    expect(key).not.toBe(derived);
  });

  test("a state one replica sealed, another accepts", async () => {
    const courseId = await course("Asked on one, confirmed on the other");
    const asked = await rpc(0, "tools/call", { name: "delete_course", arguments: { courseId } });
    expect(asked.result.resultType).toBe("input_required");
    expect(await courseCount(courseId)).toBe(1);
    const confirmed = await rpc(1, "tools/call", { name: "delete_course", arguments: { courseId }, inputResponses: yes, requestState: asked.result.requestState });
    expect(confirmed.result.structuredContent).toEqual({ courseId, deleted: true });
    expect(await courseCount(courseId)).toBe(0);
  });

  test("a state sealed with the stored key is accepted: the test seals as the service does", async () => {
    const courseId = await course("Sealed by the test with the stored key");
    const state = await sealed(await storedKey(), courseId, 600);
    const confirmed = await rpc(1, "tools/call", { name: "delete_course", arguments: { courseId }, inputResponses: yes, requestState: state });
    expect(confirmed.result.structuredContent).toEqual({ courseId, deleted: true });
  });

  test("a state sealed with another key is refused, and nothing is deleted", async () => {
    const courseId = await course("Sealed with another key");
    const otherKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    for (const at of [0, 1]) {
      const refused = await rpc(at, "tools/call", { name: "delete_course", arguments: { courseId }, inputResponses: yes, requestState: await sealed(otherKey, courseId, 600) });
      expect(refused.error.code).toBe(-32602);
    }
    expect(await courseCount(courseId)).toBe(1);
  });

  test("an expired state is refused, and nothing is deleted", async () => {
    const courseId = await course("Sealed but expired");
    const refused = await rpc(0, "tools/call", { name: "delete_course", arguments: { courseId }, inputResponses: yes, requestState: await sealed(await storedKey(), courseId, -1) });
    expect(refused.error.code).toBe(-32602);
    expect(await courseCount(courseId)).toBe(1);
  });

  test("a yes acts once: the same state sent again is refused on the other replica, even for a call that could act again", async () => {
    const courseId = await course("Archived once");
    const args = { courseId, status: "archived" };
    const asked = await rpc(0, "tools/call", { name: "set_status", arguments: args });
    expect(asked.result.resultType).toBe("input_required");
    const params = { name: "set_status", arguments: args, inputResponses: yes, requestState: asked.result.requestState };
    expect((await rpc(0, "tools/call", params)).result.structuredContent.status).toBe("archived");
    // Back to draft by another way; the replayed yes must not archive it again.
    await sql.unsafe("UPDATE courses SET status = 'draft' WHERE id = $1", [courseId]);
    const replayed = await rpc(1, "tools/call", params);
    expect(replayed.result.isError).toBe(true);
    expect(replayed.result.content[0].text).toContain("already used");
    const [row] = (await sql.unsafe("SELECT status FROM courses WHERE id = $1", [courseId])) as { status: string }[];
    expect(row!.status).toBe("draft");
  });

  test("a state replayed after its delete was done does not act twice", async () => {
    const courseId = await course("Deleted once");
    const asked = await rpc(0, "tools/call", { name: "delete_course", arguments: { courseId } });
    const params = { name: "delete_course", arguments: { courseId }, inputResponses: yes, requestState: asked.result.requestState };
    expect((await rpc(0, "tools/call", params)).result.structuredContent).toEqual({ courseId, deleted: true });
    const replayed = await rpc(1, "tools/call", params);
    expect(replayed.result.isError).toBe(true);
    expect(replayed.result.structuredContent?.deleted).toBeUndefined();
    expect(await courseCount(courseId)).toBe(0);
  });
});

describe("a 2025 session's elicitation answered through a round-robin proxy", () => {
  test("the SDK v1 client's answer reaches whichever replica, and every delete_course it confirms completes", async () => {
    const proxy = startRoundRobinProxy(replicas.map((replica) => replica.url));
    /** For each POST the client sent: whether it carried an answer (a JSON-RPC response), and the replica that took it. */
    const posts: { answer: boolean; replica: number | undefined }[] = [];
    const recordingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const before = proxy.served.length;
      const response = await fetch(input, init);
      if (init?.method === "POST") {
        const body = JSON.parse(String(init.body)) as Json;
        const served = proxy.served.slice(before).find((entry) => entry.method === "POST");
        posts.push({ answer: !("method" in body), replica: served?.replica });
      }
      return response;
    };
    const client = new LegacyClient({ name: "eliciting-2025", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { confirm: true } };
    });
    await client.connect(new LegacyTransport(new URL(`${proxy.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${aliceToken}` } }, fetch: recordingFetch }));
    let crossed = false;
    try {
      for (let round = 0; round < 4; round++) {
        const courseId = await course(`Confirmed across replicas ${round}`);
        const postsBefore = posts.length;
        const result = (await client.callTool({ name: "delete_course", arguments: { courseId } }, undefined, { timeout: 20_000 })) as Json;
        expect(result.structuredContent).toEqual({ courseId, deleted: true });
        expect(await courseCount(courseId)).toBe(0);
        const call = posts.slice(postsBefore).find((post) => !post.answer);
        const answer = posts.slice(postsBefore).find((post) => post.answer);
        expect(answer).toBeDefined();
        crossed ||= call?.replica !== undefined && answer?.replica !== undefined && call.replica !== answer.replica;
      }
      expect(asked).toHaveLength(4);
      // Strict alternation sends at least one answer to the replica that did not ask.
      expect(crossed).toBe(true);
    } finally {
      await client.close();
      await proxy.stop();
    }
  }, 120_000);
});
