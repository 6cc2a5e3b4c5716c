/**
 * The access token verifier on its own, against a real identity provider: the identity it hands to
 * the tools, the outcome of each failure, and the JWKS fetch policy (cool-down after an unknown kid,
 * back-off after a failed fetch), which the HTTP tests can only observe from outside.
 */
import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { createAuthorizationServerMetadataSource } from "../src/auth/authorization-server-metadata.ts";
import { createAccessTokenVerifier, scopesOf, type AccessTokenVerifierOptions } from "../src/auth/verify-access-token.ts";
import type { AccessTokenVerifier } from "../src/auth/types.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(options: Partial<AccessTokenVerifierOptions> = {}): Promise<{ idp: TestIssuer; verifier: AccessTokenVerifier }> {
  const idp = await startTestIssuer();
  cleanups.push(() => idp.stop());
  const metadata = createAuthorizationServerMetadataSource({ authUrl: idp.url, retryDelaysMs: [50] });
  cleanups.push(() => metadata.close());
  await metadata.loaded;
  const verifier = createAccessTokenVerifier({ metadata, audience: idp.audience, requiredScopes: ["openid"], ...options });
  return { idp, verifier };
}

describe("access token verifier", () => {
  test("a valid token yields sub, email, name, scopes and client id", async () => {
    const { idp, verifier } = await setUp();
    const outcome = await verifier.verify(await idp.sign({ sub: "u-42", client_id: undefined, azp: "inspector" }));
    expect(outcome).toEqual({
      ok: true,
      identity: { sub: "u-42", email: "author@example.test", name: "Ada Author", scopes: ["openid", "profile", "email"], clientId: "inspector" },
    });
  });

  test("the expected issuer defaults to the one the metadata names", async () => {
    const { idp, verifier } = await setUp();
    expect((await verifier.verify(await idp.sign())).ok).toBe(true);
    expect(await verifier.verify(await idp.sign({ iss: `${idp.issuer}/` }))).toMatchObject({ ok: false, error: "invalid_token" });
  });

  test("an explicit issuer and JWKS URL override the metadata", async () => {
    const { idp, verifier } = await setUp({ issuer: "https://public.example", jwksUrl: undefined });
    expect(await verifier.verify(await idp.sign())).toMatchObject({ ok: false, error: "invalid_token", description: "iss claim check failed" });
    expect((await verifier.verify(await idp.sign({ iss: "https://public.example" }))).ok).toBe(true);
    const broken = await setUp({ jwksUrl: "http://127.0.0.1:9/jwks" });
    expect(await broken.verifier.verify(await broken.idp.sign())).toMatchObject({ ok: false, error: "temporarily_unavailable" });
  });

  test("a token within the clock tolerance is accepted", async () => {
    const { idp, verifier } = await setUp({ clockToleranceSec: 30 });
    const now = Math.floor(Date.now() / 1000);
    expect((await verifier.verify(await idp.sign({ exp: now - 10, nbf: now + 10, iat: now + 10 }))).ok).toBe(true);
  });

  test("insufficient_scope lists the required scopes", async () => {
    const { idp, verifier } = await setUp({ requiredScopes: ["openid", "courses:write"] });
    expect(await verifier.verify(await idp.sign())).toMatchObject({
      ok: false,
      error: "insufficient_scope",
      requiredScopes: ["openid", "courses:write"],
    });
  });

  test("temporarily_unavailable before the metadata has loaded", async () => {
    const metadata = { current: () => undefined, loaded: new Promise<void>(() => {}), close() {} };
    const verifier = createAccessTokenVerifier({ metadata, audience: "a", requiredScopes: [] });
    expect(await verifier.verify("a.b.c")).toMatchObject({ ok: false, error: "temporarily_unavailable" });
  });

  test("an unknown kid fetches the JWKS again only after the cool-down", async () => {
    const { idp, verifier } = await setUp({ keySet: { cooldownMs: 300 } });
    expect((await verifier.verify(await idp.sign())).ok).toBe(true);
    idp.resetRequestCount();
    const stranger = await idp.sign({}, { key: "unknown" });
    for (let i = 0; i < 3; i++) expect(await verifier.verify(stranger)).toMatchObject({ error: "invalid_token", description: "signing key not found" });
    expect(idp.requestCount("/jwks")).toBe(1);
    await Bun.sleep(350);
    await idp.rotateKey();
    expect((await verifier.verify(await idp.sign())).ok).toBe(true);
    expect(idp.requestCount("/jwks")).toBe(2);
  });

  test("after a failed fetch, unknown kids answer temporarily_unavailable without hammering the provider", async () => {
    const { idp, verifier } = await setUp({ keySet: { failureBackoffMs: 300 } });
    expect((await verifier.verify(await idp.sign())).ok).toBe(true);
    idp.setDown(true);
    await idp.rotateKey();
    const rotated = await idp.sign();
    idp.resetRequestCount();
    for (let i = 0; i < 3; i++) expect(await verifier.verify(rotated)).toMatchObject({ error: "temporarily_unavailable" });
    expect(idp.requestCount("/jwks")).toBe(1);
    idp.setDown(false);
    await Bun.sleep(350);
    expect((await verifier.verify(rotated)).ok).toBe(true);
  });

  test("concurrent first requests share one JWKS fetch", async () => {
    const { idp, verifier } = await setUp();
    idp.resetRequestCount();
    const tokens = await Promise.all([1, 2, 3, 4].map((n) => idp.sign({ sub: `u-${n}` })));
    const outcomes = await Promise.all(tokens.map((token) => verifier.verify(token)));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(idp.requestCount("/jwks")).toBe(1);
  });

  test("a token remembered after verification still expires on time", async () => {
    const { idp, verifier } = await setUp({ clockToleranceSec: 0 });
    // The clock is held still and moved by hand, so the rule is checked at the exact millisecond
    // around `exp` however slowly the machine runs (Bun's setSystemTime freezes Date; jose reads it).
    const start = Date.now();
    const exp = Math.floor(start / 1000) + 60;
    try {
      setSystemTime(new Date(start));
      const token = await idp.sign({ exp });
      const first = await verifier.verify(token);
      expect(first.ok).toBe(true);
      if (first.ok) first.identity.scopes.push("mutated");
      expect(await verifier.verify(token)).toMatchObject({ ok: true, identity: { scopes: ["openid", "profile", "email"] } });
      setSystemTime(new Date(exp * 1000 - 1));
      expect(await verifier.verify(token)).toMatchObject({ ok: true });
      setSystemTime(new Date(exp * 1000));
      expect(await verifier.verify(token)).toMatchObject({ ok: false, error: "invalid_token", description: "token expired" });
    } finally {
      setSystemTime();
    }
  });

  test("scopes come from scope, scp array or scp string", () => {
    expect(scopesOf({ scope: "openid  profile" })).toEqual(["openid", "profile"]);
    expect(scopesOf({ scp: ["openid", 7, "email"] })).toEqual(["openid", "email"]);
    expect(scopesOf({ scp: "openid email" })).toEqual(["openid", "email"]);
    expect(scopesOf({})).toEqual([]);
  });
});
