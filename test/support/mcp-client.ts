/**
 * An MCP agent for end-to-end tests: the official SDK `Client` over streamable HTTP with a bearer
 * token, as a real host would connect. `call` returns a tool's structuredContent (checked by the SDK
 * against the tool's outputSchema) or throws `AgentToolError` carrying the tool's error code.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export class AgentToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AgentToolError";
  }
}

export interface Agent {
  client: Client;
  /** structuredContent of a successful call; throws AgentToolError for an `isError` result. */
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The raw CallToolResult, error or not. */
  callRaw(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The AgentToolError of a call expected to fail; throws if it succeeds. */
  fail(name: string, args?: Record<string, unknown>): Promise<AgentToolError>;
  close(): Promise<void>;
}

export async function connectAgent(service: { mcpUrl: string }, token: string, name = "test-agent"): Promise<Agent> {
  const client = new Client({ name, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(service.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  // The SDK validates structuredContent only for tools it has seen listed.
  await client.listTools();

  const callRaw = async (tool: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name: tool, arguments: args })) as CallToolResult;

  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const result = await callRaw(tool, args);
    if (result.isError) throw toolErrorOf(tool, result);
    if (!result.structuredContent) throw new Error(`${tool} returned no structuredContent`);
    return result.structuredContent;
  };

  return {
    client,
    call,
    callRaw,
    async fail(tool, args = {}) {
      const result = await callRaw(tool, args);
      if (!result.isError) throw new Error(`${tool} was expected to fail but succeeded: ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
      return toolErrorOf(tool, result);
    },
    async close() {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/** The tool's error from `structuredContent.error`, a JSON text item `{ "error": … }`, or a `code: message` text. */
export function toolErrorOf(tool: string, result: CallToolResult): AgentToolError {
  const texts = result.content.flatMap((item) => (item.type === "text" ? [item.text] : []));
  const error = (result.structuredContent?.error ?? texts.map(parseErrorJson).find(Boolean)) as Record<string, unknown> | undefined;
  if (error) {
    const { code, message, ...details } = error;
    return new AgentToolError(String(code ?? "unknown"), String(message ?? `${tool} failed`), details);
  }
  const match = /^([a-z_]+): ([\s\S]*)$/.exec(texts[0] ?? "");
  return new AgentToolError(match?.[1] ?? "unknown", match?.[2] ?? texts[0] ?? `${tool} failed`, {});
}

function parseErrorJson(text: string): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: Record<string, unknown> };
    return typeof parsed.error === "object" && parsed.error !== null ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}
