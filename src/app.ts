/**
 * The single fetch handler behind `Bun.serve`: API version rule, CORS and the Origin guard, the REST
 * rate limit per client address, routing with 404/405/HEAD, the auth layer in front of /mcp, the
 * access log, and a last-resort 500 that never shows a stack trace. Handlers stay small; everything
 * cross-cutting happens once, here.
 */
import type { Logger } from "./log.ts";
import { apiVersion, unsupportedApiVersion } from "./http/api-version.ts";
import { corsHeaders, isOriginAllowed, type OriginPolicy } from "./http/cors.ts";
import { problemResponse, problemTypes } from "./http/problem.ts";
import { createRouter, type PreparedDocument, type RequestContext, type Route } from "./http/router.ts";
import { authenticateRequest } from "./auth/challenge.ts";
import type { AccessTokenVerifier } from "./auth/types.ts";
import { jsonRpcErrorResponse, type McpSessions } from "./mcp/sessions.ts";
import { jsonResponse } from "./http/json.ts";
import type { RateLimiter } from "./http/rate-limit.ts";
import { temporarilyUnavailableResponse } from "./auth/challenge.ts";
import { DatabaseUnavailableError, type DatabaseHealth } from "./store/unavailable.ts";
import { notAPageHeaders } from "./http/security-headers.ts";

export interface AppDeps {
  baseUrl: string;
  logger: Logger;
  discovery: Route[];
  verifier: AccessTokenVerifier;
  requiredScopes: string[];
  resourceMetadataUrl: string;
  sessions: McpSessions;
  origins: OriginPolicy;
  /** Per-client-address limit on every route but /mcp (which limits per user); absent when off. */
  restRateLimiter?: RateLimiter | undefined;
  /** The shared database's health: while it is down, /mcp answers 503 instead of failing each call. */
  database?: DatabaseHealth;
  /** Called once per finished request (metrics). */
  observe?: (method: string, path: string, status: number, seconds: number) => void;
}

/** What Bun passes as the fetch handler's second argument, as much of it as we read. */
interface ClientAddressSource {
  requestIP(request: Request): { address: string } | null;
}

const mcpPath = "/mcp";
const textEncoder = new TextEncoder();

/** The spec's TemporarilyUnavailableError (503 with Retry-After), for a database outage. */
function databaseUnavailable(): Response {
  return temporarilyUnavailableResponse("The database is temporarily unavailable; retry shortly");
}
const mcpMethods = "GET, POST, DELETE, OPTIONS";
const publicExposeHeaders = "Service-Api-Version, Retry-After";

