/**
 * The published /mcp rules (spec 4.4, 5, 7, 9) for a 2026-07-28 request, sent raw with the revision's
 * headers and `_meta` envelope: 401 with an empty body, 401 invalid_token and 403 insufficient_scope as
 * OAuthError JSON, 503 temporarily_unavailable with Retry-After when tokens cannot be verified, and an
 * unsupported Service-Api-Version 400 as JSON (never problem+json) — each checked against the document's
 * own /mcp operation, as the 2025 tests in rest-mcp-http.test.ts do. Nothing is written by any of them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { capture, type CapturedResponse } from "./support/openapi-responses.ts";
import { startRestFixture, type RestFixture } from "./support/rest-fixture.ts";
import { modernRequest } from "./support/modern-client.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import type { TestService } from "./support/service.ts";
import { bearer, eventually, oauthError, startServiceFor } from "./auth-requests.ts";

type Json = Record<string, any>;

function expectJsonNotProblem(response: CapturedResponse) {
  const contentType = response.headers.get("content-type") ?? "";
  expect(contentType).toStartWith("application/json");
  expect(contentType).not.toContain("problem+json");
}

/** A modern create_course, so that a request wrongly served would leave a course behind. */
const create = (title: string) => modernRequest("tools/call", { name: "create_course", arguments: { title } });

describe("the /mcp rules for a 2026-07-28 request", () => {
  let fixture: RestFixture;
  let token: string;

  beforeAll(async () => {
    fixture = await startRestFixture();
    token = await fixture.token();
  }, 30_000);
  afterAll(async () => {
    await fixture?.dispose();
  }, 30_000);

  async function post(title: string, headers: Record<string, string>): Promise<CapturedResponse> {
    const request = create(title);
    return capture(await fetch(`${fixture.base}/mcp`, { method: "POST", headers: { ...request.headers, ...headers }, body: JSON.stringify(request.body) }));
  }

  async function coursesTitled(title: string): Promise<number> {
    const request = modernRequest("tools/call", { name: "list_courses", arguments: {} });
    const response = await fetch(`${fixture.base}/mcp`, { method: "POST", headers: { ...request.headers, Authorization: `Bearer ${token}` }, body: JSON.stringify(request.body) });
    const { result } = (await response.json()) as Json;
    return (result.structuredContent.courses as { title: string }[]).filter((course) => course.title === title).length;
  }

  test("the modern request itself is served, echoing Service-Api-Version: 1", async () => {
    const response = await post("Served modern", { Authorization: `Bearer ${token}`, "Service-Api-Version": "1" });
    expect(response.status).toBe(200);
    expect(response.headers.get("service-api-version")).toBe("1");
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(JSON.parse(response.body).result.resultType).toBe("complete");
    expect(fixture.validator.check("/mcp", "post", response)).toEqual([]);
  });

  test("no Authorization: 401, empty body, no Content-Type, a challenge without error=", async () => {
    const response = await post("Unauthenticated modern", {});
    expect(response.status).toBe(401);
    expect(response.body).toBe("");
    expect(response.headers.get("content-type")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain(`resource_metadata="${fixture.base}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).not.toContain("error=");
    expect(fixture.validator.check("/mcp", "post", response)).toEqual([]);
    expect(await coursesTitled("Unauthenticated modern")).toBe(0);
  });

  test("an invalid token is 401 invalid_token and a token without the scope is 403 insufficient_scope, both OAuthError JSON", async () => {
    const invalid = await post("Invalid token modern", { Authorization: "Bearer not.a.jwt" });
    expect(invalid.status).toBe(401);
    expectJsonNotProblem(invalid);
    expect(JSON.parse(invalid.body)).toEqual({ error: "invalid_token", error_description: expect.any(String) });
    expect(invalid.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(fixture.validator.check("/mcp", "post", invalid)).toEqual([]);

    const narrow = await post("Narrow token modern", { Authorization: `Bearer ${await fixture.token({ scope: "profile" })}` });
    expect(narrow.status).toBe(403);
    expectJsonNotProblem(narrow);
    expect(JSON.parse(narrow.body)).toEqual({ error: "insufficient_scope", error_description: expect.any(String) });
    expect(narrow.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(fixture.validator.check("/mcp", "post", narrow)).toEqual([]);
    expect(await coursesTitled("Invalid token modern")).toBe(0);
    expect(await coursesTitled("Narrow token modern")).toBe(0);
  });

  test("an unsupported Service-Api-Version is 400 JSON (a JSON-RPC error naming the version), never problem+json", async () => {
    const response = await post("Wrong API version modern", { Authorization: `Bearer ${token}`, "Service-Api-Version": "2" });
    expect(response.status).toBe(400);
    expectJsonNotProblem(response);
    const body = JSON.parse(response.body) as Json;
    expect(body.jsonrpc).toBe("2.0");
    expect(body.error.message).toContain("Service-Api-Version");
    expect(fixture.validator.check("/mcp", "post", response)).toEqual([]);
    expect(await coursesTitled("Wrong API version modern")).toBe(0);
  });
});

describe("the /mcp rules for a 2026-07-28 request while tokens cannot be verified", () => {
  let idp: TestIssuer;
  let service: TestService;

  beforeAll(async () => {
    idp = await startTestIssuer();
    service = await startServiceFor(idp);
  }, 30_000);
  afterAll(async () => {
    await service?.dispose();
    await idp?.stop();
  }, 30_000);

  test("503 temporarily_unavailable with Retry-After: 5 and no-store; served again once the provider is back", async () => {
    idp.setDown(true);
    const token = await idp.sign();
    const request = modernRequest("tools/list");
    const send = () => fetch(service.mcpUrl, { method: "POST", headers: { ...request.headers, Authorization: bearer(token) }, body: JSON.stringify(request.body) });
    const down = await send();
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect(down.headers.get("cache-control")).toBe("no-store");
    expect((await oauthError(down)).error).toBe("temporarily_unavailable");
    idp.setDown(false);
    let served: Json | undefined;
    await eventually(async () => {
      const up = await send();
      served = up.status === 200 ? ((await up.json()) as Json) : (await up.body?.cancel(), undefined);
      return served !== undefined;
    }, 15_000, 200);
    expect(served!.result.resultType).toBe("complete");
  });
});
