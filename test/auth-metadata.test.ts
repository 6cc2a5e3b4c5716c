/**
 * The authorization server metadata source against a real identity provider over HTTP: which
 * discovery documents it reads, that it keeps retrying until the provider appears, and that a loaded
 * copy survives an outage.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createAuthorizationServerMetadataSource, discoveryUrls } from "../src/auth/authorization-server-metadata.ts";
import type { AuthorizationServerMetadataSource } from "../src/auth/types.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function issuer(options: Parameters<typeof startTestIssuer>[0] = {}): Promise<TestIssuer> {
  const started = await startTestIssuer(options);
  cleanups.push(() => started.stop());
  return started;
}

function source(options: Parameters<typeof createAuthorizationServerMetadataSource>[0]): AuthorizationServerMetadataSource {
  const created = createAuthorizationServerMetadataSource({ retryDelaysMs: [50, 100, 200], ...options });
  cleanups.push(() => created.close());
  return created;
}

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port as number;
  await probe.stop(true);
  return port;
}

async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(25);
  }
}

describe("authorization server metadata", () => {
  test("discovery tries OpenID Connect first, then RFC 8414 path-inserted and appended forms", () => {
    expect(discoveryUrls("https://idp.example/realms/a/")).toEqual([
      "https://idp.example/realms/a/.well-known/openid-configuration",
      "https://idp.example/.well-known/oauth-authorization-server/realms/a",
      "https://idp.example/realms/a/.well-known/oauth-authorization-server",
    ]);
    expect(discoveryUrls("https://idp.example")).toEqual([
      "https://idp.example/.well-known/openid-configuration",
      "https://idp.example/.well-known/oauth-authorization-server",
    ]);
  });

  test("loads the OpenID configuration in the background", async () => {
    const idp = await issuer();
    const metadata = source({ authUrl: idp.url });
    expect(metadata.current()).toBeUndefined();
    await metadata.loaded;
    expect(metadata.current()).toMatchObject({ issuer: idp.issuer, jwks_uri: idp.jwksUrl });
  });

  test("falls back to the RFC 8414 document when there is no OpenID configuration", async () => {
    const idp = await issuer({ discovery: "oauth" });
    const metadata = source({ authUrl: idp.url });
    await metadata.loaded;
    expect(metadata.current()?.jwks_uri).toBe(idp.jwksUrl);
    expect(idp.requestCount("/.well-known/openid-configuration")).toBe(1);
  });

  test("uses the path-inserted RFC 8414 location for an issuer with a path", async () => {
    const idp = await issuer({ discovery: "oauth", path: "/tenants/acme" });
    const metadata = source({ authUrl: idp.url });
    await metadata.loaded;
    expect(metadata.current()?.issuer).toBe(idp.issuer);
    expect(idp.requestCount("/.well-known/oauth-authorization-server/tenants/acme")).toBe(1);
  });

  test("keeps retrying until the identity provider appears", async () => {
    const port = await freePort();
    const metadata = source({ authUrl: `http://127.0.0.1:${port}` });
    await Bun.sleep(300);
    expect(metadata.current()).toBeUndefined();
    const idp = await issuer({ port });
    await metadata.loaded;
    expect(metadata.current()?.issuer).toBe(idp.issuer);
  });

  test("keeps retrying while the identity provider answers 503", async () => {
    const idp = await issuer();
    idp.setDown(true);
    const metadata = source({ authUrl: idp.url });
    await eventually(() => idp.requestCount() >= 6);
    expect(metadata.current()).toBeUndefined();
    idp.setDown(false);
    await metadata.loaded;
    expect(metadata.current()?.jwks_uri).toBe(idp.jwksUrl);
  });

  test("keeps the last good copy when a refresh fails", async () => {
    const idp = await issuer();
    const metadata = source({ authUrl: idp.url, refreshIntervalMs: 50 });
    await metadata.loaded;
    idp.setDown(true);
    idp.resetRequestCount();
    await eventually(() => idp.requestCount() >= 2);
    expect(metadata.current()?.issuer).toBe(idp.issuer);
  });

  test("rejects a document whose jwks_uri is not a URL and keeps trying", async () => {
    let served = 0;
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => {
        served += 1;
        return Response.json({ issuer: "http://idp.test", jwks_uri: served > 6 ? "http://idp.test/jwks" : "not a url" });
      },
    });
    cleanups.push(() => server.stop(true));
    const metadata = source({ authUrl: `http://127.0.0.1:${server.port}` });
    await eventually(() => served >= 3);
    expect(metadata.current()).toBeUndefined();
    await metadata.loaded;
    expect(metadata.current()?.jwks_uri).toBe("http://idp.test/jwks");
  });

  test("reports an issuer that differs from the expected one", async () => {
    const idp = await issuer();
    const problems: string[] = [];
    const metadata = source({ authUrl: idp.url, issuer: "https://other.example", onProblem: (message) => problems.push(message) });
    await metadata.loaded;
    expect(problems.join("\n")).toContain("expected https://other.example");
  });
});
