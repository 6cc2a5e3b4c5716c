/**
 * Operating on PostgreSQL: a bad DATABASE_URL stops start-up with one line naming it (never a silent
 * fall-back to SQLite, never the password); migrations run exactly once however many replicas race;
 * a database newer than the code refuses to start; an outage mid-operation is answered as temporarily
 * unavailable and the service recovers by itself when the database is back; metrics are served on
 * their own port.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServiceWithCuttableDatabase, type ServiceWithCuttableDatabase } from "./support/database-outage.ts";
import { SQL } from "bun";
import { join } from "node:path";
import { openAuthoringServices } from "../src/service.ts";
import { applyPostgresMigrations, postgresMigrations } from "../src/store/postgres/migrations.ts";
import { PostgresAuthoringStore } from "../src/store/postgres/store.ts";
import { createTestDatabase, testPostgresServer } from "./support/postgres.ts";
import { freePort, type TestService } from "./support/service.ts";
import type { TestIssuer } from "./support/test-issuer.ts";
import type { TcpRelay } from "./support/tcp-proxy.ts";
import { AgentToolError, connectAgent, type Agent } from "./support/mcp-client.ts";

const root = join(import.meta.dir, "..");

async function startWith(databaseUrl: string): Promise<{ code: number; lines: string[] }> {
  const child = Bun.spawn([process.execPath, join(root, "src", "main.ts")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "development", PORT: String(await freePort()), DATABASE_URL: databaseUrl, LOG_LEVEL: "info" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
  return { code, lines: stderr.split("\n").filter((line) => line.trim() !== "") };
}

describe("start-up against a bad DATABASE_URL", () => {
  test("an unreachable server stops start-up with one line naming DATABASE_URL", async () => {
    const result = await startWith(`postgres://postgres@127.0.0.1:${await freePort()}/postgres`);
    expect(result.code).toBe(1);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toContain("DATABASE_URL");
    expect(result.lines[0]).toContain("connection refused");
  }, 30_000);

  test("credentials the server rejects stop start-up with one line that never shows the password", async () => {
    const server = new URL(await testPostgresServer());
    const result = await startWith(`postgres://no_such_role_cas:s3cret-value@${server.host}/postgres`);
    expect(result.code).toBe(1);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toContain("DATABASE_URL");
    expect(result.lines[0]).not.toContain("s3cret-value");
  }, 30_000);
});

describe("migrations", () => {
  test("replicas migrating one empty database at once apply each migration exactly once", async () => {
    const database = await createTestDatabase({ migrated: false });
    const pools = Array.from({ length: 4 }, () => new SQL(database.url, { max: 1 }));
    try {
      const applied = await Promise.all(pools.map((pool) => applyPostgresMigrations(pool)));
      expect(applied.flat().sort((a, b) => a - b)).toEqual(postgresMigrations.map((migration) => migration.version));
      const rows = (await pools[0]!.unsafe("SELECT version FROM schema_migrations ORDER BY version")) as { version: number }[];
      expect(rows.map((row) => row.version)).toEqual(postgresMigrations.map((migration) => migration.version));
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
      await database.drop();
    }
  });

  test("an older replica refuses a database whose schema is newer, saying so", async () => {
    const database = await createTestDatabase();
    const sql = new SQL(database.url, { max: 1 });
    await sql.unsafe("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', '2030-01-01T00:00:00Z')");
    await sql.close();
    try {
      await expect(openAuthoringServices(database.url)).rejects.toThrow(/schema version 99 is newer than this service understands/);
    } finally {
      await database.drop();
    }
  });
});

describe("a database outage during operation", () => {
  let outage: ServiceWithCuttableDatabase;
  let relay: TcpRelay;
  let issuer: TestIssuer;
  let service: TestService;
  let agent: Agent;

  beforeAll(async () => {
    outage = await startServiceWithCuttableDatabase();
    ({ relay, issuer, service } = outage);
    agent = await connectAgent(service, await issuer.sign({ sub: "alice" }));
  });
  afterAll(async () => {
    await agent?.close();
    await outage?.stop();
  });

  test("calls during the outage are told the service is temporarily unavailable, and it recovers by itself", async () => {
    const created = await agent.call("create_course", { title: "Before the outage" });
    await relay.cut();
    // The first call meets the outage: a tool error saying nothing changed, or already the 503.
    const during = await agent.call("get_course", { courseId: created.id }).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (during instanceof AgentToolError) {
      expect(during.code).toBe("invalid_state");
      expect(during.message).toContain("temporarily unavailable");
    } else {
      expect(String(during)).toContain("503");
    }
    const raw = await fetch(service.mcpUrl, {
      method: "POST",
      headers: { Authorization: `Bearer ${await issuer.sign({ sub: "alice" })}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
    expect(raw.status).toBe(503);
    expect(raw.headers.get("retry-after")).toBe("5");
    expect(((await raw.json()) as { error: string }).error).toBe("temporarily_unavailable");

    await relay.restore();
    // Wait for the service's own probe to notice, with a generous limit that names what it waited for.
    const deadline = Date.now() + 30_000;
    let course: Record<string, unknown> | undefined;
    while (!course) {
      course = await agent.call("get_course", { courseId: created.id }).catch(() => undefined);
      if (!course && Date.now() > deadline) throw new Error("the service did not recover within 30 s of the database coming back");
      if (!course) await Bun.sleep(250);
    }
    expect(course.title).toBe("Before the outage");
  }, 60_000);

  test("metrics are served on METRICS_PORT: requests per route, tool calls per tool, sessions and the pool", async () => {
    const metricsUrl = `http://127.0.0.1:${service.config.metricsPort}/metrics`;
    const text = await (await fetch(metricsUrl)).text();
    expect(text).toMatch(/cas_http_requests_total\{method="POST",route="\/mcp",status="200"\} \d+/);
    expect(text).toMatch(/cas_mcp_tool_calls_total\{tool="create_course",outcome="ok"\} 1/);
    expect(text).toContain("cas_mcp_tool_duration_seconds_bucket{tool=\"get_course\",le=\"+Inf\"}");
    expect(text).toMatch(/cas_mcp_sessions \d+/);
    expect(text).toMatch(/cas_mcp_sessions_shared [1-9]/);
    expect(text).toContain("cas_db_pool_size 10");
    expect(text).toContain("cas_db_available 1");
    expect(text).toContain("cas_export_queue_length 0");
    expect((await fetch(`${service.url}/metrics`)).status).toBe(404);
  });
});

describe("the database's health mark", () => {
  test("a transaction begun before a failure does not mark the database up again; one begun after does", async () => {
    const database = await createTestDatabase();
    const sql = new SQL(database.url, { max: 2 });
    try {
      const store = new PostgresAuthoringStore(sql);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let begun!: () => void;
      const started = new Promise<void>((resolve) => (begun = resolve));
      const older = store.read(async (tx) => {
        begun();
        await held;
        return tx;
      });
      await started;
      // Another part of the service meets the outage while the older transaction is still open.
      store.setAvailable(false);
      release();
      await older;
      expect(store.available).toBe(false);
      await store.read(async () => undefined);
      expect(store.available).toBe(true);
    } finally {
      await sql.close();
      await database.drop();
    }
  });
});
