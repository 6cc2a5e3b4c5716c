/**
 * The agent's context as a budget, measured over the real service with the official SDK client: the
 * size of a live tools/list (whole, and the model-facing part: name, description, input schema) per
 * toolset choice; every result's text carrying its JSON; unknown argument names refused with the
 * closest valid name; writes reporting the version get_course then shows; bounded, paged and partial
 * course reads; and the protocol error codes for unknown tools, prompts and resources.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { modernRevision } from "./support/modern-client.ts";

type Json = Record<string, unknown>;

let service: TestService;
let token: string;
let alice: Agent;
let mallory: Agent;

beforeAll(async () => {
  service = await startTestService();
  token = await devAccessToken(service, "alice");
  alice = await connectAgent(service, token);
  mallory = await connectAgent(service, await devAccessToken(service, "mallory"), "mallory");
});
afterAll(async () => {
  await alice?.close();
  await mallory?.close();
  await service?.dispose();
});

type Era = "2025" | "2026-07-28";

/**
 * One tools/list over HTTP, by a 2025 session (SDK v1) or a 2026-07-28 agent (SDK v2), measured whole:
 * every tool listed counts, the files view's app-only ones (`_meta.ui.visibility: ["app"]`) too.
 */
async function listWith(query: string, headers: Record<string, string> = {}, era: Era = "2025") {
  const requestInit = { headers: { Authorization: `Bearer ${token}`, ...headers } };
  const url = new URL(`${service.mcpUrl}${query}`);
  let list: { tools: { name: string; description?: string; inputSchema: unknown }[] };
  if (era === "2025") {
    const client = new Client({ name: "lister", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit }));
    try {
      list = await client.listTools();
    } finally {
      await client.close();
    }
  } else {
    const client = new ModernClient({ name: "lister", version: "1.0.0" }, { versionNegotiation: { mode: { pin: modernRevision } } });
    await client.connect(new ModernTransport(url, { requestInit }));
    try {
      list = await client.listTools();
    } finally {
      await client.close();
    }
  }
  const modelFacing = list.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
  return { names: list.tools.map((tool) => tool.name), whole: JSON.stringify(list).length, modelFacing: JSON.stringify(modelFacing).length };
}

const designTools = [
  "list_courses", "get_course", "create_course", "update_course", "delete_course", "duplicate_course", "add_module", "update_module", "move_module",
  "remove_module", "add_lesson", "update_lesson", "move_lesson", "remove_lesson", "add_blocks", "update_block", "move_block", "remove_block",
  "edit_course", "set_objectives", "upload_asset", "list_assets", "list_revisions", "get_revision", "restore_revision", "share_course",
  "unshare_course", "validate_course", "set_status", "add_comment", "list_comments", "resolve_comment", "export_course", "import_course",
];

