/**
 * Confirm before destroying: delete_course asks, as an input_required elicitation naming what will be
 * lost, a client that can answer elicitations — the 2026-07-28 client through multi round-trip requests,
 * a 2025 client through the SDK's legacy shim on its session — unless the call says confirm: true. The
 * requestState is sealed: tampered, another user's, or another call's is refused and nothing is deleted.
 * A client that cannot elicit deletes as before.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema, ElicitRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { connectModernAgent, modernRequest, type ModernAgent } from "./support/modern-client.ts";
import { readExport } from "./support/transfer.ts";

type Json = Record<string, any>;
let service: TestService;
let aliceToken: string;
let malloryToken: string;
let writer: Agent;
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  service = await startTestService();
  aliceToken = await devAccessToken(service, "alice");
  malloryToken = await devAccessToken(service, "mallory");
  writer = await connectAgent(service, aliceToken, "alice-writer");
});
afterAll(async () => {
  for (const agent of [writer, ...opened]) await agent?.close().catch(() => undefined);
  await service.dispose();
});

async function course(title: string): Promise<string> {
  const created = await writer.call("create_course", { title, modules: [{ title: "Module", lessons: [{ title: "Lesson one" }, { title: "Lesson two" }] }] });
  return created.id as string;
}

async function exists(courseId: string): Promise<boolean> {
  const result = await writer.callRaw("get_course", { courseId, includeBlocks: false });
  return !result.isError;
}

/** A modern agent that can elicit, answering each question with `answer` and remembering it. */
async function elicitingAgent(answer: { action: "accept" | "decline"; content?: Json }): Promise<{ agent: ModernAgent; asked: string[] }> {
  const asked: string[] = [];
  const agent = await connectModernAgent(service, aliceToken, { capabilities: { elicitation: { form: {} } } });
  agent.client.setRequestHandler("elicitation/create", async (request) => {
    asked.push((request.params as { message: string }).message);
    return answer as never;
  });
  opened.push(agent);
  return { agent, asked };
}

