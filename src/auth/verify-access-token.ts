/**
 * Verifies bearer access tokens as a resource server: a JWT signed with an asymmetric algorithm by
 * the configured issuer, for this audience, within its lifetime, carrying the required scopes, in the
 * one canonical spelling and with a `typ` that names an access token. The
 * issuer's JWKS is cached; an unknown `kid` triggers one refetch, at most once per cool-down. Failures
 * are sorted into what the client can fix (`invalid_token`, `insufficient_scope`) and what it cannot
 * (`temporarily_unavailable`: the metadata or the keys cannot be fetched right now). Cached keys keep
 * working while the identity provider is down, and the verifier recovers on its own when it returns.
 */
// jose's entry point loads every algorithm family (JWE, JWS, key generation: ~95 modules); the
// verifier needs these four, each from its own path.
import { jwtVerify, type JWTVerifyGetKey, type JWTVerifyOptions } from "jose/jwt/verify";
import type { JWTPayload } from "jose";
import { createLocalJWKSet, type LocalJWKSet } from "jose/jwks/local";
import { decodeProtectedHeader } from "jose/decode/protected_header";
import * as errors from "jose/errors";
import type { AccessTokenVerifier, AuthorizationServerMetadataSource, CallerIdentity, VerificationOutcome } from "./types.ts";
import { fromBase64url, toBase64url } from "../bytes.ts";

export interface AccessTokenVerifierOptions {
  metadata: AuthorizationServerMetadataSource;
  /** Expected `iss`; defaults to the issuer named by the loaded metadata. */
  issuer?: string;
  /** Expected `aud`. */
  audience: string;
  requiredScopes: string[];
  /** Overrides the discovered `jwks_uri`. */
  jwksUrl?: string;
  clockToleranceSec?: number;
  /** Tuning for tests; the defaults suit production. */
  keySet?: Partial<KeySetTiming>;
}

interface KeySetTiming {
  /** Time-out of one JWKS fetch. */
  fetchTimeoutMs: number;
  /** After a successful refetch for an unknown `kid`, unknown kids are answered from the cache this long. */
  cooldownMs: number;
  /** After a failed fetch, requests are answered "unavailable" without a new fetch this long. */
  failureBackoffMs: number;
  /** Keys older than this are refreshed in the background (and kept if the refresh fails). */
  maxAgeMs: number;
}

const defaultTiming: KeySetTiming = { fetchTimeoutMs: 2000, cooldownMs: 30_000, failureBackoffMs: 1000, maxAgeMs: 10 * 60_000 };

const asymmetricAlgorithms = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

/** The keys cannot be fetched now; the client should retry later. */
class KeySetUnavailable extends Error {
  override name = "KeySetUnavailable";
}

/** A JWKS fetched from one URL, with the refetch policy described in the module comment. */
class RemoteKeySet {
  private keys: LocalJWKSet | undefined;
  private loadedAt = Number.NEGATIVE_INFINITY;
  private lastFailureAt: number | undefined;
  private cooldownUntil = 0;
  private pending: Promise<void> | undefined;

  constructor(
    readonly url: string,
    private readonly timing: KeySetTiming,
  ) {}

  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    let fetchedNow = false;
    if (this.keys === undefined) {
      await this.refresh();
      fetchedNow = true;
    } else if (Date.now() - this.loadedAt > this.timing.maxAgeMs && this.mayFetch()) {
      this.refresh().catch(() => {});
    }
    try {
      return await this.loaded()(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      if (this.lastFailureAt === undefined && (fetchedNow || Date.now() < this.cooldownUntil)) throw error;
      // The kid may be new, or the last fetch failed: look again (or report the outage).
      await this.refresh();
      this.cooldownUntil = Date.now() + this.timing.cooldownMs;
      return await this.loaded()(header, token);
    }
  };

  private loaded(): LocalJWKSet {
    if (this.keys === undefined) throw new KeySetUnavailable("signing keys not loaded");
    return this.keys;
  }

  private mayFetch(): boolean {
    return this.pending !== undefined || this.lastFailureAt === undefined || Date.now() - this.lastFailureAt >= this.timing.failureBackoffMs;
  }

