/**
 * CORS for browser MCP clients, and the `Origin` check that protects /mcp from DNS rebinding. The
 * discovery documents are public and readable from any origin; /mcp answers only origins on its
 * allow-list (the service's own, configured ones, and loopback pages while the development identity
 * provider runs), and refuses others before any work is done.
 */
const allowHeaders = "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Service-Api-Version";
const exposeHeaders = "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, Service-Api-Version, Retry-After, Request-Id";

export interface OriginPolicy {
  /** Exact origins allowed to call /mcp from a browser. */
  allowed: Set<string>;
  /** Also allow any http(s) origin on a loopback host (development only). */
  allowLoopback: boolean;
}

const loopbackOrigin = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

export function isOriginAllowed(origin: string, policy: OriginPolicy): boolean {
  return policy.allowed.has(origin) || (policy.allowLoopback && loopbackOrigin.test(origin));
}

/** Headers that let a browser read the response; `origin` is echoed only when it is allowed. */
export function corsHeaders(origin: string, methods: string): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Methods": methods,
    "Access-Control-Allow-Headers": allowHeaders,
    "Access-Control-Expose-Headers": exposeHeaders,
    "Access-Control-Max-Age": "600",
    Vary: "Origin",
  };
}
