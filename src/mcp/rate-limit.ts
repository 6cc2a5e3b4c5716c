/**
 * The per-user rate limit of /mcp: every request costs one unit of the caller's bucket (keyed by the
 * token's `sub`) before its body is read, and a `tools/call` of an expensive tool costs its extra
 * units once the body names it — packaging, importing and storing bytes weigh more than a read.
 * A refusal is HTTP 429 with a JSON-RPC error body (never problem+json) and `Retry-After`.
 */
import type { RateDecision, RateLimiter } from "../http/rate-limit.ts";
import type { CallerIdentity } from "./registry.ts";
import { jsonRpcErrorResponse } from "../http/jsonrpc-error.ts";

/** Units a call of each expensive tool costs in all; every other request costs 1. */
export const toolCosts: Readonly<Record<string, number>> = { export_course: 10, import_course: 5, upload_asset: 5 };

export interface McpRateLimit {
  /** Charged for every request, before its body is read. */
  request(user: CallerIdentity): Response | undefined;
  /** Charged once the body is parsed: the extra units of expensive tool calls. */
  body(user: CallerIdentity, body: unknown): Response | undefined;
  /** Charged after a write committed: one unit per `writeBytesPerUnit` bytes it stored, so bulk writes wait as bulk calls do. */
  written(sub: string, bytes: number): void;
}

/** Bytes written that cost one unit of the caller's bucket, unless RATE_LIMIT_MCP_WRITE_BYTES says otherwise. */
export const defaultWriteBytesPerUnit = 64 * 1024;

function extraCostOf(message: unknown): number {
  if (typeof message !== "object" || message === null) return 0;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  if (method !== "tools/call" || typeof params?.name !== "string") return 0;
  return (toolCosts[params.name] ?? 1) - 1;
}

/** The extra units of a JSON-RPC message or batch beyond the one every request pays. */
export function extraRequestCost(body: unknown): number {
  return Array.isArray(body) ? body.reduce<number>((sum, message) => sum + extraCostOf(message) + 1, -1) : extraCostOf(body);
}

function refusal(decision: Exclude<RateDecision, { ok: true }>): Response {
  return jsonRpcErrorResponse(429, -32000, `Too Many Requests: rate limit reached for this user; retry after ${decision.retryAfterSeconds} seconds`, {
    "Retry-After": String(decision.retryAfterSeconds),
  });
}

export function mcpRateLimit(limiter: RateLimiter, writeBytesPerUnit = defaultWriteBytesPerUnit): McpRateLimit {
  return {
    written(sub, bytes) {
      limiter.charge(sub, Math.floor(bytes / writeBytesPerUnit));
    },
    request(user) {
      const decision = limiter.take(user.sub);
      return decision.ok ? undefined : refusal(decision);
    },
    body(user, body) {
      const extra = extraRequestCost(body);
      if (extra <= 0) return undefined;
      const decision = limiter.take(user.sub, extra);
      return decision.ok ? undefined : refusal(decision);
    },
  };
}
