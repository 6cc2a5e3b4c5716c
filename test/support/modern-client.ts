/**
 * A 2026-07-28 agent for end-to-end tests: the official v2 SDK `Client` pinned to that revision (no
 * fallback to the 2025 handshake), over streamable HTTP with a bearer token. `call`, `callRaw` and
 * `fail` answer as the 2025 agent's do (mcp-client.ts).
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { AgentToolError, toolErrorOf } from "./mcp-client.ts";

export const modernRevision = "2026-07-28";

export interface ModernAgent {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  callRaw(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  fail(name: string, args?: Record<string, unknown>): Promise<AgentToolError>;
  close(): Promise<void>;
}

export async function connectModernAgent(service: { mcpUrl: string }, token: string, options: { name?: string; capabilities?: Record<string, unknown> } = {}): Promise<ModernAgent> {
  const client = new Client(
    { name: options.name ?? "modern-test-agent", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: modernRevision } }, ...(options.capabilities ? { capabilities: options.capabilities } : {}) },
  );
  const transport = new StreamableHTTPClientTransport(new URL(service.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  await client.listTools();
  const callRaw = async (tool: string, args: Record<string, unknown> = {}) => (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const result = await callRaw(tool, args);
    if (result.isError) throw toolErrorOf(tool, result as never);
    if (!result.structuredContent) throw new Error(`${tool} returned no structuredContent`);
    return result.structuredContent as Record<string, unknown>;
  };
  return {
    client,
    call,
    callRaw,
    async fail(tool, args = {}) {
      const result = await callRaw(tool, args);
      if (!result.isError) throw new Error(`${tool} was expected to fail but succeeded`);
      return toolErrorOf(tool, result as never);
    },
    close: () => client.close(),
  };
}

/** The standard headers and `_meta` envelope of a hand-built 2026-07-28 request, for hostile-envelope tests. */
export function modernRequest(method: string, params: Record<string, unknown> = {}, id: number | string = 1) {
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  return {
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": modernRevision,
      "Mcp-Method": method,
      ...(name ? { "Mcp-Name": name } : {}),
    } as Record<string, string>,
    body: {
      jsonrpc: "2.0",
      id,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": modernRevision,
          "io.modelcontextprotocol/clientInfo": { name: "raw-test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {},
          ...(params._meta as Record<string, unknown> | undefined),
        },
      },
    } as Record<string, unknown>,
  };
}
