/**
 * The embedded development identity provider (DESIGN.md section 5): a real OpenID provider built on
 * `oidc-provider`, listening on loopback when AUTH_URL is unset, so MCP Inspector or any MCP host can
 * run the full OAuth flow locally — discovery, dynamic client registration, authorization code with
 * PKCE S256, and JWT access tokens whose `aud` is our protected resource (RFC 8707). Signing keys
 * persist in the data folder, so tokens survive restarts. It refuses to start in production.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Account, ClientMetadataView, Configuration, IssuedToken, PromptList, Provider } from "oidc-provider";
import { DevProviderStore, STATE_FILE } from "./adapter.ts";
import { handleInteraction, INTERACTION_PATH, matchInteractionRoute } from "./interactions.ts";
import { loadOrCreateSigningKeys } from "./keys.ts";
import { escapeHtml } from "../render/html.ts";
import { supportedScopes } from "../discovery/protected-resource.ts";

export interface DevIdentityProvider {
  /** `{auth_url}`: `http://<host>:<port>`, no trailing slash. */
  issuer: string;
  close(): Promise<void>;
}

export interface DevIdentityProviderOptions {
  /** Loopback only; default "127.0.0.1". */
  host?: string;
  port: number;
  /** Folder for the persistent signing keys and registered clients; created when missing. */
  dataDir: string;
  /** The protected resource: the audience of every access token, e.g. "http://localhost:3000/mcp". */
  resource: string;
  scopes?: string[];
  /** "production" refuses to start. */
  nodeEnv?: string;
}

/** The dev provider offers exactly the scopes the service's metadata advertises (spec section 5). */
export const DEFAULT_SCOPES: string[] = [...supportedScopes];

/** Lifetimes in seconds. Access tokens are short enough that refresh gets exercised in a working day. */
const TTL = {
  AccessToken: 60 * 60,
  AuthorizationCode: 60,
  IdToken: 60 * 60,
  Interaction: 10 * 60,
  Session: 60 * 60,
  Grant: 14 * 24 * 60 * 60,
  RefreshToken: 14 * 24 * 60 * 60,
};

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);

export async function startDevIdentityProvider(options: DevIdentityProviderOptions): Promise<DevIdentityProvider> {
  if (options.nodeEnv === "production") {
    throw new Error("the development identity provider refuses to start with NODE_ENV=production; set AUTH_URL to your identity provider");
  }
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new Error(`the development identity provider listens on loopback only; host ${host} is not a loopback address`);
  }
  const { resource } = options;
  if (!normalizeResource(resource)) throw new Error(`the development identity provider needs an absolute resource URL, got ${resource}`);
  const jwks = await loadOrCreateSigningKeys(options.dataDir);
  const store = new DevProviderStore(join(options.dataDir, STATE_FILE));
  const oidc = await importOidcProvider();

  // Listen first: the issuer names the real port, which matters when port 0 asks for any free one.
  let provider: Provider | undefined;
  let handleProviderRequest: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  const server = createServer((req, res) => {
    res.setHeader("x-content-type-options", "nosniff");
    if (!provider || !handleProviderRequest) {
      res.writeHead(503, { "retry-after": "1" }).end();
      return;
    }
    routeRequest(provider, handleProviderRequest, req, res).catch((error: unknown) => {
      logProblem("request failed", error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end();
    });
  });
  const port = await listen(server, options.port, host);
  const issuer = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  provider = new oidc.Provider(issuer, providerConfiguration(oidc, { resource, scopes: options.scopes ?? DEFAULT_SCOPES, jwks, store }));
  provider.on("server_error", (_ctx, error) => logProblem("server_error", error));
  provider.on("error", (error) => logProblem("error", error));
  handleProviderRequest = provider.callback();

  return {
    issuer,
    close: () => closeServer(server),
  };
}

