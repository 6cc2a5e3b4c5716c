/**
 * Tasks for 2026-07-28 clients (the `io.modelcontextprotocol/tasks` extension) on three replicas of one
 * PostgreSQL database, each reached directly, so every step lands where the test says: a task started on
 * one replica is polled on another and cancelled on a third, on the same records the 2025 tasks use.
 * A running import is held by a PostgreSQL lock it must wait for (seen in pg_stat_activity), not by timing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { SQL } from "bun";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { createTestDatabase, type TestDatabase } from "./support/postgres.ts";
import { emptyWorkingDirectory, startReplica, type Replica } from "./support/replicas.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { modernRequest } from "./support/modern-client.ts";
import { waitUntil } from "./support/wait.ts";

type Json = Record<string, any>;
const tasksExtension = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const markdown = (title: string) => `# ${title}\n\nAbout it.\n\n## First module\n\n### First lesson\n\nSome text.\n`;

const audience = "https://courses.test/mcp";
let issuer: TestIssuer;
let database: TestDatabase;
let workDir: string;
let replicas: Replica[] = [];
let sql: SQL;
let aliceToken: string;
let malloryToken: string;
let legacy: Agent;

beforeAll(async () => {
  issuer = await startTestIssuer({ audience });
  database = await createTestDatabase({ migrated: false });
  workDir = emptyWorkingDirectory();
  const env = { DATABASE_URL: database.url, AUTH_URL: issuer.url, AUTH_AUDIENCE: audience, BASE_URL: "http://127.0.0.1:1" };
  replicas = await Promise.all([0, 1, 2].map(() => startReplica(env, workDir)));
  aliceToken = await issuer.sign({ sub: "alice", aud: audience });
  malloryToken = await issuer.sign({ sub: "mallory", aud: audience });
  legacy = await connectAgent({ mcpUrl: `${replicas[0]!.url}/mcp?toolsets=all` }, aliceToken, "alice-2025");
  sql = new SQL(database.url, { max: 2 });
}, 90_000);

afterAll(async () => {
  await legacy?.close().catch(() => undefined);
  await sql?.close();
  for (const replica of replicas) replica.process.kill("SIGKILL");
  await Promise.all(replicas.map((replica) => replica.exited));
  await issuer?.stop();
  await database?.drop();
  rmSync(workDir, { recursive: true, force: true });
});

/** One raw 2026-07-28 request to replica `at`; `capabilities` are the client capabilities its _meta declares. */
async function rpc(at: number, method: string, params: Json, options: { capabilities?: Json; token?: string } = {}): Promise<{ status: number; body: Json }> {
  const request = modernRequest(method, { ...params, _meta: { "io.modelcontextprotocol/clientCapabilities": options.capabilities ?? tasksExtension } });
  const response = await fetch(`${replicas[at]!.url}/mcp?toolsets=all`, {
    method: "POST",
    headers: { ...request.headers, Authorization: `Bearer ${options.token ?? aliceToken}` },
    body: JSON.stringify(request.body),
  });
  const text = await response.text();
  const json = text.startsWith("{") ? text : text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).pop()!;
  return { status: response.status, body: JSON.parse(json) as Json };
}

async function settled(at: number, taskId: string): Promise<Json> {
  let last: Json = {};
  await waitUntil(async () => {
    last = (await rpc(at, "tasks/get", { taskId })).body.result;
    return last.status !== "working";
  }, `task ${taskId} to end`);
  return last;
}

async function coursesTitled(title: string): Promise<number> {
  const [row] = (await sql.unsafe("SELECT count(*)::int AS courses FROM courses WHERE title = $1", [title])) as { courses: number }[];
  return row!.courses;
}

