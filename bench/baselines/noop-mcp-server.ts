/**
 * Baseline: the SDK's web-standard streamable HTTP transport on a bare `Bun.serve`, with sessions and
 * one no-op tool; no auth, no store, no router. This is the ceiling our /mcp can approach.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();

function createServer() {
  const server = new Server({ name: "noop", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "noop", inputSchema: { type: "object" as const, properties: {} } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: "text" as const, text: "ok" }], structuredContent: { ok: true } }));
  return server;
}

const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: "127.0.0.1",
  async fetch(request) {
    const sessionId = request.headers.get("mcp-session-id");
    const existing = sessionId ? transports.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(request);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    await createServer().connect(transport);
    return transport.handleRequest(request);
  },
});
console.log(JSON.stringify({ port: server.port }));
