/**
 * Baseline: the official MCP SDK's Node/Express example stack (express + McpServer +
 * StreamableHTTPServerTransport with sessions, as in the SDK's simpleStreamableHttp example), serving
 * a read tool that answers a small course list from memory. Run with Node.js, not Bun.
 */
import { randomUUID } from "node:crypto";
import express from "express";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

const courses = Array.from({ length: 3 }, (_, i) => ({ id: `crs_${i}`, title: `Course ${i}`, status: "draft", version: 1 }));

function createServer() {
  const server = new McpServer({ name: "express-baseline", version: "1" });
  server.registerTool("list_courses", { description: "List courses", inputSchema: {} }, async () => ({
    content: [{ type: "text", text: `${courses.length} courses` }],
    structuredContent: { courses },
  }));
  return server;
}

const app = express();
app.use(express.json());
const transports = {};
app.post("/mcp", async (req, res) => {
  const sessionId = req.headers["mcp-session-id"];
  let transport = sessionId ? transports[sessionId] : undefined;
  if (!transport) {
    if (sessionId || !isInitializeRequest(req.body)) {
      res.status(400).json({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request" }, id: null });
      return;
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports[id] = transport;
      },
    });
    await createServer().connect(transport);
  }
  await transport.handleRequest(req, res, req.body);
});
const listener = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(JSON.stringify({ port: listener.address().port }));
});