describe("the tasks extension across replicas", () => {
  test("a client that declares the extension gets a task; it is polled on another replica and inlines the plain call's result", async () => {
    const course = await legacy.call("create_course", { title: "Modern task export", modules: [{ title: "Module", lessons: [{ title: "Lesson" }] }] });
    const started = await rpc(0, "tools/call", { name: "export_course", arguments: { courseId: course.id, format: "json" } });
    expect(started.status).toBe(200);
    const task = started.body.result;
    expect(task).toMatchObject({ resultType: "task", status: "working", ttlMs: 60 * 60_000, pollIntervalMs: 1000 });
    expect(task.ttl).toBeUndefined();
    expect(task.task).toBeUndefined();
    const done = await settled(1, task.taskId);
    expect(done).toMatchObject({ resultType: "complete", taskId: task.taskId, status: "completed", createdAt: task.createdAt });
    expect(done.result.structuredContent.format).toBe("json");
    expect(done.result._meta?.["io.modelcontextprotocol/related-task"]).toBeUndefined();
    // The 2025 session sees the same record.
    const old = (await legacy.client.request({ method: "tasks/get", params: { taskId: task.taskId } } as never, (await import("@modelcontextprotocol/sdk/types.js")).GetTaskResultSchema)) as Json;
    expect(old.status).toBe("completed");
  });

  test("without the extension the same call answers plainly", async () => {
    const course = await legacy.call("create_course", { title: "Plain export" });
    const { body } = await rpc(2, "tools/call", { name: "export_course", arguments: { courseId: course.id, format: "json" } }, { capabilities: {} });
    expect(body.result.resultType).toBe("complete");
    expect(body.result.taskId).toBeUndefined();
    expect(body.result.structuredContent.format).toBe("json");
  });

  test("a tool error is completed with result.isError", async () => {
    const { body } = await rpc(1, "tools/call", { name: "import_course", arguments: { format: "json", content: "{ not json" } });
    const done = await settled(2, body.result.taskId);
    expect(done.status).toBe("completed");
    expect(done.result.isError).toBe(true);
  });

  test("tasks/get, tasks/update and tasks/cancel refuse a request that did not declare the extension (-32021, 400)", async () => {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const { status, body } = await rpc(0, method, { taskId: "anything", ...(method === "tasks/update" ? { inputResponses: {} } : {}) }, { capabilities: {} });
      expect(status).toBe(400);
      expect(body.error.code).toBe(-32021);
    }
  });

  test("this era has no tasks/list or tasks/result", async () => {
    for (const method of ["tasks/list", "tasks/result"]) {
      const { body } = await rpc(0, method, method === "tasks/result" ? { taskId: "anything" } : {});
      expect(body.error.code).toBe(-32601);
    }
  });

  test("an unknown task, or another user's, is -32602 alike", async () => {
    const { body } = await rpc(0, "tools/call", { name: "import_course", arguments: { content: markdown("Alice's import") } });
    const taskId = body.result.taskId as string;
    for (const method of ["tasks/get", "tasks/cancel", "tasks/update"]) {
      const theirs = await rpc(1, method, { taskId, ...(method === "tasks/update" ? { inputResponses: {} } : {}) }, { token: malloryToken });
      const missing = await rpc(1, method, { taskId: "no-such-task", ...(method === "tasks/update" ? { inputResponses: {} } : {}) }, { token: malloryToken });
      expect(theirs.body.error.code).toBe(-32602);
      expect(missing.body.error.code).toBe(-32602);
      expect(theirs.body.error.data.code).toBe(missing.body.error.data.code);
    }
    expect((await settled(2, taskId)).status).toBe("completed");
  });

  test("a running import started on one replica is cancelled on another: an empty ack, cancelled everywhere, nothing written", async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holding = sql.begin(async (tx) => {
      await tx.unsafe("LOCK TABLE courses IN EXCLUSIVE MODE");
      locked();
      await released;
    });
    await lockTaken;
    const { body } = await rpc(0, "tools/call", { name: "import_course", arguments: { content: markdown("Cancelled modern import") } });
    const taskId = body.result.taskId as string;
    try {
      await waitUntil(async () => {
        const [row] = (await sql.unsafe("SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")) as { waiting: number }[];
        return row!.waiting > 0;
      }, "the import to wait for the courses lock");
      expect((await rpc(1, "tasks/get", { taskId })).body.result.status).toBe("working");
      const ack = (await rpc(2, "tasks/cancel", { taskId })).body.result;
      expect(ack.resultType).toBe("complete");
      expect(ack.taskId).toBeUndefined();
      expect(ack.status).toBeUndefined();
      expect((await rpc(1, "tasks/get", { taskId })).body.result.status).toBe("cancelled");
    } finally {
      release();
      await holding;
    }
    expect((await settled(0, taskId)).status).toBe("cancelled");
    expect(await coursesTitled("Cancelled modern import")).toBe(0);
    // Cancelling again is the same ack.
    expect((await rpc(1, "tasks/cancel", { taskId })).body.result.resultType).toBe("complete");
  });
});