async function raw(body: Json, headers: Record<string, string>, token = aliceToken): Promise<Json> {
  const response = await fetch(service.mcpUrl, { method: "POST", headers: { ...headers, Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const text = await response.text();
  return JSON.parse(text.startsWith("{") ? text : text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).pop()!) as Json;
}

/** A raw modern delete_course from a client that can elicit; `extra` goes beside the arguments (inputResponses, requestState). */
function deleteRequest(courseId: string, extra: Json = {}) {
  const request = modernRequest("tools/call", { name: "delete_course", arguments: { courseId }, ...extra, _meta: { "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } } });
  return request;
}

describe("2026-07-28 clients", () => {
  test("a client that can elicit is asked, naming the course and what it holds; yes deletes it", async () => {
    const courseId = await course("Asked and agreed");
    const { agent, asked } = await elicitingAgent({ action: "accept", content: { confirm: true } });
    const deleted = await agent.call("delete_course", { courseId });
    expect(deleted).toEqual({ courseId, deleted: true });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"Asked and agreed"');
    expect(asked[0]).toContain("1 module(s), 2 lesson(s)");
    expect(await exists(courseId)).toBe(false);
  });

  test("no, or declining, changes nothing and says so", async () => {
    const courseId = await course("Asked and refused");
    const { agent } = await elicitingAgent({ action: "accept", content: { confirm: false } });
    expect((await agent.fail("delete_course", { courseId })).code).toBe("invalid_state");
    const declined = await elicitingAgent({ action: "decline" });
    expect((await declined.agent.fail("delete_course", { courseId })).code).toBe("invalid_state");
    expect(await exists(courseId)).toBe(true);
  });

  test("confirm: true is not asked; a client that cannot elicit deletes as before", async () => {
    const first = await course("Confirmed up front");
    const { agent, asked } = await elicitingAgent({ action: "decline" });
    expect(await agent.call("delete_course", { courseId: first, confirm: true })).toEqual({ courseId: first, deleted: true });
    expect(asked).toEqual([]);
    const second = await course("No elicitation");
    const plain = await connectModernAgent(service, aliceToken);
    opened.push(plain);
    expect(await plain.call("delete_course", { courseId: second })).toEqual({ courseId: second, deleted: true });
  });

  test("the tool documents confirm", async () => {
    const { tools } = await writer.client.listTools();
    const schema = tools.find((tool) => tool.name === "delete_course")!.inputSchema as Json;
    expect(schema.properties.confirm.type).toBe("boolean");
  });
});

describe("the sealed requestState", () => {
  async function asked(courseId: string): Promise<Json> {
    const request = deleteRequest(courseId);
    const { result } = await raw(request.body, request.headers);
    expect(result.resultType).toBe("input_required");
    expect(result.inputRequests.confirm.method).toBe("elicitation/create");
    expect(typeof result.requestState).toBe("string");
    return result;
  }
  const yes = { confirm: { action: "accept", content: { confirm: true } } };

  test("the state it was given, with yes, deletes", async () => {
    const courseId = await course("Raw yes");
    const { requestState } = await asked(courseId);
    const request = deleteRequest(courseId, { inputResponses: yes, requestState });
    const { result } = await raw(request.body, request.headers);
    expect(result.structuredContent).toEqual({ courseId, deleted: true });
  });

  test("a tampered state is -32602 and nothing is deleted", async () => {
    const courseId = await course("Tampered");
    const { requestState } = await asked(courseId);
    const tampered = `${requestState.slice(0, -4)}${requestState.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    const request = deleteRequest(courseId, { inputResponses: yes, requestState: tampered });
    expect((await raw(request.body, request.headers)).error.code).toBe(-32602);
    expect(await exists(courseId)).toBe(true);
  });

  test("a forged state (not one the service sealed, or not a string) is -32602 and nothing is deleted", async () => {
    const courseId = await course("Forged");
    for (const requestState of ["forged", "eyJzdWIiOiJhbGljZSJ9.AAAA", 42]) {
      const request = deleteRequest(courseId, { inputResponses: yes, requestState });
      expect((await raw(request.body, request.headers)).error.code).toBe(-32602);
    }
    expect(await exists(courseId)).toBe(true);
  });

  test("a yes acts once: the same state and answer sent again are refused, naming why", async () => {
    const courseId = await course("Archived by one yes");
    const capabilities = { "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } };
    const ask = modernRequest("tools/call", { name: "set_status", arguments: { courseId, status: "archived" }, _meta: capabilities });
    const { requestState } = (await raw(ask.body, ask.headers)).result;
    const answer = modernRequest("tools/call", { name: "set_status", arguments: { courseId, status: "archived" }, inputResponses: yes, requestState, _meta: capabilities });
    expect((await raw(answer.body, answer.headers)).result.structuredContent.status).toBe("archived");
    const replayed = (await raw(answer.body, answer.headers)).result;
    expect(replayed.isError).toBe(true);
    expect(replayed.content[0].text).toContain("already used");
  });

  test("another user's state is -32602", async () => {
    const courseId = await course("Not mallory's to confirm");
    const { requestState } = await asked(courseId);
    const request = deleteRequest(courseId, { inputResponses: yes, requestState });
    expect((await raw(request.body, request.headers, malloryToken)).error.code).toBe(-32602);
    expect(await exists(courseId)).toBe(true);
  });

  test("a state from another call is refused, naming why, and nothing is deleted", async () => {
    const askedFor = await course("Asked about this one");
    const other = await course("But this one was sent");
    const { requestState } = await asked(askedFor);
    const request = deleteRequest(other, { inputResponses: yes, requestState });
    const { result } = await raw(request.body, request.headers);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain("invalid_arguments");
    expect(await exists(other)).toBe(true);
    expect(await exists(askedFor)).toBe(true);
  });
});

describe("2025 clients", () => {
  test("a session client that can elicit is asked the same question through the legacy shim", async () => {
    const courseId = await course("Asked in a session");
    const client = new LegacyClient({ name: "eliciting-2025", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { confirm: true } };
    });
    await client.connect(new LegacyTransport(new URL(service.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${aliceToken}` } } }));
    opened.push(client);
    const result = (await client.callTool({ name: "delete_course", arguments: { courseId } })) as Json;
    expect(result.structuredContent).toEqual({ courseId, deleted: true });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"Asked in a session"');
  });

  test("a session client that cannot elicit deletes as before", async () => {
    const courseId = await course("Deleted in a session");
    expect(await writer.call("delete_course", { courseId })).toEqual({ courseId, deleted: true });
  });
});

