/**
 * The embedded development identity provider, end to end over HTTP: its discovery document, the MCP
 * SDK's own client-side OAuth (dynamic registration, authorization code + PKCE) ending in a tool call,
 * resource defaulting, tokens that survive a restart, `bun run token`, and the production refusal.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { startDevIdentityProvider } from "../src/dev-identity-provider/index.ts";
import { completeAuthorizationInBrowserless } from "../src/dev-identity-provider/scripted-login.ts";
import { startTestService, freePort, type TestService } from "./support/service.ts";
import { devLogin, untilServiceVerifiesTokens } from "./support/dev-login.ts";

const repositoryRoot = join(import.meta.dir, "..");

/** Calls `list_courses` on the service with a bearer token, through the MCP SDK client. */
async function listCoursesWith(service: TestService, token: string) {
  const client = new Client({ name: "oauth-flow-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(service.mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  try {
    return await client.callTool({ name: "list_courses", arguments: {} });
  } finally {
    await client.close();
  }
}

/** The status `POST /mcp` answers an `initialize` with this bearer token: 200 when the token is accepted. */
async function mcpStatusWith(service: TestService, token: string): Promise<number> {
  const response = await fetch(service.mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "oauth-flow-test", version: "1.0.0" } },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

const REDIRECT_URI = "http://127.0.0.1/callback";

/** A public client registered directly at the provider, for tests that drive the protocol by hand. */
interface RawClient {
  clientId: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
}

async function registerRawClient(service: TestService, metadata: Record<string, unknown> = {}): Promise<RawClient> {
  const discovery = (await (await fetch(`${service.authUrl}/.well-known/openid-configuration`)).json()) as Record<string, string>;
  const registration = await fetch(discovery.registration_endpoint!, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", ...metadata }),
  });
  expect(registration.status).toBe(201);
  const { client_id: clientId } = (await registration.json()) as { client_id: string };
  return { clientId, authorizationEndpoint: discovery.authorization_endpoint!, tokenEndpoint: discovery.token_endpoint! };
}

function authorizationUrl(client: RawClient, params: Record<string, string>): URL {
  const url = new URL(client.authorizationEndpoint);
  url.search = new URLSearchParams({ client_id: client.clientId, response_type: "code", redirect_uri: REDIRECT_URI, ...params }).toString();
  return url;
}

function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256" };
}

/** An MCP host's OAuth state, kept in memory; "the browser" is the scripted sign-in. */
class InMemoryOAuthClient implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationCode: string | undefined;
  readonly redirectUrl = "http://127.0.0.1:8976/oauth/callback";
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "oauth-flow test host",
    redirect_uris: [this.redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };

  constructor(private readonly username: string) {}

  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(authorizationUrl: URL) {
    const callback = await completeAuthorizationInBrowserless(authorizationUrl, this.username);
    this.authorizationCode = callback.searchParams.get("code") ?? undefined;
  }
}