  /** One fetch at a time; concurrent callers share it. Rejects with KeySetUnavailable on any failure. */
  private refresh(): Promise<void> {
    if (!this.mayFetch()) return Promise.reject(new KeySetUnavailable("signing keys unavailable"));
    this.pending ??= this.fetchKeys().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetchKeys(): Promise<void> {
    try {
      const response = await fetch(this.url, {
        signal: AbortSignal.timeout(this.timing.fetchTimeoutMs),
        headers: { accept: "application/jwk-set+json, application/json" },
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new Error(`JWKS answered ${response.status}`);
      }
      this.keys = createLocalJWKSet(await response.json());
      this.loadedAt = Date.now();
      this.lastFailureAt = undefined;
    } catch (cause) {
      this.lastFailureAt = Date.now();
      throw new KeySetUnavailable("signing keys unavailable", { cause });
    }
  }
}

/**
 * Tokens that verified are remembered briefly, so a session's next calls skip the signature check
 * (costly for RS256) for a map lookup. A minute is well inside the JWKS refresh interval, so a
 * withdrawn key is not honoured any longer than the key cache honours it anyway.
 */
class VerifiedTokens {
  private readonly entries = new Map<string, { identity: CallerIdentity; expiresAt: number }>();

  constructor(
    private readonly maxEntries = 1024,
    private readonly ttlMs = 60_000,
  ) {}

  get(token: string): CallerIdentity | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > Date.now()) return { ...entry.identity, scopes: [...entry.identity.scopes] };
    this.entries.delete(token);
    return undefined;
  }

  set(token: string, identity: CallerIdentity, exp: number | undefined): void {
    const expiresAt = Math.min(Date.now() + this.ttlMs, (exp ?? 0) * 1000);
    if (expiresAt <= Date.now()) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, { identity: { ...identity, scopes: [...identity.scopes] }, expiresAt });
  }
}

export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const timing = { ...defaultTiming, ...options.keySet };
  const clockTolerance = options.clockToleranceSec ?? 30;
  const verified = new VerifiedTokens();
  let keySet: RemoteKeySet | undefined;

  function keySetFor(url: string): RemoteKeySet {
    if (keySet?.url !== url) keySet = new RemoteKeySet(url, timing);
    return keySet;
  }

  return {
    async verify(token: string): Promise<VerificationOutcome> {
      const metadata = options.metadata.current();
      if (metadata === undefined) return unavailable("OAuth configuration unavailable");
      const known = verified.get(token);
      if (known !== undefined) return { ok: true, identity: known };
      // Checked only on a cache miss: a cached token already passed this check.
      const formProblem = tokenFormProblem(token);
      if (formProblem !== undefined) return invalid(formProblem);
      const jwksUrl = options.jwksUrl ?? metadata.jwks_uri;
      if (jwksUrl === undefined) return unavailable("signing keys not published by the authorization server");
      const verifyOptions: JWTVerifyOptions = {
        issuer: options.issuer ?? metadata.issuer,
        audience: options.audience,
        algorithms: asymmetricAlgorithms,
        clockTolerance,
        requiredClaims: ["iss", "aud", "exp", "sub"],
      };
      let payload: JWTPayload;
      try {
        payload = await verifyJwt(token, keySetFor(jwksUrl).getKey, verifyOptions);
      } catch (error) {
        return describeFailure(error);
      }
      const outcome = checkPayload(payload, options.requiredScopes, clockTolerance);
      if (outcome.ok) verified.set(token, outcome.identity, payload.exp);
      return outcome;
    },
  };
}

/**
 * One token, one spelling: every segment must be canonical base64url (RFC 7515 §2: no padding, only
 * the URL-safe alphabet, zero trailing bits), else `<token>==` would verify too. And the `typ` header
 * must not name another kind of JWT (RFC 9068 §4): an ID token, a DPoP proof or a logout token is not
 * an access token even when the same key signed it.
 */
function tokenFormProblem(token: string): string | undefined {
  const segments = token.split(".");
  if (segments.length !== 3) return "malformed token";
  if (!segments.every(isCanonicalBase64url)) return "token segments are not canonical base64url";
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return "malformed token";
  }
  if (header.typ !== undefined && !isAccessTokenType(header.typ)) return "token type (typ header) is not an access token";
  return undefined;
}

