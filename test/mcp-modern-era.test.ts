/**
 * MCP 2026-07-28 at /mcp beside the 2025 sessions: the official v2 client pinned to the revision
 * discovers the server and uses it with no session, while a 2025 client keeps its session; the /mcp
 * rules (401, Service-Api-Version) hold for both; mixed eras are refused; malformed envelopes are
 * errors of the revision that write nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { connectModernAgent, modernRequest, modernRevision, type ModernAgent } from "./support/modern-client.ts";

let service: TestService;
let aliceToken: string;
let alice: ModernAgent;
let legacy: Agent;

beforeAll(async () => {
  service = await startTestService();
  aliceToken = await devAccessToken(service, "alice");
  alice = await connectModernAgent(service, aliceToken);
  legacy = await connectAgent(service, aliceToken);
});
afterAll(async () => {
  await alice?.close();
  await legacy?.close();
  await service.dispose();
});

async function post(body: unknown, headers: Record<string, string>, token: string | null = aliceToken): Promise<Response> {
  return fetch(service.mcpUrl, {
    method: "POST",
    headers: { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

async function countCourses(): Promise<number> {
  const listed = (await legacy.call("list_courses", {})) as { courses: unknown[] };
  return listed.courses.length;
}

describe("both eras at one endpoint", () => {
  test("the pinned v2 client discovers 2026-07-28 with no session and uses the tools", async () => {
    expect(alice.client.getProtocolEra()).toBe("modern");
    expect(alice.client.getServerVersion()?.name).toBe("course-authoring-service");
    const created = await alice.call("create_course", { title: "Modern course", language: "en" });
    expect(created.id).toMatch(/^crs_/);
    const read = await alice.call("get_course", { courseId: created.id });
    expect(read.title).toBe("Modern course");
  });

  test("a course written in the modern era is the 2025 session's course too, and the other way round", async () => {
    const modern = await alice.call("create_course", { title: "Written modern" });
    const seen = await legacy.call("get_course", { courseId: modern.id });
    expect(seen.title).toBe("Written modern");
    const old = await legacy.call("create_course", { title: "Written in a session" });
    expect((await alice.call("get_course", { courseId: old.id })).title).toBe("Written in a session");
  });

  test("server/discover names both eras' versions, the identity and both extensions", async () => {
    const request = modernRequest("server/discover");
    const response = await post(request.body, request.headers);
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    const { result } = (await response.json()) as { result: Record<string, any> };
    expect(result.supportedVersions).toContain(modernRevision);
    expect(result.capabilities.tools).toBeDefined();
    expect(Object.keys(result.capabilities.extensions)).toEqual(expect.arrayContaining(["io.modelcontextprotocol/ui", "io.modelcontextprotocol/tasks"]));
    expect(result.capabilities.tasks).toBeUndefined();
    expect(result._meta["io.modelcontextprotocol/serverInfo"].name).toBe("course-authoring-service");
    expect(result.resultType).toBe("complete");
  });

  test("/.well-known/mcp.json lists 2026-07-28 and the 2025 revisions", async () => {
    const card = (await (await fetch(`${service.url}/.well-known/mcp.json`)).json()) as { protocolVersion: string; protocolVersions: string[] };
    expect(card.protocolVersion).toBe(modernRevision);
    expect(card.protocolVersions).toEqual(expect.arrayContaining([modernRevision, "2025-11-25", "2025-06-18"]));
  });
});

describe("the /mcp rules hold for the modern era", () => {
  test("no token is 401 with the bearer challenge, before anything else", async () => {
    const request = modernRequest("tools/list");
    const response = await post(request.body, request.headers, null);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });

  test("an unsupported Service-Api-Version is refused as on every /mcp request", async () => {
    const request = modernRequest("tools/list");
    const response = await post(request.body, { ...request.headers, "Service-Api-Version": "99" });
    expect(response.status).toBe(400);
  });
});

describe("hostile envelopes: errors of the revision, nothing written", () => {
  const create = () => modernRequest("tools/call", { name: "create_course", arguments: { title: "Should not exist" } });

  test("a session id on a modern request is refused", async () => {
    const before = await countCourses();
    const request = create();
    const response = await post(request.body, { ...request.headers, "Mcp-Session-Id": "00000000-0000-4000-8000-000000000000" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain("Mcp-Session-Id");
    expect(await countCourses()).toBe(before);
  });

  test("a modern envelope inside a 2025 session is refused", async () => {
    const before = await countCourses();
    const request = create();
    const sessionId = (legacy.client.transport as { sessionId?: string } | undefined)?.sessionId;
    expect(sessionId).toBeTruthy();
    const response = await post(request.body, { ...request.headers, "Mcp-Session-Id": sessionId!, "MCP-Protocol-Version": "2025-11-25" });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32600);
    expect(error.message).toContain("Mcp-Session-Id");
    expect(await countCourses()).toBe(before);
    // The same session id with the modern version header, too.
    const modern = await post(request.body, { ...request.headers, "Mcp-Session-Id": sessionId! });
    expect(modern.status).toBe(400);
    expect(((await modern.json()) as { error: { message: string } }).error.message).toContain("Mcp-Session-Id");
    expect(await countCourses()).toBe(before);
  });

  test("an unknown version is UnsupportedProtocolVersion naming the supported ones", async () => {
    const request = modernRequest("tools/list");
    (request.body.params as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/protocolVersion"] = "2099-01-01";
    const response = await post(request.body, { ...request.headers, "MCP-Protocol-Version": "2099-01-01" });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: number; data: { supported: string[] } } };
    expect(error.code).toBe(-32022);
    expect(error.data.supported).toContain(modernRevision);
  });

  test("a version header that contradicts the body is a header mismatch", async () => {
    const before = await countCourses();
    const request = create();
    const response = await post(request.body, { ...request.headers, "MCP-Protocol-Version": "2025-11-25" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32020);
    expect(await countCourses()).toBe(before);
  });

  test("a missing version header is refused as a header mismatch naming the header", async () => {
    const before = await countCourses();
    const request = create();
    delete request.headers["MCP-Protocol-Version"];
    const response = await post(request.body, request.headers);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32020);
    expect(error.message).toContain("MCP-Protocol-Version");
    expect(await countCourses()).toBe(before);
  });

  test("an unknown version on a write is refused and writes nothing", async () => {
    const before = await countCourses();
    const request = create();
    (request.body.params as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/protocolVersion"] = "2099-01-01";
    const response = await post(request.body, { ...request.headers, "MCP-Protocol-Version": "2099-01-01" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32022);
    expect(await countCourses()).toBe(before);
  });

  test("a missing Mcp-Name or Mcp-Method is a header mismatch naming the header", async () => {
    const before = await countCourses();
    for (const header of ["Mcp-Name", "Mcp-Method"]) {
      const request = create();
      delete request.headers[header];
      const response = await post(request.body, request.headers);
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { code: number; message: string } };
      expect(error.code).toBe(-32020);
      expect(error.message).toContain(header);
    }
    expect(await countCourses()).toBe(before);
  });

  test("Mcp-Method or Mcp-Name that disagree with the body are header mismatches", async () => {
    const before = await countCourses();
    const wrongName = create();
    const named = await post(wrongName.body, { ...wrongName.headers, "Mcp-Name": "delete_course" });
    expect(named.status).toBe(400);
    expect(((await named.json()) as { error: { code: number } }).error.code).toBe(-32020);
    const wrongMethod = create();
    const method = await post(wrongMethod.body, { ...wrongMethod.headers, "Mcp-Method": "tools/list" });
    expect(method.status).toBe(400);
    expect(((await method.json()) as { error: { code: number } }).error.code).toBe(-32020);
    expect(await countCourses()).toBe(before);
  });

  test("an envelope missing its version, with a clientInfo that is not an object, or a _meta that is not an object, is refused naming what is wrong", async () => {
    const before = await countCourses();
    const noVersion = create();
    delete (noVersion.body.params as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/protocolVersion"];
    const missing = await post(noVersion.body, noVersion.headers);
    expect(missing.status).toBe(400);
    const missingError = ((await missing.json()) as { error: { code: number; message: string } }).error;
    expect(missingError.code).toBe(-32602);
    expect(missingError.message).toContain("io.modelcontextprotocol/protocolVersion");
    const badInfo = create();
    (badInfo.body.params as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/clientInfo"] = 5;
    const info = await post(badInfo.body, badInfo.headers);
    expect(info.status).toBe(400);
    const infoError = ((await info.json()) as { error: { code: number; message: string } }).error;
    expect(infoError.code).toBe(-32602);
    expect(infoError.message).toContain("io.modelcontextprotocol/clientInfo");
    const notObject = create();
    (notObject.body.params as { _meta: unknown })._meta = "everything";
    const shape = await post(notObject.body, notObject.headers);
    expect(shape.status).toBe(400);
    expect(((await shape.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect(await countCourses()).toBe(before);
  });

  test("a malformed _meta envelope is invalid params", async () => {
    const before = await countCourses();
    const request = create();
    (request.body.params as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/clientCapabilities"] = "everything";
    const response = await post(request.body, request.headers);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32602);
    expect(await countCourses()).toBe(before);
  });
});

describe("results of the modern era", () => {
  async function answer(method: string, params: Record<string, unknown> = {}, url = service.mcpUrl): Promise<Record<string, any>> {
    const request = modernRequest(method, params);
    const response = await fetch(url, { method: "POST", headers: { ...request.headers, Authorization: `Bearer ${aliceToken}` }, body: JSON.stringify(request.body) });
    expect(response.status).toBe(200);
    const text = await response.text();
    // A single JSON body, or the result as the last event of a stream.
    const json = text.startsWith("{") ? text : text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).pop()!;
    return JSON.parse(json) as Record<string, any>;
  }

  test("every result says resultType complete", async () => {
    const course = await alice.call("create_course", { title: "Result types" });
    for (const [method, params] of [
      ["tools/list", {}],
      ["tools/call", { name: "get_course", arguments: { courseId: course.id } }],
      ["resources/read", { uri: `course://${course.id}` }],
      ["resources/list", {}],
      ["resources/templates/list", {}],
      ["prompts/list", {}],
    ] as const) {
      const { result, error } = await answer(method, params);
      expect(error).toBeUndefined();
      expect(result.resultType).toBe("complete");
    }
  });

  test("each result names the server by name and version; its title, description and icon come with server/discover alone", async () => {
    const course = await alice.call("create_course", { title: "Identity per result" });
    const discovered = (await answer("server/discover")).result._meta["io.modelcontextprotocol/serverInfo"];
    expect(discovered).toMatchObject({ name: "course-authoring-service", title: "Course Authoring Service" });
    expect(discovered.description).toBeString();
    expect(discovered.icons).toHaveLength(1);
    for (const [method, params] of [
      ["tools/call", { name: "get_course", arguments: { courseId: course.id } }],
      ["tools/list", {}],
      ["resources/read", { uri: `course://${course.id}` }],
    ] as const) {
      const serverInfo = (await answer(method, params)).result._meta["io.modelcontextprotocol/serverInfo"];
      expect(serverInfo).toEqual({ name: "course-authoring-service", version: discovered.version });
    }
  });

  test("cache fields say what is true: the caller's lists are private, what all share is public", async () => {
    const course = await alice.call("create_course", { title: "Cached" });
    const tools = (await answer("tools/list")).result;
    expect(tools.cacheScope).toBe("private");
    expect(tools.ttlMs).toBeGreaterThan(0);
    const read = (await answer("resources/read", { uri: `course://${course.id}` })).result;
    expect(read).toMatchObject({ cacheScope: "private", ttlMs: 0 });
    expect((await answer("resources/list")).result).toMatchObject({ cacheScope: "private", ttlMs: 0 });
    expect((await answer("prompts/list")).result.cacheScope).toBe("public");
    expect((await answer("resources/templates/list")).result.cacheScope).toBe("public");
    const view = (await answer("resources/read", { uri: "ui://course-authoring/course-preview.html" })).result;
    expect(view.cacheScope).toBe("public");
    expect(view.ttlMs).toBeGreaterThan(0);
  });

  test("tools/list comes in one fixed order, and the toolsets the request names choose the tools", async () => {
    const first = (await answer("tools/list")).result.tools.map((tool: { name: string }) => tool.name);
    const second = (await answer("tools/list")).result.tools.map((tool: { name: string }) => tool.name);
    expect(second).toEqual(first);
    const all = (await answer("tools/list", {}, `${service.mcpUrl}?toolsets=all`)).result.tools.length;
    expect(all).toBeGreaterThan(first.length);
  });

  test("a resource that does not exist is -32602", async () => {
    const { error } = await answer("resources/read", { uri: "course://crs_doesnotexist" });
    expect(error.code).toBe(-32602);
    expect(error.data.code).toBe("not_found");
  });

  test("2025 results carry no cache fields and no resultType", async () => {
    const course = await legacy.call("create_course", { title: "Old style" });
    const read = (await legacy.client.readResource({ uri: `course://${course.id}` })) as Record<string, unknown>;
    expect(read.ttlMs).toBeUndefined();
    expect(read.resultType).toBeUndefined();
  });
});

describe("log messages per request", () => {
  const outline = [
    "# Fire safety",
    "## Basics",
    "### Exits",
    "![Evacuation map](./map.png)",
    "",
    "---",
    "",
    "- [x] The stairs",
    "- [ ] The lift",
    "",
    "```{.shell}",
    "echo drill",
    "```",
  ].join("\n");

  /** The notifications/message of one raw modern import_course, with `_meta` as given. */
  async function logsOf(meta: Record<string, unknown>): Promise<{ level: string; logger?: string }[]> {
    const request = modernRequest("tools/call", { name: "import_course", arguments: { content: outline, format: "markdown" }, _meta: meta });
    const response = await post(request.body, request.headers);
    expect(response.status).toBe(200);
    const text = await response.text();
    const messages = text.startsWith("{") ? [text] : text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6));
    const parsed = messages.map((message) => JSON.parse(message) as { method?: string; params?: { level: string; logger?: string }; result?: { isError?: boolean } });
    expect(parsed.at(-1)?.result?.isError).toBeFalsy();
    return parsed.filter((message) => message.method === "notifications/message").map((message) => message.params!);
  }

  test("a request whose _meta names no level gets no log messages at all", async () => {
    expect(await logsOf({})).toEqual([]);
  });

  test("a request that names a level gets the messages at or above it, on its own response", async () => {
    const all = await logsOf({ "io.modelcontextprotocol/logLevel": "debug" });
    expect(all.map((message) => message.level)).toEqual(["warning", "notice", "info"]);
    const warnings = await logsOf({ "io.modelcontextprotocol/logLevel": "warning" });
    expect(warnings.map((message) => message.level)).toEqual(["warning"]);
    expect(warnings[0]!.logger).toBe("import_course");
  });
});
