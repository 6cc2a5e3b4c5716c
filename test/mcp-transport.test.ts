/**
 * The MCP endpoint as an agent meets it: the official SDK client over streamable HTTP with a bearer
 * token from the embedded provider, typed tools with schemas, tool errors that name the bad field,
 * sessions that belong to one user, the stateless mode, and access logs that never hold a token.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createLogger } from "../src/log.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";

/** A tool error's JSON payload: the second text item of an `isError` result. */
function toolError(result: object): { error: { code: string; [key: string]: unknown } } {
  const texts = ((result as { content: { type: string; text: string }[] }).content).filter((c) => c.type === "text");
  return JSON.parse(texts[1]!.text) as { error: { code: string } };
}

async function connect(service: TestService, token: string): Promise<Client> {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(service.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

const logLines: string[] = [];
let service: TestService;
let aliceToken: string;
let bobToken: string;

beforeAll(async () => {
  service = await startTestService({ LOG_LEVEL: "info" }, undefined, createLogger("info", (line) => void logLines.push(line)));
  aliceToken = await devAccessToken(service, "alice");
  bobToken = await devAccessToken(service, "bob");
});
afterAll(() => service.dispose());

describe("the SDK client as the agent", () => {
  test("completes initialize → tools/list → tools/call with a bearer token", async () => {
    const client = await connect(service, aliceToken);
    expect(client.getServerVersion()?.name).toBe("course-authoring-service");
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toContain("create_course");

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["create_course", "get_course", "list_courses"]));
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
    }
    expect(tools.find((t) => t.name === "list_courses")?.annotations?.readOnlyHint).toBe(true);

    const created = await client.callTool({ name: "create_course", arguments: { title: "Phishing basics", language: "en" } });
    expect(created.isError).toBeFalsy();
    const course = created.structuredContent as { id: string; title: string; version: number };
    expect(course.id).toMatch(/^crs_/);

    const read = await client.callTool({ name: "get_course", arguments: { courseId: course.id } });
    expect(read.structuredContent).toMatchObject({ id: course.id, title: "Phishing basics", version: course.version });
    await client.close();
  });

  test("invalid arguments come back as an isError result naming each bad field", async () => {
    const client = await connect(service, aliceToken);
    const result = await client.callTool({ name: "create_course", arguments: { title: "", language: 42 } });
    expect(result.isError).toBe(true);
    const error = toolError(result).error as { code: string; message: string; fields: { path: string }[] };
    expect(error.code).toBe("invalid_arguments");
    expect(error.fields.map((f) => f.path)).toEqual(expect.arrayContaining(["title", "language"]));
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(text).toContain("title");
    expect(text).not.toContain("    at "); // never a stack trace
    await client.close();
  });

  test("an unknown tool is a -32602 protocol error that names the closest tool and lists the others, prefixed once", async () => {
    const client = await connect(service, aliceToken);
    try {
      const error = await client.callTool({ name: "get_cours", arguments: {} }).then(
        () => undefined,
        (caught: unknown) => caught as { code: number; message: string },
      );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toContain("Did you mean get_course?");
      expect(error?.message).toContain("list_courses");
      expect(error?.message.match(/MCP error/g)?.length).toBe(1);
    } finally {
      await client.close();
    }
  });

  test("courses are scoped to the token's sub: another user does not see them", async () => {
    const alice = await connect(service, aliceToken);
    const bob = await connect(service, bobToken);
    const created = await alice.callTool({ name: "create_course", arguments: { title: "Alice's private course" } });
    const id = (created.structuredContent as { id: string }).id;
    const listed = await bob.callTool({ name: "list_courses", arguments: {} });
    expect(JSON.stringify(listed.structuredContent)).not.toContain(id);
    const read = await bob.callTool({ name: "get_course", arguments: { courseId: id } });
    expect(read.isError).toBe(true);
    expect(read.structuredContent).toBeUndefined();
    expect(toolError(read).error.code).toBe("not_found");
    await Promise.all([alice.close(), bob.close()]);
  });
});

describe("sessions", () => {
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  const post = (token: string, body: string, session?: string) =>
    fetch(service.mcpUrl, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...(session ? { "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" } : {}),
      },
      body,
    });

  test("a session opened by one user answers 404 to another user's token", async () => {
    const opened = await post(aliceToken, initialize);
    await opened.text();
    const session = opened.headers.get("mcp-session-id")!;
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const stolen = await post(bobToken, list, session);
    expect(stolen.status).toBe(404);
    expect(stolen.headers.get("content-type")).toBe("application/json");
    const own = await post(aliceToken, list, session);
    expect(own.status).toBe(200);
    await own.text();
  });

  test("malformed JSON is a JSON-RPC parse error with status 400", async () => {
    const response = await post(aliceToken, "{not json");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});

describe("access log", () => {
  test("one JSON line per request with method, path, status, duration, request id and sub, and never the token", async () => {
    logLines.length = 0;
    const response = await fetch(service.mcpUrl, {
      method: "POST",
      headers: { Authorization: `Bearer ${aliceToken}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "l", version: "1" } } }),
    });
    await response.text();
    // A successful health probe is counted for the minute's summary, not logged on its own at info;
    // any other path is, whatever its status.
    await fetch(`${service.url}/api/health`).then((r) => r.text());
    await fetch(`${service.url}/api/health/nothing-here`).then((r) => r.text());
    const entries = logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((e) => e.msg === "request");
    const mcp = entries.find((e) => e.path === "/mcp");
    expect(mcp).toMatchObject({ method: "POST", status: 200, sub: "alice" });
    expect(typeof mcp?.durationMs).toBe("number");
    expect(mcp?.requestId).toBe(response.headers.get("request-id"));
    expect(entries.some((e) => e.path === "/api/health")).toBe(false);
    expect(entries.some((e) => e.path === "/api/health/nothing-here" && e.status === 404)).toBe(true);
    const signature = aliceToken.split(".")[2]!;
    expect(logLines.join("\n")).not.toContain(signature);
  });
});

describe("stateless mode (MCP_STATELESS=true)", () => {
  test("the SDK client completes initialize → tools/list → tools/call without a session", async () => {
    const stateless = await startTestService({ MCP_STATELESS: "true" });
    try {
      const token = await devAccessToken(stateless, "carol");
      const client = await connect(stateless, token);
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(2);
      const created = await client.callTool({ name: "create_course", arguments: { title: "Stateless course" } });
      expect(created.isError).toBeFalsy();
      const listed = await client.callTool({ name: "list_courses", arguments: {} });
      expect(JSON.stringify(listed.structuredContent)).toContain("Stateless course");
      await client.close();
    } finally {
      await stateless.dispose();
    }
  });
});
