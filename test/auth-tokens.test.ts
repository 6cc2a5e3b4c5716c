/**
 * Spec 4.4 and 5 over HTTP: the real service, a real identity provider, real tokens. Every way a
 * bearer token can be wrong answers 401 `invalid_token`; a valid token without the required scope
 * answers 403 `insufficient_scope`; no token answers the empty 401; every challenge points at the
 * protected-resource metadata.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import type { TestService } from "./support/service.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { bearer, challengeParameters, oauthError, postMcp, protectedResourcePath, startServiceFor } from "./auth-requests.ts";

let idp: TestIssuer;
let service: TestService;
let resourceMetadata: string;

beforeAll(async () => {
  idp = await startTestIssuer();
  service = await startServiceFor(idp);
  resourceMetadata = `${service.url}${protectedResourcePath}`;
});

afterAll(async () => {
  await service?.dispose();
  await idp?.stop();
});

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const now = () => Math.floor(Date.now() / 1000);

async function hmacWithPublicKey(form: "jwk" | "pem"): Promise<string> {
  const { jwk, pem } = await idp.publicKey();
  const secret = new TextEncoder().encode(form === "pem" ? pem : JSON.stringify(jwk));
  return new SignJWT({ iss: idp.issuer, aud: idp.audience, sub: "user-1", scope: "openid" })
    .setProtectedHeader({ alg: "HS256", kid: jwk.kid })
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(secret);
}

async function tampered(): Promise<string> {
  const [header, , signature] = (await idp.sign()).split(".");
  const payload = base64url({ iss: idp.issuer, aud: idp.audience, sub: "admin", scope: "openid", exp: now() + 300 });
  return `${header}.${payload}.${signature}`;
}

async function unsigned(): Promise<string> {
  const { jwk } = await idp.publicKey();
  const claims = { iss: idp.issuer, aud: idp.audience, sub: "user-1", scope: "openid", iat: now(), exp: now() + 300 };
  return `${base64url({ alg: "none", typ: "JWT", kid: jwk.kid })}.${base64url(claims)}.`;
}

const invalidTokens: [string, () => Promise<string>][] = [
  ["garbage", async () => "not-a-jwt"],
  ["three garbage segments", async () => "abc.def.ghi"],
  ["expired", () => idp.sign({ iat: now() - 600, exp: now() - 120 })],
  ["not yet valid (nbf in the future)", () => idp.sign({ nbf: now() + 600 })],
  ["issued in the future", () => idp.sign({ iat: now() + 600 })],
  ["wrong audience", () => idp.sign({ aud: "https://other.example/mcp" })],
  ["missing audience", () => idp.sign({ aud: undefined })],
  ["wrong issuer", () => idp.sign({ iss: "https://evil.example" })],
  ["missing issuer", () => idp.sign({ iss: undefined })],
  ["missing expiry", () => idp.sign({ exp: undefined })],
  ["missing subject", () => idp.sign({ sub: undefined })],
  ["alg none", unsigned],
  ["HS256 keyed with the public JWK", () => hmacWithPublicKey("jwk")],
  ["HS256 keyed with the public PEM", () => hmacWithPublicKey("pem")],
  ["tampered payload", tampered],
  ["unknown signing key (kid not in the JWKS)", () => idp.sign({}, { key: "unknown" })],
  ["published kid but signed by another key", async () => idp.sign({}, { key: "unknown", kid: (await idp.publicKey()).jwk.kid! })],
];

describe("POST /mcp authentication", () => {
  test("200 from initialize with a valid RS256 token", async () => {
    const response = await postMcp(service, bearer(await idp.sign()));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('"protocolVersion"');
  });

  test("200 from initialize with a valid ES256 token", async () => {
    const response = await postMcp(service, bearer(await idp.sign({}, { alg: "ES256" })));
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  test("401 with empty body and no Content-Type when Authorization is absent", async () => {
    const response = await postMcp(service);
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBeNull();
    expect(await response.text()).toBe("");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${resourceMetadata}"`);
  });

  test("the empty 401 also answers credentials of another scheme, since no bearer token was sent", async () => {
    for (const authorization of ["Basic dXNlcjpwYXNz", "Token abc", ""]) {
      const response = await postMcp(service, authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBeNull();
      expect(await response.text()).toBe("");
      expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${resourceMetadata}"`);
    }
  });

  for (const [name, token] of invalidTokens) {
    test(`401 invalid_token for a bearer token that is ${name}`, async () => {
      const value = await token();
      const response = await postMcp(service, bearer(value));
      expect(response.status).toBe(401);
      const body = await oauthError(response);
      expect(body.error).toBe("invalid_token");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(body.error_description).not.toContain(value);
      const challenge = challengeParameters(response);
      expect(challenge).toEqual({ error: "invalid_token", error_description: body.error_description, resource_metadata: resourceMetadata });
    });
  }

  test("401 invalid_token for a malformed Bearer credential", async () => {
    for (const authorization of ["Bearer", "Bearer ", "Bearer two tokens", 'Bearer "quoted"', "Bearer a=b"]) {
      const response = await postMcp(service, authorization);
      expect(response.status).toBe(401);
      expect((await oauthError(response)).error).toBe("invalid_token");
      expect(challengeParameters(response).error).toBe("invalid_token");
    }
  });

  test("401 invalid_token for an Authorization header over 8 KiB", async () => {
    const response = await postMcp(service, bearer("a".repeat(9 * 1024)));
    expect(response.status).toBe(401);
    expect((await oauthError(response)).error).toBe("invalid_token");
    expect(challengeParameters(response)).toMatchObject({ error: "invalid_token", resource_metadata: resourceMetadata });
  });

  test("the Bearer scheme name is case-insensitive", async () => {
    const response = await postMcp(service, `bearer ${await idp.sign()}`);
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  test("403 insufficient_scope with scope= in the challenge when a required scope is missing", async () => {
    const response = await postMcp(service, bearer(await idp.sign({ scope: "profile email" })));
    expect(response.status).toBe(403);
    const body = await oauthError(response);
    expect(body.error).toBe("insufficient_scope");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(challengeParameters(response)).toEqual({
      error: "insufficient_scope",
      error_description: body.error_description,
      scope: "openid",
      resource_metadata: resourceMetadata,
    });
  });

  test("an scp array claim carries the scopes", async () => {
    const accepted = await postMcp(service, bearer(await idp.sign({ scope: undefined, scp: ["openid", "profile"] })));
    expect(accepted.status).toBe(200);
    await accepted.body?.cancel();
    const refused = await postMcp(service, bearer(await idp.sign({ scope: undefined, scp: ["profile"] })));
    expect(refused.status).toBe(403);
    expect((await oauthError(refused)).error).toBe("insufficient_scope");
  });

  test("an scp string claim carries the scopes", async () => {
    const response = await postMcp(service, bearer(await idp.sign({ scope: undefined, scp: "openid profile" })));
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });
});

describe("AUTH_REQUIRED_SCOPES", () => {
  let strict: TestService;
  beforeAll(async () => {
    strict = await startServiceFor(idp, { AUTH_REQUIRED_SCOPES: "openid courses:write" });
  });
  afterAll(() => strict?.dispose());

  test("403 names every required scope in the challenge when one is missing", async () => {
    const response = await postMcp(strict, bearer(await idp.sign({ scope: "openid profile" })));
    expect(response.status).toBe(403);
    expect((await oauthError(response)).error).toBe("insufficient_scope");
    expect(challengeParameters(response)).toMatchObject({
      error: "insufficient_scope",
      scope: "openid courses:write",
      resource_metadata: `${strict.url}${protectedResourcePath}`,
    });
  });

  test("200 when the token carries every required scope", async () => {
    const response = await postMcp(strict, bearer(await idp.sign({ scope: "courses:write openid" })));
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });
});