function oauthStyleError(status: number, description: string, headers: Record<string, string> = {}): Response {
  return jsonResponse({ error: "invalid_request", error_description: description }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const end = url.indexOf("?", start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

/** Request ids: a random per-process prefix and a counter, unique without a random draw per request. */
const requestIdPrefix = `${crypto.randomUUID().slice(0, 8)}-`;
let requestCounter = 0;
const nextRequestId = () => requestIdPrefix + ++requestCounter;

export function createApp(deps: AppDeps) {
  const mcpRoute: Route = {
    path: mcpPath,
    methods: { POST: handleMcp, GET: handleMcp, DELETE: handleMcp },
  };
  const router = createRouter([...deps.discovery, mcpRoute]);

  async function handleMcp(request: Request, context: RequestContext): Promise<Response> {
    const auth = await authenticateRequest(request, {
      verifier: deps.verifier,
      resourceMetadataUrl: deps.resourceMetadataUrl,
      requiredScopes: deps.requiredScopes,
    });
    if (!auth.ok) return auth.response;
    context.sub = auth.identity.sub;
    const version = unsupportedApiVersion(request);
    if (version !== undefined) {
      return jsonRpcErrorResponse(400, -32600, `Unsupported Service-Api-Version "${version.slice(0, 20)}": only version ${apiVersion} is served`);
    }
    if (deps.database && !deps.database.available) return databaseUnavailable();
    const token = request.headers.get("authorization")!.slice("Bearer ".length).trim();
    return deps.sessions.handle(request, token, auth.identity);
  }

  /**
   * The REST routes' 429: problem+json, except on the protected-resource metadata, whose errors are
   * OAuth-style JSON (spec 4.2): there it is the spec's TemporarilyUnavailableError shape.
   */
  function rateLimited(path: string, oauthErrors: boolean, retryAfterSeconds: number): Response {
    const headers = { "Retry-After": String(retryAfterSeconds) };
    const detail = `Too many requests from this address; retry after ${retryAfterSeconds} seconds.`;
    if (oauthErrors) {
      return jsonResponse({ error: "temporarily_unavailable", error_description: detail }, { status: 429, headers: { "Cache-Control": "no-store", ...headers } });
    }
    return problemResponse(deps.baseUrl, problemTypes.rateLimited, detail, { instance: path, headers });
  }

  function route(request: Request, path: string, context: RequestContext, client: ClientAddressSource | undefined): Response | Promise<Response> {
    const origin = request.headers.get("origin");
    const match = router.match(request.method, path);
    // Discovery routes carry their own CORS and error-style flags (src/discovery/routes.ts).
    context.route = match.kind === "not-found" ? undefined : match.route;
    const oauthErrors = context.route?.errorStyle === "oauth";
    if (path !== mcpPath && deps.restRateLimiter) {
      const decision = deps.restRateLimiter.take(client?.requestIP(request)?.address ?? "unknown");
      if (!decision.ok) return rateLimited(path, oauthErrors, decision.retryAfterSeconds);
    }
    if (path === mcpPath) {
      if (origin !== null && !isOriginAllowed(origin, deps.origins)) {
        return jsonRpcErrorResponse(403, -32000, `Forbidden: origin ${origin.slice(0, 100)} is not allowed to call this server`);
      }
      if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: origin ? corsHeaders(origin, mcpMethods) : {} });
    } else {
      if (request.method === "OPTIONS" && origin !== null && context.route?.publicCors) {
        return new Response(null, { status: 204, headers: corsHeaders("*", "GET, HEAD, OPTIONS") });
      }
      const version = unsupportedApiVersion(request);
      if (version !== undefined && oauthErrors) {
        return oauthStyleError(400, `Service-Api-Version "${version.slice(0, 20)}" is not supported; the only version is ${apiVersion}`);
      }
      if (version !== undefined) {
        return problemResponse(deps.baseUrl, problemTypes.unsupportedApiVersion, `Service-Api-Version "${version.slice(0, 20)}" is not supported; the only version is ${apiVersion}.`, { instance: path });
      }
    }
    if (match.kind === "not-found") {
      return problemResponse(deps.baseUrl, problemTypes.notFound, `No resource exists at ${path}.`, { instance: path });
    }
    if (match.kind === "method-not-allowed") {
      const allow = match.allow.join(", ");
      if (path === mcpPath) return jsonRpcErrorResponse(405, -32000, `Method ${request.method} is not allowed on /mcp; use ${allow}`, { Allow: allow });
      if (oauthErrors) return oauthStyleError(405, `${request.method} is not supported; use ${allow}`, { Allow: allow });
      return problemResponse(deps.baseUrl, problemTypes.methodNotAllowed, `${request.method} is not supported on ${path}; allowed: ${allow}.`, {
        instance: path,
        headers: { Allow: allow },
      });
    }
    const target = match.handler;
    if (typeof target !== "function") return documentResponse(request, target, context, origin);
    return target(request, context);
  }

  /** A prepared document's response with every header it needs, written at once (see `finish` for the rest). */
  function documentResponse(request: Request, document: PreparedDocument, context: RequestContext, origin: string | null): Response {
    const headers: Record<string, string> = { ...notAPageHeaders, ...document.headers, "Service-Api-Version": apiVersion, "Request-Id": context.requestId };
    if (origin !== null && context.route?.publicCors) {
      headers["Access-Control-Allow-Origin"] = "*";
      headers["Access-Control-Expose-Headers"] = publicExposeHeaders;
    }
    context.headersWritten = true;
    if (request.method === "HEAD") headers["Content-Length"] = String(textEncoder.encode(document.body).byteLength);
    return new Response(request.method === "HEAD" ? null : document.body, { headers });
  }

  function finish(request: Request, response: Response, path: string, context: RequestContext): Response {
    let headers = response.headers;
    try {
      headers.set("Service-Api-Version", apiVersion);
    } catch {
      // Some responses (e.g. from fetch) have immutable headers: copy them into a new response.
      response = new Response(response.body, response);
      headers = response.headers;
      headers.set("Service-Api-Version", apiVersion);
    }
    // A handler's own policy (an HTML page's) stands; everything else gets the locked-down one.
    for (const name in notAPageHeaders) if (!headers.has(name)) headers.set(name, notAPageHeaders[name]!);
    const origin = request.headers.get("origin");
    if (origin !== null && request.method !== "OPTIONS") {
      if (path === mcpPath) {
        if (isOriginAllowed(origin, deps.origins)) for (const [k, v] of Object.entries(corsHeaders(origin, mcpMethods))) headers.set(k, v);
      } else if (context.route?.publicCors) {
        headers.set("Access-Control-Allow-Origin", "*");
        headers.set("Access-Control-Expose-Headers", publicExposeHeaders);
      }
    }
    return response;
  }

  /**
   * HEAD answers what GET would, Content-Length included (RFC 9110 §9.3.2), without the body. No route
   * streams on HEAD (the MCP transport refuses it), but a stream is never read to count it.
   */
  async function withoutBody(response: Response): Promise<Response> {
    if (response.body === null) return response;
    const headers = new Headers(response.headers);
    if (headers.get("content-type")?.startsWith("text/event-stream")) void response.body.cancel();
    else headers.set("Content-Length", String((await response.arrayBuffer()).byteLength));
    return new Response(null, { status: response.status, headers });
  }

  function failed(error: unknown, path: string, context: RequestContext): Response {
    if (error instanceof DatabaseUnavailableError && path === mcpPath) return databaseUnavailable();
    deps.logger.error("request failed", { requestId: context.requestId, path, error: error instanceof Error ? error.message : String(error) });
    return path === mcpPath
      ? jsonRpcErrorResponse(500, -32603, "Internal error")
      : problemResponse(deps.baseUrl, problemTypes.internalError, "An unexpected error occurred; it has been logged.", { instance: path });
  }

  function completed(request: Request, response: Response, path: string, context: RequestContext, started: number): Response {
    if (!context.headersWritten) {
      response = finish(request, response, path, context);
      response.headers.set("Request-Id", context.requestId);
    }
    const elapsedMs = performance.now() - started;
    const status = response.status;
    deps.observe?.(request.method, path, status, elapsedMs / 1000);
    const entry = { requestId: context.requestId, method: request.method, path, status, durationMs: Math.round(elapsedMs * 100) / 100, sub: context.sub };
    deps.logger.access(entry, context.route?.probe === true && status < 300);
    return response;
  }

  return {
    router,
    /** Answers synchronously when the handler does (the discovery routes): Bun serves those without awaiting a promise. */
    fetch(request: Request, client?: ClientAddressSource): Response | Promise<Response> {
      const started = performance.now();
      const path = pathOf(request.url);
      const context: RequestContext = { path, requestId: nextRequestId() };
      let routed: Response | Promise<Response>;
      try {
        routed = route(request, path, context, client);
      } catch (error) {
        routed = failed(error, path, context);
      }
      if (request.method === "HEAD") routed = Promise.resolve(routed).then(withoutBody);
      if (routed instanceof Response) return completed(request, routed, path, context, started);
      return routed.then(
        (response) => completed(request, response, path, context, started),
        (error: unknown) => completed(request, failed(error, path, context), path, context, started),
      );
    },
  };
}

export type App = ReturnType<typeof createApp>;