describe("the other tools that lose something", () => {
  test("set_status archived asks; other moves do not", async () => {
    const courseId = await course("To be archived");
    const { agent, asked } = await elicitingAgent({ action: "accept", content: { confirm: true } });
    await agent.call("set_status", { courseId, status: "in_review" });
    expect(asked).toEqual([]);
    const archived = await agent.call("set_status", { courseId, status: "archived" });
    expect(archived.status).toBe("archived");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("read-only");
  });

  test("restore_revision asks, naming the version it goes back to and the one it replaces", async () => {
    const courseId = await course("To be restored");
    await writer.call("update_course", { courseId, title: "To be restored, edited" });
    const { revisions } = (await writer.call("list_revisions", { courseId })) as { revisions: { id: string; version: number }[] };
    const first = revisions.find((revision) => revision.version === 1)!;
    const { agent, asked } = await elicitingAgent({ action: "decline" });
    expect((await agent.fail("restore_revision", { courseId, revisionId: first.id })).code).toBe("invalid_state");
    expect(asked[0]).toContain("version 1");
    expect(asked[0]).toContain("version 2");
    expect(((await writer.call("get_course", { courseId, includeBlocks: false })) as Json).title).toBe("To be restored, edited");
  });

  test("remove_module asks, naming the module and what goes with it; confirm: true removes it at once", async () => {
    const courseId = await course("Module removal");
    const read = (await writer.call("get_course", { courseId, includeBlocks: false })) as Json;
    const moduleId = read.modules[0].id as string;
    const { agent, asked } = await elicitingAgent({ action: "decline" });
    expect((await agent.fail("remove_module", { courseId, moduleId })).code).toBe("invalid_state");
    expect(asked[0]).toContain('"Module"');
    expect(asked[0]).toContain("2 lesson(s)");
    const removed = await agent.call("remove_module", { courseId, moduleId, confirm: true });
    expect(removed.courseId).toBe(courseId);
    expect(asked).toHaveLength(1);
  });

  test("import_translation over translated units asks, naming how many; a first import does not", async () => {
    const courseId = await course("Translated once");
    await writer.call("create_translation", { courseId, language: "fr" });
    const exported = await writer.callRaw("export_translation", { courseId, language: "fr", format: "xliff20" });
    const link = exported.content.find((item) => item.type === "resource_link") as { uri: string };
    const xliff = new TextDecoder().decode((await readExport(writer, link.uri)).bytes);
    // Each unit's source, with a word added, as its target: inline codes stay where they are.
    const translated = (suffix: string) =>
      xliff.replace(/<target\b[\s\S]*?<\/target>/g, "").replace(/<source( xml:space="preserve")?>([\s\S]*?)<\/source>/g, (_m, space: string | undefined, inner: string) => `<source${space ?? ""}>${inner}</source><target${space ?? ""}>${inner} ${suffix}</target>`);
    const { agent, asked } = await elicitingAgent({ action: "decline" });
    const first = await agent.call("import_translation", { courseId, language: "fr", xliff: translated("un") });
    expect(first.applied).toBeGreaterThan(0);
    expect(asked).toEqual([]);
    expect((await agent.fail("import_translation", { courseId, language: "fr", xliff: translated("deux") })).code).toBe("invalid_state");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(`${first.applied} unit(s) already translated`);
    const units = (await writer.call("get_translation_units", { courseId, language: "fr" })) as { units: { target?: string }[] };
    expect(units.units.some((unit) => unit.target?.endsWith(" deux"))).toBe(false);
  });
});


