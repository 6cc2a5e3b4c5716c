/**
 * Every resources/read answer fits MCP_RESULT_MAX_BYTES (export packages aside), through the MCP SDK
 * client against a service with a small cap. A course, module, lesson or preview too large is
 * limit_exceeded naming narrower URIs that each fit: a module too large is replaced by its lessons, a
 * lesson too large by runs of its blocks, so one round of reads gets the whole course (but a block over
 * the cap by itself, which is named as such). The per-module, per-lesson and per-run templates are listed,
 * complete, and follow the course's access rules.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { devAccessToken } from "./support/dev-login.ts";
import { pixelPng } from "./support/export-course.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { DataName } from "../src/page-contract/markup-names.ts";

const cap = 65_536;
let service: TestService;
let alice: Agent;
let mallory: Agent;
let course: { id: string; modules: { id: string; lessons: { id: string; title: string }[] }[] };
let hugeLessonId: string;
let longLessonId: string;
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
      { title: "Huge lesson", lessons: [lesson("Long", 16), { title: "Huge", blocks: [{ type: "text", markdown: prose("Huge", 99_000) }] }, { title: "Pictures", blocks: [] }] },
    ],
  })) as typeof course;
  longLessonId = created.modules[2]!.lessons[0]!.id;
  hugeLessonId = created.modules[2]!.lessons[1]!.id;
  imageLessonId = created.modules[2]!.lessons[2]!.id;
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

/**
 * Reads `uri`, which must be too large, then every URI its error names: each must answer within the cap
 * at once (no second limit_exceeded). Returns the error's data and the answers.
 */
async function readNamed(uri: string): Promise<{ data: { narrowerUris: string[]; moreNarrowerUris: number; overCapUris?: string[] }; message: string; answers: Map<string, ReadResourceResult> }> {
  const first = await read(alice, uri);
  expect({ uri, tooLarge: !first.ok }).toEqual({ uri, tooLarge: true });
  const error = (first as { error: McpError }).error;
  const data = error.data as { code?: string; limit?: number; narrowerUris: string[]; moreNarrowerUris: number; overCapUris?: string[] };
  expect({ uri, code: data.code, limit: data.limit }).toEqual({ uri, code: "limit_exceeded", limit: cap });
  expect(error.message).toContain(`this server's ${cap}-byte cap`);
  // The error itself stays within the cap it reports.
  expect(new TextEncoder().encode(JSON.stringify({ code: error.code, message: error.message, data })).byteLength).toBeLessThan(cap);
  const answers = new Map<string, ReadResourceResult>();
  for (const narrower of data.narrowerUris) {
    expect(error.message).toContain(narrower);
    const outcome = await read(alice, narrower);
    expect({ narrower, fits: outcome.ok ? outcome.size <= cap : (outcome.error.data as { code: string }).code }).toEqual({ narrower, fits: true });
    if (outcome.ok) answers.set(narrower, outcome.result);
  }
  return { data, message: error.message, answers };
}

const allLessons = () => course.modules.flatMap((module) => module.lessons);
const lessonUri = (lessonId: string, suffix = "") => `course://${course.id}/lessons/${lessonId}${suffix}`;

