/**
 * The HTTP face of `/mcp` (spec 4.4, 5, 7 and DESIGN section 4) over real HTTP with real tokens:
 * CORS and the Origin guard, the version rule as JSON (never problem+json), the auth answers, and
 * the streamable HTTP transport's statuses — each response validated against the document's own
 * `/mcp` operations, so every status the document claims is one the service really sends.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { capture, type CapturedResponse } from "./support/openapi-responses.ts";
import { allowedBrowserOrigin, startRestFixture, type RestFixture } from "./support/rest-fixture.ts";
import { waitFor } from "./support/wait.ts";

const accept = "application/json, text/event-stream";
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "rest-test", version: "1.0.0" } },
};

function expectJsonNotProblem(response: CapturedResponse) {
  const contentType = response.headers.get("content-type") ?? "";
  expect(contentType).toStartWith("application/json");
  expect(contentType).not.toContain("problem+json");
}

describe("stateful /mcp", () => {
  let fixture: RestFixture;
  let token: string;

  // Starting (and stopping) the service and its identity provider can take longer than bun's 5 s hook default on a loaded machine.
  beforeAll(async () => {
    fixture = await startRestFixture();
    token = await fixture.token();
  }, 30_000);

  afterAll(async () => {
    await fixture?.dispose();
  }, 30_000);

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${fixture.base}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: accept, ...headers },
      body,
    }).then(capture);

  async function openSession(): Promise<string> {
    const response = await post(JSON.stringify(initialize));
    expect(response.status).toBe(200);
    const session = response.headers.get("mcp-session-id");
    expect(session).toBeString();
    return session!;
  }

  test("CORS preflight on /mcp from an allowed origin answers with Access-Control-Allow-* and exposes WWW-Authenticate and Mcp-Session-Id", async () => {
    const response = await fetch(`${fixture.base}/mcp`, {
      method: "OPTIONS",
      headers: { Origin: allowedBrowserOrigin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, mcp-session-id" },
    });
    await response.body?.cancel();
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get("access-control-allow-origin")).toBe(allowedBrowserOrigin);
    const list = (name: string) => (response.headers.get(name) ?? "").toLowerCase().split(",").map((item) => item.trim());
    expect(list("access-control-allow-methods")).toContain("post");
    for (const header of ["authorization", "content-type", "mcp-session-id"]) expect(list("access-control-allow-headers")).toContain(header);
    for (const header of ["www-authenticate", "mcp-session-id"]) expect(list("access-control-expose-headers")).toContain(header);
  });

  test("a browser response from an allowed origin exposes WWW-Authenticate and Mcp-Session-Id", async () => {
    const response = await fetch(`${fixture.base}/mcp`, { method: "POST", headers: { Origin: allowedBrowserOrigin }, body: "{}" });
    await response.body?.cancel();
    expect(response.status).toBe(401);
    expect(response.headers.get("access-control-allow-origin")).toBe(allowedBrowserOrigin);
    const exposed = (response.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    expect(exposed).toContain("www-authenticate");
    expect(exposed).toContain("mcp-session-id");
  });

  test("/mcp with an Origin that is not allowed answers 403 JSON, not problem+json, as documented", async () => {
    const response = await post(JSON.stringify(initialize), { Origin: "https://attacker.example" });
    expect(response.status).toBe(403);
    expectJsonNotProblem(response);
    expect(fixture.validator.check("/mcp", "post", response)).toEqual([]);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await fetch(`${fixture.base}/mcp`, {
      method: "OPTIONS",
      headers: { Origin: "https://attacker.example", "Access-Control-Request-Method": "POST" },
    });
    await preflight.body?.cancel();
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("/mcp with Service-Api-Version: 2 answers 400 application/json, never problem+json", async () => {
    const response = await post(JSON.stringify(initialize), { "Service-Api-Version": "2" });
    expect(response.status).toBe(400);
    expectJsonNotProblem(response);
    expect(fixture.validator.check("/mcp", "post", response)).toEqual([]);
  });

  test("/mcp with Service-Api-Version: 1 is served", async () => {
    const response = await post(JSON.stringify(initialize), { "Service-Api-Version": "1" });
    expect(response.status).toBe(200);
    expect(response.headers.get("service-api-version")).toBe("1");
    expect(fixture.validator.check("/mcp", "post", response)).toEqual([]);
  });

  test("401 with an empty body and no Content-Type when Authorization is absent, as documented", async () => {
    const response = await capture(await fetch(`${fixture.base}/mcp`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }));
    expect(response.status).toBe(401);
    expect(response.body).toBe("");
    expect(response.headers.get("content-type")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain(`resource_metadata="${fixture.base}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).not.toContain("error=");
    expect(fixture.validator.check("/mcp", "post", response)).toEqual([]);
  });

  test("401 invalid_token and 403 insufficient_scope are OAuthError JSON, as documented", async () => {
    const invalid = await post("{}", { Authorization: "Bearer not.a.jwt" });
    expect(invalid.status).toBe(401);
    expectJsonNotProblem(invalid);
    expect(JSON.parse(invalid.body).error).toBe("invalid_token");
    expect(fixture.validator.check("/mcp", "post", invalid)).toEqual([]);

    const narrow = await post("{}", { Authorization: `Bearer ${await fixture.token({ scope: "profile" })}` });
    expect(narrow.status).toBe(403);
    expectJsonNotProblem(narrow);
    expect(JSON.parse(narrow.body).error).toBe("insufficient_scope");
    expect(fixture.validator.check("/mcp", "post", narrow)).toEqual([]);
  });

  test("initialize answers 200 with an Mcp-Session-Id; a notification answers 202 with no body", async () => {
    const opened = await post(JSON.stringify(initialize));
    expect(opened.status).toBe(200);
    expect(fixture.validator.check("/mcp", "post", opened)).toEqual([]);
    const session = opened.headers.get("mcp-session-id")!;
    const notified = await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), {
      "Mcp-Session-Id": session,
      "MCP-Protocol-Version": "2025-06-18",
    });
    expect(notified.status).toBe(202);
    expect(notified.body).toBe("");
    expect(fixture.validator.check("/mcp", "post", notified)).toEqual([]);
  });

  test("transport errors are JSON-RPC JSON, as documented: 400, 404, 406, 413, 415", async () => {
    const cases: [number, Promise<CapturedResponse>][] = [
      [400, post("{not json")],
      [400, post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }))],
      [404, post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }), { "Mcp-Session-Id": "no-such-session" })],
      [406, post(JSON.stringify(initialize), { Accept: "application/json" })],
      [415, post(JSON.stringify(initialize), { "Content-Type": "text/plain" })],
      [413, post(`{"padding":"${"x".repeat(16 * 1024 * 1024)}"}`)],
    ];
    for (const [status, pending] of cases) {
      const response = await pending;
      expect({ expected: status, status: response.status }).toEqual({ expected: status, status });
      expectJsonNotProblem(response);
      expect(fixture.validator.check("/mcp", "post", response)).toEqual([]);
    }
  });

  test("GET /mcp answers 200 text/event-stream at once, before the server has any event to send", async () => {
    const session = await openSession();
    const headers = { Authorization: `Bearer ${token}`, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18" };
    const controller = new AbortController();
    try {
      // A server that held the headers back until its first event would never answer here: nothing is sent.
      const stream = await waitFor(
        fetch(`${fixture.base}/mcp`, { headers: { ...headers, Accept: "text/event-stream" }, signal: controller.signal }),
        20_000,
        "the response headers of GET /mcp (the server has no event to send)",
      );
      expect(stream.status).toBe(200);
      expect(fixture.validator.check("/mcp", "get", { status: stream.status, headers: stream.headers, body: "" })).toEqual([]);
    } finally {
      controller.abort();
      await fetch(`${fixture.base}/mcp`, { method: "DELETE", headers }).then((response) => response.body?.cancel());
    }
  });

  test("GET /mcp without Accept: text/event-stream is 406; a second stream on a session is 409; DELETE ends the session", async () => {
    const session = await openSession();
    const headers = { Authorization: `Bearer ${token}`, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18" };

    const notAcceptable = await capture(await fetch(`${fixture.base}/mcp`, { headers: { ...headers, Accept: "application/json" } }));
    expect(notAcceptable.status).toBe(406);
    expect(fixture.validator.check("/mcp", "get", notAcceptable)).toEqual([]);

    // The transport registers the stream before it answers, so once the first stream's headers are
    // here (the test above proves they come at once) a second GET must find it.
    const controller = new AbortController();
    const first = await waitFor(
      fetch(`${fixture.base}/mcp`, { headers: { ...headers, Accept: "text/event-stream" }, signal: controller.signal }),
      20_000,
      "the response headers of the session's first GET /mcp stream",
    );
    expect(first.status).toBe(200);
    const second = await capture(await fetch(`${fixture.base}/mcp`, { headers: { ...headers, Accept: "text/event-stream" } }));
    expect(second.status).toBe(409);
    expect(fixture.validator.check("/mcp", "get", second)).toEqual([]);

    const ended = await capture(await fetch(`${fixture.base}/mcp`, { method: "DELETE", headers }));
    expect(ended.status).toBe(200);
    expect(fixture.validator.check("/mcp", "delete", ended)).toEqual([]);
    controller.abort();
    await first.body?.cancel().catch(() => {});
    const gone = await capture(await fetch(`${fixture.base}/mcp`, { method: "DELETE", headers }));
    expect(gone.status).toBe(404);
    expect(fixture.validator.check("/mcp", "delete", gone)).toEqual([]);
  });

  test("DELETE /mcp without a session header answers 400 JSON, as documented", async () => {
    const response = await capture(await fetch(`${fixture.base}/mcp`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } }));
    expect(response.status).toBe(400);
    expectJsonNotProblem(response);
    expect(fixture.validator.check("/mcp", "delete", response)).toEqual([]);
  });

  test("an unsupported method on /mcp answers 405 JSON with Allow, never problem+json", async () => {
    const response = await capture(await fetch(`${fixture.base}/mcp`, { method: "PUT", headers: { Authorization: `Bearer ${token}` }, body: "{}" }));
    expect(response.status).toBe(405);
    expectJsonNotProblem(response);
    expect(fixture.validator.checkComponent("JsonRpcErrorResponse", JSON.parse(response.body))).toEqual([]);
    expect(response.headers.get("allow")).toContain("POST");
  });
});

describe("stateless /mcp (MCP_STATELESS=true)", () => {
  let fixture: RestFixture;

  beforeAll(async () => {
    fixture = await startRestFixture({ MCP_STATELESS: "true" });
  }, 30_000);

  afterAll(async () => {
    await fixture?.dispose();
  }, 30_000);

  test("POST is served without a session; GET and DELETE answer 405 JSON with Allow: POST, as documented", async () => {
    const token = await fixture.token();
    const posted = await capture(
      await fetch(`${fixture.base}/mcp`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: accept },
        body: JSON.stringify(initialize),
      }),
    );
    expect(posted.status).toBe(200);
    expect(posted.headers.get("mcp-session-id")).toBeNull();
    expect(fixture.validator.check("/mcp", "post", posted)).toEqual([]);
    for (const method of ["GET", "DELETE"] as const) {
      const response = await capture(
        await fetch(`${fixture.base}/mcp`, { method, headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" } }),
      );
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expectJsonNotProblem(response);
      expect(fixture.validator.check("/mcp", method === "GET" ? "get" : "delete", response)).toEqual([]);
    }
  });
});
