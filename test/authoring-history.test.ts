/**
 * Atomic batches, revisions and optimistic concurrency: a batch is all-or-nothing and names its
 * failing step; every change is a revision that can be read back and restored; a stale
 * expectedVersion writes nothing and names the current version.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { storeKinds } from "./support/postgres.ts";

// Every rule holds on both stores.
describe.each(storeKinds)("on %s", (store) => {
  let harness: Harness;
  let courseId: string;
  let lessonId: string;
  let moduleId: string;

  beforeEach(async () => {
    harness = await openHarness(store);
    const course = await harness.call("alice", "create_course", {
      title: "History",
      modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "text", markdown: "v1" }] }] }],
    });
    courseId = course.id as string;
    const module = (course.modules as { id: string; lessons: { id: string }[] }[])[0]!;
    moduleId = module.id;
    lessonId = module.lessons[0]!.id;
  });
  afterEach(() => harness.close());

  const read = (args: Json = {}) => harness.call("alice", "get_course", { courseId, ...args });

  describe("edit_course", () => {
    test("applies every step as one revision and one version step", async () => {
      const result = await harness.call("alice", "edit_course", {
        courseId,
        expectedVersion: 1,
        operations: [
          { op: "update_course", title: "History (edited)" },
          { op: "add_lesson", moduleId, title: "L2", blocks: [{ type: "divider" }] },
          { op: "add_blocks", lessonId, blocks: [{ type: "text", markdown: "v2" }] },
          { op: "set_objectives", objectives: [{ text: "Remember" }] },
        ],
      });
      expect(result.version).toBe(2);
      expect((result.results as Json[]).map((r) => r.op)).toEqual(["update_course", "add_lesson", "add_blocks", "set_objectives"]);
      const revisions = await harness.call("alice", "list_revisions", { courseId });
      expect((revisions.revisions as Json[]).map((r) => [r.version, r.tool])).toEqual([
        [2, "edit_course"],
        [1, "create_course"],
      ]);
    });

    test("a failing fifth step applies nothing and names operations[4]", async () => {
      const before = await read();
      const error = await harness.fail("alice", "edit_course", {
        courseId,
        operations: [
          { op: "update_course", title: "Changed" },
          { op: "add_blocks", lessonId, blocks: [{ type: "divider" }] },
          { op: "add_lesson", moduleId, title: "New" },
          { op: "update_module", moduleId, summary: "S" },
          { op: "remove_block", blockId: "blk_missing" },
        ],
      });
      expect(error.code).toBe("not_found");
      expect(error.message).toStartWith("operations[4] (remove_block): blockId:");
      expect(error.details.operationIndex).toBe(4);
      expect(await read()).toEqual(before);
    });

    test("an invalid step shape is refused by the schema with its index", async () => {
      const error = await harness.fail("alice", "edit_course", {
        courseId,
        operations: [{ op: "update_course", title: "ok" }, { op: "add_blocks", lessonId, blocks: [{ type: "text", markdown: "" }] }],
      });
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toContain("operations[1].blocks[0].markdown");
    });
  });

  describe("revisions", () => {
    test("get_revision shows the course as it was; restore_revision brings it back as a new revision", async () => {
      const original = await read();
      const block = ((original.modules as { lessons: { blocks: { id: string }[] }[] }[])[0]!.lessons[0]!.blocks[0]!).id;
      await harness.call("alice", "update_block", { courseId, blockId: block, block: { type: "text", markdown: "v2" } });
      await harness.call("alice", "update_course", { courseId, title: "Renamed", tags: ["x"] });
      await harness.call("alice", "add_module", { courseId, title: "Extra", lessons: [{ title: "E", blocks: [{ type: "divider" }] }] });
      await harness.call("alice", "remove_lesson", { courseId, lessonId });
      const revisions = (await harness.call("alice", "list_revisions", { courseId })).revisions as { id: string; version: number }[];
      expect(revisions.map((r) => r.version)).toEqual([5, 4, 3, 2, 1]);
      const first = revisions[4]!;

      const asOfFirst = (await harness.call("alice", "get_revision", { courseId, revisionId: first.id })).course;
      expect(asOfFirst).toEqual(original);

      const restored = await harness.call("alice", "restore_revision", { courseId, revisionId: first.id, expectedVersion: 5 });
      expect(restored).toMatchObject({ version: 6, restoredVersion: 1 });
      const now = await read();
      expect({ ...now, version: 1, updatedAt: original.updatedAt } as Json).toEqual(original);

      const asOfSecond = (await harness.call("alice", "get_revision", { courseId, revisionId: revisions[3]!.id })).course as Json;
      expect(JSON.stringify(asOfSecond)).toContain('"v2"');
      expect(asOfSecond.title).toBe("History");
    });

    test("revision storage is proportional to the change, not the course", async () => {
      const big = Array.from({ length: 200 }, (_, i) => ({ type: "text", markdown: `paragraph ${i} `.repeat(20) }));
      const added = await harness.call("alice", "add_blocks", { courseId, lessonId, blocks: big });
      const target = (added.blocks as { id: string }[])[7]!.id;
      await harness.call("alice", "update_block", { courseId, blockId: target, block: { type: "text", markdown: "short" } });
      const latest = ((await harness.call("alice", "list_revisions", { courseId, limit: 1 })).revisions as { id: string }[])[0]!;
      const revision = await harness.call("alice", "get_revision", { courseId, revisionId: latest.id, includeChanges: true, includeBlocks: false });
      const changes = (revision.revision as { changes: unknown[] }).changes;
      expect(changes).toHaveLength(1);
      expect(JSON.stringify(changes).length).toBeLessThan(1_000);
    });

    test("list_revisions pages with a cursor; an unknown revision is not_found", async () => {
      for (let i = 0; i < 4; i++) await harness.call("alice", "update_course", { courseId, title: `T${i}` });
      const first = await harness.call("alice", "list_revisions", { courseId, limit: 3 });
      const second = await harness.call("alice", "list_revisions", { courseId, limit: 3, cursor: first.nextCursor });
      expect([...(first.revisions as Json[]), ...(second.revisions as Json[])].map((r) => r.version)).toEqual([5, 4, 3, 2, 1]);
      expect(second.nextCursor).toBeNull();
      const missing = await harness.fail("alice", "get_revision", { courseId, revisionId: "rev_missing" });
      expect(missing.code).toBe("not_found");
    });
  });

  describe("expectedVersion", () => {
    test("a stale expectedVersion is a conflict naming the current version, and writes nothing", async () => {
      await harness.call("alice", "update_course", { courseId, title: "Second", expectedVersion: 1 });
      const before = await read();
      const error = await harness.fail("alice", "update_course", { courseId, title: "Lost update", expectedVersion: 1 });
      expect(error.code).toBe("conflict");
      expect(error.details.currentVersion).toBe(2);
      expect(error.message).toContain("version 2");
      expect(await read()).toEqual(before);
    });

    test("two writers racing on the same version: exactly one wins", async () => {
      const attempts = await Promise.allSettled(
        ["A", "B", "C", "D"].map((title) => harness.call("alice", "update_course", { courseId, title, expectedVersion: 1 })),
      );
      expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(1);
      expect((await read()).version).toBe(2);
    });

    test("a write that changes nothing keeps the version", async () => {
      const result = await harness.call("alice", "update_course", { courseId, title: "History" });
      expect(result.version).toBe(1);
    });
  });
});
