/**
 * The single fetch handler behind `Bun.serve`, a pipeline every request runs through in order: the
 * per-address rate limit, the Origin guard, CORS preflights, the API version rule, 404/405, bearer
 * authentication, the handler; then the common headers (version, security, CORS, request id), HEAD
 * without a body, the access log, and a last-resort answer that never shows a stack trace. What each
 * step does on a route (error style, whether auth runs, when the version is checked, CORS, which rate
 * limit) is the route's own policy in the route table (`http/router.ts`), never a test of its path.
 */
import type { Logger } from "./log.ts";
import { apiVersion, unsupportedApiVersion } from "./http/api-version.ts";
import { corsHeaders, isOriginAllowed, type OriginPolicy } from "./http/cors.ts";
import { problemResponse, problemTypes } from "./http/problem.ts";
import { createRouter, type Handler, type PreparedDocument, type RequestContext, type Route } from "./http/router.ts";
import { authenticateRequest } from "./auth/challenge.ts";
import type { AccessTokenVerifier } from "./auth/types.ts";
import type { RateLimiter } from "./http/rate-limit.ts";
import { DatabaseUnavailableError } from "./store/unavailable.ts";
import { notAPageHeaders } from "./http/security-headers.ts";
import { errorAnswers, type ErrorAnswers } from "./http/error-styles.ts";

export interface AppDeps {
  baseUrl: string;
  logger: Logger;
  /** Every route, each with its policies (discovery routes, the /mcp route). */
  routes: Route[];
  verifier: AccessTokenVerifier;
  requiredScopes: string[];
  resourceMetadataUrl: string;
  /** Origins allowed on `allow-listed` routes. */
  origins: OriginPolicy;
  /** Per-client-address limit on routes whose rate limit is `address`; absent when off. */
  restRateLimiter?: RateLimiter | undefined;
  /** Called once per finished request (metrics). */
  observe?: (method: string, path: string, status: number, seconds: number) => void;
}

/** What Bun passes as the fetch handler's second argument, as much of it as we read. */
interface Connection {
  requestIP(request: Request): { address: string } | null;
  /** Bun: the request's idle time-out, in seconds from now (0: none). */
  timeout?(request: Request, seconds: number): void;
}

const publicExposeHeaders = "Service-Api-Version, Retry-After";
const textEncoder = new TextEncoder();