/** Block IDs of every lesson but the huge one, in course order, read with get_course page by page. */
async function readableBlockIds(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = (await alice.call("get_course", { courseId: course.id, lessonIds: allLessons().filter((item) => item.id !== hugeLessonId).map((item) => item.id), ...(cursor ? { cursor } : {}) })) as {
      modules: { lessons: { blocks: { id: string }[] }[] }[];
      nextCursor?: string | null;
    };
    ids.push(...page.modules.flatMap((module) => module.lessons.flatMap((item) => item.blocks.map((block) => block.id))));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

describe("a course too large to read whole", () => {
  test("course://{id} names only URIs that fit: the small module, the lessons of a module over the cap, runs of a lesson's blocks; together they hold every block", async () => {
    const { data, answers } = await readNamed(`course://${course.id}`);
    const [small, many, long] = course.modules;
    expect(data.narrowerUris).toContain(`course://${course.id}/modules/${small!.id}`);
    expect(data.narrowerUris).not.toContain(`course://${course.id}/modules/${many!.id}`);
    for (const item of many!.lessons) expect(data.narrowerUris).toContain(lessonUri(item.id));
    expect(data.narrowerUris).not.toContain(`course://${course.id}/modules/${long!.id}`);
    expect(data.narrowerUris).not.toContain(lessonUri(longLessonId));
    const runs = data.narrowerUris.filter((uri) => uri.startsWith(lessonUri(longLessonId, "/blocks/")));
    expect(runs.length).toBeGreaterThan(1);
    expect(runs[0]).toStartWith(lessonUri(longLessonId, "/blocks/1-"));
    expect(runs.at(-1)).toEndWith("-16");
    expect(data.narrowerUris).toContain(lessonUri(imageLessonId));
    expect(data.moreNarrowerUris).toBe(0);
    // The one block larger than the cap alone is named as such, not as something to read.
    expect(data.overCapUris).toEqual([lessonUri(hugeLessonId, "/blocks/1-1")]);
    const blocksRead: string[] = [];
    for (const result of answers.values()) {
      const document = JSON.parse((result.contents[0] as { text: string }).text) as { id: string; modules: { lessons: { blocks: { id: string }[] }[] }[] };
      expect(document.id).toBe(course.id);
      blocksRead.push(...document.modules.flatMap((module) => module.lessons.flatMap((item) => item.blocks.map((block) => block.id))));
    }
    expect(blocksRead).toEqual(await readableBlockIds());
  });

  test("a lesson over the cap names runs of its blocks; a run reads as its lesson with those blocks; a lesson of one block over the cap points to the paged tool", async () => {
    const { data, answers } = await readNamed(lessonUri(longLessonId));
    expect(data.narrowerUris.every((uri) => uri.startsWith(lessonUri(longLessonId, "/blocks/")))).toBe(true);
    const [firstRun] = [...answers.values()];
    const document = JSON.parse((firstRun!.contents[0] as { text: string }).text) as { modules: { lessons: { id: string; blocks: unknown[] }[] }[] };
    const [, last] = /\/blocks\/1-(\d+)$/.exec(data.narrowerUris[0]!) ?? [];
    expect(document.modules[0]!.lessons[0]!.id).toBe(longLessonId);
    expect(document.modules[0]!.lessons[0]!.blocks).toHaveLength(Number(last));
    // A run of blocks can be watched like its lesson.
    await alice.client.subscribeResource({ uri: data.narrowerUris[0]! });
    await alice.client.unsubscribeResource({ uri: data.narrowerUris[0]! });
    const huge = await read(alice, lessonUri(hugeLessonId));
    expect(huge.ok).toBe(false);
    expect((huge as { error: McpError }).error.message).toContain(`get_course { courseId: "${course.id}", lessonIds: ["${hugeLessonId}"] }`);
    const beyond = await read(alice, lessonUri(longLessonId, "/blocks/15-17"));
    expect(beyond.ok).toBe(false);
    expect((beyond as { error: McpError }).error.message).toContain("has 16 block(s)");
  });

  test("course://{id}/preview names previews that fit, down to runs of a lesson's blocks; together they show every lesson", async () => {
    const { data, answers } = await readNamed(`course://${course.id}/preview`);
    expect(data.overCapUris).toEqual([lessonUri(hugeLessonId, "/blocks/1-1/preview")]);
    expect(data.narrowerUris.some((uri) => uri.startsWith(lessonUri(longLessonId, "/blocks/")) && uri.endsWith("/preview"))).toBe(true);
    const pages = [...answers.values()].map((result) => result.contents[0] as { text: string; mimeType: string });
    for (const page of pages) {
      expect(page.mimeType).toBe("text/html");
      expect(page.text).toStartWith("<!doctype html>");
      expect(page.text).toEndWith("</html>\n");
    }
    for (const item of allLessons().filter((entry) => entry.id !== hugeLessonId)) {
      expect({ lesson: item.title, shown: pages.some((page) => page.text.includes(`data-${DataName.lessonId}="${item.id}"`)) }).toEqual({ lesson: item.title, shown: true });
    }
    for (let index = 0; index < 16; index++) {
      expect({ block: index + 1, shown: pages.some((page) => page.text.includes(`Long ${index}: Safety first`)) }).toEqual({ block: index + 1, shown: true });
    }
  });

  test("the published preview narrows to published previews", async () => {
    await alice.call("set_status", { courseId: course.id, status: "published" });
    const { data, answers } = await readNamed(`course://${course.id}/preview/published`);
    expect(data.narrowerUris[0]).toBe(`course://${course.id}/modules/${course.modules[0]!.id}/preview?variant=published`);
    expect(answers.size).toBe(data.narrowerUris.length);
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
        "course://{courseId}/lessons/{lessonId}/blocks/{first}-{last}",
        "course://{courseId}/lessons/{lessonId}/blocks/{first}-{last}/preview",
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
