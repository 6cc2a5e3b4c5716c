/**
 * Spec 4.1 and 9 over real HTTP: the health operation, the `Service-Api-Version` rule on the REST
 * surface, the absence of `Deprecation`, and HEAD wherever GET is served. Every response is checked
 * against the service's own OpenAPI document.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { capture } from "./support/openapi-responses.ts";
import { startRestFixture, type RestFixture } from "./support/rest-fixture.ts";

let fixture: RestFixture;

beforeAll(async () => {
  fixture = await startRestFixture();
});

afterAll(async () => {
  await fixture?.dispose();
});

test("GET /api/health answers 200, as documented, with Service-Api-Version: 1", async () => {
  const response = await capture(await fetch(`${fixture.base}/api/health`));
  expect(response.status).toBe(200);
  expect(response.headers.get("service-api-version")).toBe("1");
  expect(fixture.validator.check("/api/health", "get", response)).toEqual([]);
  expect(JSON.parse(response.body)).toMatchObject({ status: "ok" });
});

test("Service-Api-Version: 1 on the request is served as v1", async () => {
  const response = await capture(await fetch(`${fixture.base}/api/health`, { headers: { "Service-Api-Version": "1" } }));
  expect(response.status).toBe(200);
  expect(response.headers.get("service-api-version")).toBe("1");
  expect(fixture.validator.check("/api/health", "get", response)).toEqual([]);
});

for (const version of ["2", "0", "v1", "1.0"]) {
  test(`Service-Api-Version: ${version} on REST answers 400 problem+json unsupported-api-version`, async () => {
    const response = await capture(await fetch(`${fixture.base}/api/health`, { headers: { "Service-Api-Version": version } }));
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toStartWith("application/problem+json");
    expect(fixture.validator.check("/api/health", "get", response)).toEqual([]);
    const problem = JSON.parse(response.body);
    expect(problem).toMatchObject({
      type: `${fixture.base}/docs/api#unsupported-api-version`,
      status: 400,
      code: "unsupported_api_version",
    });
  });
}

test("Service-Api-Version: 2 is refused on every REST discovery operation, as documented", async () => {
  for (const path of ["/openapi.json", "/.well-known/mcp.json", "/docs/api"]) {
    const response = await capture(await fetch(`${fixture.base}${path}`, { headers: { "Service-Api-Version": "2" } }));
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toStartWith("application/problem+json");
    expect(fixture.validator.check(path, "get", response)).toEqual([]);
  }
});

test("no response carries a Deprecation header (nothing is deprecated)", async () => {
  const token = await fixture.token();
  const requests: [string, RequestInit][] = [
    ["/api/health", {}],
    ["/api/health", { method: "HEAD" }],
    ["/openapi.json", {}],
    ["/.well-known/oauth-protected-resource/mcp", {}],
    ["/.well-known/oauth-protected-resource", {}],
    ["/.well-known/oauth-protected-resource/mcp/x", {}],
    ["/.well-known/mcp.json", {}],
    ["/docs/api", {}],
    ["/no-such-path", {}],
    ["/api/health", { method: "POST" }],
    ["/api/health", { headers: { "Service-Api-Version": "2" } }],
    ["/mcp", { method: "POST", body: "{}" }],
    ["/mcp", { method: "POST", body: "{", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } }],
  ];
  for (const [path, init] of requests) {
    const response = await fetch(`${fixture.base}${path}`, init);
    await response.body?.cancel();
    expect({ path, method: init.method ?? "GET", deprecation: response.headers.get("deprecation") }).toEqual({
      path,
      method: init.method ?? "GET",
      deprecation: null,
    });
  }
});

test("HEAD works wherever GET does: same status and headers, no body", async () => {
  const getPaths = Object.entries(fixture.validator.document.paths ?? {})
    .filter(([, item]) => item?.get)
    .map(([path]) => path)
    .filter((path) => path !== "/mcp");
  expect(getPaths.length).toBeGreaterThanOrEqual(6);
  const volatile = new Set(["date", "request-id", "content-length"]);
  for (const path of [...getPaths, "/.well-known/oauth-protected-resource/mcp/anything"]) {
    const get = await fetch(`${fixture.base}${path}`);
    const getBody = await get.arrayBuffer();
    const head = await fetch(`${fixture.base}${path}`, { method: "HEAD" });
    const headBody = await head.arrayBuffer();
    expect({ path, status: head.status }).toEqual({ path, status: get.status });
    const comparable = (headers: Headers) => [...headers].filter(([name]) => !volatile.has(name));
    expect({ path, headers: comparable(head.headers) }).toEqual({ path, headers: comparable(get.headers) });
    expect({ path, bytes: headBody.byteLength }).toEqual({ path, bytes: 0 });
    const length = head.headers.get("content-length");
    if (length !== null && length !== "0") expect(Number(length)).toBe(getBody.byteLength);
  }
});

test("a health probe is answered with a copy of one answer: whole every time, CORS only with an Origin, naming no request unless probes are logged", async () => {
  const health = `${fixture.base}/api/health`;
  for (let round = 0; round < 3; round++) {
    const response = await fetch(health);
    expect({ round, status: response.status, body: await response.json() }).toEqual({ round, status: 200, body: { status: "ok" } });
    expect(response.headers.get("service-api-version")).toBe("1");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    // A successful probe is counted, not logged line by line, so there is no access line to name.
    expect(response.headers.get("request-id")).toBeNull();
  }
  const fromBrowser = await fetch(health, { headers: { Origin: "https://lms.example" } });
  expect(await fromBrowser.json()).toEqual({ status: "ok" });
  expect(fromBrowser.headers.get("access-control-allow-origin")).toBe("*");
  expect(fromBrowser.headers.get("access-control-expose-headers")).toBe("Service-Api-Version, Retry-After");
  expect((await fetch(health)).headers.get("access-control-allow-origin")).toBeNull();
  const head = await fetch(health, { method: "HEAD" });
  expect({ status: head.status, bytes: (await head.arrayBuffer()).byteLength, length: head.headers.get("content-length") }).toEqual({ status: 200, bytes: 0, length: String('{"status":"ok"}'.length) });
  // A refused probe is logged, and its answer names it.
  const refused = await fetch(health, { headers: { "Service-Api-Version": "2" } });
  await refused.body?.cancel();
  expect(refused.status).toBe(400);
  expect(refused.headers.get("request-id")).not.toBeNull();

  // At debug every probe has its access line, so every answer names its request again.
  const debug = await startRestFixture({ LOG_LEVEL: "debug" });
  try {
    const ids = new Set<string | null>();
    for (let round = 0; round < 2; round++) {
      const response = await fetch(`${debug.base}/api/health`);
      expect(await response.json()).toEqual({ status: "ok" });
      ids.add(response.headers.get("request-id"));
    }
    expect(ids.size).toBe(2);
    expect(ids.has(null)).toBe(false);
  } finally {
    await debug.dispose();
  }
});

test("the probe's path is matched by Bun's router: a query still gets the probe's answer, other methods and near paths take the pipeline", async () => {
  const withQuery = await fetch(`${fixture.base}/api/health?from=load-balancer`);
  expect({ status: withQuery.status, body: await withQuery.json(), id: withQuery.headers.get("request-id") }).toEqual({ status: 200, body: { status: "ok" }, id: null });
  const post = await fetch(`${fixture.base}/api/health`, { method: "POST", body: "{}" });
  expect({ status: post.status, allow: post.headers.get("allow"), type: post.headers.get("content-type") }).toEqual({ status: 405, allow: "GET, HEAD", type: "application/problem+json" });
  expect(((await post.json()) as { code: string }).code).toBe("method_not_allowed");
  expect(post.headers.get("request-id")).not.toBeNull();
  const preflight = await fetch(`${fixture.base}/api/health`, { method: "OPTIONS", headers: { Origin: "https://lms.example", "Access-Control-Request-Method": "GET" } });
  await preflight.body?.cancel();
  expect({ status: preflight.status, origin: preflight.headers.get("access-control-allow-origin") }).toEqual({ status: 204, origin: "*" });
  for (const near of ["/api/health/", "/api/healthz", "/API/health"]) {
    const response = await fetch(`${fixture.base}${near}`);
    expect({ near, status: response.status, code: ((await response.json()) as { code: string }).code }).toEqual({ near, status: 404, code: "not_found" });
  }
});
