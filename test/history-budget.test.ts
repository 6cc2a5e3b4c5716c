/**
 * History is bounded: restoring back and forth between two versions of a large course stores references
 * to what history already keeps, not the course again; past HISTORY_BUDGET_BYTES the oldest revisions
 * are squashed into a baseline (never the newest 20), the squashed ones stay listed but answer a clear
 * error, the others still read exactly; and on /mcp a write costs its bytes in the rate limit as well
 * as its call. Both stores.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { storeKinds } from "./support/postgres.ts";
import { keptRevisions } from "../src/authoring/history-budget.ts";
import { courseRowsAt } from "../src/authoring/revisions.ts";
import { loadCourseRows, type CourseRows } from "../src/authoring/read-model.ts";
import { readAs } from "../src/authoring/services.ts";
import { startTestIssuer, type TestIssuer } from "./support/test-issuer.ts";
import { startServiceFor } from "./auth-requests.ts";
import { connectAgent } from "./support/mcp-client.ts";
import type { TestService } from "./support/service.ts";

type Revision = { id: string; version: number; tool: string; squashed?: boolean };

async function historyBytes(harness: Harness, courseId: string): Promise<number> {
  return (await harness.services.store.read((tx) => tx.historyUsage(courseId))).bytes;
}

/** The content rows (not the course row, whose version and timestamps move) now, and as of a revision. */
async function rowsNow(harness: Harness, courseId: string): Promise<Omit<CourseRows, "course">> {
  const { course: _course, ...rows } = await readAs(harness.services, { sub: "alice" }, async (session) => loadCourseRows(session.tx, (await session.tx.find("course", courseId))!));
  const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
  return { objectives: byId(rows.objectives), modules: byId(rows.modules), lessons: byId(rows.lessons), blocks: byId(rows.blocks) };
}

async function rowsAt(harness: Harness, courseId: string, revisionId: string): Promise<Omit<CourseRows, "course">> {
  const { course: _course, ...rows } = await readAs(harness.services, { sub: "alice" }, async (session) =>
    courseRowsAt(session, (await session.tx.find("course", courseId))!, (await session.tx.findRevision(courseId, revisionId))!),
  );
  const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
  return { objectives: byId(rows.objectives), modules: byId(rows.modules), lessons: byId(rows.lessons), blocks: byId(rows.blocks) };
}

async function allRevisions(harness: Harness, courseId: string): Promise<Revision[]> {
  const revisions: Revision[] = [];
  let cursor: string | undefined;
  do {
    const page = await harness.call("alice", "list_revisions", { courseId, limit: 100, ...(cursor ? { cursor } : {}) });
    revisions.push(...(page.revisions as Revision[]));
    cursor = (page.nextCursor as string | null) ?? undefined;
  } while (cursor);
  return revisions;
}

