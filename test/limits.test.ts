/**
 * Work per course and per user is bounded: each `LIMIT_*` refuses the call that would pass it with a
 * `limit_exceeded` tool error naming the limit, its value and the current use, and the refused call
 * changes nothing. Driven through the real service with the SDK client, with small limits set in the
 * environment exactly as an operator would.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { pixelPng } from "./support/export-course.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent, type AgentToolError } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { createTestDatabase, type TestDatabase } from "./support/postgres.ts";
import { SQL } from "bun";

const limits = {
  LIMIT_COURSE_CONTENT_BYTES: "4000",
  LIMIT_COURSE_BLOCKS: "6",
  LIMIT_COURSE_LESSONS: "4",
  LIMIT_USER_ASSET_BYTES: String(pixelPng.byteLength * 2),
  LIMIT_USER_COURSES: "3",
  LIMIT_USER_EXPORTS: "2",
};

let service: TestService;
const agents: Agent[] = [];

beforeAll(async () => {
  service = await startTestService(limits);
});

afterAll(async () => {
  for (const agent of agents) await agent.close();
  await service?.dispose();
});

async function agentFor(user: string): Promise<Agent> {
  const agent = await connectAgent(service, await devAccessToken(service, user));
  agents.push(agent);
  return agent;
}

const text = (characters: number) => ({ type: "text", markdown: "x".repeat(characters) });

/** A course with one module of `lessons` empty lessons; returns its ID and lesson IDs. */
async function courseWith(agent: Agent, lessons = 1): Promise<{ courseId: string; lessonIds: string[] }> {
  const course = await agent.call("create_course", {
    title: "Bounded course",
    modules: [{ title: "Module", lessons: Array.from({ length: lessons }, (_, index) => ({ title: `Lesson ${index + 1}` })) }],
  });
  const modules = course.modules as { lessons: { id: string }[] }[];
  return { courseId: String(course.id), lessonIds: modules[0]!.lessons.map((lesson) => lesson.id) };
}

/** The whole draft as JSON, to prove a refused call left it exactly as it was. */
async function snapshot(agent: Agent, courseId: string): Promise<string> {
  return JSON.stringify(await agent.call("get_course", { courseId }));
}

async function ownedCourseCount(agent: Agent): Promise<number> {
  const listed = await agent.call("list_courses", { limit: 100 });
  return (listed.courses as unknown[]).length;
}

function expectLimit(error: AgentToolError, setting: string, value: number, current: number): void {
  expect(error.code).toBe("limit_exceeded");
  expect(error.message).toContain(setting);
  expect(error.message).toContain(String(value));
  expect(error.message).toMatch(new RegExp(`current use \\([^)]*\\) is ${current} `));
  expect(error.message).toContain("Nothing was changed");
  expect(error.details).toMatchObject({ setting, value, current });
}