describe("embedded development identity provider", () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
    await untilServiceVerifiesTokens(service);
  });
  afterAll(async () => {
    await service?.dispose();
  });

  test("its metadata advertises /oauth2/authorize, /oauth2/token, dynamic registration and PKCE S256", async () => {
    const response = await fetch(`${service.authUrl}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata.issuer).toBe(service.authUrl);
    expect(metadata.authorization_endpoint).toBe(`${service.authUrl}/oauth2/authorize`);
    expect(metadata.token_endpoint).toBe(`${service.authUrl}/oauth2/token`);
    expect(metadata.registration_endpoint).toBe(`${service.authUrl}/oauth2/register`);
    expect(metadata.jwks_uri).toBe(`${service.authUrl}/oauth2/jwks`);
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(["openid", "profile", "email", "offline_access"]));
    expect(new URL(service.authUrl).hostname).toBe("127.0.0.1");

    // RFC 8414 clients ask the oauth-authorization-server form first; it answers the same document.
    const rfc8414 = await fetch(`${service.authUrl}/.well-known/oauth-authorization-server`);
    expect(rfc8414.status).toBe(200);
    expect(((await rfc8414.json()) as Record<string, unknown>).token_endpoint).toBe(metadata.token_endpoint);
  });

  test("the protected-resource metadata names the embedded provider as the authorization server", async () => {
    const response = await fetch(`${service.url}/.well-known/oauth-protected-resource/mcp`);
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata.resource).toBe(service.mcpUrl);
    expect(metadata.authorization_servers).toEqual([service.authUrl]);
  });

  test("a signed-in user gets an RS256 JWT for the MCP resource with sub, scope, client_id, email and name", async () => {
    const tokens = await devLogin(service, "ada.lovelace");
    expect(decodeProtectedHeader(tokens.accessToken).alg).toBe("RS256");
    const claims = decodeJwt(tokens.accessToken);
    expect(claims).toMatchObject({
      iss: service.authUrl,
      aud: service.mcpUrl,
      sub: "ada.lovelace",
      email: "ada.lovelace@example.test",
      name: "Ada Lovelace",
    });
    expect(String(claims.scope).split(" ").sort()).toEqual(["email", "offline_access", "openid", "profile"]);
    expect(typeof claims.client_id).toBe("string");
    expect(claims.exp! - claims.iat!).toBeGreaterThan(0);
    expect(tokens.refreshToken).toBeString();

    const result = await listCoursesWith(service, tokens.accessToken);
    expect(result.isError).toBeFalsy();
  });

  test("an authorization request without a resource parameter gets a token for the MCP resource", async () => {
    const client = await registerRawClient(service, { grant_types: ["authorization_code"] });
    const { verifier, ...challenge } = pkcePair();
    const callback = await completeAuthorizationInBrowserless(authorizationUrl(client, { scope: "openid email", ...challenge }), "grace");

    const exchange = await fetch(client.tokenEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: callback.searchParams.get("code") ?? "",
        redirect_uri: REDIRECT_URI,
        client_id: client.clientId,
        code_verifier: verifier,
      }),
    });
    expect(exchange.status).toBe(200);
    const { access_token: accessToken } = (await exchange.json()) as { access_token: string };
    expect(decodeJwt(accessToken)).toMatchObject({ aud: service.mcpUrl, sub: "grace", scope: "openid email", email: "grace@example.test" });
    expect(decodeJwt(accessToken).name).toBeUndefined();
  });

  test("PKCE is required: an authorization request without code_challenge is refused", async () => {
    const client = await registerRawClient(service);
    const authorization = authorizationUrl(client, { scope: "openid" });
    const response = await fetch(authorization, { redirect: "manual" });
    const location = new URL(response.headers.get("location") ?? "", authorization);
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("error_description")).toContain("PKCE");
  });

  test("the sign-in page asks for a username (default dev-user) with a Sign in button, and Cancel returns access_denied", async () => {
    const client = await registerRawClient(service, { client_name: "Sign-in page test" });
    const { verifier: _, ...challenge } = pkcePair();
    const authorization = authorizationUrl(client, { scope: "openid", ...challenge });

    const started = await fetch(authorization, { redirect: "manual" });
    expect(started.status).toBe(303);
    const cookie = started.headers.getSetCookie().map((header) => header.split(";")[0]).join("; ");
    const pageUrl = new URL(started.headers.get("location") ?? "", authorization);
    const page = await fetch(pageUrl, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toMatch(/<input[^>]*name="username"[^>]*value="dev-user"/);
    expect(html).toContain(">Sign in</button>");
    expect(html).toContain("Sign-in page test");
    // Its policy allows its own stylesheet by hash and nothing else; every answer says nosniff.
    expect(started.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const policy = (page.headers.get("content-security-policy") ?? "").split(";").map((directive) => directive.trim());
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    const styleHash = btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(style)))));
    expect(policy).toContain(`style-src 'sha256-${styleHash}'`);

    const cancelled = await fetch(new URL(`${pageUrl.pathname}/abort`, pageUrl), { method: "POST", headers: { cookie }, redirect: "manual" });
    expect(cancelled.status).toBe(303);
    const resumed = await fetch(new URL(cancelled.headers.get("location") ?? "", pageUrl), { headers: { cookie }, redirect: "manual" });
    const callback = new URL(resumed.headers.get("location") ?? "", pageUrl);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get("error")).toBe("access_denied");
  });

  test("a token for another resource is refused with invalid_target", async () => {
    await expect(
      devLogin({ url: service.url, authUrl: service.authUrl, config: { authAudience: "https://elsewhere.example/mcp" } }),
    ).rejects.toThrow(/invalid_target/);
  });

  test("the SDK's client-side OAuth completes authorization code + PKCE with dynamic registration against the embedded provider and then calls a tool", async () => {
    const host = new InMemoryOAuthClient("sdk-user");
    const client = new Client({ name: "oauth-flow-test", version: "1.0.0" });

    const first = new StreamableHTTPClientTransport(new URL(service.mcpUrl), { authProvider: host });
    const refused = await client.connect(first).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(host.client?.client_id).toBeString();
    expect(host.authorizationCode).toBeString();

    await first.finishAuth(host.authorizationCode!);
    expect(host.saved?.access_token).toBeString();
    expect(host.saved?.refresh_token).toBeString();
    expect(decodeJwt(host.saved!.access_token)).toMatchObject({ sub: "sdk-user", aud: service.mcpUrl, client_id: host.client!.client_id });

    const second = new StreamableHTTPClientTransport(new URL(service.mcpUrl), { authProvider: host });
    await client.connect(second);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("list_courses");
      const result = await client.callTool({ name: "list_courses", arguments: {} });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

describe("persistent signing keys", () => {
  test("a token minted before a restart of the service and its provider is still accepted after it, and its refresh token still works", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cas-oauth-restart-"));
    const env = { PORT: String(await freePort()), DEV_AUTH_PORT: String(await freePort()) };
    try {
      const before = await startTestService(env, dataDir);
      const tokens = await devLogin(before, "restart-user");
      expect((await listCoursesWith(before, tokens.accessToken)).isError).toBeFalsy();
      await before.stop();

      const after = await startTestService(env, dataDir);
      try {
        await untilServiceVerifiesTokens(after);
        expect(after.authUrl).toBe(before.authUrl);
        expect((await listCoursesWith(after, tokens.accessToken)).isError).toBeFalsy();

        // Registered clients, grants and refresh tokens persist too, so an MCP host keeps its session.
        const refreshed = await fetch(`${after.authUrl}/oauth2/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "refresh_token",
            refresh_token: tokens.refreshToken ?? "",
            client_id: String(decodeJwt(tokens.accessToken).client_id),
          }),
        });
        expect(refreshed.status).toBe(200);
        const { access_token: renewed } = (await refreshed.json()) as { access_token: string };
        expect(decodeJwt(renewed)).toMatchObject({ sub: "restart-user", aud: after.mcpUrl });
        expect((await listCoursesWith(after, renewed)).isError).toBeFalsy();
      } finally {
        await after.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("bun run token", () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
    await untilServiceVerifiesTokens(service);
  });
  afterAll(async () => {
    await service?.dispose();
  });

  // Asynchronous on purpose: the provider answering the command runs in this very process.
  async function runTokenCommand(args: string[], extraEnv: Record<string, string> = {}) {
    const child = Bun.spawn([process.execPath, "run", "token", ...args], {
      cwd: repositoryRoot,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        PORT: String(new URL(service.url).port),
        BASE_URL: service.url,
        DEV_AUTH_PORT: String(new URL(service.authUrl).port),
        DATABASE_URL: service.config.databaseUrl,
        ...extraEnv,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    return { exitCode, stdout, stderr };
  }

  test("prints only a JWT that the running service accepts", async () => {
    const { exitCode, stdout, stderr } = await runTokenCommand(["--sub", "cli-user", "--scope", "openid email"]);
    expect(stderr).not.toContain("eyJ");
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const token = stdout.trim();
    expect(decodeJwt(token)).toMatchObject({ sub: "cli-user", scope: "openid email", aud: service.mcpUrl });
    expect((await listCoursesWith(service, token)).isError).toBeFalsy();
  });

  test("starts a temporary provider with the same keys when none is running", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cas-oauth-cli-"));
    try {
      // The service's own keys, copied into a folder whose provider is not running.
      const keys = Bun.file(join(service.dataDir, "dev-idp-keys.json"));
      await Bun.write(join(dataDir, "dev-idp-keys.json"), keys);
      const { exitCode, stdout } = await runTokenCommand([], {
        DEV_AUTH_PORT: String(await freePort()),
        DATABASE_URL: `sqlite://${join(dataDir, "course-authoring.db")}`,
      });
      expect(exitCode).toBe(0);
      const token = stdout.trim();
      expect(decodeJwt(token).sub).toBe("dev-user");
      // Signed with the key the service trusts, by an issuer the service does not: refused.
      expect(decodeProtectedHeader(token).kid).toBe((await firstSigningKid(service)) ?? "");
      expect(await mcpStatusWith(service, token)).toBe(401);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("refuses with a clear error when AUTH_URL is set", async () => {
    const { exitCode, stdout, stderr } = await runTokenCommand([], { AUTH_URL: "https://login.example.com" });
    expect(exitCode).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("AUTH_URL is set");
  });
});

async function firstSigningKid(service: TestService): Promise<string | undefined> {
  const jwks = (await (await fetch(`${service.authUrl}/oauth2/jwks`)).json()) as { keys: Array<{ kid?: string; alg?: string }> };
  return jwks.keys.find((key) => key.alg === "RS256")?.kid;
}

describe("production guard", () => {
  test("the development provider refuses to start with NODE_ENV=production", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cas-oauth-prod-"));
    try {
      await expect(
        startDevIdentityProvider({ port: await freePort(), dataDir, resource: "http://localhost:3000/mcp", nodeEnv: "production" }),
      ).rejects.toThrow(/NODE_ENV=production/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("the service refuses to start with NODE_ENV=production and no AUTH_URL", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cas-oauth-prod-"));
    try {
      await expect(startTestService({ NODE_ENV: "production" }, dataDir)).rejects.toThrow(/AUTH_URL/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
