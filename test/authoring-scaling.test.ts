/**
 * A block edit costs the same in a 10-block course and a 10,000-block course. Measured without clocks
 * (timing targets belong to bench/): the store work of one edit — statements issued and rows read or
 * written — must not depend on the course's size, and its revision must stay small.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { tallyStoreWork, type StoreTally } from "./support/counting-store.ts";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await openHarness();
});
afterAll(() => harness.close());

async function courseWithBlocks(count: number): Promise<{ courseId: string; blockId: string; lessonId: string }> {
  const lessons = Math.max(1, Math.ceil(count / 500));
  const course = await harness.call("alice", "create_course", {
    title: `${count} blocks`,
    modules: [{ title: "M", lessons: Array.from({ length: lessons }, (_, i) => ({ title: `L${i}` })) }],
  });
  const lessonIds = (course.modules as { lessons: { id: string }[] }[])[0]!.lessons.map((l) => l.id);
  let added: Json[] = [];
  for (let i = 0; i < count; i += 500) {
    const size = Math.min(500, count - i);
    const result = await harness.call("alice", "add_blocks", {
      courseId: course.id,
      lessonId: lessonIds[Math.floor(i / 500)],
      blocks: Array.from({ length: size }, (_, k) => ({ type: "text", markdown: `Block ${i + k} with a few words of text.` })),
    });
    added = result.blocks as Json[];
  }
  return { courseId: course.id as string, blockId: added[Math.floor(added.length / 2)]!.id as string, lessonId: lessonIds[lessonIds.length - 1]! };
}

function measure(run: () => Promise<unknown>): Promise<StoreTally> {
  return tallyStoreWork(harness.services, run);
}

test("update_block, move_block and add_blocks do the same store work in a 10-block and a 10,000-block course", async () => {
  const small = await courseWithBlocks(10);
  const large = await courseWithBlocks(10_000);
  const edit = (course: typeof small) => () =>
    harness.call("alice", "update_block", { courseId: course.courseId, blockId: course.blockId, block: { type: "text", markdown: "Edited." } });
  const append = (course: typeof small) => () =>
    harness.call("alice", "add_blocks", { courseId: course.courseId, lessonId: course.lessonId, blocks: [{ type: "divider" }] });
  const move = (course: typeof small) => () => harness.call("alice", "move_block", { courseId: course.courseId, blockId: course.blockId, position: 0 });

  for (const operation of [edit, append]) {
    const smallTally = await measure(operation(small));
    const largeTally = await measure(operation(large));
    expect(largeTally.calls).toEqual(smallTally.calls);
    expect(largeTally.rowsRead).toBe(smallTally.rowsRead);
    expect(largeTally.calls).not.toContain("listInCourse");
    expect(largeTally.calls).not.toContain("listChildren");
  }
  const smallMove = await measure(move(small));
  const largeMove = await measure(move(large));
  expect(largeMove.calls).toEqual(smallMove.calls);
  expect(largeMove.calls).not.toContain("listInCourse");

  const revisions = await harness.call("alice", "list_revisions", { courseId: large.courseId, limit: 3 });
  expect((revisions.revisions as Json[]).map((r) => r.changeCount)).toEqual([1, 1, 1]);
});
