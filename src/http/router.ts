/**
 * A hand-written router: exact paths to per-method handlers, plus prefix routes for path families
 * that answer for any suffix. It decides 404 and 405 itself and serves HEAD wherever GET is served,
 * so handlers stay small functions from a Request to a Response, or prepared documents.
 */

import type { CallerIdentity } from "../auth/types.ts";

export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** A caller the auth layer verified: the token as sent, parsed once, and who it names. */
export interface AuthenticatedCaller {
  token: string;
  identity: CallerIdentity;
}

export interface RequestContext {
  /** The path of the request URL, without the query. */
  path: string;
  requestId: string;
  /** Filled in by the auth step on routes that ask for it; the access log names its `sub`. */
  caller?: AuthenticatedCaller;
  /**
   * Gives the connection `seconds` more to stay silent from now (the server's per-request idle time,
   * where the server has one): a route that reads a body allows its body deadline, then its answer time.
   */
  allowSilence?: (seconds: number) => void;
  /** The route the path matched (whatever the method), once routed; undefined for an unknown path. */
  route?: Route;
  /** Set when the response was written with the common headers already in it (a prepared document). */
  headersWritten?: boolean;
}

export type ErrorStyle = "problem" | "oauth" | "jsonrpc";

export type Handler = (request: Request, context: RequestContext) => Response | Promise<Response>;

/**
 * A document prepared at start-up and served as is: the app writes its response, the common headers
 * included, with one constructor call instead of adding headers to a finished response.
 */
export interface PreparedDocument {
  body: string;
  headers: Readonly<Record<string, string>>;
}

export interface Route {
  path: string;
  /** When true, the route also answers every path below `path + "/"`. */
  prefix?: boolean;
  methods: Partial<Record<Method, Handler | PreparedDocument>>;
  /**
   * Who may call it from a browser: `public`, any origin, without credentials (preflight and
   * `Access-Control-Allow-Origin: *`); `allow-listed`, only the configured origins, and a request from
   * any other origin is refused before anything else. Absent: no CORS headers.
   */
  cors?: "public" | "allow-listed";
  /** How the app's own errors on this route are shaped: problem+json (the default), OAuth-style JSON or JSON-RPC. */
  errorStyle?: ErrorStyle;
  /** `bearer`: the token is verified before the handler runs, which finds the caller in `context.caller`. */
  auth?: "bearer";
  /**
   * When `Service-Api-Version` is checked: `first` (before routing decides 404 or 405, the default), or
   * `after-auth` (a missing or bad credential is answered first, as spec 4.4 lists).
   */
  versionRule?: "first" | "after-auth";
  /** `address`: the per-client-address REST limit applies (the default); `caller`: the handler limits per user. */
  rateLimit?: "address" | "caller";
  /**
   * A route balancers and orchestrators probe every few seconds: its successful answers are counted in
   * a summary line at info and logged one by one only at debug (see `Logger.access`).
   */
  probe?: boolean;
}

export type Match =
  | { kind: "found"; route: Route; handler: Handler | PreparedDocument }
  | { kind: "method-not-allowed"; route: Route; allow: string[] }
  | { kind: "not-found" };

export function allowedMethods(route: Route): string[] {
  const methods = Object.keys(route.methods) as Method[];
  const allow = new Set<string>(methods);
  if (route.methods.GET) allow.add("HEAD");
  return [...allow];
}

export function createRouter(routes: Route[]) {
  const exact = new Map(routes.filter((r) => !r.prefix).map((r) => [r.path, r]));
  const prefixed = routes.filter((r) => r.prefix).sort((a, b) => b.path.length - a.path.length);

  function find(path: string): Route | undefined {
    const route = exact.get(path);
    if (route) return route;
    return prefixed.find((r) => path === r.path || path.startsWith(`${r.path}/`));
  }

  return {
    routes,
    match(method: string, path: string): Match {
      const route = find(path);
      if (!route) return { kind: "not-found" };
      const handler = route.methods[method as Method] ?? (method === "HEAD" ? route.methods.GET : undefined);
      if (!handler) return { kind: "method-not-allowed", route, allow: allowedMethods(route) };
      return { kind: "found", route, handler };
    },
  };
}

export type Router = ReturnType<typeof createRouter>;
