/**
 * The contracts of the auth layer: where the authorization server's metadata comes from, what a
 * verification yields, and the identity handed to MCP tools. The implementations live beside this
 * file; the HTTP edge depends only on these shapes.
 */
import type { CallerIdentity } from "./identity.ts";

export type { CallerIdentity };

/** RFC 8414 / OpenID Connect Discovery metadata, as much of it as this service reads. */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  jwks_uri?: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  code_challenge_methods_supported?: string[];
  [field: string]: unknown;
}

/** Loads the authorization server's metadata in the background, with retries, and keeps the last good copy. */
export interface AuthorizationServerMetadataSource {
  /** The metadata once it has loaded at least once; undefined until then. */
  current(): AuthorizationServerMetadata | undefined;
  /** Resolves when the metadata has loaded once (never rejects; keeps retrying). */
  readonly loaded: Promise<void>;
  close(): void;
}

export type VerificationFailure = "invalid_token" | "insufficient_scope" | "temporarily_unavailable";

export type VerificationOutcome =
  | { ok: true; identity: CallerIdentity }
  | { ok: false; error: VerificationFailure; description: string; requiredScopes?: string[] };

export interface AccessTokenVerifier {
  verify(token: string): Promise<VerificationOutcome>;
}
