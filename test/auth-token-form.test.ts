/**
 * RFC 9068 §4 and RFC 7515 §2 over HTTP with real signed tokens: an access token has one spelling
 * (canonical base64url segments: no padding, only the URL-safe alphabet, zero trailing bits) and its
 * `typ` header, when present, names an access token (`at+jwt`, `application/at+jwt`, or `JWT`,
 * compared as media types: case-insensitive, `application/` optional). Anything else is 401
 * `invalid_token`, even though the signature verifies.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestService } from "./support/service.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { bearer, challengeParameters, oauthError, postMcp, startServiceFor } from "./auth-requests.ts";

let idp: TestIssuer;
let service: TestService;

beforeAll(async () => {
  idp = await startTestIssuer();
  service = await startServiceFor(idp);
});

afterAll(async () => {
  await service?.dispose();
  await idp?.stop();
});

async function expectInvalidToken(token: string): Promise<string> {
  const response = await postMcp(service, bearer(token));
  expect(response.status).toBe(401);
  const body = await oauthError(response);
  expect(body.error).toBe("invalid_token");
  expect(challengeParameters(response).error).toBe("invalid_token");
  return body.error_description;
}

async function expectAccepted(token: string): Promise<void> {
  const response = await postMcp(service, bearer(token));
  expect(response.status).toBe(200);
  await response.body?.cancel();
}

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** The same bytes spelled differently: the last character's unused low bits set. */
function withTrailingBits(segment: string): string {
  const unusedBits = segment.length % 4 === 2 ? 4 : segment.length % 4 === 3 ? 2 : 0;
  if (unusedBits === 0) throw new Error(`segment of length ${segment.length} has no unused bits`);
  const last = alphabet.indexOf(segment.at(-1)!);
  return segment.slice(0, -1) + alphabet[last | 1]!;
}

function replaceSegment(token: string, index: number, change: (segment: string) => string): string {
  const segments = token.split(".");
  segments[index] = change(segments[index]!);
  return segments.join(".");
}

describe("typ header", () => {
  for (const typ of ["at+jwt", "application/at+jwt", "AT+JWT", "Application/At+Jwt", "JWT", "jwt", "application/jwt"]) {
    test(`a token with typ "${typ}" is accepted`, async () => {
      await expectAccepted(await idp.sign({}, { header: { typ } }));
    });
  }

  test("a token without typ is accepted", async () => {
    const token = await idp.sign({}, { header: { typ: undefined } });
    expect(JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString())).not.toHaveProperty("typ");
    await expectAccepted(token);
  });

  for (const typ of ["dpop+jwt", "id+jwt", "logout+jwt", "secevent+jwt", "application/dpop+jwt", "JOSE", "jwt+at", "at+jwt; charset=utf-8", " at+jwt", ""]) {
    test(`401 invalid_token for a validly signed token with typ "${typ}"`, async () => {
      const description = await expectInvalidToken(await idp.sign({}, { header: { typ } }));
      expect(description).toContain("typ");
    });
  }

  test("401 invalid_token for a typ that is not a string", async () => {
    await expectInvalidToken(await idp.sign({}, { header: { typ: 1 } }));
  });
});

describe("canonical base64url segments", () => {
  test("the unaltered token is accepted (the variants below differ only in spelling)", async () => {
    await expectAccepted(await idp.sign({}, { alg: "ES256" }));
  });

  test("401 invalid_token for a valid token followed by base64 padding", async () => {
    const token = await idp.sign();
    for (const padded of [`${token}=`, `${token}==`]) {
      expect(await expectInvalidToken(padded)).toContain("base64url");
    }
  });

  test("401 invalid_token for padding inside the header or payload segment", async () => {
    const token = await idp.sign({ name: "A" });
    for (const index of [0, 1]) {
      const segment = token.split(".")[index]!;
      const padding = "=".repeat((4 - (segment.length % 4)) % 4) || "====";
      // The Authorization header's own syntax (token68) already refuses '=' before the end.
      await expectInvalidToken(replaceSegment(token, index, (s) => s + padding));
    }
  });

  test("401 invalid_token for characters outside the base64url alphabet", async () => {
    const token = await idp.sign();
    const signature = token.split(".")[2]!;
    const position = [...signature].findIndex((character) => character === "-" || character === "_");
    expect(position).toBeGreaterThanOrEqual(0);
    // '+' and '/' are the same sextets in standard base64: a lenient decoder reads the same bytes.
    const standard = replaceSegment(token, 2, (s) => s.slice(0, position) + (s[position] === "-" ? "+" : "/") + s.slice(position + 1));
    expect(await expectInvalidToken(standard)).toContain("base64url");
    await expectInvalidToken(replaceSegment(token, 2, (s) => `${s.slice(0, 10)}*${s.slice(10)}`));
  });

  test("401 invalid_token for non-zero trailing bits in any segment (same bytes, another spelling)", async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      // Claims vary the lengths until every segment has unused bits to set.
      const token = await idp.sign({ name: "x".repeat(attempt) }, { alg: "ES256" });
      const segments = token.split(".");
      if (!segments.every((segment) => segment.length % 4 >= 2)) continue;
      for (const index of [0, 1, 2]) {
        const variant = replaceSegment(token, index, withTrailingBits);
        expect(Buffer.from(variant.split(".")[index]!, "base64url")).toEqual(Buffer.from(segments[index]!, "base64url"));
        expect(await expectInvalidToken(variant)).toContain("base64url");
      }
      return;
    }
    throw new Error("no token with unused bits in every segment was produced");
  });
});
