/**
 * Spec 4.2, 5, 7 and 9.4 with DESIGN section 4 over real HTTP: the protected-resource metadata (and
 * its root form, its plain-text 404 for unknown suffixes, its 503 while the OAuth configuration is
 * unavailable, its never-problem+json errors), the MCP server card and the documentation page.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { problemTypes } from "../src/http/problem.ts";
import { renderApiDocsPage } from "../src/discovery/docs-page.ts";
import { buildOpenApiDocument } from "../src/discovery/openapi-document.ts";
import { capture } from "./support/openapi-responses.ts";
import { startRestFixture, type RestFixture } from "./support/rest-fixture.ts";

const metadataPath = "/.well-known/oauth-protected-resource/mcp";

describe("with the authorization server reachable", () => {
  let fixture: RestFixture;

  beforeAll(async () => {
    fixture = await startRestFixture();
  });

  afterAll(async () => {
    await fixture?.dispose();
  });

  test("the metadata endpoint answers 200 with resource {base_url}/mcp and authorization_servers [{auth_url}]", async () => {
    const response = await capture(await fetch(`${fixture.base}${metadataPath}`));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    expect(response.headers.get("service-api-version")).toBe("1");
    expect(fixture.validator.check(metadataPath, "get", response)).toEqual([]);
    expect(JSON.parse(response.body)).toEqual({
      resource: `${fixture.base}/mcp`,
      authorization_servers: [fixture.service.authUrl],
      scopes_supported: ["openid", "profile", "email", "offline_access"],
      bearer_methods_supported: ["header"],
      resource_documentation: `${fixture.base}/docs/api`,
      resource_name: expect.any(String),
    });
  });

  test("the root form /.well-known/oauth-protected-resource answers the same 200 document", async () => {
    const root = await capture(await fetch(`${fixture.base}/.well-known/oauth-protected-resource`));
    const mcp = await capture(await fetch(`${fixture.base}${metadataPath}`));
    expect(root.status).toBe(200);
    expect(fixture.validator.check("/.well-known/oauth-protected-resource", "get", root)).toEqual([]);
    expect(JSON.parse(root.body)).toEqual(JSON.parse(mcp.body));
  });

  test("any unknown suffix after the metadata path answers 404 text/plain `Not found`", async () => {
    for (const suffix of ["/anything", "/x/y", "/mcp"]) {
      const response = await capture(await fetch(`${fixture.base}${metadataPath}${suffix}`));
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toStartWith("text/plain");
      expect(response.body).toBe("Not found");
      expect(fixture.validator.check(metadataPath, "get", response)).toEqual([]);
    }
  });

  test("errors of the metadata endpoint are never problem+json: unsupported Service-Api-Version", async () => {
    const response = await capture(await fetch(`${fixture.base}${metadataPath}`, { headers: { "Service-Api-Version": "2" } }));
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    expect(fixture.validator.check(metadataPath, "get", response)).toEqual([]);
  });

  test("errors of the metadata endpoint are never problem+json: unsupported method", async () => {
    const response = await capture(await fetch(`${fixture.base}${metadataPath}`, { method: "POST" }));
    expect(response.status).toBe(405);
    expect(response.headers.get("content-type") ?? "").not.toContain("problem+json");
  });

  test("the root form's errors are OAuth-style JSON too: unsupported Service-Api-Version and method", async () => {
    for (const init of [{ headers: { "Service-Api-Version": "2" } }, { method: "DELETE" }]) {
      const response = await capture(await fetch(`${fixture.base}/.well-known/oauth-protected-resource`, init));
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.headers.get("content-type")).toStartWith("application/json");
      expect(JSON.parse(response.body)).toMatchObject({ error: "invalid_request", error_description: expect.any(String) });
    }
  });

  test("the public discovery documents may be read from any origin; the docs page and unknown paths may not", async () => {
    const origin = "https://some-app.example";
    const publicPaths = ["/api/health", "/openapi.json", metadataPath, "/.well-known/oauth-protected-resource", "/.well-known/mcp.json"];
    for (const path of publicPaths) {
      const preflight = await fetch(`${fixture.base}${path}`, { method: "OPTIONS", headers: { Origin: origin, "Access-Control-Request-Method": "GET" } });
      await preflight.body?.cancel();
      expect({ path, status: preflight.status, allowOrigin: preflight.headers.get("access-control-allow-origin") }).toEqual({ path, status: 204, allowOrigin: "*" });
      const read = await fetch(`${fixture.base}${path}`, { headers: { Origin: origin } });
      await read.body?.cancel();
      expect({ path, allowOrigin: read.headers.get("access-control-allow-origin") }).toEqual({ path, allowOrigin: "*" });
    }
    for (const path of ["/docs/api", `${metadataPath}/x`, "/no-such-path"]) {
      const read = await fetch(`${fixture.base}${path}`, { headers: { Origin: origin } });
      await read.body?.cancel();
      expect({ path, allowOrigin: read.headers.get("access-control-allow-origin") }).toEqual({ path, allowOrigin: null });
    }
  });

  test("/.well-known/mcp.json is the MCP server card: versions, transport and auth pointer", async () => {
    const response = await capture(await fetch(`${fixture.base}/.well-known/mcp.json`));
    expect(response.status).toBe(200);
    expect(fixture.validator.check("/.well-known/mcp.json", "get", response)).toEqual([]);
    const card = JSON.parse(response.body);
    expect(card).toMatchObject({
      name: expect.any(String),
      version: expect.any(String),
      // 2026-07-28 per request, then the 2025 revisions the SDK serves in sessions.
      protocolVersion: "2026-07-28",
      protocolVersions: ["2026-07-28", ...SUPPORTED_PROTOCOL_VERSIONS],
      transport: { type: "streamable-http", url: `${fixture.base}/mcp` },
      authentication: {
        type: "oauth2",
        protected_resource_metadata: `${fixture.base}${metadataPath}`,
        authorization_servers: [fixture.service.authUrl],
      },
      documentation: `${fixture.base}/docs/api`,
    });
    for (const capability of ["tools", "resources", "prompts", "completions", "logging"]) expect(card.capabilities).toHaveProperty(capability);
  });

  test("/docs/api is an accessible HTML page with an anchor for every problem type and OAuth error", async () => {
    const response = await capture(await fetch(`${fixture.base}/docs/api`));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/html");
    expect(fixture.validator.check("/docs/api", "get", response)).toEqual([]);
    const html = response.body;
    expect(html).toStartWith("<!doctype html>");
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    for (const landmark of ["<header>", '<nav aria-label="Contents">', '<main id="main">', "<footer>", "<h1>"]) expect(html).toContain(landmark);
    for (const type of Object.values(problemTypes)) expect(html).toContain(`id="${type.slug}"`);
    for (const slug of ["missing-token", "invalid-token", "insufficient-scope", "temporarily-unavailable"]) expect(html).toContain(`id="${slug}"`);
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(ids.length);
    // Self-contained: no scripts, no external style sheets, images or fonts.
    expect(html).not.toMatch(/<script|<link\b|<img\b|@import|url\(/i);
  });

  test("the documentation page lists every documented operation", async () => {
    const html = await (await fetch(`${fixture.base}/docs/api`)).text();
    for (const [path, item] of Object.entries(fixture.validator.document.paths ?? {})) {
      for (const method of ["get", "post", "delete"] as const) {
        const operationId = item?.[method]?.operationId;
        if (operationId) expect(html).toContain(`id="${operationId}"`);
      }
      expect(html).toContain(`<code>${path}</code>`);
    }
  });
});

describe("while the OAuth configuration is unavailable", () => {
  let fixture: RestFixture;

  beforeAll(async () => {
    fixture = await startRestFixture({}, { issuerDown: true });
  });

  afterAll(async () => {
    await fixture?.dispose();
  });

  test("the metadata endpoint answers 503 application/json temporarily_unavailable with Retry-After: 5", async () => {
    for (const path of [metadataPath, "/.well-known/oauth-protected-resource"]) {
      const response = await capture(await fetch(`${fixture.base}${path}`));
      expect(response.status).toBe(503);
      expect(response.headers.get("content-type")).toStartWith("application/json");
      expect(response.headers.get("retry-after")).toBe("5");
      expect(fixture.validator.check(path, "get", response)).toEqual([]);
      expect(JSON.parse(response.body)).toMatchObject({ error: "temporarily_unavailable" });
    }
  });

  test("POST /mcp with a bearer token answers 503 temporarily_unavailable with Retry-After: 5, as documented", async () => {
    const response = await capture(
      await fetch(`${fixture.base}/mcp`, {
        method: "POST",
        headers: { Authorization: `Bearer ${await fixture.token()}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: "{}",
      }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(fixture.validator.check("/mcp", "post", response)).toEqual([]);
  });

  test("health and the other discovery documents are still served", async () => {
    for (const path of ["/api/health", "/openapi.json", "/.well-known/mcp.json", "/docs/api"]) {
      const response = await capture(await fetch(`${fixture.base}${path}`));
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      expect(fixture.validator.check(path, "get", response)).toEqual([]);
    }
  });
});

test("the documentation page escapes every interpolated value", () => {
  const hostile = 'https://x.example/"><script>alert(1)</script>';
  const html = renderApiDocsPage({ baseUrl: hostile, authUrl: hostile, document: buildOpenApiDocument({ baseUrl: hostile, authUrl: hostile }) });
  expect(html).not.toContain("<script");
  expect(html).toContain("&lt;script&gt;");
});
