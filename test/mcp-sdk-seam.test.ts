/**
 * The one step past the MCP SDK's public API (src/mcp/sdk-call-tool-seam.ts): it holds with the SDK
 * installed, a tools/call registered through it reaches its handler and answers an SDK client, and an
 * SDK that no longer has what it relies on makes it fail loudly, naming the seam, instead of silently
 * registering something else.
 */
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { callToolSeamHolds, setCallToolHandlerUnwrapped } from "../src/mcp/sdk-call-tool-seam.ts";

describe("the tools/call seam", () => {
  test("holds with the SDK this project installs", () => {
    expect(callToolSeamHolds()).toBe(true);
  });

  test("a handler registered through it answers an SDK client's tools/call, which validates the result", async () => {
    const server = new Server({ name: "seam", version: "1.0.0" }, { capabilities: { tools: {} } });
    const outputSchema = { type: "object" as const, properties: { echoed: { type: "string" } }, required: ["echoed"] };
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "echo", inputSchema: { type: "object" as const }, outputSchema }] }));
    const seen: string[] = [];
    setCallToolHandlerUnwrapped(server, async (request) => {
      seen.push(request.params.name);
      const echoed = String(request.params.arguments?.text);
      return { content: [{ type: "text", text: echoed }], structuredContent: { echoed } };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "seam-client", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      await client.listTools();
      const result = await client.callTool({ name: "echo", arguments: { text: "hello" } });
      expect(result.structuredContent).toEqual({ echoed: "hello" });
      expect(seen).toEqual(["echo"]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  test("an SDK whose Server no longer overrides the registration makes it refuse, naming the seam", () => {
    const override = Object.getOwnPropertyDescriptor(Server.prototype, "setRequestHandler")!;
    Object.defineProperty(Server.prototype, "setRequestHandler", { ...override, value: Protocol.prototype.setRequestHandler });
    try {
      expect(callToolSeamHolds()).toBe(false);
      const server = new Server({ name: "seam", version: "1.0.0" }, { capabilities: { tools: {} } });
      expect(() => setCallToolHandlerUnwrapped(server, async () => ({ content: [] }))).toThrow("src/mcp/sdk-call-tool-seam.ts");
    } finally {
      Object.defineProperty(Server.prototype, "setRequestHandler", override);
    }
  });
});
