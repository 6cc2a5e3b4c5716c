/**
 * Every resources/read answer fits MCP_RESULT_MAX_BYTES (export packages aside), through the MCP SDK
 * client against a service with a small cap. A course, module or preview too large is limit_exceeded
 * naming the narrower URIs; an agent that follows them reads the whole course, every answer within the
 * cap. The per-module and per-lesson templates are listed, complete, and follow the course's access rules.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { devAccessToken } from "./support/dev-login.ts";
import { pixelPng } from "./support/export-course.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";

const cap = 65_536;
let service: TestService;
let alice: Agent;
let mallory: Agent;
let course: { id: string; modules: { id: string; lessons: { id: string; title: string }[] }[] };
let hugeLessonId: string;
let imageLessonId: string;

/** Markdown of about `bytes` bytes. */
const prose = (label: string, bytes: number) => `${label}: ${"Safety first, always. ".repeat(Math.ceil(bytes / 22))}`.slice(0, bytes);
const lesson = (title: string, blocks: number) => ({ title, blocks: Array.from({ length: blocks }, (_, index) => ({ type: "text", markdown: prose(`${title} ${index}`, 6_000) })) });
const pngOf = (bytes: number) => new Uint8Array([...pixelPng, ...new Uint8Array(Math.max(0, bytes - pixelPng.length))]);

beforeAll(async () => {
  service = await startTestService({ MCP_RESULT_MAX_BYTES: String(cap) });
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  mallory = await connectAgent(service, await devAccessToken(service, "mallory"));
  const created = (await alice.call("create_course", {
    title: "Bounded reads",
    modules: [
      { title: "Small", lessons: [lesson("S1", 2), lesson("S2", 2)] },
      { title: "Many lessons", lessons: Array.from({ length: 7 }, (_, index) => lesson(`M${index + 1}`, 2)) },
      { title: "Huge lesson", lessons: [{ title: "Huge", blocks: [{ type: "text", markdown: prose("Huge", 99_000) }] }, { title: "Pictures", blocks: [] }] },
    ],
  })) as typeof course;
  hugeLessonId = created.modules[2]!.lessons[0]!.id;
  imageLessonId = created.modules[2]!.lessons[1]!.id;
  const upload = async (filename: string, bytes: Uint8Array) =>
    ((await alice.call("upload_asset", { courseId: created.id, filename, dataBase64: Buffer.from(bytes).toString("base64") })).asset as { id: string }).id;
  const small = await upload("small.png", pngOf(2_000));
  const large = await upload("large.png", pngOf(40_000));
  await alice.call("add_blocks", {
    courseId: created.id,
    lessonId: imageLessonId,
    blocks: [
      { type: "image", assetId: small, alt: "Small picture" },
      { type: "image", assetId: large, alt: "Large picture" },
    ],
  });
  course = (await alice.call("get_course", { courseId: created.id, includeBlocks: false })) as typeof course;
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await mallory?.close();
  await service?.dispose();
});

type Read = { ok: true; result: ReadResourceResult; size: number } | { ok: false; error: McpError };

async function read(agent: Agent, uri: string): Promise<Read> {
  try {
    const result = await agent.client.readResource({ uri });
    return { ok: true, result, size: new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: 1, result })).byteLength };
  } catch (error) {
    if (error instanceof McpError) return { ok: false, error };
    throw error;
  }
}

