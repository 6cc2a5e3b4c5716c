/**
 * MCP sessions are bounded fairly, over HTTP with real tokens: one user opening session after session
 * only ever evicts their own least recently used idle session (MCP_MAX_SESSIONS_PER_USER), never
 * another user's; a session with an open event stream is not idle; and when the server holds
 * MCP_MAX_SESSIONS in all, a new session is refused with 503, a JSON-RPC error body and
 * `Retry-After`, while every existing session keeps working.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestService } from "./support/service.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { bearer, postMcp, startServiceFor } from "./auth-requests.ts";
import { connectAgent } from "./support/mcp-client.ts";
import { capture, createResponseValidator, fetchOpenApiDocument } from "./support/openapi-responses.ts";
import { ConfigError, loadConfig } from "../src/config.ts";

let idp: TestIssuer;
const tokens = new Map<string, string>();

beforeAll(async () => {
  idp = await startTestIssuer();
});
afterAll(async () => {
  await idp?.stop();
});

async function tokenOf(sub: string): Promise<string> {
  if (!tokens.has(sub)) tokens.set(sub, await idp.sign({ sub }));
  return tokens.get(sub)!;
}

/** Sends `initialize`; returns the new session's id, or fails the test with the status. */
async function openSession(service: TestService, sub: string): Promise<string> {
  const response = await postMcp(service, bearer(await tokenOf(sub)));
  await response.body?.cancel();
  expect(response.status).toBe(200);
  return response.headers.get("mcp-session-id")!;
}

function sessionRequest(service: TestService, token: string, sessionId: string, init: { method: string; body?: string }) {
  return fetch(service.mcpUrl, {
    method: init.method,
    headers: {
      Authorization: bearer(token),
      Accept: init.method === "GET" ? "text/event-stream" : "application/json, text/event-stream",
      "Content-Type": "application/json",
      "Mcp-Session-Id": sessionId,
      "Mcp-Protocol-Version": "2025-06-18",
    },
    body: init.body,
  });
}

/** The status a `ping` on the session gets: 200 while it lives, 404 once it is gone. */
async function pingStatus(service: TestService, sub: string, sessionId: string): Promise<number> {
  const response = await sessionRequest(service, await tokenOf(sub), sessionId, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }) });
  await response.body?.cancel();
  return response.status;
}

describe("MCP_MAX_SESSIONS_PER_USER", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startServiceFor(idp, { MCP_MAX_SESSIONS_PER_USER: "3", MCP_MAX_SESSIONS: "50" });
  });
  afterAll(() => service?.dispose());

  test("one user opening many sessions evicts only their own oldest; another user's SDK client keeps working", async () => {
    const bob = await connectAgent(service, await tokenOf("bob"));
    try {
      const course = await bob.call("create_course", { title: "Bob's course" });
      const alice: string[] = [];
      for (let i = 0; i < 12; i++) alice.push(await openSession(service, "alice"));
      // Bob's session, opened before all of Alice's, is untouched.
      expect((await bob.call("get_course", { courseId: course.id })).title).toBe("Bob's course");
      const statuses = await Promise.all(alice.map((id) => pingStatus(service, "alice", id)));
      expect(statuses).toEqual([...Array(9).fill(404), 200, 200, 200]);
    } finally {
      await bob.close();
    }
  });

  test("the least recently used session goes first, not the first opened", async () => {
    const [first, second, third] = [await openSession(service, "carol"), await openSession(service, "carol"), await openSession(service, "carol")];
    expect(await pingStatus(service, "carol", first)).toBe(200); // now `second` is the least recently used
    await openSession(service, "carol");
    expect(await Promise.all([first, second, third].map((id) => pingStatus(service, "carol", id)))).toEqual([200, 404, 200]);
  });

  test("a session with an open event stream is busy, not idle: the idle one is evicted instead", async () => {
    const streaming = await openSession(service, "dave");
    const stream = await sessionRequest(service, await tokenOf("dave"), streaming, { method: "GET" });
    expect(stream.status).toBe(200);
    try {
      const idle = [await openSession(service, "dave"), await openSession(service, "dave")];
      await openSession(service, "dave");
      expect(await pingStatus(service, "dave", idle[0]!)).toBe(404);
      expect(await pingStatus(service, "dave", idle[1]!)).toBe(200);
      expect(await pingStatus(service, "dave", streaming)).toBe(200);
    } finally {
      await stream.body?.cancel();
    }
  });
});

