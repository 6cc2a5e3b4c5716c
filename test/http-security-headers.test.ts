/**
 * Security headers on every HTTP response of the service: `X-Content-Type-Options: nosniff` always;
 * HTML pages carry a Content-Security-Policy with `default-src 'none'` and `frame-ancestors 'none'`
 * (plus hashes of their own inline styles, nothing more) and `Referrer-Policy: no-referrer`; every
 * other response forbids everything a page could do. HEAD answers the headers and length GET does.
 * The routes come from the service's own OpenAPI document, which start-up checks against the router.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startRestFixture, allowedBrowserOrigin, type RestFixture } from "./support/rest-fixture.ts";
import { launchBrowser } from "./support/browser.ts";

let fixture: RestFixture;

beforeAll(async () => {
  fixture = await startRestFixture();
});

afterAll(async () => {
  await fixture?.dispose();
});

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "headers-test", version: "1" } },
};

interface Case {
  name: string;
  path: string;
  init?: RequestInit;
}

/** Every documented operation, plus the app's own answers: errors, preflights, refusals. */
async function everyKindOfResponse(): Promise<Case[]> {
  const cases: Case[] = [];
  for (const [path, item] of Object.entries(fixture.validator.document.paths ?? {})) {
    for (const method of ["get", "post", "delete"] as const) {
      if (!item?.[method]) continue;
      cases.push({ name: `${method.toUpperCase()} ${path}`, path, init: { method: method.toUpperCase() } });
    }
  }
  const token = await fixture.token();
  const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  cases.push(
    { name: "HEAD /docs/api", path: "/docs/api", init: { method: "HEAD" } },
    { name: "unknown path (404 problem)", path: "/no-such-path" },
    { name: "unknown suffix of the metadata path (404 text)", path: "/.well-known/oauth-protected-resource/mcp/x" },
    { name: "method not allowed (405)", path: "/api/health", init: { method: "DELETE" } },
    { name: "unsupported version (400)", path: "/api/health", init: { headers: { "Service-Api-Version": "2" } } },
    { name: "CORS preflight (204)", path: "/api/health", init: { method: "OPTIONS", headers: { origin: allowedBrowserOrigin, "access-control-request-method": "GET" } } },
    { name: "MCP preflight (204)", path: "/mcp", init: { method: "OPTIONS", headers: { origin: allowedBrowserOrigin, "access-control-request-method": "POST" } } },
    { name: "MCP without a token (401, empty)", path: "/mcp", init: { method: "POST", headers: json, body: JSON.stringify(initialize) } },
    { name: "MCP with a bad token (401 JSON)", path: "/mcp", init: { method: "POST", headers: { ...json, authorization: "Bearer nonsense" }, body: JSON.stringify(initialize) } },
    { name: "MCP initialize (200)", path: "/mcp", init: { method: "POST", headers: { ...json, authorization: `Bearer ${token}` }, body: JSON.stringify(initialize) } },
    { name: "MCP without a session (400 JSON-RPC)", path: "/mcp", init: { method: "GET", headers: { ...json, authorization: `Bearer ${token}` } } },
  );
  return cases;
}

describe("security headers", () => {
  test("every route and every kind of answer says X-Content-Type-Options: nosniff", async () => {
    const cases = await everyKindOfResponse();
    expect(cases.length).toBeGreaterThanOrEqual(15);
    for (const { name, path, init } of cases) {
      const response = await fetch(`${fixture.base}${path}`, init);
      await response.arrayBuffer();
      expect({ name, status: response.status > 0, nosniff: response.headers.get("x-content-type-options") }).toEqual({ name, status: true, nosniff: "nosniff" });
    }
  });

  test("HTML answers carry a CSP with default-src 'none' and frame-ancestors 'none', and Referrer-Policy: no-referrer", async () => {
    let pages = 0;
    for (const { name, path, init } of await everyKindOfResponse()) {
      const response = await fetch(`${fixture.base}${path}`, init);
      await response.arrayBuffer();
      const policy = response.headers.get("content-security-policy") ?? "";
      const directives = policy.split(";").map((directive) => directive.trim());
      expect({ name, defaultNone: directives.includes("default-src 'none'"), noFraming: directives.includes("frame-ancestors 'none'") }).toEqual({ name, defaultNone: true, noFraming: true });
      expect({ name, referrer: response.headers.get("referrer-policy") }).toEqual({ name, referrer: "no-referrer" });
      if (response.headers.get("content-type")?.startsWith("text/html")) {
        pages++;
        // What the page needs and nothing more: its inline styles by hash; no script, no 'unsafe-*'.
        expect({ name, policy }).not.toEqual({ name, policy: expect.stringContaining("unsafe") });
        expect({ name, policy }).not.toEqual({ name, policy: expect.stringContaining("script-src") });
        expect(directives.filter((directive) => directive.startsWith("style-src"))).toEqual([expect.stringMatching(/^style-src 'sha256-[A-Za-z0-9+/]+=*'$/)]);
      }
    }
    expect(pages).toBeGreaterThanOrEqual(1);
  });

  test("the API documentation page renders its styles under its policy, with no violation reported", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const violations: string[] = [];
      page.on("console", (message) => {
        if (message.text().includes("Content Security Policy")) violations.push(message.text());
      });
      await page.goto(`${fixture.base}/docs/api`);
      // The page's stylesheet sets a dt font weight of 600; a blocked <style> leaves the browser's 700.
      const weight = await page.evaluate(() => getComputedStyle(document.querySelector("dt")!).fontWeight);
      expect(weight).toBe("600");
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe("HEAD", () => {
  test("answers the status, headers and Content-Length of GET on every GET route, with no body", async () => {
    const getPaths = Object.entries(fixture.validator.document.paths ?? {})
      .filter(([, item]) => item?.get)
      .map(([path]) => path)
      .filter((path) => path !== "/mcp");
    expect(getPaths).toContain("/docs/api");
    const volatile = new Set(["date", "request-id"]);
    for (const path of [...getPaths, "/.well-known/oauth-protected-resource/mcp/anything", "/no-such-path"]) {
      const get = await fetch(`${fixture.base}${path}`);
      const getBody = await get.arrayBuffer();
      const head = await fetch(`${fixture.base}${path}`, { method: "HEAD" });
      const headBody = await head.arrayBuffer();
      const comparable = (headers: Headers) => [...headers].filter(([name]) => !volatile.has(name));
      expect({ path, status: head.status, headers: comparable(head.headers) }).toEqual({ path, status: get.status, headers: comparable(get.headers) });
      expect({ path, length: head.headers.get("content-length"), body: headBody.byteLength }).toEqual({ path, length: String(getBody.byteLength), body: 0 });
    }
  });
});
