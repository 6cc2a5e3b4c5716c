/**
 * `bun run bench call-tool-seam`: what the MCP SDK's public `tools/call` registration would add per
 * call, measured on a real `get_course` answer of the service. `Server.setRequestHandler` wraps the
 * handler to parse the request again and to validate (copy) the whole result against
 * `CallToolResultSchema`; src/mcp/sdk-call-tool-seam.ts skips only that wrapper. Prints microseconds
 * per call for the wrapper's two checks (compare with 1 / req/s of `bench throughput`: the server's
 * whole time per call on its core).
 */
import { safeParse } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { CallToolRequestSchema, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { obtainAccessTokenByLogin } from "../src/dev-identity-provider/scripted-login.ts";
import { startService } from "./support.ts";

function microsecondsPerCall(work: () => void, iterations = 20_000): number {
  for (let i = 0; i < 2_000; i++) work();
  const started = performance.now();
  for (let i = 0; i < iterations; i++) work();
  return ((performance.now() - started) * 1000) / iterations;
}

export async function runCallToolSeamBench(): Promise<void> {
  const service = await startService({ LOG_LEVEL: "warn" });
  try {
    const { accessToken } = await obtainAccessTokenByLogin({ issuer: service.authUrl, resource: `${service.baseUrl}/mcp`, username: "bench-user" });
    const headers: Record<string, string> = { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const post = async (body: unknown) => {
      const response = await fetch(`${service.baseUrl}/mcp`, { method: "POST", headers, body: JSON.stringify(body) });
      const text = await response.text();
      headers["Mcp-Session-Id"] ??= response.headers.get("mcp-session-id") ?? "";
      const data = text.startsWith("{") ? text : (text.split("\n").find((line) => line.startsWith("data: ")) ?? "").slice(6);
      return data ? (JSON.parse(data) as { result: Record<string, unknown> }) : undefined;
    };
    await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } });
    headers["Mcp-Protocol-Version"] = "2025-06-18";
    await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
    const created = (await post(call("create_course", { title: "Seam", description: "Measured.", language: "en" })))!.result.structuredContent as { id: string };
    const request = call("get_course", { courseId: created.id });
    const result = (await post(request))!.result;

    const requestCheck = microsecondsPerCall(() => safeParse(CallToolRequestSchema, request));
    const resultCheck = microsecondsPerCall(() => safeParse(CallToolResultSchema, result));
    console.log(`get_course answer: ${JSON.stringify(result).length} bytes of JSON`);
    console.log(`SDK wrapper, request re-parse: ${requestCheck.toFixed(2)} µs; result validation: ${resultCheck.toFixed(2)} µs; together ${(requestCheck + resultCheck).toFixed(2)} µs per call`);
  } finally {
    await service.stop();
  }
}
