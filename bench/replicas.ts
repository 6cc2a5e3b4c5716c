/**
 * PostgreSQL and replicas, as ratios measured in one run: get_course and update_block throughput and
 * p99 on PostgreSQL vs SQLite (one replica each), and on two PostgreSQL replicas vs one. Every
 * configuration is served through the same small round-robin proxy, so the proxy's cost hits both
 * sides of each ratio. The first replica runs the embedded identity provider and the second trusts it,
 * so one token works on both. PostgreSQL comes from BENCH_DATABASE_URL or TEST_DATABASE_URL, else the
 * project machines' `postgres://postgres@127.0.0.1:5432/postgres`; a fresh database is made and dropped.
 */
import { SQL } from "bun";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { obtainAccessTokenByLogin } from "../src/dev-identity-provider/scripted-login.ts";
import { describe, freePort, load, openMcpSession, startProcess, type LoadResult, type RunningProcess, type Row } from "./support.ts";

const bun = process.execPath;
const mcpHeaders = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const toolCall = (name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

/** A round-robin proxy in this process; `backends` may change between measurements. */
function startProxy(backends: string[]) {
  let next = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const target = backends[next++ % backends.length];
      const response = await fetch(`${target}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body: request.body });
      return new Response(response.body, { status: response.status, headers: response.headers });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, backends, stop: () => server.stop(true) };
}

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `cas_bench_${process.pid}`;
  const admin = new SQL(server, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new SQL(server, { max: 1 });
      await dropper.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.close();
    },
  };
}

interface Deployment {
  replicas: RunningProcess[];
  authUrl: string;
}

/** `count` replicas on `databaseUrl`, all with BASE_URL = the proxy's, the first running the dev provider. */
async function startReplicas(count: number, databaseUrl: string, baseUrl: string): Promise<Deployment> {
  const devAuthPort = await freePort();
  const authUrl = `http://127.0.0.1:${devAuthPort}`;
  const common = { HOST: "127.0.0.1", BASE_URL: baseUrl, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn", AUTH_AUDIENCE: `${baseUrl}/mcp` };
  const first = await startProcess([bun, "src/main.ts"], { ...common, DEV_AUTH_PORT: String(devAuthPort) }, "/api/health");
  const others = await Promise.all(
    Array.from({ length: count - 1 }, () => startProcess([bun, "src/main.ts"], { ...common, AUTH_URL: authUrl }, "/api/health")),
  );
  return { replicas: [first, ...others], authUrl };
}

interface Measured {
  read: LoadResult;
  write: LoadResult;
}

async function measure(proxyUrl: string, authUrl: string): Promise<Measured> {
  const { accessToken } = await obtainAccessTokenByLogin({ issuer: authUrl, resource: `${proxyUrl}/mcp`, username: "bench-replicas" });
  const session = await openMcpSession(`${proxyUrl}/mcp`, accessToken);
  const course = (await session.call("create_course", {
    title: "Bench course",
    modules: [{ title: "Module", lessons: [{ title: "Lesson", blocks: Array.from({ length: 20 }, (_, i) => ({ type: "text", markdown: `Paragraph ${i}` })) }] }],
  })) as { id: string; modules: { lessons: { blocks: { id: string }[] }[] }[] };
  const blockId = course.modules[0]!.lessons[0]!.blocks[0]!.id;
  const headers = { ...mcpHeaders, Authorization: `Bearer ${accessToken}` };
  const url = `${proxyUrl}/mcp`;
  const read = await load({ url, method: "POST", headers, body: toolCall("get_course", { courseId: course.id }), mcpSession: true });
  const write = await load({
    url,
    method: "POST",
    headers,
    body: toolCall("update_block", { courseId: course.id, blockId, block: { type: "text", markdown: "Edited under load" } }),
    mcpSession: true,
  });
  return { read, write };
}

async function run(count: number, databaseUrl: string): Promise<Measured> {
  const proxy = startProxy([]);
  const deployment = await startReplicas(count, databaseUrl, proxy.url);
  proxy.backends.push(...deployment.replicas.map((replica) => `http://127.0.0.1:${replica.port}`));
  try {
    return await measure(proxy.url, deployment.authUrl);
  } finally {
    await Promise.all(deployment.replicas.map((replica) => replica.stop()));
    await proxy.stop();
  }
}

function row(scenario: string, measured: LoadResult, baseline: LoadResult, atLeast: number): Row {
  const ratio = measured.rps / baseline.rps;
  return { scenario, measured: describe(measured), baseline: describe(baseline), ratio, target: `≥ ${atLeast}`, met: ratio >= atLeast };
}

export async function runReplicaBench(): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "cas-bench-"));
  const database = await createDatabase();
  try {
    console.error("measuring one replica on SQLite …");
    const sqlite = await run(1, `sqlite://${join(dataDir, "bench.db")}`);
    console.error("measuring one replica on PostgreSQL …");
    const onePg = await run(1, database.url);
    console.error("measuring two replicas on PostgreSQL …");
    const twoPg = await run(2, database.url);
    return [
      row("get_course: PostgreSQL vs SQLite (1 replica)", onePg.read, sqlite.read, 0.5),
      row("update_block: PostgreSQL vs SQLite (1 replica)", onePg.write, sqlite.write, 0.3),
      row("get_course: 2 vs 1 PostgreSQL replicas", twoPg.read, onePg.read, 1),
      row("update_block: 2 vs 1 PostgreSQL replicas", twoPg.write, onePg.write, 0.8),
    ];
  } finally {
    await database.drop();
  }
}
