/** The /mcp transport's own error form: a JSON-RPC error body, never problem+json (spec 7, rule 2). */
import { jsonResponse } from "../json-response.ts";

export function jsonRpcErrorResponse(status: number, code: number, message: string, headers: HeadersInit = {}): Response {
  return jsonResponse({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}