function providerConfiguration(oidc: OidcProviderModule, options: {
  resource: string;
  scopes: string[];
  jwks: Awaited<ReturnType<typeof loadOrCreateSigningKeys>>;
  store: DevProviderStore;
}): Configuration {
  const { resource, scopes } = options;
  const { errors } = oidc;
  return {
    adapter: options.store.adapterFactory(),
    jwks: { keys: options.jwks.keys.map((key) => ({ ...key })) },
    // No cookie signing keys: the cookies only carry unguessable ids, and signing would pull in
    // keygrip's tsscmp, which trips a deprecation warning under Bun on every start.
    scopes,
    claims: {
      openid: ["sub"],
      profile: ["name", "preferred_username"],
      email: ["email", "email_verified"],
    },
    responseTypes: ["code"],
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      id_token_signed_response_alg: "RS256",
      token_endpoint_auth_method: "client_secret_basic",
    },
    pkce: { required: () => true },
    routes: {
      authorization: "/oauth2/authorize",
      token: "/oauth2/token",
      jwks: "/oauth2/jwks",
      registration: "/oauth2/register",
      pushed_authorization_request: "/oauth2/par",
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      resourceIndicators: {
        enabled: true,
        // A request without `resource` is for our MCP endpoint: the only resource this provider serves.
        defaultResource: async (_ctx, _client, oneOf) => (oneOf ? (oneOf.includes(resource) ? resource : oneOf) : resource),
        // The token endpoint keeps the resource chosen at authorization, so every access token is a JWT for it.
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          // Compared as URLs, but the audience stays exactly as configured: the service matches it verbatim.
          if (normalizeResource(indicator) !== normalizeResource(resource)) {
            throw new errors.InvalidTarget(`this development provider only issues tokens for ${resource}`);
          }
          return {
            scope: scopes.join(" "),
            audience: resource,
            accessTokenFormat: "jwt",
            accessTokenTTL: TTL.AccessToken,
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
      // Access tokens carry an audience, so the userinfo endpoint (audience-less tokens only) is off.
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
    },
    interactions: {
      policy: signInOnEveryAuthorization(oidc.interactionPolicy),
      url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}`,
    },
    findAccount: async (_ctx, sub) => devAccount(sub),
    extraTokenClaims: async (_ctx, token) => profileClaimsForToken(token),
    clientBasedCORS: (_ctx, origin, client) => isLoopbackOrigin(origin) || redirectOrigins(client).has(origin),
    renderError: async (ctx, out) => {
      ctx.type = "html";
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Sign-in error</title><h1>Sign-in error</h1><p>${escapeHtml(out.error ?? "error")}: ${escapeHtml(out.error_description ?? "")}</p>`;
    },
    ttl: TTL,
  };
}

/** The account behind any username: `sub` is the name, with a dev e-mail and display name. */
function devAccount(sub: string): Account {
  return {
    accountId: sub,
    claims: async () => ({ sub, ...profileOf(sub), preferred_username: sub, email_verified: true }),
  };
}

export function profileOf(username: string): { email: string; name: string } {
  const name = username
    .split(/[._-]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join(" ");
  return { email: `${username}@example.test`, name: name || username };
}

/** `email` and `name` ride in the access token when the matching scope was granted, as in the ID token. */
async function profileClaimsForToken(token: IssuedToken): Promise<Record<string, unknown> | undefined> {
  if (token.kind !== "AccessToken" || !token.accountId) return undefined;
  const granted = new Set((token.scope ?? "").split(" "));
  const { email, name } = profileOf(token.accountId);
  return {
    ...(granted.has("email") ? { email } : {}),
    ...(granted.has("profile") ? { name } : {}),
  };
}

/**
 * The sign-in form is the consent, so the provider asks on every authorization instead of reusing a
 * browser session silently; a page elsewhere can never obtain a code without the user's click.
 */
function signInOnEveryAuthorization(interactionPolicy: OidcProviderModule["interactionPolicy"]): PromptList {
  const policy = interactionPolicy.base();
  const { Check } = interactionPolicy;
  policy.get("login")?.checks.add(
    new Check("dev_sign_in_every_time", "the development provider asks to sign in on every authorization", (ctx) =>
      ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
    ),
  );
  return policy;
}

async function routeRequest(
  provider: Provider,
  handleProviderRequest: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const interaction = matchInteractionRoute(req.method ?? "GET", url.pathname);
  if (interaction) return handleInteraction(provider, interaction, req, res);
  // RFC 8414 clients (the MCP SDK among them) ask here first; the OpenID document answers both.
  if (url.pathname === "/.well-known/oauth-authorization-server") req.url = `/.well-known/openid-configuration${url.search}`;
  return handleProviderRequest(req, res);
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`the development identity provider cannot listen on ${host}:${port}: the port is in use (set DEV_AUTH_PORT)`)
          : error,
      );
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function normalizeResource(value: string): string | undefined {
  return URL.parse(value)?.href;
}

function redirectOrigins(client: ClientMetadataView): Set<string> {
  return new Set(client.redirectUris.map((uri) => URL.parse(uri)?.origin).filter((origin): origin is string => origin !== undefined));
}

function isLoopbackOrigin(origin: string): boolean {
  const url = URL.parse(origin);
  return url !== null && LOOPBACK_HOSTS.has(url.hostname.replace(/^\[|\]$/g, ""));
}

function logProblem(what: string, error: unknown): void {
  // One line, message only: error objects from the token endpoint may reference request data.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`dev identity provider: ${what}: ${message}\n`);
}

type OidcProviderModule = typeof import("oidc-provider");

/**
 * oidc-provider prints "Unsupported runtime" when imported under Bun. Our tests prove the flows it
 * serves here, so that one notice is dropped; anything else it says still reaches stderr.
 */
async function importOidcProvider(): Promise<OidcProviderModule> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].includes("Unsupported runtime")) return;
    warn(...args);
  };
  try {
    return await import("oidc-provider");
  } finally {
    console.warn = warn;
  }
}