/** Reads `uri` as an agent would: when it is too large, reads the URIs the error names instead. Returns every answer and every dead end. */
async function readFollowingNarrower(uri: string): Promise<{ answers: Map<string, ReadResourceResult>; deadEnds: Map<string, McpError> }> {
  const answers = new Map<string, ReadResourceResult>();
  const deadEnds = new Map<string, McpError>();
  const queue = [uri];
  while (queue.length > 0) {
    const next = queue.shift() as string;
    const outcome = await read(alice, next);
    if (outcome.ok) {
      expect({ uri: next, withinCap: outcome.size <= cap }).toEqual({ uri: next, withinCap: true });
      answers.set(next, outcome.result);
      continue;
    }
    const data = outcome.error.data as { code?: string; narrowerUris?: string[]; limit?: number };
    expect({ uri: next, code: data.code, limit: data.limit }).toEqual({ uri: next, code: "limit_exceeded", limit: cap });
    if (data.narrowerUris?.length) {
      for (const narrower of data.narrowerUris) expect(outcome.error.message).toContain(narrower);
      queue.push(...data.narrowerUris);
    } else deadEnds.set(next, outcome.error);
  }
  return { answers, deadEnds };
}

const allLessons = () => course.modules.flatMap((module) => module.lessons);

describe("a course too large to read whole", () => {
  test("course://{id} is limit_exceeded naming its modules; following the named URIs reads every lesson, each answer within the cap", async () => {
    const first = await read(alice, `course://${course.id}`);
    expect(first.ok).toBe(false);
    const error = (first as { error: McpError }).error;
    expect(error.message).toContain(`over this server's ${cap}-byte cap`);
    for (const module of course.modules) expect(error.message).toContain(`course://${course.id}/modules/${module.id}`);

    const { answers, deadEnds } = await readFollowingNarrower(`course://${course.id}`);
    expect([...deadEnds.keys()]).toEqual([`course://${course.id}/lessons/${hugeLessonId}`]);
    expect(deadEnds.get(`course://${course.id}/lessons/${hugeLessonId}`)?.message).toContain(`get_course { courseId: "${course.id}", lessonIds: ["${hugeLessonId}"] }`);
    const lessonsRead = new Set<string>();
    for (const result of answers.values()) {
      const document = JSON.parse((result.contents[0] as { text: string }).text) as typeof course;
      expect(document.id).toBe(course.id);
      for (const module of document.modules) for (const item of module.lessons) lessonsRead.add(item.id);
    }
    expect([...lessonsRead].sort()).toEqual(allLessons().map((item) => item.id).filter((id) => id !== hugeLessonId).sort());
    // The many-lesson module was too large too, so the agent went down to its lessons.
    expect(answers.has(`course://${course.id}/modules/${course.modules[1]!.id}`)).toBe(false);
    expect(answers.has(`course://${course.id}/lessons/${course.modules[1]!.lessons[0]!.id}`)).toBe(true);
  });

  test("course://{id}/preview is limit_exceeded naming module previews; following them previews every lesson within the cap", async () => {
    const { answers, deadEnds } = await readFollowingNarrower(`course://${course.id}/preview`);
    expect([...deadEnds.keys()]).toEqual([`course://${course.id}/lessons/${hugeLessonId}/preview`]);
    expect(deadEnds.get(`course://${course.id}/lessons/${hugeLessonId}/preview`)?.message).toContain(`course://${course.id}/lessons/${hugeLessonId}`);
    const pages = [...answers.values()].map((result) => (result.contents[0] as { text: string; mimeType: string }));
    for (const page of pages) {
      expect(page.mimeType).toBe("text/html");
      expect(page.text).toStartWith("<!doctype html>");
      expect(page.text).toEndWith("</html>\n");
    }
    for (const item of allLessons().filter((entry) => entry.id !== hugeLessonId)) {
      expect({ lesson: item.title, shown: pages.some((page) => page.text.includes(`data-lesson-id="${item.id}"`)) }).toEqual({ lesson: item.title, shown: true });
    }
  });

  test("the published preview narrows to published module and lesson previews", async () => {
    await alice.call("set_status", { courseId: course.id, status: "published" });
    const outcome = await read(alice, `course://${course.id}/preview/published`);
    expect(outcome.ok).toBe(false);
    const narrower = ((outcome as { error: McpError }).error.data as { narrowerUris: string[] }).narrowerUris;
    expect(narrower[0]).toBe(`course://${course.id}/modules/${course.modules[0]!.id}/preview?variant=published`);
    const { answers } = await readFollowingNarrower(`course://${course.id}/preview/published`);
    expect(answers.size).toBeGreaterThan(0);
    for (const [uri, result] of answers) {
      expect(uri).toEndWith("/preview?variant=published");
      expect((result.contents[0]?._meta as { variant: string }).variant).toBe("published");
    }
  });

  test("a lesson preview inlines the assets that fit and names the ones left out", async () => {
    const outcome = await read(alice, `course://${course.id}/lessons/${imageLessonId}/preview`);
    expect(outcome.ok).toBe(true);
    const content = (outcome as { result: ReadResourceResult; size: number }).result.contents[0] as unknown as { text: string; _meta: { omittedAssetIds: string[] } };
    expect((outcome as { size: number }).size).toBeLessThanOrEqual(cap);
    const assets = (await alice.call("list_assets", { courseId: course.id })).assets as { id: string; filename: string }[];
    const large = assets.find((asset) => asset.filename === "large.png")!.id;
    expect(content._meta.omittedAssetIds).toEqual([large]);
    expect(content.text.match(/src="data:image\/png;base64,/g)?.length).toBe(1);
  });
});

describe("the narrower resources", () => {
  test("are listed as templates", async () => {
    const { resourceTemplates } = await alice.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(
      expect.arrayContaining([
        "course://{courseId}/modules/{moduleId}",
        "course://{courseId}/lessons/{lessonId}",
        "course://{courseId}/modules/{moduleId}/preview",
        "course://{courseId}/lessons/{lessonId}/preview",
      ]),
    );
  });

  test("complete the course ID, and module and lesson IDs of the chosen course", async () => {
    const ref = { type: "ref/resource" as const, uri: "course://{courseId}/lessons/{lessonId}" };
    const courses = await alice.client.complete({ ref, argument: { name: "courseId", value: "crs_" } });
    expect(courses.completion.values).toContain(course.id);
    const lessons = await alice.client.complete({ ref, argument: { name: "lessonId", value: "les_" }, context: { arguments: { courseId: course.id } } });
    expect(lessons.completion.values.sort()).toEqual(allLessons().map((item) => item.id).sort());
    const modules = await alice.client.complete({ ref: { type: "ref/resource", uri: "course://{courseId}/modules/{moduleId}" }, argument: { name: "moduleId", value: "" }, context: { arguments: { courseId: course.id } } });
    expect(modules.completion.values).toEqual(course.modules.map((module) => module.id));
    const strangers = await mallory.client.complete({ ref, argument: { name: "lessonId", value: "" }, context: { arguments: { courseId: course.id } } });
    expect(strangers.completion.values).toEqual([]);
  });

  test("a stranger is told they do not exist; a viewer reads them like the whole course", async () => {
    const uris = [`course://${course.id}/modules/${course.modules[0]!.id}`, `course://${course.id}/lessons/${course.modules[0]!.lessons[0]!.id}/preview`];
    for (const uri of uris) {
      const denied = await read(mallory, uri);
      expect(denied.ok || (denied.error.data as { code: string }).code).toBe("not_found");
    }
    await alice.call("share_course", { courseId: course.id, sub: "mallory", role: "viewer" });
    try {
      for (const uri of uris) expect((await read(mallory, uri)).ok).toBe(true);
    } finally {
      await alice.call("unshare_course", { courseId: course.id, sub: "mallory" });
    }
  });

  test("a module or lesson of another course is not found", async () => {
    const other = (await alice.call("create_course", { title: "Other", modules: [{ title: "M", lessons: [{ title: "L" }] }] })) as typeof course;
    const outcome = await read(alice, `course://${other.id}/lessons/${course.modules[0]!.lessons[0]!.id}`);
    expect(outcome.ok || (outcome.error.data as { code: string }).code).toBe("not_found");
  });
});