describe.each(storeKinds)("on %s", (store) => {
  let harness: Harness;
  afterEach(() => harness?.close());

  test("200 restores between an empty and a large course store references, not the course again, and stay within budget", async () => {
    const budget = 4 * 1024 * 1024;
    harness = await openHarness(store, { limits: { courseHistoryBytes: budget } });
    const created = await harness.call("alice", "create_course", { title: "Big", modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "text", markdown: "start" }] }] }] });
    const courseId = created.id as string;
    const lessonId = (created.modules as { lessons: { id: string }[] }[])[0]!.lessons[0]!.id;
    for (let batch = 0; batch < 4; batch++) {
      const blocks = Array.from({ length: 100 }, (_, i) => ({ type: "text", markdown: `Paragraph ${batch}-${i}: ${"lorem ipsum dolor sit amet ".repeat(55)}` }));
      await harness.call("alice", "add_blocks", { courseId, lessonId, blocks });
    }
    const full = await harness.call("alice", "get_course", { courseId, includeBlocks: false });
    const fullRows = await rowsNow(harness, courseId);
    expect((await harness.services.store.read((tx) => tx.courseUsage(courseId))).contentBytes).toBeGreaterThan(600_000);
    const revisions = await allRevisions(harness, courseId);
    const emptyRevision = revisions.find((revision) => revision.version === 1)!;
    const fullRevision = revisions[0]!;
    const empty = (await harness.call("alice", "get_revision", { courseId, revisionId: emptyRevision.id })).course as Json;

    let version = full.version as number;
    let afterWarmUp = 0;
    for (let restore = 0; restore < 200; restore++) {
      const revisionId = restore % 2 === 0 ? emptyRevision.id : fullRevision.id;
      const result = await harness.call("alice", "restore_revision", { courseId, revisionId, expectedVersion: version });
      version = result.version as number;
      if (restore === 1) afterWarmUp = await historyBytes(harness, courseId);
    }
    const total = await historyBytes(harness, courseId);
    expect(total).toBeLessThanOrEqual(budget);
    // 198 more restores of a 600 KB course: a few hundred bytes each, nowhere near one course apiece.
    expect((total - afterWarmUp) / 198).toBeLessThan(4_000);

    // Every version still reads exactly, through the shared chunks: every row, and the tool's answer.
    expect(await rowsAt(harness, courseId, fullRevision.id)).toEqual(fullRows);
    expect((await rowsAt(harness, courseId, emptyRevision.id)).blocks).toHaveLength(1);
    const asOfFull = (await harness.call("alice", "get_revision", { courseId, revisionId: fullRevision.id, includeBlocks: false })).course as Json;
    expect({ ...asOfFull, updatedAt: full.updatedAt } as Json).toEqual(full);
    const asOfEmpty = (await harness.call("alice", "get_revision", { courseId, revisionId: emptyRevision.id })).course as Json;
    expect(asOfEmpty).toEqual(empty);
    expect(await rowsNow(harness, courseId)).toEqual({ ...fullRows });
  }, 240_000);

  test("past the budget the oldest revisions are squashed: the newest 20 never, old unsquashed ones read exactly, squashed ones answer a clear error", async () => {
    const budget = 600 * 1024;
    harness = await openHarness(store, { limits: { courseHistoryBytes: budget } });
    const created = await harness.call("alice", "create_course", { title: "Edited", modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "text", markdown: "v0" }] }] }] });
    const courseId = created.id as string;
    const blockId = (created.modules as { lessons: { blocks: { id: string }[] }[] }[])[0]!.lessons[0]!.blocks[0]!.id;
    const documents = new Map<number, Json>();
    documents.set(1, await harness.call("alice", "get_course", { courseId }));
    for (let edit = 1; edit <= 60; edit++) {
      const markdown = `Edit ${edit}: ${`${edit} `.repeat(2_500)}`;
      const result = await harness.call("alice", "update_block", { courseId, blockId, block: { type: "text", markdown } });
      documents.set(result.version as number, await harness.call("alice", "get_course", { courseId }));
    }
    expect(await historyBytes(harness, courseId)).toBeLessThanOrEqual(budget);

    const revisions = await allRevisions(harness, courseId);
    expect(revisions.map((revision) => revision.version)).toEqual(Array.from({ length: 61 }, (_, index) => 61 - index));
    const squashed = revisions.filter((revision) => revision.squashed);
    expect(squashed.length).toBeGreaterThan(0);
    expect(revisions.slice(0, keptRevisions).some((revision) => revision.squashed)).toBe(false);
    // Squashed from the oldest, with no gaps.
    const oldestReadable = Math.min(...revisions.filter((revision) => !revision.squashed).map((revision) => revision.version));
    expect(squashed.every((revision) => revision.version < oldestReadable)).toBe(true);

    for (const revision of revisions.filter((candidate) => !candidate.squashed)) {
      const asOf = (await harness.call("alice", "get_revision", { courseId, revisionId: revision.id })).course as Json;
      expect({ ...asOf, updatedAt: null }).toEqual({ ...documents.get(revision.version)!, updatedAt: null });
    }

    const gone = squashed[squashed.length - 1]!;
    const readError = await harness.fail("alice", "get_revision", { courseId, revisionId: gone.id });
    expect(readError.code).toBe("invalid_state");
    expect(readError.message).toContain("squashed into the history baseline");
    expect(readError.message).toContain(`oldest version that can be is ${oldestReadable}`);
    const restoreError = await harness.fail("alice", "restore_revision", { courseId, revisionId: gone.id, expectedVersion: 61 });
    expect(restoreError.code).toBe("invalid_state");
    expect((await harness.call("alice", "get_course", { courseId, includeBlocks: false })).version).toBe(61);

    // The oldest readable version restores exactly.
    const baseline = revisions.find((revision) => revision.version === oldestReadable)!;
    const restoring = await harness.call("alice", "restore_revision", { courseId, revisionId: baseline.id, expectedVersion: 61 });
    // A restore stores what changed: the one block that differs, not the course.
    expect(restoring.changeCount).toBe(1);
    const restored = await harness.call("alice", "get_course", { courseId });
    expect(JSON.stringify((restored.modules as Json[])[0])).toBe(JSON.stringify((documents.get(oldestReadable)!.modules as Json[])[0]));
  }, 240_000);
});

describe("/mcp: a write costs its bytes as well as its call", () => {
  let idp: TestIssuer;
  let service: TestService;
  beforeAll(async () => {
    idp = await startTestIssuer();
    // 30 units at once, one a minute after; every KiB stored costs one more.
    service = await startServiceFor(idp, { RATE_LIMIT_MCP_PER_MINUTE: "1", RATE_LIMIT_MCP_BURST: "30", RATE_LIMIT_MCP_WRITE_BYTES: "1024" });
  });
  afterAll(async () => {
    await service?.dispose();
    await idp?.stop();
  });

  test("after a large write the writer's next call is refused with 429, while a user of small writes keeps going", async () => {
    const dave = await connectAgent(service, await idp.sign({ sub: "dave" }));
    const erin = await connectAgent(service, await idp.sign({ sub: "erin" }));
    try {
      const blocks = [{ type: "text", markdown: "x ".repeat(20_000) }];
      await dave.call("create_course", { title: "Dave's", modules: [{ title: "M", lessons: [{ title: "L", blocks }] }] });
      await expect(dave.callRaw("list_courses", {})).rejects.toThrow(/429|Too Many Requests/);

      const small = await erin.call("create_course", { title: "Erin's", modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "text", markdown: "short" }] }] }] });
      for (let call = 0; call < 5; call++) await erin.call("update_course", { courseId: small.id, title: `Erin's ${call}` });
      expect((await erin.call("list_courses", {})).courses).toBeDefined();
    } finally {
      await dave.close();
      await erin.close();
    }
  });
});
