/**
 * Spec rule 5.4 and DESIGN 5 when the identity provider misbehaves: cached keys keep verifying while
 * it is down, what cannot be verified answers 503 `temporarily_unavailable` with `Retry-After: 5`,
 * and the service recovers by itself when the provider returns. Also the JWKS refetch policy for
 * unknown key ids, proved by counting the provider's requests.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "./support/service.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { bearer, challengeParameters, eventually, oauthError, postMcp, protectedResourcePath, startServiceFor } from "./auth-requests.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function issuer(options: Parameters<typeof startTestIssuer>[0] = {}): Promise<TestIssuer> {
  const started = await startTestIssuer(options);
  cleanups.push(() => started.stop());
  return started;
}

async function serviceFor(idp: TestIssuer): Promise<TestService> {
  const started = await startServiceFor(idp);
  cleanups.push(() => started.dispose());
  return started;
}

async function expectStatus(response: Response, status: number): Promise<void> {
  expect(response.status).toBe(status);
  await response.body?.cancel();
}

async function expectTemporarilyUnavailable(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  if (new URL(response.url).pathname === "/mcp") expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("retry-after")).toBe("5");
  expect((await oauthError(response)).error).toBe("temporarily_unavailable");
}

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port as number;
  await probe.stop(true);
  return port;
}

describe("identity provider outage", () => {
  test("cached keys keep verifying while the identity provider is down", async () => {
    const idp = await issuer();
    const service = await serviceFor(idp);
    await expectStatus(await postMcp(service, bearer(await idp.sign())), 200);
    idp.setDown(true);
    idp.resetRequestCount();
    for (let i = 0; i < 3; i++) await expectStatus(await postMcp(service, bearer(await idp.sign({ sub: `user-${i}` }))), 200);
    await expectStatus(await postMcp(service, bearer(await idp.sign({}, { alg: "ES256" }))), 200);
    expect(idp.requestCount()).toBe(0);
  });

  test("a token from a key rotated in while the provider is down answers 503 with Retry-After: 5, then works once it is back", async () => {
    const idp = await issuer();
    const service = await serviceFor(idp);
    await expectStatus(await postMcp(service, bearer(await idp.sign())), 200);
    idp.setDown(true);
    await idp.rotateKey();
    const rotated = await idp.sign();
    await expectTemporarilyUnavailable(await postMcp(service, bearer(rotated)));
    await expectTemporarilyUnavailable(await postMcp(service, bearer(rotated)));
    idp.setDown(false);
    await eventually(async () => (await postMcp(service, bearer(rotated))).status === 200, 10_000, 200);
  });

  test("503 temporarily_unavailable when the JWKS cannot be fetched before any key is cached, recovering by itself", async () => {
    const idp = await issuer();
    const service = await serviceFor(idp);
    idp.setDown(true);
    const token = await idp.sign();
    await expectTemporarilyUnavailable(await postMcp(service, bearer(token)));
    idp.setDown(false);
    await eventually(async () => (await postMcp(service, bearer(token))).status === 200, 10_000, 200);
  });

  test("an unknown kid refetches the JWKS once, then is refused from the cache during the cool-down", async () => {
    const idp = await issuer();
    const service = await serviceFor(idp);
    await expectStatus(await postMcp(service, bearer(await idp.sign())), 200);
    idp.resetRequestCount();
    const stranger = await idp.sign({}, { key: "unknown" });
    for (let i = 0; i < 3; i++) {
      const response = await postMcp(service, bearer(stranger));
      expect(response.status).toBe(401);
      expect(challengeParameters(response).error).toBe("invalid_token");
      await response.body?.cancel();
    }
    expect(idp.requestCount("/jwks")).toBe(1);
  });

  test("a key rotated in while the provider is up is picked up by the unknown-kid refetch", async () => {
    const idp = await issuer();
    const service = await serviceFor(idp);
    await expectStatus(await postMcp(service, bearer(await idp.sign())), 200);
    await idp.rotateKey();
    await expectStatus(await postMcp(service, bearer(await idp.sign())), 200);
  });
});

describe("authorization server metadata not loaded yet", () => {
  test("/mcp and the protected-resource metadata answer 503 until the provider appears, then recover", async () => {
    const port = await freePort();
    const service = await startTestService({ AUTH_URL: `http://127.0.0.1:${port}`, AUTH_AUDIENCE: "https://courses.test/mcp" });
    cleanups.push(() => service.dispose());

    const metadata = await fetch(`${service.url}${protectedResourcePath}`);
    await expectTemporarilyUnavailable(metadata);
    // No identity provider exists yet, so this token is signed by one started only to mint it.
    const standIn = await startTestIssuer({ port: await freePort() });
    const early = await standIn.sign();
    await standIn.stop();
    await expectTemporarilyUnavailable(await postMcp(service, bearer(early)));
    // A missing Authorization header is still the plain 401: nothing needs verifying.
    await expectStatus(await postMcp(service), 401);

    const idp = await issuer({ port });
    await eventually(async () => (await fetch(`${service.url}${protectedResourcePath}`)).status === 200, 15_000, 200);
    await expectStatus(await postMcp(service, bearer(await idp.sign())), 200);
  });
});
