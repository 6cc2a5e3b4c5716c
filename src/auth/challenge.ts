/**
 * The HTTP edge of authentication for `/mcp`: reads the `Authorization` header, asks the verifier,
 * and turns every failure into the exact response of spec 4.4 and 5 — the empty 401 when no bearer
 * token was sent, 401 `invalid_token`, 403 `insufficient_scope` with the required `scope`, and 503
 * `temporarily_unavailable` with `Retry-After: 5`. Every challenge carries `resource_metadata`; every
 * error body is the closed `{error, error_description}` object and never echoes the token.
 */
import type { AccessTokenVerifier, CallerIdentity } from "./types.ts";
import { jsonResponse } from "../json-response.ts";

export interface AuthenticationDeps {
  verifier: AccessTokenVerifier;
  /** `{base_url}/.well-known/oauth-protected-resource/mcp`. */
  resourceMetadataUrl: string;
  requiredScopes: string[];
}

/** The verified caller with the token as parsed here, so nothing after auth parses the header again. */
export type AuthenticationResult = { ok: true; identity: CallerIdentity; token: string } | { ok: false; response: Response };

/** Larger headers are refused before any parsing or cryptography. */
export const maxAuthorizationHeaderBytes = 8 * 1024;
export const unavailableRetryAfterSeconds = 5;

/** RFC 6750 section 2.1: `Bearer` (any case), one or more spaces, a b64token. */
const bearerCredentials = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export async function authenticateRequest(request: Request, deps: AuthenticationDeps): Promise<AuthenticationResult> {
  const header = request.headers.get("authorization");
  // Spec 2.2 and 2.4: error parameters and OAuthError bodies only when a bearer token was sent.
  if (header === null || !/^\s*bearer(\s|$)/i.test(header)) return { ok: false, response: missingTokenResponse(deps.resourceMetadataUrl) };
  if (header.length > maxAuthorizationHeaderBytes) return reject(deps, "invalid_token", "authorization header too large");
  const token = bearerCredentials.exec(header.trim())?.[1];
  if (token === undefined) return reject(deps, "invalid_token", "malformed bearer token");

  const outcome = await deps.verifier.verify(token);
  if (outcome.ok) return { ok: true, identity: outcome.identity, token };
  if (outcome.error === "temporarily_unavailable") return { ok: false, response: temporarilyUnavailableResponse(outcome.description) };
  return reject(deps, outcome.error, outcome.description, outcome.requiredScopes);
}

/** 401 with an empty body, no Content-Type, and a challenge without `error=`. */
export function missingTokenResponse(resourceMetadataUrl: string): Response {
  return new Response(null, {
    status: 401,
    headers: { "Cache-Control": "no-store", "WWW-Authenticate": `Bearer resource_metadata=${quoted(resourceMetadataUrl)}` },
  });
}

/** The TemporarilyUnavailableError of spec 2.3, also used by the protected-resource metadata endpoint. */
export function temporarilyUnavailableResponse(description: string): Response {
  return oauthErrorResponse(503, { error: "temporarily_unavailable", error_description: safeDescription(description) }, {
    "Retry-After": String(unavailableRetryAfterSeconds),
  });
}

function reject(
  deps: AuthenticationDeps,
  error: "invalid_token" | "insufficient_scope",
  description: string,
  requiredScopes: string[] = deps.requiredScopes,
): { ok: false; response: Response } {
  const text = safeDescription(description);
  const parameters = [`error=${quoted(error)}`, `error_description=${quoted(text)}`];
  if (error === "insufficient_scope") parameters.push(`scope=${quoted(requiredScopes.join(" "))}`);
  parameters.push(`resource_metadata=${quoted(deps.resourceMetadataUrl)}`);
  const status = error === "insufficient_scope" ? 403 : 401;
  return { ok: false, response: oauthErrorResponse(status, { error, error_description: text }, { "WWW-Authenticate": `Bearer ${parameters.join(", ")}` }) };
}

function oauthErrorResponse(status: number, body: { error: string; error_description: string }, headers: Record<string, string>): Response {
  return jsonResponse(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** RFC 6750 limits error_description to printable ASCII without `"` and `\`. */
function safeDescription(description: string): string {
  return description.replace(/["\\]/g, "'").replace(/[^\x20-\x7E]/g, "").slice(0, 200);
}

function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, "\\$&")}"`;
}
