/**
 * Shared pieces of the benchmarks: starting servers as child processes on free ports, running the
 * load generator against them, and printing results as a table of ratios against a baseline measured
 * in the same run. Absolute numbers vary by machine; the ratios are what the targets speak of.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { obtainAccessTokenByLogin } from "../src/dev-identity-provider/scripted-login.ts";

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  firstError: string;
}

const root = join(import.meta.dir, "..");
const bun = process.execPath;

export async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port as number;
  await probe.stop(true);
  return port;
}

async function waitFor(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { method: "POST", body: "{}" });
      await response.arrayBuffer();
      return;
    } catch {
      await Bun.sleep(100);
    }
  }
  throw new Error(`${url} did not come up`);
}

export interface RunningProcess {
  port: number;
  /** The child's process ID, e.g. to read its memory from /proc. */
  pid: number;
  stop(): Promise<void>;
}

/** Starts `command` with PORT set and waits until it answers HTTP. */
export async function startProcess(command: string[], env: Record<string, string> = {}, probePath = "/"): Promise<RunningProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child: Subprocess = Bun.spawn(command, {
    cwd: root,
    env: { ...process.env, PORT: String(port), ...env },
    stdout: "ignore",
    stderr: "ignore",
  });
  await waitFor(`http://127.0.0.1:${port}${probePath}`);
  return {
    port,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

/** Starts the real service (embedded identity provider, fresh SQLite file, info-level access logs). */
export async function startService(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "cas-bench-"));
  const port = await freePort();
  const devAuthPort = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const proc = await startProcess([bun, "src/main.ts"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: baseUrl,
    DEV_AUTH_PORT: String(devAuthPort),
    DATABASE_URL: `sqlite://${join(dataDir, "bench.db")}`,
    LOG_LEVEL: "info",
    ...env,
  });
  return { ...proc, baseUrl, authUrl: `http://127.0.0.1:${devAuthPort}`, dataDir };
}

export const baselineCommand = (file: string) => [bun, join("bench", "baselines", file)];

export interface LoadOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  concurrency?: number;
  durationMs?: number;
  warmupMs?: number;
  mcpSession?: boolean;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const spec = {
    method: "GET",
    headers: {},
    concurrency: 16,
    durationMs: Number(process.env.BENCH_DURATION_MS ?? 4000),
    warmupMs: 1000,
    ...options,
  };
  const child = Bun.spawn([bun, join(root, "bench", "load.ts"), JSON.stringify(spec)], { stdout: "pipe", stderr: "inherit" });
  const output = await new Response(child.stdout).text();
  await child.exited;
  const result = JSON.parse(output.trim().split("\n").pop() ?? "{}") as LoadResult;
  if (result.errors > 0) console.error(`  ! ${result.errors} errors against ${spec.url}: ${result.firstError}`);
  return result;
}

export interface Row {
  scenario: string;
  measured: string;
  baseline: string;
  ratio: number;
  target: string;
  met: boolean;
}

export function printTable(rows: Row[]): void {
  const header = ["scenario", "measured", "baseline", "ratio", "target", "met"];
  const cells = rows.map((r) => [r.scenario, r.measured, r.baseline, r.ratio.toFixed(2), r.target, r.met ? "yes" : "NO"]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const c of cells) console.log(line(c));
}

export const describe = (r: LoadResult) => `${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`;

/** A minimal MCP session over fetch for benchmarks: no client-side schema work in the measured path. */
export async function openMcpSession(mcpUrl: string, token: string) {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
  };
  let id = 0;
  const post = async (body: unknown) => {
    const response = await fetch(mcpUrl, { method: "POST", headers, body: JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${response.status} ${text.slice(0, 200)}`);
    return { response, text };
  };
  const init = await post({
    jsonrpc: "2.0",
    id: ++id,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  });
  headers["Mcp-Session-Id"] = init.response.headers.get("mcp-session-id") ?? "";
  headers["Mcp-Protocol-Version"] = "2025-06-18";
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    async call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
      const requestId = ++id;
      const { text } = await post({ jsonrpc: "2.0", id: requestId, method: "tools/call", params: { name, arguments: args } });
      // Log messages may come first on the stream; the answer is the message carrying the request's id.
      const data = text.startsWith("{")
        ? text
        : (text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).find((line) => line.includes(`"id":${requestId}`)) ?? "");
      const message = JSON.parse(data) as { result?: { isError?: boolean; structuredContent?: Record<string, unknown>; content?: { text: string }[] } };
      if (!message.result || message.result.isError) throw new Error(`${name} failed: ${data.slice(0, 300)}`);
      return message.result.structuredContent ?? {};
    },
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The environment of a service process a bench starts: loopback, its own SQLite file, quiet logs. */
export function serviceEnv(dataDir: string, port: number, devAuthPort: number): Record<string, string> {
  return {
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${port}`,
    DEV_AUTH_PORT: String(devAuthPort),
    DATABASE_URL: `sqlite://${join(dataDir, "bench.db")}`,
    LOG_LEVEL: "warn",
  };
}

export type McpSession = Awaited<ReturnType<typeof openMcpSession>>;

/** An MCP session of `username` on a service process, once it has loaded its identity provider's metadata (503 until then). */
export async function signedIn(port: number, devAuthPort: number, username: string): Promise<McpSession> {
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 200; tries++) {
    const response = await fetch(`${baseUrl}/.well-known/oauth-protected-resource/mcp`);
    await response.arrayBuffer();
    if (response.status === 200) break;
    await Bun.sleep(25);
  }
  const { accessToken } = await obtainAccessTokenByLogin({ issuer: `http://127.0.0.1:${devAuthPort}`, resource: `${baseUrl}/mcp`, username });
  return openMcpSession(`${baseUrl}/mcp`, accessToken);
}
