/**
 * Obtains an access token from the development identity provider the way a browser and an MCP host
 * would, over plain HTTP: dynamic client registration of a public client, PKCE S256, the authorization
 * request, the sign-in form, the redirect carrying the code, and the code exchange with the resource
 * indicator. Used by `bun run token`, the tests and the benchmarks; no shortcut around the real flow.
 */
import { createHash, randomBytes } from "node:crypto";
import { DEFAULT_SCOPES } from "./index.ts";
import { DEFAULT_USERNAME } from "./interactions.ts";

export interface ScriptedLoginOptions {
  /** The provider's issuer, e.g. "http://127.0.0.1:3001". */
  issuer: string;
  /** The protected resource the token is for (its `aud`), e.g. "http://localhost:3000/mcp". */
  resource: string;
  /** The account to sign in as; its `sub`. Default "dev-user". */
  username?: string;
  /** Default: openid profile email offline_access. */
  scopes?: string[];
}

export interface ScriptedLoginTokens {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** Seconds. */
  expiresIn: number;
  scope?: string;
}

export class ScriptedLoginError extends Error {
  constructor(message: string) {
    super(`development sign-in failed: ${message}`);
    this.name = "ScriptedLoginError";
  }
}

const REDIRECT_URI = "http://127.0.0.1/callback";
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_HOPS = 20;

export async function obtainAccessTokenByLogin(options: ScriptedLoginOptions): Promise<ScriptedLoginTokens> {
  const metadata = await discover(options.issuer);
  const clientId = await registerPublicClient(metadata.registration_endpoint);
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(16).toString("base64url");

  const scopes = options.scopes ?? DEFAULT_SCOPES;
  const authorization = new URL(metadata.authorization_endpoint);
  authorization.search = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    scope: scopes.join(" "),
    resource: options.resource,
    state,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    // OpenID Connect grants offline_access (a refresh token) only with prompt=consent, as the MCP SDK sends.
    ...(scopes.includes("offline_access") ? { prompt: "consent" } : {}),
  }).toString();

  const callback = await completeAuthorizationInBrowserless(authorization, options.username ?? DEFAULT_USERNAME);
  if (callback.searchParams.get("state") !== state) throw new ScriptedLoginError("the redirect carried a different state");
  const code = callback.searchParams.get("code");
  if (!code) throw new ScriptedLoginError("the redirect carried no code");

  const response = await post(metadata.token_endpoint, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
    resource: options.resource,
  });
  return parseTokenResponse(await readJson(response, "token endpoint"));
}

/**
 * Plays the browser from an authorization URL to the client's redirect: follows redirects, keeps the
 * provider's cookies, submits the sign-in form as `username`, and returns the first URL that leaves
 * the provider's origin (the redirect URI with `code` and `state`). Provider errors are thrown.
 */
