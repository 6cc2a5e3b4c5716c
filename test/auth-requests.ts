/**
 * Shared steps of the auth tests: start the real service against a test identity provider, POST an
 * MCP `initialize` to /mcp with a chosen Authorization header, and read a Bearer challenge into its
 * parameters so tests can assert on each one.
 */
import { expect } from "bun:test";
import { startTestService, type TestService } from "./support/service.ts";
import type { TestIssuer } from "./support/test-issuer.ts";

export const protectedResourcePath = "/.well-known/oauth-protected-resource/mcp";

export const initializeBody = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "auth-tests", version: "1.0.0" } },
});

/** Starts the service for `idp` (audience included) and waits until it has loaded the metadata. */
export async function startServiceFor(idp: TestIssuer, env: Record<string, string> = {}): Promise<TestService> {
  const service = await startTestService({ AUTH_URL: idp.url, AUTH_AUDIENCE: idp.audience, ...env });
  await eventually(async () => (await fetch(`${service.url}${protectedResourcePath}`)).status === 200);
  return service;
}

export function postMcp(service: TestService, authorization?: string): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json, text/event-stream", "Content-Type": "application/json" };
  if (authorization !== undefined) headers.Authorization = authorization;
  return fetch(service.mcpUrl, { method: "POST", headers, body: initializeBody });
}

export const bearer = (token: string) => `Bearer ${token}`;

/** `Bearer a="b", c="d"` → `{ a: "b", c: "d" }`; fails the test when the header is not a Bearer challenge. */
export function challengeParameters(response: Response): Record<string, string> {
  const header = response.headers.get("www-authenticate") ?? "";
  expect(header).toMatch(/^Bearer /);
  const parameters: Record<string, string> = {};
  for (const match of header.slice("Bearer ".length).matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)) {
    parameters[match[1]!] = match[2]!.replace(/\\(.)/g, "$1");
  }
  return parameters;
}

/** Asserts the closed OAuth error shape of spec 2.2/2.3 and returns its fields. */
export async function oauthError(response: Response): Promise<{ error: string; error_description: string }> {
  expect(response.headers.get("content-type")).toBe("application/json");
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "error_description"]);
  expect(typeof body.error_description).toBe("string");
  return body as { error: string; error_description: string };
}

export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await Bun.sleep(intervalMs);
  }
}
