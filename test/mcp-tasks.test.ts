/**
 * MCP tasks (specification 2025-11-25) through the official SDK client: three replicas on one
 * PostgreSQL database behind a round-robin proxy (a task started on one replica is polled, fetched and
 * cancelled on the others; isolation between users; a cancel that keeps the running import from
 * writing anything), then the same basics on the single-process SQLite service.
 *
 * A running task is held deterministically, not by timing: the test takes a PostgreSQL lock that the
 * import's INSERT must wait for, sees it waiting in pg_stat_activity, cancels it (or stops or kills
 * its replica), and only then lets it go on. The last two tests stop replicas.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServiceWithCuttableDatabase, type ServiceWithCuttableDatabase } from "./support/database-outage.ts";
import { rmSync } from "node:fs";
import { SQL } from "bun";
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  McpError,
  RELATED_TASK_META_KEY,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { createTestDatabase, type TestDatabase } from "./support/postgres.ts";
import { emptyWorkingDirectory, startReplica, startRoundRobinProxy, type Replica, type RoundRobinProxy } from "./support/replicas.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { readExport } from "./support/transfer.ts";
import { startTestService, type TestService } from "./support/service.ts";
import type { TcpRelay } from "./support/tcp-proxy.ts";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { devAccessToken } from "./support/dev-login.ts";
import { waitUntil } from "./support/wait.ts";

type Json = Record<string, unknown>;

const taskTools = ["connect_lrs", "duplicate_course", "export_course", "export_translation", "import_course", "import_translation"];

/** The tasks API of one agent, as raw requests checked against the SDK's result schemas. */
function tasksOf(agent: Agent) {
  return {
    start: async (name: string, args: Json, task: { ttl?: number } = {}) =>
      (await agent.client.request({ method: "tools/call", params: { name, arguments: args, task } }, CreateTaskResultSchema)).task,
    get: (taskId: string) => agent.client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultSchema),
    result: (taskId: string) => agent.client.request({ method: "tasks/result", params: { taskId } }, CallToolResultSchema, { timeout: 120_000 }) as Promise<CallToolResult>,
    list: (cursor?: string) => agent.client.request({ method: "tasks/list", params: cursor === undefined ? {} : { cursor } }, ListTasksResultSchema),
    cancel: (taskId: string) => agent.client.request({ method: "tasks/cancel", params: { taskId } }, CancelTaskResultSchema),
  };
}