const base64urlAlphabet = /^[A-Za-z0-9_-]*$/;

function isCanonicalBase64url(segment: string): boolean {
  if (!base64urlAlphabet.test(segment) || segment.length % 4 === 1) return false;
  // Re-encoding the decoded bytes gives the one canonical spelling; non-zero trailing bits differ.
  try {
    return toBase64url(fromBase64url(segment)) === segment;
  } catch {
    return false;
  }
}

/**
 * `typ` is a media type (RFC 7515 §4.1.9): compared case-insensitively, with `application/` optional.
 * `at+jwt` is RFC 9068's; `JWT` (and absent) is what many identity providers put on access tokens.
 */
function isAccessTokenType(typ: unknown): boolean {
  if (typeof typ !== "string") return false;
  const mediaType = typ.toLowerCase().replace(/^application\//, "");
  return mediaType === "at+jwt" || mediaType === "jwt";
}

async function verifyJwt(token: string, getKey: JWTVerifyGetKey, options: JWTVerifyOptions): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, getKey, options)).payload;
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    // No kid and several candidate keys: the token is valid if one of them verifies it.
    for await (const key of error) {
      try {
        return (await jwtVerify(token, key, options)).payload;
      } catch (attempt) {
        if (!(attempt instanceof errors.JWSSignatureVerificationFailed)) throw attempt;
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

function checkPayload(payload: JWTPayload, requiredScopes: string[], clockToleranceSec: number): VerificationOutcome {
  if (typeof payload.sub !== "string" || payload.sub === "") return invalid("sub claim missing or not a string");
  if (typeof payload.iat === "number" && payload.iat > Date.now() / 1000 + clockToleranceSec) return invalid("iat claim is in the future");
  const scopes = scopesOf(payload);
  const missing = requiredScopes.filter((scope) => !scopes.includes(scope));
  if (missing.length > 0) {
    return { ok: false, error: "insufficient_scope", description: `token lacks required scope: ${missing.join(" ")}`, requiredScopes };
  }
  return { ok: true, identity: identityOf(payload, scopes) };
}

/** `scope` (space-separated, RFC 9068) or `scp` (array or string, as Entra ID and Okta issue it). */
export function scopesOf(payload: JWTPayload): string[] {
  const scopes = new Set<string>();
  for (const claim of [payload.scope, payload.scp]) {
    const values = typeof claim === "string" ? claim.split(" ") : Array.isArray(claim) ? claim : [];
    for (const value of values) if (typeof value === "string" && value !== "") scopes.add(value);
  }
  return [...scopes];
}

function identityOf(payload: JWTPayload, scopes: string[]): CallerIdentity {
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const identity: CallerIdentity = { sub: payload.sub as string, scopes };
  const email = text(payload.email);
  const name = text(payload.name);
  const clientId = text(payload.client_id) ?? text(payload.azp);
  if (email !== undefined) identity.email = email;
  // Only the boolean `true` counts: a string "true", a missing claim or `false` is an unverified address.
  if (email !== undefined && payload.email_verified === true) identity.emailVerified = true;
  if (name !== undefined) identity.name = name;
  if (clientId !== undefined) identity.clientId = clientId;
  return identity;
}

const invalid = (description: string): VerificationOutcome => ({ ok: false, error: "invalid_token", description });
const unavailable = (description: string): VerificationOutcome => ({ ok: false, error: "temporarily_unavailable", description });

/** Short descriptions that name the failed check, never the token or its claim values. */
function describeFailure(error: unknown): VerificationOutcome {
  if (error instanceof KeySetUnavailable) return unavailable(error.message);
  if (error instanceof errors.JWTExpired) return invalid("token expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    return invalid(error.reason === "missing" ? `${error.claim} claim missing` : `${error.claim} claim check failed`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return invalid("signing algorithm not allowed");
  if (error instanceof errors.JWKSNoMatchingKey) return invalid("signing key not found");
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalid("signature verification failed");
  if (error instanceof errors.JOSENotSupported) return invalid("token uses an unsupported algorithm or key");
  if (error instanceof errors.JOSEError) return invalid("malformed token");
  return invalid("token could not be verified");
}
