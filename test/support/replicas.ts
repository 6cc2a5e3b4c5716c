/**
 * Several replicas of the service as real processes (`bun src/main.ts`) on one PostgreSQL database,
 * behind a plain round-robin proxy the test owns (no sticky sessions). Like nginx's default
 * `proxy_next_upstream error`, the proxy passes a request to the next replica only when a replica
 * refuses the connection; a replica that dies while answering costs the client that request. The
 * proxy records which replica served each request and with which session id.
 */
import { waitForOAuthConfiguration } from "./rest-fixture.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./service.ts";

const root = join(import.meta.dir, "..", "..");

export interface Replica {
  port: number;
  url: string;
  process: ReturnType<typeof Bun.spawn>;
  /** Waits for the process to exit; resolves with its exit code. */
  exited: Promise<number>;
}

/** Starts one replica and resolves once its start-up banner says it is listening. */
export async function startReplica(env: Record<string, string>, cwd: string): Promise<Replica> {
  const port = await freePort();
  const child = Bun.spawn([process.execPath, join(root, "src", "main.ts")], {
    cwd,
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env, PORT: String(port) },
    stdout: "ignore",
    stderr: "pipe",
  });
  const reader = child.stderr.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const timeout = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    while (!seen.includes("Course Authoring Service is running")) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`replica on port ${port} exited before listening: ${seen.trim()}`);
      seen += decoder.decode(value);
    }
  } finally {
    clearTimeout(timeout);
  }
  // Keep draining stderr so the replica never blocks on a full pipe.
  void (async () => {
    for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) break;
  })();
  const url = `http://127.0.0.1:${port}`;
  // The issuer's metadata loads in the background; until then /mcp answers 503 to every token.
  await waitForOAuthConfiguration(url);
  return { port, url, process: child, exited: child.exited };
}

export interface ServedRequest {
  replica: number;
  method: string;
  sessionId: string | null;
  status: number;
}

export interface RoundRobinProxy {
  url: string;
  backends: string[];
  served: ServedRequest[];
  stop(): Promise<void>;
}

export function startRoundRobinProxy(backends: string[]): RoundRobinProxy {
  let next = 0;
  const served: ServedRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 255,
    async fetch(request) {
      const incoming = new URL(request.url);
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
      for (let tries = 0; tries < backends.length; tries++) {
        const index = next++ % backends.length;
        try {
          const response = await fetch(`${backends[index]}${incoming.pathname}${incoming.search}`, {
            method: request.method,
            headers: request.headers,
            body,
            redirect: "manual",
          });
          served.push({ replica: index, method: request.method, sessionId: request.headers.get("mcp-session-id"), status: response.status });
          return new Response(response.body, { status: response.status, headers: response.headers });
        } catch (error) {
          // Connection refused: the replica is gone, try the next one (nginx: proxy_next_upstream error).
          if ((error as { code?: string }).code !== "ECONNREFUSED") return new Response("bad gateway", { status: 502 });
        }
      }
      return new Response("no replica available", { status: 502 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    backends,
    served,
    stop: () => server.stop(true),
  };
}

export function emptyWorkingDirectory(): string {
  return mkdtempSync(join(tmpdir(), "cas-replica-"));
}
