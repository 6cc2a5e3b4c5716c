/**
 * Where a tool needs a file the agent does not have, its error says that the person can add their own in
 * the files view (opened by list_assets) and that the agent then passes the assetId: media blocks without
 * a source, an attachment without its file, import_course and import_review_copy without content.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";

type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let courseId: string;
let lessonId: string;

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  const course = (await alice.call("create_course", { title: "Hints", modules: [{ title: "M", lessons: [{ title: "L" }] }] })) as Json;
  courseId = course.id;
  lessonId = course.modules[0].lessons[0].id;
});

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

const hint = "open the files view (list_assets) and use the assetId it returns";

test.each([
  ["an image", { type: "image", alt: "Exit map" }],
  ["a video", { type: "video", transcript: "Words." }],
  ["an audio clip", { type: "audio", transcript: "Words." }],
  ["an attachment", { type: "attachment", title: "Policy" }],
  ["a process step's picture", { type: "process", steps: [{ title: "One", markdown: "Do it.", image: { alt: "x" } }, { title: "Two", markdown: "Then." }] }],
])("%s without a file points the person to the files view, and nothing is added", async (_name, block) => {
  const error = await alice.fail("add_blocks", { courseId, lessonId, blocks: [block] });
  expect(error.code).toBe("invalid_arguments");
  expect(error.message).toContain(hint);
  const course = (await alice.call("get_course", { courseId })) as Json;
  expect(course.modules[0].lessons[0].blocks).toEqual([]);
});

test("import_course without content or a file, and import_review_copy without the file", async () => {
  for (const args of [{}, { format: "docx" }, { format: "gift" }]) {
    const error = await alice.fail("import_course", args);
    expect([error.code, error.message]).toEqual(["invalid_arguments", expect.stringContaining(hint)]);
  }
  const review = await alice.fail("import_review_copy", { courseId });
  expect([review.code, review.message]).toEqual(["invalid_arguments", expect.stringContaining(hint)]);
});
