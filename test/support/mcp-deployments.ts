/**
 * The two ways the service runs, for tests that must hold on both: one process on SQLite, and three
 * replicas on one PostgreSQL behind a round-robin proxy (no sticky sessions). Both verify tokens of a
 * test issuer, so `token(sub)` works alike. Plus raw MCP over fetch with an SSE reader, for tests that
 * need to see (and cut) the event stream itself.
 */
import { rmSync } from "node:fs";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { startTestIssuer, type TestIssuer } from "./test-issuer.ts";
import { startTestService } from "./service.ts";
import { waitForOAuthConfiguration } from "./rest-fixture.ts";
import { createTestDatabase } from "./postgres.ts";
import { emptyWorkingDirectory, startReplica, startRoundRobinProxy, type RoundRobinProxy } from "./replicas.ts";

export type DeploymentKind = "sqlite" | "replicas";

export interface McpDeployment {
  kind: DeploymentKind;
  /** `/mcp` through the balancer (or of the one service). */
  mcpUrl: string;
  /** Each replica's own base URL (one for SQLite). */
  replicaUrls: string[];
  proxy: RoundRobinProxy | undefined;
  token(sub: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startDeployment(kind: DeploymentKind): Promise<McpDeployment> {
  const audience = "https://courses.test/mcp";
  const issuer: TestIssuer = await startTestIssuer({ audience });
  const token = (sub: string) => issuer.sign({ sub, aud: audience });
  if (kind === "sqlite") {
    const service = await startTestService({ AUTH_URL: issuer.url, AUTH_AUDIENCE: audience });
    await waitForOAuthConfiguration(service.url);
    return {
      kind,
      mcpUrl: service.mcpUrl,
      replicaUrls: [service.url],
      proxy: undefined,
      token,
      async stop() {
        await service.dispose();
        await issuer.stop();
      },
    };
  }
  const database = await createTestDatabase({ migrated: false });
  const workDir = emptyWorkingDirectory();
  const proxy = startRoundRobinProxy([]);
  const env = { DATABASE_URL: database.url, AUTH_URL: issuer.url, AUTH_AUDIENCE: audience, BASE_URL: proxy.url };
  const replicas = await Promise.all([0, 1, 2].map(() => startReplica(env, workDir)));
  proxy.backends.push(...replicas.map((replica) => replica.url));
  return {
    kind,
    mcpUrl: `${proxy.url}/mcp`,
    replicaUrls: replicas.map((replica) => replica.url),
    proxy,
    token,
    async stop() {
      for (const replica of replicas) replica.process.kill("SIGKILL");
      await Promise.all(replicas.map((replica) => replica.exited));
      await proxy.stop();
      await issuer.stop();
      await database.drop();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

export interface SseEvent {
  id?: string;
  retry?: number;
  event?: string;
  data: string;
}

/** Reads SSE events from a response body one at a time; comments are skipped. */
export function sseEvents(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    async next(): Promise<SseEvent | undefined> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { data: "" };
          let fields = 0;
          for (const line of block.split("\n")) {
            if (line.startsWith(":") || line === "") continue;
            const colon = line.indexOf(":");
            const name = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            fields++;
            if (name === "id") event.id = value;
            else if (name === "retry") event.retry = Number(value);
            else if (name === "event") event.event = value;
            else if (name === "data") event.data += value;
          }
          if (fields > 0) return event;
          continue;
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    /** Drops the connection, as a network failure would. */
    cut: () => reader.cancel().catch(() => undefined),
  };
}

/** A raw MCP session over fetch: initialize, then requests by hand. */
export async function rawSession(mcpUrl: string, token: string, protocolVersion = LATEST_PROTOCOL_VERSION) {
  const base = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  const opened = await fetch(mcpUrl, {
    method: "POST",
    headers: base,
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
  });
  const sessionId = opened.headers.get("mcp-session-id")!;
  const initializeEvents: SseEvent[] = [];
  const reader = sseEvents(opened);
  for (let event = await reader.next(); event; event = await reader.next()) initializeEvents.push(event);
  const headers = { ...base, "Mcp-Session-Id": sessionId, "Mcp-Protocol-Version": protocolVersion };
  await fetch(mcpUrl, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) }).then((response) => response.text());
  let nextId = 1;
  return {
    sessionId,
    headers,
    initializeEvents,
    /** POSTs one request to `url` (default: the session's) and returns the response, its stream unread. */
    post(method: string, params: Record<string, unknown>, url = mcpUrl): Promise<Response> {
      return fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }) });
    },
    /** A tool's structuredContent, through `url`. */
    async call(name: string, args: Record<string, unknown>, url = mcpUrl): Promise<Record<string, unknown>> {
      const response = await this.post("tools/call", { name, arguments: args }, url);
      const events = sseEvents(response);
      for (let event = await events.next(); event; event = await events.next()) {
        if (!event.data) continue;
        const message = JSON.parse(event.data) as { result?: { structuredContent?: Record<string, unknown>; isError?: boolean; content?: unknown } };
        if (message.result) {
          if (message.result.isError) throw new Error(`${name} failed: ${JSON.stringify(message.result.content)}`);
          return message.result.structuredContent!;
        }
      }
      throw new Error(`${name} answered nothing`);
    },
    /** GET of the session's event stream, optionally resuming after `lastEventId`. */
    stream(url = mcpUrl, lastEventId?: string, token_?: string): Promise<Response> {
      const streamHeaders: Record<string, string> = { ...headers, Accept: "text/event-stream" };
      if (lastEventId !== undefined) streamHeaders["Last-Event-ID"] = lastEventId;
      if (token_ !== undefined) streamHeaders.Authorization = `Bearer ${token_}`;
      return fetch(url, { method: "GET", headers: streamHeaders });
    },
  };
}

export type RawSession = Awaited<ReturnType<typeof rawSession>>;
