/**
 * Course resources, prompts and derived values: course://{id} equals get_course, the Markdown outline
 * names every module, lesson and block, completion offers only the caller's courses, prompts embed
 * the outline, and lesson time is estimated from the content when not set.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { completeCourseId, listCourseResources, readCourseResource } from "../src/mcp/tools/resources.ts";
import { defaultMcpResultMaxBytes } from "../src/config.ts";
import { getAuthoringPrompt } from "../src/mcp/tools/prompts.ts";
import { openHarness, identity, type Harness, type Json } from "./authoring-harness.ts";

let harness: Harness;
let course: Json & { id: string };

beforeEach(async () => {
  harness = await openHarness();
  course = (await harness.call("alice", "create_course", {
    title: "Resource course",
    objectives: [{ key: "a", text: "Understand resources" }],
    modules: [
      {
        title: "Basics",
        objectiveIds: ["a"],
        lessons: [
          {
            title: "Reading",
            blocks: [
              { type: "text", markdown: "word ".repeat(400) },
              { type: "video", url: "https://example.com/v.mp4", transcript: "Hello", durationSeconds: 120 },
              { type: "true_false", prompt: "Resources are JSON?", answer: true, objectiveIds: ["a"] },
              { type: "true_false", prompt: "Outlines are Markdown?", answer: true },
            ],
          },
        ],
      },
    ],
  })) as Json & { id: string };
});
afterEach(() => harness.close());

test("lesson time is derived from words, media length and questions unless set", () => {
  const lesson = (course.modules as { lessons: Json[] }[])[0]!.lessons[0]!;
  // 401 words / 200 wpm + 2 min of video + 2 questions → 6.0x, rounded up to 7
  expect(lesson).toMatchObject({ estimatedMinutes: 7, estimatedMinutesIsSet: false });
});

test("course://{id} is get_course as JSON; course://{id}/outline is Markdown with every ID", async () => {
  const json = await readCourseResource(harness.services, identity("alice"), `course://${course.id}`, defaultMcpResultMaxBytes);
  expect(JSON.parse((json.contents[0] as { text: string }).text)).toEqual(await harness.call("alice", "get_course", { courseId: course.id }));
  const outline = await readCourseResource(harness.services, identity("alice"), `course://${course.id}/outline`, defaultMcpResultMaxBytes);
  const markdown = (outline.contents[0] as { text: string; mimeType: string }).text;
  expect(outline.contents[0]!.mimeType).toBe("text/markdown");
  expect(markdown).toStartWith("# Resource course\n");
  expect(markdown).toContain("## Module 1: Basics");
  expect(markdown).toContain("### Lesson 1.1: Reading");
  expect(markdown).toContain("true false question (1 pt): Resources are JSON?");
  const blocks = (course.modules as { lessons: { blocks: { id: string }[] }[] }[])[0]!.lessons[0]!.blocks;
  expect(blocks.length).toBeGreaterThan(0);
  for (const block of blocks) expect(markdown).toContain(block.id);
});

test("resources of a course the caller cannot see are not found", async () => {
  await expect(readCourseResource(harness.services, identity("mallory"), `course://${course.id}`, defaultMcpResultMaxBytes)).rejects.toMatchObject({ code: "not_found" });
});

test("listing and completion offer only the caller's courses", async () => {
  await harness.call("bob", "create_course", { title: "Resource course of Bob" });
  const listed = await listCourseResources(harness.services, identity("alice"), undefined);
  expect(listed.resources.map((r) => r.uri)).toEqual([`course://${course.id}`, `course://${course.id}/outline`]);
  expect(await completeCourseId(harness.services, identity("alice"), course.id.slice(0, 6))).toEqual([course.id]);
  expect(await completeCourseId(harness.services, identity("alice"), "resource")).toEqual([course.id]);
  expect(await completeCourseId(harness.services, identity("alice"), "crs_zzzz")).toEqual([]);
});

test("review_course embeds the outline; design_course needs a topic", async () => {
  const prompt = await getAuthoringPrompt(harness.services, identity("alice"), "review_course", { courseId: course.id });
  expect(JSON.stringify(prompt.messages)).toContain("Module 1: Basics");
  await expect(getAuthoringPrompt(harness.services, identity("alice"), "design_course", {})).rejects.toMatchObject({ code: "invalid_arguments" });
  const design = await getAuthoringPrompt(harness.services, identity("alice"), "design_course", { topic: "Fire safety" });
  expect(JSON.stringify(design.messages)).toContain("create_course");
});