describe("MCP_MAX_SESSIONS", () => {
  let service: TestService;
  const held: [string, string][] = [];
  beforeAll(async () => {
    service = await startServiceFor(idp, { MCP_MAX_SESSIONS_PER_USER: "2", MCP_MAX_SESSIONS: "4" });
  });
  afterAll(() => service?.dispose());

  test("a new session beyond the cap is 503 with a JSON-RPC error and Retry-After; no one's session is evicted", async () => {
    for (const sub of ["erin", "erin", "frank", "frank"]) held.push([sub, await openSession(service, sub)]);

    const refused = await capture(await postMcp(service, bearer(await tokenOf("grace"))));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("content-type")).toBe("application/json");
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    expect(createResponseValidator(await fetchOpenApiDocument(service.url)).check("/mcp", "post", refused)).toEqual([]);
    const body = JSON.parse(refused.body) as { jsonrpc: string; error: { code: number; message: string }; id: null };
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    expect(body.error.message).toContain("4 MCP sessions");

    for (const [sub, id] of held) expect(await pingStatus(service, sub, id)).toBe(200);
  });

  test("ending a session frees its place for someone else", async () => {
    const [sub, id] = held.shift()!;
    const ended = await sessionRequest(service, await tokenOf(sub), id, { method: "DELETE" });
    expect(ended.status).toBe(200);
    const admitted = await openSession(service, "grace");
    held.push(["grace", admitted]);
    expect(await pingStatus(service, "grace", admitted)).toBe(200);
  });

  test("at the cap, a user at their own limit replaces their own idle session, touching no one else's", async () => {
    // erin 1, frank 2, grace 1: the server is full, and frank is at his own limit of 2.
    const [oldestOfFrank, newerOfFrank] = held.filter(([sub]) => sub === "frank").map(([, id]) => id);
    const replacement = await openSession(service, "frank");
    expect(await pingStatus(service, "frank", oldestOfFrank!)).toBe(404);
    expect(await pingStatus(service, "frank", newerOfFrank!)).toBe(200);
    expect(await pingStatus(service, "frank", replacement)).toBe(200);
    for (const [sub, id] of held.filter(([owner]) => owner !== "frank")) expect(await pingStatus(service, sub, id)).toBe(200);
  });
});

describe("configuration", () => {
  test("rate limits are off unless a per-minute value is set; the burst defaults to it", () => {
    expect(loadConfig({})).toMatchObject({ rateLimitMcp: undefined, rateLimitRest: undefined });
    expect(loadConfig({ RATE_LIMIT_MCP_PER_MINUTE: "600", RATE_LIMIT_REST_PER_MINUTE: "120", RATE_LIMIT_REST_BURST: "20" })).toMatchObject({
      rateLimitMcp: { perMinute: 600, burst: 600 },
      rateLimitRest: { perMinute: 120, burst: 20 },
    });
    expect(loadConfig({ RATE_LIMIT_MCP_PER_MINUTE: "0", RATE_LIMIT_MCP_BURST: "5" }).rateLimitMcp).toBeUndefined();
    for (const [variable, value] of [["RATE_LIMIT_MCP_PER_MINUTE", "-1"], ["RATE_LIMIT_REST_PER_MINUTE", "fast"], ["RATE_LIMIT_MCP_BURST", "0"], ["RATE_LIMIT_REST_BURST", "2.5"]]) {
      expect(() => loadConfig({ [variable!]: value })).toThrow(`${variable}: must be a whole number`);
    }
  });

  test("both limits take a whole number of at least 1; anything else names the variable", () => {
    expect(loadConfig({ MCP_MAX_SESSIONS: "250", MCP_MAX_SESSIONS_PER_USER: "5" })).toMatchObject({ mcpMaxSessions: 250, mcpMaxSessionsPerUser: 5 });
    expect(loadConfig({})).toMatchObject({ mcpMaxSessions: 1000, mcpMaxSessionsPerUser: 20 });
    for (const variable of ["MCP_MAX_SESSIONS", "MCP_MAX_SESSIONS_PER_USER"]) {
      for (const value of ["0", "-1", "many", "1.5"]) {
        expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
        expect(() => loadConfig({ [variable]: value })).toThrow(`${variable}: must be a whole number`);
      }
    }
  });
});
