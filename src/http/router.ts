/**
 * A hand-written router: exact paths to per-method handlers, plus prefix routes for path families
 * that answer for any suffix. It decides 404 and 405 itself and serves HEAD wherever GET is served,
 * so handlers stay small functions from a Request to a Response, or prepared documents.
 */

export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

export interface RequestContext {
  /** The path of the request URL, without the query. */
  path: string;
  requestId: string;
  /** Filled in by the /mcp auth layer, so the access log can name the caller. */
  sub?: string;
  /** The route the path matched (whatever the method), once routed; undefined for an unknown path. */
  route?: Route;
  /** Set when the response was written with the common headers already in it (a prepared document). */
  headersWritten?: boolean;
}

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
  /** A public document any origin may read from a browser: CORS preflight and `Access-Control-Allow-Origin: *`. */
  publicCors?: boolean;
  /** How the app's own errors on this route are shaped: problem+json (the default) or OAuth-style JSON. */
  errorStyle?: "problem" | "oauth";
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
