/**
 * Real access tokens for tests: signs in at the test service's embedded development identity provider
 * through the full authorization code + PKCE flow, as `bun run token` does, and returns the token for
 * the service's MCP endpoint once the service is ready to verify it.
 */
import { obtainAccessTokenByLogin, type ScriptedLoginTokens } from "../../src/dev-identity-provider/scripted-login.ts";

/** What the helpers need from a started service (a `TestService` fits). */
export interface ServiceWithDevProvider {
  url: string;
  authUrl: string;
  config?: { authAudience: string };
}

const READY_TIMEOUT_MS = 10_000;

/** The full token response (access, refresh, ID token) for `username`. */
export async function devLogin(service: ServiceWithDevProvider, username = "dev-user", scopes?: string[]): Promise<ScriptedLoginTokens> {
  const tokens = await obtainAccessTokenByLogin({
    issuer: service.authUrl,
    resource: service.config?.authAudience ?? `${service.url}/mcp`,
    username,
    ...(scopes ? { scopes } : {}),
  });
  await untilServiceVerifiesTokens(service);
  return tokens;
}

/** A bearer token for `POST /mcp`, signed in as `username` (default scopes: openid profile email offline_access). */
export async function devAccessToken(service: ServiceWithDevProvider, username = "dev-user", scopes?: string[]): Promise<string> {
  return (await devLogin(service, username, scopes)).accessToken;
}

/**
 * The service loads its authorization server's metadata in the background and answers 503 until it
 * has; a token is only useful once the protected-resource metadata answers 200.
 */
export async function untilServiceVerifiesTokens(service: ServiceWithDevProvider): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const response = await fetch(`${service.url}/.well-known/oauth-protected-resource/mcp`).catch(() => undefined);
    await response?.body?.cancel();
    if (response?.status === 200) return;
    if (Date.now() > deadline) throw new Error(`${service.url} did not load its OAuth configuration within ${READY_TIMEOUT_MS} ms`);
    await Bun.sleep(25);
  }
}
