/**
 * The /mcp endpoint: tells each request's protocol era, once, and hands it to its leg. A 2026-07-28
 * request (the per-request `_meta` envelope, or a header claiming that revision, by the SDK's own
 * `isLegacyRequest`) goes to the modern leg (modern-leg.ts: the SDK's handler, the tasks extension,
 * listen); everything else, GET and DELETE included, to the 2025-11-25 leg (sessions.ts: sessions and
 * their streams, or stateless requests). No other module decides the era.
 */
import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import type { McpCaller } from "./caller.ts";
import type { ModernLeg } from "./modern-leg.ts";
import type { McpSessions } from "./sessions.ts";

export interface McpEndpointLegs {
  legacy: Pick<McpSessions, "handle">;
  /** Absent, only 2025-11-25 is served. */
  modern?: ModernLeg | undefined;
}

export function createMcpEndpoint({ legacy, modern }: McpEndpointLegs) {
  /** What the quick checks below leave open, told by the SDK's own classification (which owns every modern error answer). */
  async function classified(request: Request, caller: McpCaller, parsedBody: unknown, modernLeg: ModernLeg): Promise<Response> {
    if (await isLegacyRequest(request, parsedBody)) return legacy.handle(request, caller, parsedBody, false);
    return modernLeg.handle(request, caller, parsedBody);
  }

  return {
    /** One authenticated /mcp request; `parsedBody` is the POST body already read (request-body.ts). */
    handle(request: Request, caller: McpCaller, parsedBody: unknown): Promise<Response> {
      if (request.method !== "POST") return legacy.handle(request, caller, parsedBody, false);
      const plain = plainLegacyRequest(request, parsedBody);
      if (plain || !modern) return legacy.handle(request, caller, parsedBody, plain);
      if (claimsModernRevision(parsedBody)) return modern.handle(request, caller, parsedBody);
      return classified(request, caller, parsedBody, modern);
    },
  };
}

export type McpEndpoint = ReturnType<typeof createMcpEndpoint>;

const firstModernRevision = "2026-07-28";
const requestKeys = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * A POST the SDK's `isLegacyRequest` would certainly call legacy, told without its schema checks: one
 * well-formed JSON-RPC request (no other members; id a string or an integer; params absent or an
 * object with no `_meta` at all, so no envelope claim), not `initialize`, and no header naming a
 * 2026-07-28-or-later revision. Anything else, however ordinary, is left to the SDK's classification,
 * which also owns every modern error answer. The SDK's check parsed each session request's body with
 * four schemas before the transport parsed it again (bench/NOTES.md, "The session read on SDK v2").
 */
export function plainLegacyRequest(request: Request, parsedBody: unknown): boolean {
  if (typeof parsedBody !== "object" || parsedBody === null || Array.isArray(parsedBody)) return false;
  const message = parsedBody as Record<string, unknown>;
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string" || message.method === "initialize") return false;
  const id = message.id;
  if (typeof id !== "string" && !(typeof id === "number" && Number.isSafeInteger(id))) return false;
  for (const key in message) if (!requestKeys.has(key)) return false;
  const params = message.params;
  if (params !== undefined) {
    if (typeof params !== "object" || params === null || Array.isArray(params) || Object.hasOwn(params, "_meta")) return false;
  }
  const version = request.headers.get("mcp-protocol-version");
  return version === null || version.trim() < firstModernRevision;
}

/**
 * A POST the SDK's `isLegacyRequest` certainly calls modern, told without its schema checks: one JSON-RPC
 * message (not a batch) with a method whose `params._meta` carries the per-request envelope's
 * protocol-version claim, whatever its value ("a request carrying the envelope claim, even one naming a
 * revision the endpoint does not serve", in the SDK's words: the modern path answers it, errors
 * included). Anything else is left to `isLegacyRequest`. The check was a tenth of a modern request's CPU.
 */
export function claimsModernRevision(parsedBody: unknown): boolean {
  if (typeof parsedBody !== "object" || parsedBody === null || Array.isArray(parsedBody)) return false;
  const message = parsedBody as { method?: unknown; params?: unknown };
  if (typeof message.method !== "string" || typeof message.params !== "object" || message.params === null) return false;
  const meta = (message.params as { _meta?: unknown })._meta;
  return typeof meta === "object" && meta !== null && !Array.isArray(meta) && Object.hasOwn(meta, PROTOCOL_VERSION_META_KEY);
}
