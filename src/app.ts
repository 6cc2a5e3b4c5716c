/**
 * The single fetch handler behind `Bun.serve`, a pipeline every request runs through in order: the
 * per-address rate limit, the Origin guard, CORS preflights, the API version rule, 404/405, bearer
 * authentication, the handler; then the common headers (version, security, CORS, request id), HEAD
 * without a body, the access log, and a last-resort answer that never shows a stack trace. What each
 * step does on a route (error style, whether auth runs, when the version is checked, CORS, which rate
 * limit) is the route's own policy in the route table (`http/router.ts`), never a test of its path.
 */
import type { Logger } from "./log.ts";
import { unsupportedApiVersion } from "./http/api-version.ts";
import { corsHeaders, isOriginAllowed, type OriginPolicy } from "./http/cors.ts";
import { problemResponse, problemTypes } from "./http/problem.ts";
import { createRouter, type Handler, type RequestContext, type Route } from "./http/router.ts";
import { corsMethods, documentAnswers, finishResponse, withoutBody } from "./http/answers.ts";
import { authenticateRequest } from "./auth/challenge.ts";
import type { AccessTokenVerifier } from "./auth/types.ts";
import type { RateLimiter } from "./http/rate-limit.ts";
import { DatabaseUnavailableError } from "./store/unavailable.ts";
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
    if (typeof target !== "function") return documents.answer(request, target, context, origin);
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

  const documents = documentAnswers(deps.logger);
  const finish = (request: Request, response: Response, context: RequestContext): Response => finishResponse(request, response, context, deps.origins);

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

  /**
   * The probes (health) by path, when a successful probe is only counted: no metrics to observe, no
   * per-address limit, the log below debug. Such a probe of an accepted version is answered before the
   * pipeline's context, clock and request id, which nothing would read (bench/NOTES.md, "Performance V").
   */
  const probesByPath = new Map<string, Route>();
  if (!deps.observe && !deps.restRateLimiter && !deps.logger.probeLines) {
    for (const candidate of deps.routes) if (candidate.probe === true && !candidate.prefix) probesByPath.set(candidate.path, candidate);
  }
  const probeEntry = { requestId: "", method: "GET", path: "", status: 200, durationMs: 0, sub: undefined };

  /** A probe's prepared answer, or undefined when the request must take the pipeline (another method or version, debug log). */
  function probed(request: Request, probe: Route): Response | undefined {
    if ((request.method !== "GET" && request.method !== "HEAD") || unsupportedApiVersion(request) !== undefined) return undefined;
    const answered = documents.probe(request, probe, request.headers.get("origin"));
    if (answered !== undefined) deps.logger.access(probeEntry, true);
    return answered;
  }

  /** Answers synchronously when the handler does (the discovery routes): Bun serves those without awaiting a promise. */
  function fetch(request: Request, connection?: Connection): Response | Promise<Response> {
    const path = pathOf(request.url);
    const probe = probesByPath.size === 0 ? undefined : probesByPath.get(path);
    const answered = probe === undefined ? undefined : probed(request, probe);
    return answered ?? pipeline(request, path, connection);
  }

  function pipeline(request: Request, path: string, connection: Connection | undefined): Response | Promise<Response> {
    const started = performance.now();
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
  }

  /**
   * The probes' paths for `Bun.serve`'s own router, which matches them natively: a probe is then
   * answered without reading its URL (bench/NOTES.md, "Performance V"). Any other request to such a
   * path goes through `fetch`'s pipeline as before. Empty when probes are not only counted.
   */
  const probeRoutes: Record<string, (request: Request, connection: Connection) => Response | Promise<Response>> = {};
  for (const [path, probe] of probesByPath) {
    probeRoutes[path] = (request, connection) => probed(request, probe) ?? pipeline(request, path, connection);
  }

  return { router, fetch, probeRoutes };
}

export type App = ReturnType<typeof createApp>;