function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const end = url.indexOf("?", start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

/** The methods a browser may use on an allow-listed route: its own plus the preflight. */
function corsMethods(route: Route): string {
  return [...Object.keys(route.methods), "OPTIONS"].join(", ");
}

/** Request ids: a random per-process prefix and a counter, unique without a random draw per request. */
const requestIdPrefix = `${crypto.randomUUID().slice(0, 8)}-`;
let requestCounter = 0;
const nextRequestId = () => requestIdPrefix + ++requestCounter;

export function createApp(deps: AppDeps) {
  const router = createRouter(deps.routes);
  const answers = errorAnswers(deps.baseUrl);
  const styleOf = (route: Route | undefined): ErrorAnswers => answers[route?.errorStyle ?? "problem"];

  function versionRefused(request: Request, path: string, route: Route | undefined): Response | undefined {
    const version = unsupportedApiVersion(request);
    return version === undefined ? undefined : styleOf(route).unsupportedVersion(path, version);
  }

  /** An OPTIONS request a route's CORS policy answers itself, or undefined. */
  function preflight(route: Route | undefined, origin: string | null): Response | undefined {
    if (route?.cors === "allow-listed") return new Response(null, { status: 204, headers: origin ? corsHeaders(origin, corsMethods(route)) : {} });
    if (route?.cors === "public" && origin !== null) return new Response(null, { status: 204, headers: corsHeaders("*", "GET, HEAD, OPTIONS") });
    return undefined;
  }

  function route(request: Request, path: string, context: RequestContext, connection: Connection | undefined): Response | Promise<Response> {
    const match = router.match(request.method, path);
    const route = match.kind === "not-found" ? undefined : match.route;
    context.route = route;
    const origin = request.headers.get("origin");
    if ((route?.rateLimit ?? "address") === "address" && deps.restRateLimiter) {
      const decision = deps.restRateLimiter.take(connection?.requestIP(request)?.address ?? "unknown");
      if (!decision.ok) return styleOf(route).rateLimited(path, decision.retryAfterSeconds);
    }
    if (route?.cors === "allow-listed" && origin !== null && !isOriginAllowed(origin, deps.origins)) return styleOf(route).forbiddenOrigin(origin);
    if (request.method === "OPTIONS") {
      const answered = preflight(route, origin);
      if (answered) return answered;
    }
    if ((route?.versionRule ?? "first") === "first") {
      const refused = versionRefused(request, path, route);
      if (refused) return refused;
    }
    if (match.kind === "not-found") return problemResponse(deps.baseUrl, problemTypes.notFound, `No resource exists at ${path}.`, { instance: path });
    if (match.kind === "method-not-allowed") return styleOf(route).methodNotAllowed(path, request.method, match.allow.join(", "));
    const target = match.handler;
    if (typeof target !== "function") return documentResponse(request, target, context, origin);
    if (connection?.timeout) context.allowSilence = (seconds) => connection.timeout!(request, seconds);
    if (match.route.auth === "bearer") return authenticated(request, path, context, target);
    return target(request, context);
  }

  /** Verifies the bearer token once and hands the caller on; then the version rule, when it comes after auth. */
  async function authenticated(request: Request, path: string, context: RequestContext, handler: Handler): Promise<Response> {
    const auth = await authenticateRequest(request, {
      verifier: deps.verifier,
      resourceMetadataUrl: deps.resourceMetadataUrl,
      requiredScopes: deps.requiredScopes,
    });
    if (!auth.ok) return auth.response;
    context.caller = { token: auth.token, identity: auth.identity };
    if (context.route?.versionRule === "after-auth") {
      const refused = versionRefused(request, path, context.route);
      if (refused) return refused;
    }
    return handler(request, context);
  }

  /** Each prepared document's fixed headers, built once: a response made with a built `Headers` copies it natively. */
  const documentHeaders = new WeakMap<PreparedDocument, Headers>();
  /** A probed document's whole answers, GET and HEAD, each without and with the public CORS headers, built once. */
  const probeAnswers = new WeakMap<PreparedDocument, Response[]>();
  const publicCorsHeaders = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": publicExposeHeaders };

  function fixedHeadersOf(document: PreparedDocument): Headers {
    let fixed = documentHeaders.get(document);
    if (fixed === undefined) {
      fixed = new Headers({ ...notAPageHeaders, ...document.headers, "Service-Api-Version": apiVersion });
      documentHeaders.set(document, fixed);
    }
    return fixed;
  }

  /**
   * A probed document (the health check) answered with a copy of an answer built once: setting any
   * header on a response makes Bun build its `Headers` object, which was the larger part of a probe
   * (bench/NOTES.md, "The health path"). So the answer names no request: a successful probe has no access
   * line to name (it is counted), unless the log is at debug, where it takes the ordinary path.
   */
  function probeAnswer(document: PreparedDocument, head: boolean, cors: boolean): Response {
    let answers = probeAnswers.get(document);
    if (answers === undefined) {
      const fixed = Object.fromEntries(fixedHeadersOf(document));
      const length = { "Content-Length": String(textEncoder.encode(document.body).byteLength) };
      answers = [
        new Response(document.body, { headers: fixed }),
        new Response(document.body, { headers: { ...fixed, ...publicCorsHeaders } }),
        new Response(null, { headers: { ...fixed, ...length } }),
        new Response(null, { headers: { ...fixed, ...publicCorsHeaders, ...length } }),
      ];
      probeAnswers.set(document, answers);
    }
    return answers[(head ? 2 : 0) + (cors ? 1 : 0)]!.clone();
  }

  /** A prepared document's response with every header it needs, written at once (see `finish` for the rest). */
  function documentResponse(request: Request, document: PreparedDocument, context: RequestContext, origin: string | null): Response {
    const cors = origin !== null && context.route?.cors === "public";
    const head = request.method === "HEAD";
    context.headersWritten = true;
    if (context.route?.probe === true && !deps.logger.probeLines) return probeAnswer(document, head, cors);
    // Made with the fixed headers, then given the request's own: one copy of them, not two (bench/NOTES.md, "The health path").
    const response = new Response(head ? null : document.body, { headers: fixedHeadersOf(document) });
    const headers = response.headers;
    headers.set("Request-Id", context.requestId);
    if (cors) for (const [name, value] of Object.entries(publicCorsHeaders)) headers.set(name, value);
    if (head) headers.set("Content-Length", String(textEncoder.encode(document.body).byteLength));
    return response;
  }

  function finish(request: Request, response: Response, context: RequestContext): Response {
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
    const route = context.route;
    if (origin !== null && request.method !== "OPTIONS" && route) {
      if (route.cors === "allow-listed" && isOriginAllowed(origin, deps.origins)) {
        for (const [name, value] of Object.entries(corsHeaders(origin, corsMethods(route)))) headers.set(name, value);
      } else if (route.cors === "public") {
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
    const style = styleOf(context.route);
    if (error instanceof DatabaseUnavailableError) return style.unavailable(path);
    deps.logger.error("request failed", { requestId: context.requestId, path, error: error instanceof Error ? error.message : String(error) });
    return style.internalError(path);
  }

  function completed(request: Request, response: Response, path: string, context: RequestContext, started: number): Response {
    if (!context.headersWritten) {
      response = finish(request, response, context);
      response.headers.set("Request-Id", context.requestId);
    }
    const elapsedMs = performance.now() - started;
    const status = response.status;
    deps.observe?.(request.method, path, status, elapsedMs / 1000);
    const entry = { requestId: context.requestId, method: request.method, path, status, durationMs: Math.round(elapsedMs * 100) / 100, sub: context.caller?.identity.sub };
    deps.logger.access(entry, context.route?.probe === true && status < 300);
    return response;
  }

  return {
    router,
    /** Answers synchronously when the handler does (the discovery routes): Bun serves those without awaiting a promise. */
    fetch(request: Request, connection?: Connection): Response | Promise<Response> {
      const started = performance.now();
      const path = pathOf(request.url);
      const context: RequestContext = { path, requestId: nextRequestId() };
      let routed: Response | Promise<Response>;
      try {
        routed = route(request, path, context, connection);
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
