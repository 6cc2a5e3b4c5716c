/**
 * The answers the fetch pipeline (app.ts) gives besides a handler's: prepared documents (the discovery
 * routes and the health probe) with their fixed headers built once, the common headers every answer gets
 * (version, security, CORS), and HEAD without a body.
 */
import type { Logger } from "../log.ts";
import { apiVersion } from "./api-version.ts";
import { corsHeaders, isOriginAllowed, type OriginPolicy } from "./cors.ts";
import type { PreparedDocument, RequestContext, Route } from "./router.ts";
import { notAPageHeaders } from "./security-headers.ts";

const publicExposeHeaders = "Service-Api-Version, Retry-After";
const textEncoder = new TextEncoder();

/** The methods a browser may use on an allow-listed route: its own plus the preflight. */
export function corsMethods(route: Route): string {
  return [...Object.keys(route.methods), "OPTIONS"].join(", ");
}

/** Answers for prepared documents; `logger.probeLines` decides whether a probe takes the ordinary path. */
export function documentAnswers(logger: Pick<Logger, "probeLines">) {
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
  function answer(request: Request, document: PreparedDocument, context: RequestContext, origin: string | null): Response {
    const cors = origin !== null && context.route?.cors === "public";
    const head = request.method === "HEAD";
    context.headersWritten = true;
    if (context.route?.probe === true && !logger.probeLines) return probeAnswer(document, head, cors);
    // Made with the fixed headers, then given the request's own: one copy of them, not two (bench/NOTES.md, "The health path").
    const response = new Response(head ? null : document.body, { headers: fixedHeadersOf(document) });
    const headers = response.headers;
    headers.set("Request-Id", context.requestId);
    if (cors) for (const [name, value] of Object.entries(publicCorsHeaders)) headers.set(name, value);
    if (head) headers.set("Content-Length", String(textEncoder.encode(document.body).byteLength));
    return response;
  }

  /**
   * A probe route's answer on the fast path (app.ts): its prepared document's copy, or undefined when
   * the route's GET is not a prepared document or the log wants a line per probe.
   */
  function probe(request: Request, route: Route, origin: string | null): Response | undefined {
    const document = route.methods.GET;
    if (logger.probeLines || document === undefined || typeof document === "function") return undefined;
    return probeAnswer(document, request.method === "HEAD", origin !== null && route.cors === "public");
  }

  return { answer, probe };
}

export function finishResponse(request: Request, response: Response, context: RequestContext, origins: OriginPolicy): Response {
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
    if (route.cors === "allow-listed" && isOriginAllowed(origin, origins)) {
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
export async function withoutBody(response: Response): Promise<Response> {
  if (response.body === null) return response;
  const headers = new Headers(response.headers);
  if (headers.get("content-type")?.startsWith("text/event-stream")) void response.body.cancel();
  else headers.set("Content-Length", String((await response.arrayBuffer()).byteLength));
  return new Response(null, { status: response.status, headers });
}