describe("tools/list fits the budget", () => {
  for (const era of ["2025", "2026-07-28"] as const) {
    test(`the default listing (${era}) is at most 100 KB in all and 40 KB model-facing, and keeps edit_course for every edit`, async () => {
      const listed = await listWith("", {}, era);
      console.log(`tools/list default (${era}): ${listed.names.length} tools, ${listed.whole} bytes in all, ${listed.modelFacing} model-facing`);
      expect(listed.whole).toBeLessThanOrEqual(100 * 1024);
      expect(listed.modelFacing).toBeLessThanOrEqual(40 * 1024);
      expect(listed.names).toContain("edit_course");
      expect(listed.names).toContain("describe_blocks");
      expect(listed.names).not.toContain("add_module");
    });

    test(`?toolsets=all (${era}) lists every tool DESIGN.md names, the view's app-only tools counted, within 100 KB in all and 60 KB model-facing`, async () => {
      const listed = await listWith("?toolsets=all", {}, era);
      console.log(`tools/list all (${era}): ${listed.names.length} tools, ${listed.whole} bytes in all, ${listed.modelFacing} model-facing`);
      for (const name of designTools) expect(listed.names).toContain(name);
      // A host may well show app-only tools to the model, or keep the whole answer in context: they count.
      for (const name of ["begin_upload", "upload_chunk", "finish_upload"]) expect(listed.names).toContain(name);
      expect(listed.whole).toBeLessThanOrEqual(100 * 1024);
      expect(listed.modelFacing).toBeLessThanOrEqual(60 * 1024);
    });
  }

  test("a listing of edit_course and add_blocks carries Block whole once; edits alone keeps it whole in add_blocks", async () => {
    const blockDefinitions = async (query: string) => {
      const client = new Client({ name: "lister", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${service.mcpUrl}${query}`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      try {
        const { tools } = await client.listTools();
        const whole = (name: string) => {
          const block = (tools.find((tool) => tool.name === name)?.inputSchema as { $defs?: { Block?: { description?: string } } } | undefined)?.$defs?.Block;
          return block ? (block.description ?? "").includes("fill_in_blank{text,blanks") : undefined;
        };
        return { editCourse: whole("edit_course"), addBlocks: whole("add_blocks"), createCourse: whole("create_course") };
      } finally {
        await client.close();
      }
    };
    expect(await blockDefinitions("?toolsets=all")).toEqual({ editCourse: true, addBlocks: false, createCourse: false });
    expect(await blockDefinitions("?toolsets=edits")).toEqual({ editCourse: undefined, addBlocks: true, createCourse: undefined });
    expect(await blockDefinitions("?toolsets=courses")).toEqual({ editCourse: true, addBlocks: undefined, createCourse: false });
  });

  test("the X-MCP-Toolsets header chooses toolsets too; an unknown toolset is -32602 naming the valid ones", async () => {
    const listed = await listWith("", { "X-MCP-Toolsets": "review" });
    expect(listed.names.sort()).toEqual(["add_comment", "import_review_copy", "list_comments", "list_review_rounds", "preview_course", "resolve_comment", "set_accessibility_review", "set_status", "validate_course"]);
    const error = await listWith("?toolsets=reviews").then(() => undefined, (caught: unknown) => caught as { code: number; message: string });
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain("courses, edits, assets");
  });

  test("a tool outside the chosen toolsets still answers when called by name", async () => {
    const created = await alice.call("create_course", { title: "Hidden tools" });
    const updated = await alice.call("update_course", { courseId: created.id, title: "Renamed" });
    expect((updated.course as Json).title).toBe("Renamed");
  });
});

describe("results", () => {
  test("every result's text is a one-line summary, then the structuredContent as JSON, so text-only hosts see the IDs", async () => {
    const created = (await alice.callRaw("create_course", { title: "Text hosts", modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "text", markdown: "Hi" }] }] }] })) as CallToolResult;
    for (const result of [created, (await alice.callRaw("get_course", { courseId: (created.structuredContent as Json).id })) as CallToolResult]) {
      const text = (result.content[0] as { text: string }).text;
      const [summary, ...rest] = text.split("\n");
      expect(summary!.length).toBeGreaterThan(0);
      expect(JSON.parse(rest.join("\n"))).toEqual(result.structuredContent as Json);
    }
  });

  test("writes report the version get_course shows, also on the course inside update_course and edit_course", async () => {
    const course = await alice.call("create_course", { title: "Versions" });
    const versionNow = async () => (await alice.call("get_course", { courseId: course.id, includeBlocks: false })).version;
    const updated = await alice.call("update_course", { courseId: course.id, title: "Versions 2" });
    expect(updated.version).toBe(await versionNow());
    expect((updated.course as Json).version).toBe(updated.version);
    const edited = await alice.call("edit_course", { courseId: course.id, operations: [{ op: "update_course", tags: ["a"] }, { op: "add_module", title: "M" }] });
    expect(edited.version).toBe(await versionNow());
    const [first] = edited.results as Json[];
    expect((first!.course as Json).version).toBe(edited.version);
    expect((first!.course as Json).updatedAt).toBe((await alice.call("get_course", { courseId: course.id })).updatedAt);
  });
});

describe("unknown argument names are invalid_arguments naming them and the closest valid name", () => {
  test("update_course { titel } suggests title and changes nothing", async () => {
    const course = await alice.call("create_course", { title: "Typos" });
    const error = await alice.fail("update_course", { courseId: course.id, titel: "New" });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("titel: unknown argument (did you mean title?)");
    expect((await alice.call("get_course", { courseId: course.id })).version).toBe(1);
  });

  test("list_courses { query } suggests search", async () => {
    const error = await alice.fail("list_courses", { query: "x" });
    expect(error.message).toContain("query: unknown argument (did you mean search?)");
  });

  test("a misspelled field deep in a create_course outline is named by its path", async () => {
    const error = await alice.fail("create_course", { title: "Deep", modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "image", url: "https://example.test/a.png", altText: "x" }] }] }] });
    expect(error.message).toContain("modules[0].lessons[0].blocks[0].altText: unknown argument (did you mean alt?)");
  });

  test("an edit_course step with a misspelled argument names the step", async () => {
    const course = await alice.call("create_course", { title: "Steps" });
    const error = await alice.fail("edit_course", { courseId: course.id, operations: [{ op: "update_course", titel: "x" }] });
    expect(error.message).toContain("operations[0].titel: unknown argument (did you mean title?)");
  });
});

describe("bounded and partial course reads", () => {
  let courseId: string;
  let lessonIds: string[];
  let moduleIds: string[];
  const paragraph = "Onboarding text that is long enough to make a page fill up quickly. ".repeat(15);

  beforeAll(async () => {
    const course = await alice.call("create_course", {
      title: "Big course",
      modules: Array.from({ length: 3 }, (_, m) => ({
        title: `Module ${m + 1}`,
        lessons: Array.from({ length: 4 }, (_, l) => ({ title: `Lesson ${m + 1}.${l + 1}`, blocks: Array.from({ length: 12 }, () => ({ type: "text", markdown: paragraph })) })),
      })),
    });
    courseId = course.id as string;
    moduleIds = (course.modules as { id: string }[]).map((module) => module.id);
    lessonIds = (course.modules as { lessons: { id: string }[] }[]).flatMap((module) => module.lessons.map((lesson) => lesson.id));
  });

  test("a course over the cap comes in pages under the cap that together hold every block in order", async () => {
    const blocks: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = (await alice.callRaw("get_course", { courseId, ...(cursor ? { cursor } : {}) })) as CallToolResult;
      expect(JSON.stringify(result).length).toBeLessThanOrEqual(60 * 1024);
      const page = result.structuredContent as { modules: { lessons: { blocks: { id: string }[] }[] }[]; nextCursor?: string };
      for (const module of page.modules) for (const lesson of module.lessons) blocks.push(...lesson.blocks.map((block) => block.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(blocks).toHaveLength(3 * 4 * 12);
    expect(new Set(blocks).size).toBe(blocks.length);
  });

  test("one module or one lesson with its blocks is one call", async () => {
    const module = await alice.call("get_course", { courseId, moduleIds: [moduleIds[1]] });
    expect((module.modules as { id: string }[]).map((m) => m.id)).toEqual([moduleIds[1]!]);
    const lesson = await alice.call("get_course", { courseId, lessonIds: [lessonIds[5]] });
    const lessons = (lesson.modules as { lessons: { id: string; blocks: unknown[] }[] }[]).flatMap((m) => m.lessons);
    expect(lessons.map((l) => l.id)).toEqual([lessonIds[5]!]);
    expect(lessons[0]!.blocks).toHaveLength(12);
  });

  test("a module of another course is not_found saying which course's IDs to send", async () => {
    const other = await alice.call("create_course", { title: "Other", modules: [{ title: "Elsewhere" }] });
    const foreign = (other.modules as { id: string }[])[0]!.id;
    const error = await alice.fail("get_course", { courseId, moduleIds: [foreign] });
    expect(error.code).toBe("not_found");
    expect(error.message).toContain(`moduleIds[0]: module ${foreign} is not part of course ${courseId}`);
    expect(error.message).toContain("includeBlocks: false");
  });

  test("a cursor from another query is invalid_arguments saying what to send", async () => {
    const first = await alice.call("get_course", { courseId });
    const error = await alice.fail("get_course", { courseId, includeBlocks: false, cursor: first.nextCursor });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("cursor: belongs to another get_course query");
  });
});

describe("protocol errors", () => {
  test("an unknown prompt is -32602 and an unknown resource -32602 (SDK v2 emits no -32002), each prefixed once", async () => {
    const prompt = await alice.client.getPrompt({ name: "design_cours" }).then(() => undefined, (caught: unknown) => caught as { code: number; message: string });
    expect(prompt?.code).toBe(-32602);
    expect(prompt?.message).toContain("design_course");
    const resource = await alice.client.readResource({ uri: "course://crs_doesnotexist" }).then(() => undefined, (caught: unknown) => caught as { code: number; message: string });
    expect(resource?.code).toBe(-32602);
    for (const error of [prompt, resource]) expect(error?.message.match(/MCP error/g)?.length).toBe(1);
  });

  test("a stranger's read of a course resource is -32602 like a missing one", async () => {
    const course = await alice.call("create_course", { title: "Private" });
    const error = await mallory.client.readResource({ uri: `course://${course.id}` }).then(() => undefined, (caught: unknown) => caught as { code: number });
    expect(error?.code).toBe(-32602);
  });
});

describe("the whole flow in few calls", () => {
  test("build → read → validate → publish → export in 5 calls, each write's version equal to get_course's", async () => {
    let calls = 0;
    const call = async (name: string, args: Json) => {
      calls++;
      return alice.call(name, args);
    };
    const lessons = (module: number) => [
      ...[1, 2, 3].map((lesson) => ({
        title: `Lesson ${module}.${lesson}`,
        blocks: [
          { type: "heading", text: `Topic ${module}.${lesson}` },
          { type: "text", markdown: "Short, plain sentences. One idea each." },
          { type: "image", url: "https://example.test/diagram.png", alt: "A diagram of the topic" },
          { type: "flashcards", cards: [{ front: "Term", back: "Meaning" }] },
        ],
      })),
      {
        title: `Module ${module} quiz`,
        kind: "quiz",
        passingScore: 80,
        blocks: [{ type: "true_false", prompt: "Is onboarding useful?", answer: true, objectiveIds: ["o1"], explanation: "It is." }],
      },
    ];
    const created = await call("create_course", {
      title: "Onboarding",
      description: "Everything a new colleague needs in the first week, in short lessons.",
      objectives: [{ key: "o1", text: "Find your way around" }],
      modules: [1, 2, 3].map((module) => ({ title: `Module ${module}`, lessons: lessons(module) })),
    });
    const read = await call("get_course", { courseId: created.id });
    expect(read.version).toBe(created.version);
    const validation = await call("validate_course", { courseId: created.id });
    expect(validation.publishable).toBe(true);
    const published = await call("set_status", { courseId: created.id, status: "published", expectedVersion: read.version });
    expect(published.version).toBe((await alice.call("get_course", { courseId: created.id, includeBlocks: false })).version);
    const exported = await call("export_course", { courseId: created.id, format: "scorm12", variant: "published" });
    expect(exported.delivery).toBe("link");
    expect(calls).toBeLessThanOrEqual(10);
  });

  test("fixes from validate_course are edit_course calls naming the course and the place, and a fractional passing score is refused", async () => {
    const outline = (passingScore: number) => ({
      title: "Needs work",
      modules: [{ title: "Empty" }, { title: "Quiz", lessons: [{ title: "Check", kind: "quiz", passingScore, blocks: [{ type: "true_false", prompt: "Yes?", answer: true }] }] }],
    });
    const refused = await alice.fail("create_course", outline(0.8));
    expect(refused.message).toContain("modules[1].lessons[0].passingScore");
    expect(refused.message).toContain("did you mean 80?");
    const course = await alice.call("create_course", outline(80));
    const modules = course.modules as { id: string; lessons: { id: string; blocks: { id: string }[] }[] }[];
    const { findings } = (await alice.call("validate_course", { courseId: course.id })) as { findings: { ruleId: string; fix: string; location: Json }[] };
    const empty = findings.find((finding) => finding.ruleId === "structure.empty_module");
    expect(empty?.fix).toContain(`edit_course { courseId: "${course.id}", operations: [{ op: "add_lesson", moduleId: "${modules[0]!.id}"`);
    const bare = findings.find((finding) => finding.ruleId === "question.no_feedback");
    expect(bare?.location).toMatchObject({ lessonId: modules[1]!.lessons[0]!.id, field: "explanation" });
    expect(bare?.fix).toContain(`op: "update_block", blockId: "${bare?.location.blockId}"`);
  });
});