/** The JSON-RPC error a request answered; fails the test if it succeeded. */
async function rpcError(request: Promise<unknown>): Promise<McpError> {
  const outcome = await request.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected a JSON-RPC error, got ${JSON.stringify(outcome.value).slice(0, 300)}`);
  if (!(outcome.error instanceof McpError)) throw outcome.error;
  return outcome.error;
}

/** Every task ID the caller's tasks/list shows, following nextCursor. */
async function listedIds(agent: Agent): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await tasksOf(agent).list(cursor);
    ids.push(...page.tasks.map((task) => task.taskId));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return ids;
}

/** An export result without what differs between two exports of the same course version. */
function withoutExportIdentity(result: CallToolResult): Json {
  const { exportId: _id, uri: _uri, expiresAt: _expires, ...rest } = result.structuredContent as Json;
  return { ...rest, isError: result.isError ?? false, contentTypes: result.content.map((item) => item.type) };
}

async function courseWithLesson(agent: Agent, title: string): Promise<string> {
  const created = await agent.call("create_course", { title, modules: [{ title: "Module", lessons: [{ title: "Lesson" }] }] });
  return String(created.id);
}

const markdown = (title: string) => `# ${title}\n\nAbout it.\n\n## First module\n\n### First lesson\n\nSome text.\n`;

describe("tasks across three replicas on one PostgreSQL", () => {
  const audience = "https://courses.test/mcp";
  let issuer: TestIssuer;
  let database: TestDatabase;
  let workDir: string;
  let replicas: Replica[] = [];
  let proxy: RoundRobinProxy;
  /** Alice connected to each replica directly (three sessions of one user), and through the proxy. */
  let onReplica: Agent[] = [];
  let alice: Agent;
  let mallory: Agent;
  let sql: SQL;

  beforeAll(async () => {
    issuer = await startTestIssuer({ audience });
    database = await createTestDatabase({ migrated: false });
    workDir = emptyWorkingDirectory();
    proxy = startRoundRobinProxy([]);
    const env = { DATABASE_URL: database.url, AUTH_URL: issuer.url, AUTH_AUDIENCE: audience, BASE_URL: proxy.url };
    replicas = await Promise.all([0, 1, 2].map(() => startReplica(env, workDir)));
    proxy.backends.push(...replicas.map((replica) => replica.url));
    const aliceToken = await issuer.sign({ sub: "alice", aud: audience });
    onReplica = await Promise.all(replicas.map((replica, index) => connectAgent({ mcpUrl: `${replica.url}/mcp?toolsets=all` }, aliceToken, `alice-${index}`)));
    alice = await connectAgent({ mcpUrl: `${proxy.url}/mcp?toolsets=all` }, aliceToken, "alice-proxied");
    mallory = await connectAgent({ mcpUrl: `${proxy.url}/mcp?toolsets=all` }, await issuer.sign({ sub: "mallory", aud: audience }), "mallory");
    sql = new SQL(database.url, { max: 2 });
  }, 90_000);

  afterAll(async () => {
    for (const agent of [...onReplica, alice, mallory]) await agent?.close().catch(() => undefined);
    await sql?.close();
    for (const replica of replicas) replica.process.kill("SIGKILL");
    await Promise.all(replicas.map((replica) => replica.exited));
    await proxy?.stop();
    await issuer?.stop();
    await database?.drop();
    rmSync(workDir, { recursive: true, force: true });
  });

  test("the server declares tasks and lists exactly the long tools as optional tasks", async () => {
    expect(alice.client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await alice.client.listTools();
    const optional = tools.filter((tool) => tool.execution !== undefined);
    expect(optional.map((tool) => tool.name).sort()).toEqual(taskTools);
    for (const tool of optional) expect(tool.execution).toEqual({ taskSupport: "optional" });
  });

  test("an export started on one replica is polled on another and fetched on a third; its result is a plain call's", async () => {
    const courseId = await courseWithLesson(onReplica[0]!, "Task export");
    const task = await tasksOf(onReplica[0]!).start("export_course", { courseId, format: "json" });
    expect(task.status).toBe("working");
    expect(task.ttl).toBe(60 * 60_000);
    expect(task.pollInterval).toBe(1000);
    const result = await tasksOf(onReplica[2]!).result(task.taskId);
    expect(result._meta?.[RELATED_TASK_META_KEY]).toEqual({ taskId: task.taskId });
    const polled = await tasksOf(onReplica[1]!).get(task.taskId);
    expect(polled).toMatchObject({ taskId: task.taskId, status: "completed", createdAt: task.createdAt, ttl: task.ttl });
    expect(polled._meta?.[RELATED_TASK_META_KEY]).toBeUndefined();

    const plain = await onReplica[1]!.callRaw("export_course", { courseId, format: "json" });
    expect(withoutExportIdentity(result)).toEqual(withoutExportIdentity(plain));
    // The task's package link is readable through any replica, and holds the course.
    const exported = result.structuredContent as { uri: string; size: number };
    const read = await readExport(onReplica[1]!, exported.uri);
    expect(read.bytes.byteLength).toBe(exported.size);
    expect(new TextDecoder().decode(read.bytes)).toContain("Task export");
  });

  test("a duplicate run as a task makes the same copy a plain call makes, readable on every replica", async () => {
    const courseId = await courseWithLesson(alice, "Original");
    const task = await tasksOf(onReplica[1]!).start("duplicate_course", { courseId, title: "Copy by task" });
    const result = await tasksOf(onReplica[0]!).result(task.taskId);
    expect(result.isError).toBeUndefined();
    const copy = result.structuredContent as { id: string; title: string; modules: Json[] };
    expect(copy.title).toBe("Copy by task");
    const plain = (await alice.call("duplicate_course", { courseId, title: "Copy by call" })) as { modules: Json[] };
    expect(copy.modules.length).toBe(plain.modules.length);
    for (const agent of onReplica) expect((await agent.call("get_course", { courseId: copy.id })).title).toBe("Copy by task");
    expect((await tasksOf(onReplica[2]!).get(task.taskId)).status).toBe("completed");
  });

  test("a tool error makes the task failed, and tasks/result answers exactly the plain call's error", async () => {
    const args = { format: "json", content: "{ this is not json" };
    const task = await tasksOf(alice).start("import_course", args);
    const result = await tasksOf(alice).result(task.taskId);
    const plain = await alice.callRaw("import_course", args);
    expect(plain.isError).toBe(true);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual(plain.content);
    const failed = await tasksOf(alice).get(task.taskId);
    expect(failed.status).toBe("failed");
    expect(failed.statusMessage).toContain("invalid_arguments");
  });

  test("tasks/list shows the caller's own tasks from every session and replica, and nobody else's", async () => {
    const courseId = await courseWithLesson(alice, "Listed");
    const started = [];
    for (const agent of onReplica) started.push(await tasksOf(agent).start("export_course", { courseId, format: "json" }));
    const mallorys = await tasksOf(mallory).start("import_course", { content: markdown("Mallory's") });
    await tasksOf(mallory).result(mallorys.taskId);
    const aliceSees = await listedIds(alice);
    for (const task of started) expect(aliceSees).toContain(task.taskId);
    expect(aliceSees).not.toContain(mallorys.taskId);
    const mallorySees = await listedIds(mallory);
    expect(mallorySees).toEqual([mallorys.taskId]);
    for (const task of started) await tasksOf(alice).result(task.taskId);
    // Newest first.
    const listed = (await tasksOf(onReplica[2]!).list()).tasks;
    const times = listed.map((task) => task.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect((await rpcError(tasksOf(alice).list("not-a-cursor"))).code).toBe(-32602);
  });

  test("another user's task ID is not_found for get, result and cancel, like an ID that never existed, and leaves the task alone", async () => {
    const courseId = await courseWithLesson(alice, "Private");
    const task = await tasksOf(alice).start("export_course", { courseId, format: "json" });
    const unknown = crypto.randomUUID();
    for (const [name, request] of [
      ["get", (id: string) => tasksOf(mallory).get(id)],
      ["result", (id: string) => tasksOf(mallory).result(id)],
      ["cancel", (id: string) => tasksOf(mallory).cancel(id)],
    ] as const) {
      const theirs = await rpcError(request(task.taskId));
      const none = await rpcError(request(unknown));
      expect({ name, code: theirs.code, data: theirs.data }).toEqual({ name, code: -32602, data: { code: "not_found", taskId: task.taskId } });
      expect(theirs.message.replace(task.taskId, "ID")).toBe(none.message.replace(unknown, "ID"));
    }
    const result = await tasksOf(alice).result(task.taskId);
    expect(result.isError).toBeUndefined();
    expect((await tasksOf(alice).get(task.taskId)).status).toBe("completed");
  });

  test("cancelling a running import on another replica stops it: cancelled everywhere, no course written", async () => {
    const held = await importHeldAtLock(onReplica[0]!, "Cancelled import");
    const { task } = held;
    try {
      expect((await tasksOf(onReplica[1]!).get(task.taskId)).status).toBe("working");
      const cancelled = await tasksOf(onReplica[1]!).cancel(task.taskId);
      expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled" });
      expect((await tasksOf(onReplica[2]!).get(task.taskId)).status).toBe("cancelled");
    } finally {
      await held.finish();
    }
    expect(await coursesTitled("Cancelled import")).toBe(0);
    expect((await tasksOf(onReplica[0]!).get(task.taskId)).status).toBe("cancelled");
    const noResult = await rpcError(tasksOf(onReplica[2]!).result(task.taskId));
    expect(noResult.data).toEqual({ code: "invalid_state", taskId: task.taskId, status: "cancelled" });
    const again = await rpcError(tasksOf(onReplica[0]!).cancel(task.taskId));
    expect(again.code).toBe(-32602);
    expect(again.message).toContain("already finished (cancelled)");
    // The replica that ran it still works, and the same import as a plain call writes its course.
    const imported = await onReplica[0]!.call("import_course", { content: markdown("Imported plainly") });
    expect((imported.course as Json).title).toBe("Imported plainly");
  });

  test("cancelling on the replica that runs the task stops it there; another user's cancel there stops nothing", async () => {
    const held = await importHeldAtLock(onReplica[0]!, "Cancelled here");
    const { task } = held;
    const malloryHere = await connectAgent({ mcpUrl: `${replicas[0]!.url}/mcp` }, await issuer.sign({ sub: "mallory", aud: audience }), "mallory-here");
    try {
      const refused = await rpcError(tasksOf(malloryHere).cancel(task.taskId));
      expect(refused.data).toEqual({ code: "not_found", taskId: task.taskId });
      expect((await tasksOf(onReplica[0]!).get(task.taskId)).status).toBe("working");
      expect((await tasksOf(onReplica[0]!).cancel(task.taskId)).status).toBe("cancelled");
    } finally {
      await malloryHere.close();
      await held.finish();
    }
    expect(await coursesTitled("Cancelled here")).toBe(0);
    expect((await tasksOf(onReplica[1]!).get(task.taskId)).status).toBe("cancelled");
  });

  test("cancelling a finished task is an error that says it has finished", async () => {
    const task = await tasksOf(alice).start("import_course", { content: markdown("Finished") });
    expect((await tasksOf(alice).result(task.taskId)).isError).toBeUndefined();
    const error = await rpcError(tasksOf(onReplica[1]!).cancel(task.taskId));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(`task ${task.taskId} has already finished (completed)`);
    expect(error.data).toEqual({ code: "invalid_state", taskId: task.taskId, status: "completed" });
    expect((await tasksOf(alice).get(task.taskId)).status).toBe("completed");
  });

  test("a task on a tool that does not take tasks is -32601; plain calls are unchanged", async () => {
    const error = await rpcError(tasksOf(alice).start("create_course", { title: "Not a task" }));
    expect(error.code).toBe(-32601);
    expect(error.message).toContain("export_course");
    const created = await alice.call("create_course", { title: "Plain" });
    expect(created.title).toBe("Plain");
    const courseId = await courseWithLesson(alice, "Plain export");
    const exported = await alice.callRaw("export_course", { courseId, format: "json" });
    expect(exported.content.map((item) => item.type)).toEqual(["text", "resource_link"]);
  });

  /** Holds the courses table so an import waits at its first INSERT; resolves once the import waits. */
  async function importHeldAtLock(agent: Agent, title: string) {
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
    const task = await tasksOf(agent).start("import_course", { content: markdown(title) });
    await waitUntil(async () => {
      const [row] = (await sql.unsafe("SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")) as { waiting: number }[];
      return row!.waiting > 0;
    }, `the import of "${title}" to wait for the courses lock`);
    return {
      task,
      /** Lets the import go on, then waits until no transaction holds the table (the import's has ended). */
      async finish() {
        release();
        await holding;
        await sql.begin((tx) => tx.unsafe("LOCK TABLE courses IN EXCLUSIVE MODE"));
      },
    };
  }

  async function coursesTitled(title: string): Promise<number> {
    const [row] = (await sql.unsafe("SELECT count(*)::int AS courses FROM courses WHERE title = $1", [title])) as { courses: number }[];
    return row!.courses;
  }

  test("at most 10 tasks of one user work at once, on all replicas together; the 11th is refused saying so", async () => {
    const held = await importHeldAtLock(alice, "Busy 0");
    const started = [held.task];
    try {
      // Round-robin spreads them over the replicas; none can finish while the lock is held.
      for (let i = 1; i < 10; i++) started.push(await tasksOf(alice).start("import_course", { content: markdown(`Busy ${i}`) }));
      const refused = await rpcError(tasksOf(alice).start("import_course", { content: markdown("One too many") }));
      expect(refused.code).toBe(-32600);
      expect(refused.data).toEqual({ code: "limit_exceeded", limit: 10, current: 10 });
      // Another user is not held back by alice's tasks.
      const theirs = await tasksOf(mallory).start("import_course", { content: markdown("Mallory is free") });
      expect(theirs.status).toBe("working");
      for (const task of started) expect((await tasksOf(alice).cancel(task.taskId)).status).toBe("cancelled");
      expect((await tasksOf(mallory).cancel(theirs.taskId)).status).toBe("cancelled");
    } finally {
      await held.finish();
    }
    for (let i = 0; i < 10; i++) expect(await coursesTitled(`Busy ${i}`)).toBe(0);
    expect(await coursesTitled("Mallory is free")).toBe(0);
  });

  test("a replica stopping (SIGTERM) marks its running task failed, and the task writes nothing", async () => {
    const held = await importHeldAtLock(onReplica[2]!, "Stopped import");
    try {
      replicas[2]!.process.kill("SIGTERM");
      expect(await replicas[2]!.exited).toBe(0);
      const stopped = await tasksOf(onReplica[0]!).get(held.task.taskId);
      expect(stopped.status).toBe("failed");
      expect(stopped.statusMessage).toContain("the service stopped before the task finished");
      const result = await tasksOf(onReplica[0]!).result(held.task.taskId);
      expect(result.isError).toBe(true);
    } finally {
      await held.finish();
    }
    expect(await coursesTitled("Stopped import")).toBe(0);
  }, 60_000);

  test("a replica killed mid-task: once its beats stop, its task is answered failed instead of working forever", async () => {
    const held = await importHeldAtLock(onReplica[1]!, "Killed import");
    try {
      replicas[1]!.process.kill("SIGKILL");
      await replicas[1]!.exited;
      let task = await tasksOf(onReplica[0]!).get(held.task.taskId);
      expect(task.status).toBe("working");
      // The replica beat when it started the task; 30 s after that beat the task counts as lost.
      await waitUntil(async () => {
        task = await tasksOf(onReplica[0]!).get(held.task.taskId);
        return task.status !== "working";
      }, "the killed replica's task to be answered as lost");
      expect(task.status).toBe("failed");
      expect(task.statusMessage).toContain("the replica running the task stopped");
      expect((await tasksOf(onReplica[0]!).result(held.task.taskId)).isError).toBe(true);
    } finally {
      await held.finish();
    }
    expect(await coursesTitled("Killed import")).toBe(0);
  }, 120_000);
});

describe("tasks on the single-process SQLite service", () => {
  let service: TestService;
  let alice: Agent;
  let mallory: Agent;

  beforeAll(async () => {
    service = await startTestService();
    alice = await connectAgent({ mcpUrl: `${service.mcpUrl}?toolsets=all` }, await devAccessToken(service, "alice"), "alice");
    mallory = await connectAgent({ mcpUrl: service.mcpUrl }, await devAccessToken(service, "mallory"), "mallory");
  }, 60_000);

  afterAll(async () => {
    await alice?.close().catch(() => undefined);
    await mallory?.close().catch(() => undefined);
    await service?.dispose();
  });

  test("an export task answers at once, then polls to completed with the plain call's result", async () => {
    const courseId = await courseWithLesson(alice, "SQLite export");
    const task = await tasksOf(alice).start("export_course", { courseId, format: "scorm12" });
    expect(task.status).toBe("working");
    const result = await tasksOf(alice).result(task.taskId);
    const plain = await alice.callRaw("export_course", { courseId, format: "scorm12" });
    // A zip's compressed size varies with the time stamps inside; everything else is the same.
    const { size: _taskSize, ...fromTask } = withoutExportIdentity(result);
    const { size: _plainSize, ...fromCall } = withoutExportIdentity(plain);
    expect(fromTask).toEqual(fromCall);
    expect((await tasksOf(alice).get(task.taskId)).status).toBe("completed");
    const read = await readExport(alice, String((result.structuredContent as Json).uri));
    expect(read.bytes.byteLength).toBe(Number((result.structuredContent as Json).size));
  });

  test("the SDK's experimental tasks client runs an optional task tool as a task and gets the result", async () => {
    const courseId = await courseWithLesson(alice, "Streamed");
    const kinds: string[] = [];
    let final: CallToolResult | undefined;
    for await (const message of alice.client.experimental.tasks.callToolStream({ name: "export_course", arguments: { courseId, format: "json" } })) {
      kinds.push(message.type);
      if (message.type === "result") final = message.result as CallToolResult;
      if (message.type === "error") throw message.error;
    }
    expect(kinds[0]).toBe("taskCreated");
    expect(kinds.at(-1)).toBe("result");
    expect((final!.structuredContent as Json).courseId).toBe(courseId);
    expect(final!._meta?.[RELATED_TASK_META_KEY]).toBeDefined();
  });

  test("the requested ttl is clamped to one minute … one day", async () => {
    const args = { content: markdown("Short lived") };
    expect((await tasksOf(alice).start("import_course", args, { ttl: 1 })).ttl).toBe(60_000);
    expect((await tasksOf(alice).start("import_course", args, { ttl: 10 ** 12 })).ttl).toBe(24 * 60 * 60_000);
    expect((await tasksOf(alice).start("import_course", args, { ttl: 5 * 60_000 })).ttl).toBe(5 * 60_000);
  });

  test("tasks/list pages through the caller's own tasks only", async () => {
    const mine = new Set<string>();
    // Tasks that fail at once (a course that does not exist) cost nothing to make many of.
    for (let i = 0; i < 60; i++) {
      const task = await tasksOf(mallory).start("duplicate_course", { courseId: "crs_doesnotexist" });
      mine.add(task.taskId);
      await tasksOf(mallory).result(task.taskId);
    }
    const first = await tasksOf(mallory).list();
    expect(first.tasks).toHaveLength(50);
    expect(first.nextCursor).toBeString();
    const listed = await listedIds(mallory);
    expect(new Set(listed)).toEqual(mine);
    expect(listed).toHaveLength(60);
    for (const taskId of await listedIds(alice)) expect(mine.has(taskId)).toBe(false);
    const failed = await tasksOf(mallory).get([...mine][0]!);
    expect(failed.status).toBe("failed");
    expect(failed.statusMessage).toContain("not_found");
  });

  test("another user's task is not_found everywhere; a finished one cannot be cancelled", async () => {
    const task = await tasksOf(alice).start("import_course", { content: markdown("Alice's import") });
    await tasksOf(alice).result(task.taskId);
    for (const request of [tasksOf(mallory).get(task.taskId), tasksOf(mallory).result(task.taskId), tasksOf(mallory).cancel(task.taskId)]) {
      const error = await rpcError(request);
      expect(error.code).toBe(-32602);
      expect(error.data).toEqual({ code: "not_found", taskId: task.taskId });
    }
    const error = await rpcError(tasksOf(alice).cancel(task.taskId));
    expect(error.message).toContain("already finished (completed)");
    const result = await tasksOf(alice).result(task.taskId);
    expect(((result.structuredContent as Json).course as Json).title).toBe("Alice's import");
  });
});

describe("tasks on a stateless service (MCP_STATELESS=true)", () => {
  let service: TestService;
  let alice: Agent;

  beforeAll(async () => {
    service = await startTestService({ MCP_STATELESS: "true" });
    alice = await connectAgent(service, await devAccessToken(service, "alice"), "alice");
  }, 60_000);

  afterAll(async () => {
    await alice?.close().catch(() => undefined);
    await service?.dispose();
  });

  test("a task outlives the request that started it: polled, fetched and listed by later requests", async () => {
    const task = await tasksOf(alice).start("import_course", { content: markdown("Stateless import") });
    const result = await tasksOf(alice).result(task.taskId);
    expect(((result.structuredContent as Json).course as Json).title).toBe("Stateless import");
    expect((await tasksOf(alice).get(task.taskId)).status).toBe("completed");
    expect((await listedIds(alice))).toContain(task.taskId);
  });
});

describe("tasks during a database outage", () => {
  let outage: ServiceWithCuttableDatabase;
  let relay: TcpRelay;
  let service: TestService;
  let agent: Agent;

  beforeAll(async () => {
    outage = await startServiceWithCuttableDatabase();
    ({ relay, service } = outage);
    agent = await connectAgent(service, await outage.issuer.sign({ sub: "alice" }));
  }, 60_000);

  afterAll(async () => {
    await agent?.close().catch(() => undefined);
    await outage?.stop();
  });

  test("tasks/* meeting the outage say retry shortly, then the service answers 503; the task is there once it recovers", async () => {
    const task = await tasksOf(agent).start("import_course", { content: markdown("Before the outage") });
    await tasksOf(agent).result(task.taskId);
    await relay.cut();
    const during = await tasksOf(agent).get(task.taskId).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (during instanceof McpError) {
      expect(during.message).toContain("temporarily unavailable");
      expect(during.data).toMatchObject({ retryable: true, retryAfterSeconds: 5 });
    } else {
      expect(String(during)).toContain("503");
    }
    const raw = await fetch(service.mcpUrl, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${await outage.issuer.sign({ sub: "alice" })}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Mcp-Session-Id": (agent.client.transport as StreamableHTTPClientTransport).sessionId!,
        "Mcp-Protocol-Version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: task.taskId } }),
    });
    expect(raw.status).toBe(503);
    expect(raw.headers.get("retry-after")).toBe("5");

    await relay.restore();
    let status: string | undefined;
    await waitUntil(async () => {
      status = (await tasksOf(agent).get(task.taskId).catch(() => undefined))?.status;
      return status !== undefined;
    }, "the service to answer tasks/get again once the database is back");
    expect(status).toBe("completed");
  }, 90_000);
});

/** Polls `condition` (an observable state, such as a row in pg_stat_activity) until it holds, or fails naming it. */