export async function completeAuthorizationInBrowserless(authorizationUrl: URL, username: string): Promise<URL> {
  const providerOrigin = authorizationUrl.origin;
  const cookies = new Map<string, string>();
  let request: { url: URL; method: "GET" | "POST"; form?: URLSearchParams } = { url: authorizationUrl, method: "GET" };

  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if (request.url.origin !== providerOrigin) return returnedToClient(request.url);
    const response = await fetch(request.url, {
      method: request.method,
      redirect: "manual",
      headers: {
        accept: "text/html",
        ...(cookies.size ? { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") } : {}),
        ...(request.form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      ...(request.form ? { body: request.form.toString() } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    keepCookies(cookies, response.headers.getSetCookie());

    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      request = { url: new URL(location, request.url), method: "GET" };
      continue;
    }
    const html = await response.text();
    const form = response.ok ? signInForm(html, request.url) : undefined;
    if (!form) throw new ScriptedLoginError(`unexpected ${response.status} from ${request.url.pathname}: ${textOf(html).slice(0, 200)}`);
    form.fields.set("username", username);
    request = { url: form.action, method: "POST", form: form.fields };
  }
  throw new ScriptedLoginError(`more than ${MAX_HOPS} redirects`);
}

interface ProviderMetadata {
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
}

async function discover(issuer: string): Promise<ProviderMetadata> {
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    throw new ScriptedLoginError(`cannot reach ${url} (${error instanceof Error ? error.message : String(error)})`);
  }
  const body = await readJson(response, "discovery");
  const field = (name: keyof ProviderMetadata): string => {
    const value = body[name];
    if (typeof value !== "string") throw new ScriptedLoginError(`the provider's metadata has no ${name}`);
    return value;
  };
  return {
    authorization_endpoint: field("authorization_endpoint"),
    token_endpoint: field("token_endpoint"),
    registration_endpoint: field("registration_endpoint"),
  };
}

async function registerPublicClient(registrationEndpoint: string): Promise<string> {
  const response = await fetch(registrationEndpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      client_name: "Course Authoring scripted sign-in",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = await readJson(response, "registration");
  if (typeof body.client_id !== "string") throw new ScriptedLoginError("registration returned no client_id");
  return body.client_id;
}

function post(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams(fields).toString(),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

async function readJson(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ScriptedLoginError(`${what} answered ${response.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ScriptedLoginError(`${what} answered ${response.status} with a non-object`);
  }
  const record = body as Record<string, unknown>;
  if (!response.ok) {
    throw new ScriptedLoginError(`${what} answered ${response.status}: ${String(record.error ?? "")} ${String(record.error_description ?? "")}`.trim());
  }
  return record;
}

function parseTokenResponse(body: Record<string, unknown>): ScriptedLoginTokens {
  const { access_token, refresh_token, id_token, expires_in, scope } = body;
  if (typeof access_token !== "string") throw new ScriptedLoginError("token endpoint returned no access_token");
  return {
    accessToken: access_token,
    expiresIn: typeof expires_in === "number" ? expires_in : 0,
    ...(typeof refresh_token === "string" ? { refreshToken: refresh_token } : {}),
    ...(typeof id_token === "string" ? { idToken: id_token } : {}),
    ...(typeof scope === "string" ? { scope } : {}),
  };
}

function returnedToClient(url: URL): URL {
  const error = url.searchParams.get("error");
  if (error) throw new ScriptedLoginError(`${error}: ${url.searchParams.get("error_description") ?? ""}`.trim());
  return url;
}

/** A tiny cookie jar: one provider origin, so names are enough; cleared cookies are dropped. */
function keepCookies(jar: Map<string, string>, setCookies: string[]): void {
  for (const header of setCookies) {
    const [pair = "", ...attributes] = header.split(";");
    const separator = pair.indexOf("=");
    if (separator <= 0) continue;
    const name = pair.slice(0, separator).trim();
    const value = pair.slice(separator + 1).trim();
    const expired = attributes.some((attribute) => {
      const [key = "", attributeValue = ""] = attribute.trim().split("=");
      if (key.toLowerCase() === "max-age") return Number(attributeValue) <= 0;
      if (key.toLowerCase() === "expires") return Date.parse(attributeValue) <= Date.now();
      return false;
    });
    if (expired || value === "") jar.delete(name);
    else jar.set(name, value);
  }
}

/** The sign-in form of our provider's page: its action and fields (the `username` input among them). */
function signInForm(html: string, pageUrl: URL): { action: URL; fields: URLSearchParams } | undefined {
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const [, attributes = "", inner = ""] = match;
    if (!/method\s*=\s*["']?post/i.test(attributes)) continue;
    const fields = new URLSearchParams();
    let hasUsername = false;
    for (const input of inner.matchAll(/<input\b([^>]*)>/gi)) {
      const name = attributeOf(input[1] ?? "", "name");
      if (!name) continue;
      hasUsername ||= name === "username";
      fields.set(name, attributeOf(input[1] ?? "", "value") ?? "");
    }
    const action = attributeOf(attributes, "action");
    if (hasUsername && action) return { action: new URL(action, pageUrl), fields };
  }
  return undefined;
}

function attributeOf(attributes: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attributes);
  const raw = match?.[1] ?? match?.[2] ?? match?.[3];
  return raw === undefined ? undefined : decodeEntities(raw);
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function textOf(html: string): string {
  return decodeEntities(html.replace(/<style[\s\S]*?<\/style>/gi, "").replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ").trim();
}