/** A course with a French translation whose units all have text already: a further import replaces them. */
async function translatedCourse(title: string): Promise<{ courseId: string; again: string }> {
  const courseId = await course(title);
  await writer.call("create_translation", { courseId, language: "fr" });
  const exported = await writer.callRaw("export_translation", { courseId, language: "fr", format: "xliff20" });
  const link = exported.content.find((item) => item.type === "resource_link") as { uri: string };
  const xliff = new TextDecoder().decode((await readExport(writer, link.uri)).bytes);
  const translated = (suffix: string) =>
    xliff.replace(/<target\b[\s\S]*?<\/target>/g, "").replace(/<source( xml:space="preserve")?>([\s\S]*?)<\/source>/g, (_m, space: string | undefined, inner: string) => `<source${space ?? ""}>${inner}</source><target${space ?? ""}>${inner} ${suffix}</target>`);
  expect((await writer.call("import_translation", { courseId, language: "fr", xliff: translated("un") })).applied as number).toBeGreaterThan(0);
  return { courseId, again: translated("deux") };
}

async function frenchTargets(courseId: string): Promise<string[]> {
  const units = (await writer.call("get_translation_units", { courseId, language: "fr" })) as { units: { target?: string }[] };
  return units.units.map((unit) => unit.target ?? "");
}

/** A 2025 session client that can elicit, answering each question with `answer`. */
async function elicitingSession(answer: Json): Promise<{ client: LegacyClient; asked: string[] }> {
  const client = new LegacyClient({ name: "eliciting-2025", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return answer as never;
  });
  await client.connect(new LegacyTransport(new URL(`${service.mcpUrl}?toolsets=all`), { requestInit: { headers: { Authorization: `Bearer ${aliceToken}` } } }));
  opened.push(client);
  return { client, asked };
}