describe("per course", () => {
  test("LIMIT_COURSE_CONTENT_BYTES: add_blocks past it is refused with the limit and the course's current bytes, and adds nothing", async () => {
    const alice = await agentFor("content-alice");
    const { courseId, lessonIds } = await courseWith(alice);
    await alice.call("add_blocks", { courseId, lessonId: lessonIds[0], blocks: [text(3000)] });
    const before = await snapshot(alice, courseId);
    const error = await alice.fail("add_blocks", { courseId, lessonId: lessonIds[0], blocks: [text(500), text(1000)] });
    // {"markdown":"xxx…"} is the stored body: 15 bytes around the text.
    expectLimit(error, "LIMIT_COURSE_CONTENT_BYTES", 4000, 3015);
    expect(await snapshot(alice, courseId)).toBe(before);
  });

  test("LIMIT_COURSE_CONTENT_BYTES: update_block that grows a block past it is refused; one that shrinks it is not", async () => {
    const alice = await agentFor("content-alice-2");
    const { courseId, lessonIds } = await courseWith(alice);
    const added = await alice.call("add_blocks", { courseId, lessonId: lessonIds[0], blocks: [text(3000)] });
    const blockId = (added.blocks as { id: string }[])[0]!.id;
    const before = await snapshot(alice, courseId);
    expectLimit(await alice.fail("update_block", { courseId, blockId, block: text(4000) }), "LIMIT_COURSE_CONTENT_BYTES", 4000, 3015);
    expect(await snapshot(alice, courseId)).toBe(before);
    await alice.call("update_block", { courseId, blockId, block: text(10) });
    // The shrink freed room: the running total follows every change.
    await alice.call("add_blocks", { courseId, lessonId: lessonIds[0], blocks: [text(3900)] });
  });

  test("LIMIT_COURSE_BLOCKS: an edit_course batch that passes it is refused whole", async () => {
    const alice = await agentFor("blocks-alice");
    const { courseId, lessonIds } = await courseWith(alice);
    await alice.call("add_blocks", { courseId, lessonId: lessonIds[0], blocks: [text(1), text(1), text(1), text(1)] });
    const before = await snapshot(alice, courseId);
    const error = await alice.fail("edit_course", {
      courseId,
      operations: [
        { op: "update_lesson", lessonId: lessonIds[0], title: "Renamed" },
        { op: "add_blocks", lessonId: lessonIds[0], blocks: [text(1), text(1), text(1)] },
      ],
    });
    expectLimit(error, "LIMIT_COURSE_BLOCKS", 6, 4);
    expect(await snapshot(alice, courseId)).toBe(before);
  });

  test("LIMIT_COURSE_LESSONS: add_lesson past it is refused, and so is create_course with an outline that passes it", async () => {
    const alice = await agentFor("lessons-alice");
    const { courseId } = await courseWith(alice, 4);
    const course = await alice.call("get_course", { courseId, includeBlocks: false });
    const moduleId = (course.modules as { id: string }[])[0]!.id;
    const before = await snapshot(alice, courseId);
    expectLimit(await alice.fail("add_lesson", { courseId, moduleId, title: "Fifth" }), "LIMIT_COURSE_LESSONS", 4, 4);
    expect(await snapshot(alice, courseId)).toBe(before);

    const count = await ownedCourseCount(alice);
    const outline = { title: "Too long", modules: [{ title: "M", lessons: Array.from({ length: 5 }, (_, index) => ({ title: `L${index}` })) }] };
    expectLimit(await alice.fail("create_course", outline), "LIMIT_COURSE_LESSONS", 4, 0);
    expect(await ownedCourseCount(alice)).toBe(count);
  });

  test("restore_revision that would take a course past a limit an operator has since lowered is refused and changes nothing", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cas-limits-"));
    let courseId = "";
    let revisionWithFour = "";
    const first = await startTestService(limits, dataDir);
    try {
      const alice = await connectAgent(first, await devAccessToken(first, "restore-alice"));
      const created = await courseWith(alice);
      courseId = created.courseId;
      const added = await alice.call("add_blocks", { courseId, lessonId: created.lessonIds[0], blocks: [text(1), text(1), text(1), text(1)] });
      revisionWithFour = String(((await alice.call("list_revisions", { courseId, limit: 1 })).revisions as { id: string }[])[0]!.id);
      for (const block of added.blocks as { id: string }[]) await alice.call("remove_block", { courseId, blockId: block.id });
      await alice.close();
    } finally {
      await first.stop();
    }
    const lowered = await startTestService({ ...limits, LIMIT_COURSE_BLOCKS: "2" }, dataDir);
    try {
      const alice = await connectAgent(lowered, await devAccessToken(lowered, "restore-alice"));
      const before = await snapshot(alice, courseId);
      expectLimit(await alice.fail("restore_revision", { courseId, revisionId: revisionWithFour }), "LIMIT_COURSE_BLOCKS", 2, 0);
      expect(await snapshot(alice, courseId)).toBe(before);
      await alice.close();
    } finally {
      await lowered.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("per user", () => {
  test("LIMIT_USER_COURSES: create_course, duplicate_course and import_course past it are refused and create nothing", async () => {
    const bob = await agentFor("courses-bob");
    const { courseId } = await courseWith(bob);
    await courseWith(bob);
    await courseWith(bob);
    expect(await ownedCourseCount(bob)).toBe(3);
    expectLimit(await bob.fail("create_course", { title: "Fourth" }), "LIMIT_USER_COURSES", 3, 3);
    expectLimit(await bob.fail("duplicate_course", { courseId }), "LIMIT_USER_COURSES", 3, 3);
    const markdown = "# Imported\n\n## Module\n\n### Lesson\n\nSome text.\n";
    expectLimit(await bob.fail("import_course", { format: "markdown", content: markdown }), "LIMIT_USER_COURSES", 3, 3);
    expect(await ownedCourseCount(bob)).toBe(3);
    await bob.call("delete_course", { courseId });
    await bob.call("create_course", { title: "Room again" });
  });

  test("LIMIT_USER_ASSET_BYTES: upload_asset and duplicate_course past it are refused and store nothing", async () => {
    const carol = await agentFor("assets-carol");
    const { courseId } = await courseWith(carol);
    const upload = { courseId, filename: "pixel.png", dataBase64: Buffer.from(pixelPng).toString("base64") };
    await carol.call("upload_asset", upload);
    const before = await snapshot(carol, courseId);
    const copy = await carol.call("duplicate_course", { courseId });
    // The copy's asset row counts for its owner too: two pixels now, which is the limit.
    expectLimit(await carol.fail("upload_asset", upload), "LIMIT_USER_ASSET_BYTES", pixelPng.byteLength * 2, pixelPng.byteLength * 2);
    expectLimit(await carol.fail("duplicate_course", { courseId }), "LIMIT_USER_ASSET_BYTES", pixelPng.byteLength * 2, pixelPng.byteLength * 2);
    expect(await snapshot(carol, courseId)).toBe(before);
    expect((await carol.call("list_assets", { courseId })).assets).toHaveLength(1);
    expect(await ownedCourseCount(carol)).toBe(2);
    await carol.call("delete_course", { courseId: String(copy.id) });
    await carol.call("upload_asset", upload);
  });

  test("LIMIT_USER_EXPORTS: an export past the kept packages is refused and keeps no file", async () => {
    const dana = await agentFor("exports-dana");
    const { courseId, lessonIds } = await courseWith(dana);
    await dana.call("add_blocks", { courseId, lessonId: lessonIds[0], blocks: [text(100)] });
    await dana.call("export_course", { courseId, format: "json" });
    await dana.call("export_course", { courseId, format: "html" });
    const error = await dana.fail("export_course", { courseId, format: "scorm12" });
    expectLimit(error, "LIMIT_USER_EXPORTS", 2, 2);
    expect(error.message).toContain("expires at");
    const kept = readdirSync(join(service.dataDir, "exports", courseId));
    expect(kept.filter((name) => !name.endsWith(".meta.json"))).toHaveLength(2);
    // Another user's packages are counted apart.
    const erin = await agentFor("exports-erin");
    const own = await courseWith(erin);
    await erin.call("export_course", { courseId: own.courseId, format: "json" });
  });
});

describe("LIMIT_USER_EXPORTS on PostgreSQL, where packages are rows shared by every replica", () => {
  let database: TestDatabase;
  let shared: TestService;

  beforeAll(async () => {
    database = await createTestDatabase();
    shared = await startTestService({ ...limits, DATABASE_URL: database.url });
  }, 60_000);
  afterAll(async () => {
    await shared?.dispose();
    await database?.drop();
  }, 60_000);

  test("an export past the kept packages is refused and stores no package row", async () => {
    const agent = await connectAgent(shared, await devAccessToken(shared, "exports-pg"));
    try {
      const { courseId, lessonIds } = await courseWith(agent);
      await agent.call("add_blocks", { courseId, lessonId: lessonIds[0], blocks: [text(100)] });
      await agent.call("export_course", { courseId, format: "json" });
      await agent.call("export_course", { courseId, format: "html" });
      const error = await agent.fail("export_course", { courseId, format: "scorm12" });
      expectLimit(error, "LIMIT_USER_EXPORTS", 2, 2);
      expect(error.message).toContain("expires at");
      const sql = new SQL(database.url, { max: 1 });
      try {
        const [row] = await sql.unsafe("SELECT COUNT(*)::int AS count FROM export_packages WHERE course_id = $1", [courseId]);
        expect(row.count).toBe(2);
      } finally {
        await sql.close();
      }
    } finally {
      await agent.close();
    }
  });
});

describe("configuration", () => {
  test("an invalid LIMIT_* value stops start-up with a line naming the variable", () => {
    expect(() => loadConfig({ LIMIT_COURSE_BLOCKS: "0" })).toThrow("LIMIT_COURSE_BLOCKS: must be at least 1");
    expect(() => loadConfig({ LIMIT_USER_EXPORTS: "many" })).toThrow("LIMIT_USER_EXPORTS: must be a whole number");
    expect(loadConfig({ LIMIT_COURSE_LESSONS: "7" }).limits).toMatchObject({ courseLessons: 7, courseBlocks: 20_000 });
  });
});
