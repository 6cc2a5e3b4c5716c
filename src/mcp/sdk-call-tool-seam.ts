/**
 * The one place the service steps past the MCP SDK's public API, named so that an SDK upgrade which
 * moves what it relies on fails here at start-up (and in test/mcp-sdk-seam.test.ts), never silently.
 *
 * `Server.setRequestHandler` wraps a `tools/call` handler: it parses the request a second time and
 * validates every result against `CallToolResultSchema`, a deep copy proportional to the answer.
 * `callTool` builds each result in that shape itself, and the SDK client validates results on the
 * other side. Registering through `Protocol`'s own method skips only that wrapper; what it costs
 * otherwise is measured in bench/NOTES.md ("The tools/call seam").
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { CallToolRequestSchema, type CallToolRequest, type CallToolResult, type ServerNotification, type ServerRequest } from "@modelcontextprotocol/sdk/types.js";

export type CallToolHandler = (request: CallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => Promise<CallToolResult>;

/** Whether the SDK still has what the seam relies on: `Server` overriding `Protocol`'s registration. */
export function callToolSeamHolds(): boolean {
  const protocolRegister = Protocol.prototype.setRequestHandler;
  return typeof protocolRegister === "function" && Server.prototype instanceof Protocol && Server.prototype.setRequestHandler !== protocolRegister;
}

/** Registers the `tools/call` handler without the SDK's per-result re-validation (see above). */
export function setCallToolHandlerUnwrapped(server: Server, handler: CallToolHandler): void {
  if (!callToolSeamHolds()) {
    throw new Error("the MCP SDK no longer overrides Protocol.setRequestHandler in Server: review src/mcp/sdk-call-tool-seam.ts before upgrading");
  }
  Protocol.prototype.setRequestHandler.call(server, CallToolRequestSchema, handler);
}
