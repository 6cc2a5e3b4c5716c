/**
 * Rate limits over real HTTP with real tokens (small limits that barely refill during a test):
 * the REST routes limit per client address and answer 429 problem+json (`rate_limited`) — OAuth-style
 * `temporarily_unavailable` JSON on the protected-resource metadata — and /mcp limits per user and
 * answers 429 with a JSON-RPC error; every 429 carries `Retry-After` and matches the OpenAPI document.
 * One address's or user's throttling leaves the others alone; an export costs more than a read.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { request as httpRequest } from "node:http";
import type { TestService } from "./support/service.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { bearer, initializeBody, startServiceFor } from "./auth-requests.ts";
import { connectAgent } from "./support/mcp-client.ts";
import { createResponseValidator, type CapturedResponse, type ResponseValidator } from "./support/openapi-responses.ts";
import type { OpenAPIV3_1 } from "@scalar/openapi-types";

let idp: TestIssuer;
beforeAll(async () => {
  idp = await startTestIssuer();
});
afterAll(async () => {
  await idp?.stop();
});

/** A request from a chosen loopback source address (Linux routes all of 127.0.0.0/8 to lo). */
function send(url: string, from: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(url, { method: init.method ?? "GET", headers: init.headers, localAddress: from }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === "string") headers.set(name, value);
        resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString() });
      });
      response.on("error", reject);
    });
    call.on("error", reject);
    call.end(init.body);
  });
}

describe("REST routes: per client address", () => {
  let service: TestService;
  let validator: ResponseValidator;
  beforeAll(async () => {
    service = await startServiceFor(idp, { RATE_LIMIT_REST_PER_MINUTE: "1", RATE_LIMIT_REST_BURST: "3" });
    const document = JSON.parse((await send(`${service.url}/openapi.json`, "127.0.0.9")).body) as OpenAPIV3_1.Document;
    validator = createResponseValidator(document);
  });
  afterAll(() => service?.dispose());

  const operations = [
    ["/api/health", "problem"],
    ["/openapi.json", "problem"],
    ["/.well-known/mcp.json", "problem"],
    ["/docs/api", "problem"],
    ["/.well-known/oauth-protected-resource/mcp", "oauth"],
    ["/.well-known/oauth-protected-resource", "oauth"],
  ] as const;

  operations.forEach(([path, form], index) => {
    test(`GET ${path}: 429 with Retry-After once the address's burst is spent, ${form === "problem" ? "as problem+json rate_limited" : "as OAuth-style JSON"}`, async () => {
      const from = `127.0.1.${index + 1}`;
      for (let i = 0; i < 3; i++) expect((await send(`${service.url}${path}`, from)).status).toBe(200);
      const limited = await send(`${service.url}${path}`, from);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
      expect(validator.check(path, "get", limited)).toEqual([]);
      if (form === "problem") {
        expect(limited.headers.get("content-type")).toBe("application/problem+json");
        expect(JSON.parse(limited.body)).toEqual({
          type: `${service.url}/docs/api#rate-limited`,
          title: "Too Many Requests",
          status: 429,
          code: "rate_limited",
          detail: expect.stringContaining("retry after"),
          instance: path,
        });
      } else {
        expect(limited.headers.get("content-type")).toBe("application/json");
        expect(JSON.parse(limited.body)).toEqual({ error: "temporarily_unavailable", error_description: expect.stringContaining("retry after") });
      }
    });
  });

  test("another address is served while one is throttled", async () => {
    for (let i = 0; i < 4; i++) await send(`${service.url}/api/health`, "127.0.2.1");
    expect((await send(`${service.url}/api/health`, "127.0.2.1")).status).toBe(429);
    expect((await send(`${service.url}/api/health`, "127.0.2.2")).status).toBe(200);
  });

  test("the rate-limited problem type is documented under /docs/api", async () => {
    const page = await send(`${service.url}/docs/api`, "127.0.2.3");
    expect(page.body).toContain('id="rate-limited"');
    expect(page.body).toContain("rate_limited");
  });

  test("/mcp is not charged to the REST limit", async () => {
    const token = await idp.sign({ sub: "rest-check" });
    for (let i = 0; i < 5; i++) {
      const response = await send(service.mcpUrl, "127.0.2.4", {
        method: "POST",
        headers: { Authorization: bearer(token), "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: initializeBody,
      });
      expect(response.status).toBe(200);
    }
  });
});

describe("/mcp: per user, exports costing more", () => {
  let service: TestService;
  let validator: ResponseValidator;
  beforeAll(async () => {
    service = await startServiceFor(idp, { RATE_LIMIT_MCP_PER_MINUTE: "1", RATE_LIMIT_MCP_BURST: "30" });
    validator = createResponseValidator(JSON.parse((await send(`${service.url}/openapi.json`, "127.0.0.1")).body) as OpenAPIV3_1.Document);
  });
  afterAll(() => service?.dispose());

  const headersFor = (token: string, session?: string): Record<string, string> => ({
    Authorization: bearer(token),
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    ...(session ? { "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" } : {}),
  });

  async function openSession(token: string): Promise<string> {
    const response = await send(service.mcpUrl, "127.0.0.1", { method: "POST", headers: headersFor(token), body: initializeBody });
    expect(response.status).toBe(200);
    return response.headers.get("mcp-session-id")!;
  }

  let nextId = 10;
  function callTool(token: string, session: string, name: string, args: Record<string, unknown>) {
    const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } });
    return send(service.mcpUrl, "127.0.0.1", { method: "POST", headers: headersFor(token, session), body });
  }

  function expectMcpRateLimited(response: CapturedResponse) {
    expect(response.status).toBe(429);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000, message: expect.stringContaining("Too Many Requests") } });
    expect(validator.check("/mcp", "post", response)).toEqual([]);
  }

  test("one user's throttling does not throttle another user: their SDK client keeps working", async () => {
    const aliceToken = await idp.sign({ sub: "alice" });
    const session = await openSession(aliceToken);
    let served = 1;
    let last: CapturedResponse | undefined;
    for (; served < 40; served++) {
      last = await send(service.mcpUrl, "127.0.0.1", { method: "POST", headers: headersFor(aliceToken, session), body: JSON.stringify({ jsonrpc: "2.0", id: served, method: "ping" }) });
      if (last.status !== 200) break;
    }
    expect(served).toBe(30);
    expectMcpRateLimited(last!);

    const bob = await connectAgent(service, await idp.sign({ sub: "bob" }));
    try {
      const course = await bob.call("create_course", { title: "Bob's" });
      expect((await bob.call("get_course", { courseId: course.id })).title).toBe("Bob's");
    } finally {
      await bob.close();
    }
  });

  test("export_course costs more than a read: refused while a read still fits", async () => {
    const token = await idp.sign({ sub: "carol" });
    const session = await openSession(token); // 29 units left
    const created = await callTool(token, session, "create_course", { title: "Carol's" }); // 28
    expect(created.status).toBe(200);
    const courseId = /"id":"(crs_[0-9a-z]+)"/.exec(created.body)![1]!;
    expect((await callTool(token, session, "export_course", { courseId, format: "json" })).status).toBe(200); // 18
    expect((await callTool(token, session, "export_course", { courseId, format: "json" })).status).toBe(200); // 8
    expectMcpRateLimited(await callTool(token, session, "export_course", { courseId, format: "json" })); // 7: 9 more needed
    const read = await callTool(token, session, "get_course", { courseId }); // 6
    expect(read.status).toBe(200);
    expect(read.body).toContain("Carol's");
  });
});