describe("edit_course batches that lose something", () => {
  async function moduleOf(courseId: string): Promise<string> {
    return ((await writer.call("get_course", { courseId, includeBlocks: false })) as Json).modules[0].id as string;
  }
  const batch = (courseId: string, moduleId: string) => ({
    courseId,
    operations: [{ op: "update_course", title: "Renamed by the batch" }, { op: "remove_module", moduleId }],
  });

  test("2026-07-28: a batch with remove_module asks, naming the step and what goes; no writes nothing, yes applies it all", async () => {
    const courseId = await course("Batch removal");
    const moduleId = await moduleOf(courseId);
    const refused = await elicitingAgent({ action: "accept", content: { confirm: false } });
    expect((await refused.agent.fail("edit_course", batch(courseId, moduleId))).code).toBe("invalid_state");
    expect(refused.asked).toHaveLength(1);
    expect(refused.asked[0]).toContain("operations[1]");
    expect(refused.asked[0]).toContain('"Module"');
    expect(refused.asked[0]).toContain("2 lesson(s)");
    const untouched = (await writer.call("get_course", { courseId, includeBlocks: false })) as Json;
    expect(untouched.title).toBe("Batch removal");
    expect(untouched.modules).toHaveLength(1);
    expect(untouched.version).toBe(1);
    const agreed = await elicitingAgent({ action: "accept", content: { confirm: true } });
    const applied = await agreed.agent.call("edit_course", batch(courseId, moduleId));
    expect(applied.version).toBe(2);
    const after = (await writer.call("get_course", { courseId, includeBlocks: false })) as Json;
    expect(after.title).toBe("Renamed by the batch");
    expect(after.modules).toHaveLength(0);
  });

  test("2026-07-28: a raw batch with the state of another batch is refused; confirm: true is not asked; a batch that loses nothing is not asked", async () => {
    const courseId = await course("Batch raw");
    const moduleId = await moduleOf(courseId);
    const capabilities = { "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } };
    const first = modernRequest("tools/call", { name: "edit_course", arguments: batch(courseId, moduleId), _meta: capabilities });
    const { result } = await raw(first.body, first.headers);
    expect(result.resultType).toBe("input_required");
    expect(result.inputRequests.confirm.params.message).toContain("operations[1]");
    // The state answers this batch only: the same state with a different batch is refused, nothing written.
    const other = { courseId, operations: [{ op: "update_course", title: "Sneaked in" }, { op: "remove_module", moduleId }] };
    const swapped = modernRequest("tools/call", { name: "edit_course", arguments: other, inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, requestState: result.requestState, _meta: capabilities });
    const refused = (await raw(swapped.body, swapped.headers)).result;
    expect(refused.isError).toBe(true);
    expect(((await writer.call("get_course", { courseId, includeBlocks: false })) as Json).version).toBe(1);
    const { agent, asked } = await elicitingAgent({ action: "decline" });
    await agent.call("edit_course", { courseId, operations: [{ op: "update_course", title: "Only renamed" }] });
    expect(asked).toEqual([]);
    await agent.call("edit_course", { ...batch(courseId, moduleId), confirm: true });
    expect(asked).toEqual([]);
    expect(((await writer.call("get_course", { courseId, includeBlocks: false })) as Json).modules).toHaveLength(0);
  });

  test("2025: a session client that can elicit is asked the same; declining writes nothing", async () => {
    const courseId = await course("Batch in a session");
    const moduleId = await moduleOf(courseId);
    const { client, asked } = await elicitingSession({ action: "decline" });
    const result = (await client.callTool({ name: "edit_course", arguments: batch(courseId, moduleId) })) as Json;
    expect(result.isError).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("operations[1]");
    const untouched = (await writer.call("get_course", { courseId, includeBlocks: false })) as Json;
    expect(untouched.version).toBe(1);
    expect(untouched.modules).toHaveLength(1);
  });

  test("the batch documents confirm", async () => {
    const { tools } = await writer.client.listTools();
    const schema = tools.find((tool) => tool.name === "edit_course")!.inputSchema as Json;
    expect(schema.properties.confirm.type).toBe("boolean");
  });
});

describe("import_translation as a task", () => {
  const tasksAndElicitation = { elicitation: { form: {} }, extensions: { "io.modelcontextprotocol/tasks": {} } };

  test("2026-07-28: over translated units without confirm: true, no task starts and the error names confirm; with it, the task runs", async () => {
    const { courseId, again } = await translatedCourse("Task import, modern");
    const params = { name: "import_translation", arguments: { courseId, language: "fr", xliff: again } };
    const unconfirmed = modernRequest("tools/call", { ...params, _meta: { "io.modelcontextprotocol/clientCapabilities": tasksAndElicitation } });
    const { error } = await raw(unconfirmed.body, unconfirmed.headers);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("confirm: true");
    expect(error.data).toMatchObject({ code: "invalid_arguments", fields: ["confirm"] });
    expect(error.data.question).toContain("already translated");
    expect((await frenchTargets(courseId)).some((target) => target.endsWith(" deux"))).toBe(false);
    const confirmed = modernRequest("tools/call", { name: "import_translation", arguments: { ...params.arguments, confirm: true }, _meta: { "io.modelcontextprotocol/clientCapabilities": tasksAndElicitation } });
    const { result } = await raw(confirmed.body, confirmed.headers);
    expect(result.resultType).toBe("task");
  });

  test("2025: a task-augmented call without confirm: true is refused before any task; with it, a task starts", async () => {
    const { courseId, again } = await translatedCourse("Task import, 2025");
    const { client, asked } = await elicitingSession({ action: "accept", content: { confirm: true } });
    const args = { courseId, language: "fr", xliff: again };
    const refused = await client.request({ method: "tools/call", params: { name: "import_translation", arguments: args, task: {} } }, CreateTaskResultSchema).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(-32602);
    expect((refused as McpError).message).toContain("confirm: true");
    expect(asked).toEqual([]);
    expect((await frenchTargets(courseId)).some((target) => target.endsWith(" deux"))).toBe(false);
    const started = await client.request({ method: "tools/call", params: { name: "import_translation", arguments: { ...args, confirm: true }, task: {} } }, CreateTaskResultSchema);
    expect(started.task.status).toBe("working");
  });
});
