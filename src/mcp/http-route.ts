/**
 * The /mcp route: its policies (JSON-RPC errors, bearer auth, the version rule after auth, allow-listed
 * origins, a per-user rate limit) and its handler, which checks the shared database, charges the
 * caller's rate limit, reads the body within its deadline, and hands the request to the endpoint, which tells its era.
 */
import type { Handler, RequestContext, Route } from "../http/router.ts";
import { outageDetail, type DatabaseHealth } from "../store/unavailable.ts";
import type { McpRateLimit } from "./rate-limit.ts";
import type { McpEndpoint } from "./endpoint.ts";
import { readJsonBody, type BodyPolicy } from "./request-body.ts";
import { temporarilyUnavailableResponse } from "../auth/challenge.ts";

/** The spec's TemporarilyUnavailableError (503 with Retry-After), for a database outage. */
export function databaseUnavailableResponse(): Response {
  return temporarilyUnavailableResponse(outageDetail);
}

export const mcpPath = "/mcp";

export interface McpRouteDeps {
  endpoint: Pick<McpEndpoint, "handle">;
  body: BodyPolicy;
  /** Seconds the connection may stay silent while the answer is worked out (long tool calls, streams). */
  answerSeconds: number;
  rateLimit?: McpRateLimit | undefined;
  /** The shared database's health: while it is down, /mcp answers 503 instead of failing each call. */
  database?: DatabaseHealth | undefined;
}

export function mcpRoute(deps: McpRouteDeps): Route {
  const handle: Handler = async (request: Request, context: RequestContext) => {
    if (deps.database && !deps.database.available) return databaseUnavailableResponse();
    const { token, identity: user } = context.caller!;
    const limited = deps.rateLimit?.request(user);
    if (limited) return limited;
    let parsedBody: unknown;
    if (request.method === "POST") {
      // The body has its own deadline; once it is in, the answer may take as long as a tool needs.
      context.allowSilence?.(Math.ceil(deps.body.deadlineMs / 1000) + 1);
      const body = await readJsonBody(request, deps.body);
      if (!body.ok) return body.response;
      parsedBody = body.body;
      const costly = deps.rateLimit?.body(user, parsedBody);
      if (costly) return costly;
    }
    context.allowSilence?.(deps.answerSeconds);
    return deps.endpoint.handle(request, { token, user }, parsedBody);
  };
  return {
    path: mcpPath,
    // Listed in the order the CORS preflight names them.
    methods: { GET: handle, POST: handle, DELETE: handle },
    errorStyle: "jsonrpc",
    cors: "allow-listed",
    auth: "bearer",
    versionRule: "after-auth",
    rateLimit: "caller",
  };
}
