/**
 * Validation and publishing read a course in a fixed number of store calls whatever its size: the
 * same calls for 10 and for 10,000 blocks, and never one query per block. Measured by counting store
 * calls (timing targets belong to bench/).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { tallyStoreWork } from "./support/counting-store.ts";
import { cleanOutline, createCourse } from "./support/review-courses.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await openHarness();
});
afterAll(() => harness.close());

const blocksPerCall = 500;

/** The clean course plus a module of text lessons holding `count` blocks in all. */
async function courseWithBlocks(count: number): Promise<string> {
  const course = await createCourse(harness, cleanOutline());
  const lessons = Math.ceil(count / blocksPerCall);
  const module = (await harness.call("alice", "add_module", {
    courseId: course.id,
    title: "Reading",
    lessons: Array.from({ length: lessons }, (_, index) => ({ title: `Part ${index + 1}` })),
  })).module as Json & { lessons: { id: string }[] };
  for (let added = 0; added < count; added += blocksPerCall) {
    const size = Math.min(blocksPerCall, count - added);
    await harness.call("alice", "add_blocks", {
      courseId: course.id,
      lessonId: module.lessons[Math.floor(added / blocksPerCall)]!.id,
      blocks: Array.from({ length: size }, (_, k) => ({ type: "text", markdown: `Paragraph ${added + k}: walk calmly to the exit.` })),
    });
  }
  return course.id;
}

test("validate_course and set_status published issue the same store calls for 10 and 10,000 blocks", async () => {
  const small = await courseWithBlocks(10);
  const large = await courseWithBlocks(10_000);

  const validate = (courseId: string) => () => harness.call("alice", "validate_course", { courseId });
  const smallValidation = await tallyStoreWork(harness.services, validate(small));
  const largeValidation = await tallyStoreWork(harness.services, validate(large));
  expect(largeValidation.calls).toEqual(smallValidation.calls);
  expect(largeValidation.calls.filter((call) => call === "find").length).toBe(1);
  expect(largeValidation.calls).not.toContain("listChildren");

  const largeResult = await harness.call("alice", "validate_course", { courseId: large });
  expect(largeResult).toMatchObject({ publishable: true, counts: { error: 0 } });

  const publish = (courseId: string) => () => harness.call("alice", "set_status", { courseId, status: "published" });
  const smallPublish = await tallyStoreWork(harness.services, publish(small));
  const largePublish = await tallyStoreWork(harness.services, publish(large));
  expect(largePublish.calls).toEqual(smallPublish.calls);
  expect(largePublish.calls).not.toContain("listChildren");
  expect((await harness.call("alice", "get_course", { courseId: large, variant: "published", includeBlocks: false })).status).toBe("published");
}, 60_000);
