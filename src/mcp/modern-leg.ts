/**
 * The 2026-07-28 leg of /mcp: one request, no session. The SDK's handler (`createMcpHandler`, legacy
 * traffic refused there) answers it, except what the SDK does not implement as this service must: the
 * tasks extension (tasks/tasks-extension.ts) and `subscriptions/listen` (modern-listen.ts), each asked
 * once the SDK's own inbound ladder has passed the request. The era is told before this (endpoint.ts).
 */
import { classifyInboundRequest, createMcpHandler, type JSONRPCRequest, type Server } from "@modelcontextprotocol/server";
import type { Logger } from "../log.ts";
import { jsonRpcErrorResponse } from "../http/jsonrpc-error.ts";
import { authInfoFor, type McpCaller } from "./caller.ts";
import type { CallerIdentity } from "./registry.ts";

/** Answers the 2026-07-28 methods the SDK does not implement here (the tasks extension, listen); undefined passes the request on. */
export interface ModernMethodOwner {
  /**
   * Whether it may answer this body (a quick look at the raw message, before the SDK classifies it);
   * false sends the request straight to the SDK, with no second classification.
   */
  claims(body: { method: string; params?: unknown }): boolean;
  answer(message: JSONRPCRequest, user: CallerIdentity): Promise<Response | undefined>;
}

export interface ModernLegOptions {
  /**
   * The server of one 2026-07-28 request (server.ts, `createMcpServer` for this era); `method` is the one
   * its `Mcp-Method` header names, which the SDK checks against the body before any handler runs.
   */
  createServer: (method: string | undefined) => Server;
  logger: Logger;
  /** The tasks extension and subscriptions/listen, asked in this order. */
  owners: ModernMethodOwner[];
}

const mixedEras = () =>
  jsonRpcErrorResponse(
    400,
    -32600,
    "Bad Request: a request in protocol revision 2026-07-28 (its _meta carries io.modelcontextprotocol/protocolVersion) has no session: send it without Mcp-Session-Id, or speak 2025-11-25 inside the session",
  );

export function createModernLeg({ createServer, logger, owners }: ModernLegOptions) {
  // Legacy traffic is refused here: endpoint.ts sends none.
  const sdk = createMcpHandler((request) => createServer(request.requestInfo?.headers.get("mcp-method") ?? undefined), {
    legacy: "reject",
    onerror: (error) => logger.debug("mcp modern request refused", { error: error.message }),
  });
  const claimed = (parsedBody: unknown): boolean => {
    const body = parsedBody as { method?: unknown; params?: unknown } | null;
    return typeof body?.method === "string" && owners.some((owner) => owner.claims(body as { method: string; params?: unknown }));
  };

  /** A claimed request the SDK's inbound ladder passes as modern goes to its owner; anything else to the SDK. */
  async function answeredByOwnerOrSdk(request: Request, caller: McpCaller, parsedBody: unknown): Promise<Response> {
    const route = classifyInboundRequest({
      httpMethod: request.method,
      protocolVersionHeader: request.headers.get("mcp-protocol-version") ?? undefined,
      mcpMethodHeader: request.headers.get("mcp-method") ?? undefined,
      mcpNameHeader: request.headers.get("mcp-name") ?? undefined,
      body: parsedBody,
    });
    if (route.kind === "modern" && route.messageKind === "request") {
      for (const owner of owners) {
        const answered = await owner.answer(route.message, caller.user);
        if (answered) return answered;
      }
    }
    return sdk.fetch(request, { parsedBody, authInfo: authInfoFor(caller) });
  }

  return {
    /** One 2026-07-28 POST (endpoint.ts told its era). */
    handle(request: Request, caller: McpCaller, parsedBody: unknown): Promise<Response> {
      // Mixed eras are refused, not guessed: a 2026-07-28 request belongs to no session.
      if (request.headers.has("mcp-session-id")) return Promise.resolve(mixedEras());
      if (claimed(parsedBody)) return answeredByOwnerOrSdk(request, caller, parsedBody);
      return sdk.fetch(request, { parsedBody, authInfo: authInfoFor(caller) });
    },
  };
}

export type ModernLeg = ReturnType<typeof createModernLeg>;
