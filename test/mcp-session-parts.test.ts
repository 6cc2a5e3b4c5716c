/**
 * The parts of the MCP session manager, each alone: the session table's admission and eviction
 * policy and its leases, reading a request body (content type, size, deadline), and the wrapper of
 * the standalone event stream. (Restoring shared sessions: mcp-session-restore.test.ts.)
 */
import { afterEach, describe, expect, test } from "bun:test";
import { McpServer } from "@modelcontextprotocol/server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { createSessionTable, type SessionTable } from "../src/mcp/session-table.ts";
import { readJsonBody } from "../src/mcp/request-body.ts";
import { openedStream } from "../src/mcp/event-stream.ts";
import { createLogger } from "../src/log.ts";
import { waitFor } from "./support/wait.ts";

const logger = createLogger("error");

function openSession(sub: string) {
  return {
    sub,
    server: new McpServer({ name: "parts", version: "1.0.0" }).server,
    transport: new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() }),
  };
}

describe("the session table", () => {
  let table: SessionTable;
  afterEach(async () => {
    await table?.closeAll();
  });

  /** Admits and registers a session of `sub` under `id`, as opening one does. */
  function open(id: string, sub: string): void {
    const place = table.reserve(sub);
    if (place instanceof Response) throw new Error(`refused ${id}`);
    table.register(id, openSession(sub));
    place.release();
  }

  test("a session belongs to its user: anyone else looking it up finds nothing", () => {
    table = createSessionTable({ logger, idleTimeoutMs: 60_000, maxSessions: 10, maxSessionsPerUser: 5 });
    open("a1", "alice");
    expect(table.find("a1", "alice")?.sub).toBe("alice");
    expect(table.find("a1", "mallory")).toBeUndefined();
  });

  test("beyond the per-user cap the user's least recently used idle session closes, nobody else's", () => {
    table = createSessionTable({ logger, idleTimeoutMs: 60_000, maxSessions: 10, maxSessionsPerUser: 2 });
    open("b1", "bob");
    open("a1", "alice");
    open("a2", "alice");
    table.touch("a1");
    open("a3", "alice");
    expect(table.find("a2", "alice")).toBeUndefined();
    expect(table.find("a1", "alice")).toBeDefined();
    expect(table.find("a3", "alice")).toBeDefined();
    expect(table.find("b1", "bob")).toBeDefined();
  });

  test("a session in use is never evicted; once its lease is released it may be", () => {
    table = createSessionTable({ logger, idleTimeoutMs: 60_000, maxSessions: 10, maxSessionsPerUser: 1 });
    open("a1", "alice");
    const release = table.lease("a1");
    const refused = table.reserve("alice");
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(503);
    expect((refused as Response).headers.get("retry-after")).toBe("5");
    release();
    release(); // Releasing twice gives back one lease, not two.
    const place = table.reserve("alice");
    expect(place).not.toBeInstanceOf(Response);
    expect(table.find("a1", "alice")).toBeUndefined();
  });

  test("`during` releases its lease however the work ends", async () => {
    table = createSessionTable({ logger, idleTimeoutMs: 60_000, maxSessions: 10, maxSessionsPerUser: 1 });
    open("a1", "alice");
    await expect(table.during("a1", async () => Promise.reject(new Error("tool failed")))).rejects.toThrow("tool failed");
    expect(table.reserve("alice")).not.toBeInstanceOf(Response);
  });

  test("beyond the global cap a new session is refused with Retry-After, and no one's session is closed", () => {
    table = createSessionTable({ logger, idleTimeoutMs: 60_000, maxSessions: 2, maxSessionsPerUser: 5 });
    open("a1", "alice");
    open("b1", "bob");
    const refused = table.reserve("carol");
    expect((refused as Response).status).toBe(503);
    expect(Number((refused as Response).headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(table.size).toBe(2);
  });

  test("places held by sessions still opening count against the caps", () => {
    table = createSessionTable({ logger, idleTimeoutMs: 60_000, maxSessions: 10, maxSessionsPerUser: 1 });
    const first = table.reserve("alice");
    expect(first).not.toBeInstanceOf(Response);
    expect(table.reserve("alice")).toBeInstanceOf(Response);
    (first as { release(): void }).release();
    expect(table.reserve("alice")).not.toBeInstanceOf(Response);
  });
});

describe("reading a request body", () => {
  const policy = { maxBytes: 1024, deadlineMs: 30_000 };
  const post = (body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }) =>
    new Request("http://x/mcp", { method: "POST", headers, body });

  test("JSON in UTF-8 is parsed", async () => {
    expect(await readJsonBody(post(JSON.stringify({ a: "é" }), { "content-type": "application/json; charset=UTF-8" }), policy)).toEqual({ ok: true, body: { a: "é" } });
  });

  test("another media type or charset is refused with 415, naming what is allowed", async () => {
    for (const contentType of ["text/plain", "application/json; charset=latin1"]) {
      const result = await readJsonBody(post("{}", { "content-type": contentType }), policy);
      expect(result.ok).toBe(false);
      const response = (result as { response: Response }).response;
      expect(response.status).toBe(415);
      expect((await response.json()).error.message).toMatch(/application\/json|UTF-8/);
    }
  });

  test("a body larger than allowed is refused with 413, declared or not", async () => {
    const declared = await readJsonBody(post("x".repeat(2000)), policy);
    expect((declared as { response: Response }).response.status).toBe(413);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new Uint8Array(600).fill(32));
        controller.close();
      },
    });
    const undeclared = await readJsonBody(post(chunks), policy);
    expect((undeclared as { response: Response }).response.status).toBe(413);
  });

  test("a body that does not arrive within its deadline is answered 408 and the connection closed", async () => {
    let cancelled!: () => void;
    const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{"));
      },
      cancel() {
        cancelled();
      },
    });
    const result = await waitFor(readJsonBody(post(trickle), { maxBytes: 1024, deadlineMs: 50 }), 30_000, "the body deadline's answer");
    const response = (result as { response: Response }).response;
    expect(response.status).toBe(408);
    expect(response.headers.get("connection")).toBe("close");
    expect((await response.json()).error.message).toContain("did not arrive");
    await waitFor(wasCancelled, 30_000, "the unfinished body to be cancelled");
  });

  test("malformed JSON is a JSON-RPC parse error", async () => {
    const result = await readJsonBody(post("{nope"), policy);
    const response = (result as { response: Response }).response;
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(-32700);
  });
});

describe("the standalone event stream", () => {
  test("an answer that is not a stream ends the lease at once and passes through", () => {
    let ended = 0;
    const answer = new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    expect(openedStream(answer, () => ended++)).toBe(answer);
    expect(ended).toBe(1);
  });

  test("a stream opens with an SSE comment and ends the lease once, when the client goes away", async () => {
    let ended = 0;
    const source = new ReadableStream<Uint8Array>({ start() {} });
    const wrapped = openedStream(new Response(source, { headers: { "content-type": "text/event-stream" } }), () => ended++);
    const reader = wrapped.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(": stream open\n\n");
    expect(ended).toBe(0);
    await reader.cancel();
    await reader.cancel().catch(() => undefined);
    expect(ended).toBe(1);
  });
});
