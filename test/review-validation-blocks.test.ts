/**
 * validate_course, block by block: for every block-level rule, a course that triggers it (with the
 * finding's location and fix) and a near-miss course that does not. Content the block schema refuses
 * today is stored directly, as an import or content from before the rule would be.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { blockOfType, cleanOutline, createCourse, findingsOf, storeRawBlock, withRule, type Course } from "./support/review-courses.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await openHarness();
});
afterAll(() => harness.close());

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).toString("base64");
const vtt = Buffer.from("WEBVTT\n\n00:00.000 --> 00:02.000\nHello\n").toString("base64");

/** The clean course with `blocks` appended to the first lesson. */
async function courseWithBlocks(blocks: Json[]): Promise<Course> {
  const course = await createCourse(harness);
  await harness.call("alice", "add_blocks", { courseId: course.id, lessonId: course.modules[0]!.lessons[0]!.id, blocks });
  return (await harness.call("alice", "get_course", { courseId: course.id })) as Course;
}

test("the clean course has no findings at all and is publishable", async () => {
  const course = await createCourse(harness);
  const result = await harness.call("alice", "validate_course", { courseId: course.id });
  expect(result).toMatchObject({ courseId: course.id, version: 1, publishable: true, counts: { error: 0, warning: 0, info: 0 }, findings: [], truncated: false });
});

describe("image.missing_alt", () => {
  test("an image block without alt that is not decorative is an error at its alt field", async () => {
    const course = await createCourse(harness);
    const image = blockOfType(course, "image");
    await storeRawBlock(harness, image.id, ({ alt: _alt, ...body }) => body);
    const [finding] = withRule(await findingsOf(harness, course.id), "image.missing_alt");
    expect(finding).toMatchObject({ severity: "error", location: { blockId: image.id, lessonId: course.modules[0]!.lessons[0]!.id, moduleId: course.modules[0]!.id, field: "alt" } });
    expect(finding!.location.path).toBe('Module 1 "When the alarm sounds" › Lesson 1.1 "Get out" › Block 4 (image)');
    expect(finding!.fix).toContain("update_block");
  });

  test("a Markdown image with empty alt text is an error naming the Markdown field", async () => {
    const course = await courseWithBlocks([{ type: "text", markdown: "See the plan:\n\n![](https://example.com/plan.png)" }]);
    const findings = withRule(await findingsOf(harness, course.id), "image.missing_alt");
    expect(findings).toHaveLength(1);
    expect(findings[0]!.location.field).toBe("markdown");
    expect(findings[0]!.message).toContain("https://example.com/plan.png");
  });

  test("a decorative image without alt, and a Markdown image with alt, are fine", async () => {
    const course = await courseWithBlocks([
      { type: "image", url: "https://example.com/swirl.png", decorative: true },
      { type: "text", markdown: "![Floor plan with the exits marked](https://example.com/plan.png)\n\n```\n![](not-an-image-in-code)\n```" },
    ]);
    expect(withRule(await findingsOf(harness, course.id), "image.missing_alt")).toEqual([]);
  });
});

describe("image.unhelpful_alt", () => {
  test("alt text that is a file name or just 'image' is a warning", async () => {
    const course = await courseWithBlocks([
      { type: "image", url: "https://example.com/a.png", alt: "IMG_2041.jpg" },
      { type: "image", url: "https://example.com/b.png", alt: "image" },
    ]);
    const findings = withRule(await findingsOf(harness, course.id), "image.unhelpful_alt");
    expect(findings.map((finding) => finding.severity)).toEqual(["warning", "warning"]);
  });

  test("descriptive alt text is fine", async () => {
    const course = await courseWithBlocks([{ type: "image", url: "https://example.com/a.png", alt: "Photo of the assembly point in car park B" }]);
    expect(withRule(await findingsOf(harness, course.id), "image.unhelpful_alt")).toEqual([]);
  });
});

describe("media.missing_captions", () => {
  test("a video with neither captions nor transcript is an error", async () => {
    const course = await courseWithBlocks([{ type: "video", url: "https://example.com/drill.mp4", transcript: "The drill, step by step." }]);
    const video = blockOfType(course, "video");
    await storeRawBlock(harness, video.id, ({ transcript: _transcript, ...body }) => body);
    const [finding] = withRule(await findingsOf(harness, course.id), "media.missing_captions");
    expect(finding).toMatchObject({ severity: "error", location: { blockId: video.id, field: "captions" } });
  });

  test("audio with an empty transcript and no captions is an error", async () => {
    const course = await courseWithBlocks([{ type: "audio", url: "https://example.com/alarm.mp3", transcript: "A loud, repeating bell." }]);
    await storeRawBlock(harness, blockOfType(course, "audio").id, (body) => ({ ...body, transcript: " " }));
    expect(withRule(await findingsOf(harness, course.id), "media.missing_captions")).toHaveLength(1);
  });

  test("a transcript alone, or captions alone, is enough", async () => {
    const course = await createCourse(harness);
    const captions = ((await harness.call("alice", "upload_asset", { courseId: course.id, filename: "drill.vtt", dataBase64: vtt })).asset as Json).id;
    await harness.call("alice", "add_blocks", {
      courseId: course.id,
      lessonId: course.modules[0]!.lessons[0]!.id,
      blocks: [
        { type: "video", url: "https://example.com/drill.mp4", captions: { assetId: captions } },
        { type: "audio", url: "https://example.com/alarm.mp3", transcript: "A loud, repeating bell." },
      ],
    });
    expect(withRule(await findingsOf(harness, course.id), "media.missing_captions")).toEqual([]);
  });
});

describe("asset.broken_reference", () => {
  test("an asset that is not in the course, or of the wrong type, is an error naming the field", async () => {
    const course = await createCourse(harness);
    const captions = ((await harness.call("alice", "upload_asset", { courseId: course.id, filename: "drill.vtt", dataBase64: vtt })).asset as Json).id as string;
    const image = blockOfType(course, "image");
    await storeRawBlock(harness, image.id, ({ url: _url, ...body }) => ({ ...body, assetId: "ast_gone" }));
    await harness.call("alice", "add_blocks", { courseId: course.id, lessonId: course.modules[1]!.lessons[0]!.id, blocks: [{ type: "image", url: "https://example.com/x.png", alt: "Exit map" }] });
    const second = (await harness.call("alice", "get_course", { courseId: course.id })) as Course;
    const secondImage = second.modules[1]!.lessons[0]!.blocks.at(-1)!;
    await storeRawBlock(harness, secondImage.id, ({ url: _url, ...body }) => ({ ...body, assetId: captions }));
    const findings = withRule(await findingsOf(harness, course.id), "asset.broken_reference");
    expect(findings.map((finding) => [finding.location.blockId, finding.location.field])).toEqual([
      [image.id, "assetId"],
      [secondImage.id, "assetId"],
    ]);
    expect(findings[0]!.message).toContain("not an asset of this course");
    expect(findings[1]!.message).toContain("text/vtt");
    // The agent cannot make the person's file; the fix says where the person adds it.
    expect(findings[0]!.fix).toContain("files view (list_assets opens it)");
  });

  test("uploaded assets of the right type are fine", async () => {
    const course = await createCourse(harness);
    const picture = ((await harness.call("alice", "upload_asset", { courseId: course.id, filename: "exit.png", dataBase64: png })).asset as Json).id;
    await harness.call("alice", "add_blocks", { courseId: course.id, lessonId: course.modules[0]!.lessons[0]!.id, blocks: [{ type: "image", assetId: picture, alt: "Exit sign" }] });
    expect(withRule(await findingsOf(harness, course.id), "asset.broken_reference")).toEqual([]);
  });
});

describe("question rules", () => {
  test("question.no_correct_answer: a choice question with no correct choice is an error", async () => {
    const course = await createCourse(harness);
    const question = blockOfType(course, "single_choice");
    await storeRawBlock(harness, question.id, (body) => ({ ...body, choices: (body.choices as Json[]).map((choice) => ({ ...choice, correct: false })) as never }));
    const [finding] = withRule(await findingsOf(harness, course.id), "question.no_correct_answer");
    expect(finding).toMatchObject({ severity: "error", location: { blockId: question.id, field: "choices" } });
  });

  test("question.several_correct_single_choice: two correct choices in a single-choice question is an error", async () => {
    const course = await createCourse(harness);
    const question = blockOfType(course, "single_choice");
    await storeRawBlock(harness, question.id, (body) => ({ ...body, choices: (body.choices as Json[]).map((choice, index) => ({ ...choice, correct: index < 2 })) as never }));
    const findings = await findingsOf(harness, course.id);
    expect(withRule(findings, "question.several_correct_single_choice")).toHaveLength(1);
    expect(withRule(findings, "question.no_correct_answer")).toEqual([]);
  });

  test("a multiple-choice question with two correct choices, and the clean quiz, are fine", async () => {
    const course = await courseWithBlocks([
      { type: "multiple_choice", prompt: "Which are exits?", objectiveIds: [], choices: [{ text: "Stairs A", correct: true }, { text: "Stairs B", correct: true }, { text: "Lift" }] },
    ]);
    const findings = await findingsOf(harness, course.id);
    expect(withRule(findings, "question.several_correct_single_choice")).toEqual([]);
    expect(withRule(findings, "question.no_correct_answer")).toEqual([]);
  });

  test("question.duplicate_options: two choices that read the same (case and spacing ignored) are an error at the repeat", async () => {
    const course = await courseWithBlocks([
      { type: "single_choice", prompt: "Where do we meet?", choices: [{ text: "Car park", correct: true }, { text: "Reception" }, { text: "  car   PARK " }] },
      { type: "ordering", prompt: "Order the steps", items: [{ text: "Alarm" }, { text: "Leave" }, { text: "alarm" }] },
    ]);
    const findings = withRule(await findingsOf(harness, course.id), "question.duplicate_options");
    expect(findings.map((finding) => finding.location.field)).toEqual(["choices[2]", "items[2]"]);
    expect(findings[0]!.message).toContain("repeats choice 1");
  });

  test("distinct options are fine", async () => {
    const course = await courseWithBlocks([{ type: "single_choice", prompt: "Where do we meet?", choices: [{ text: "Car park", correct: true }, { text: "Car park B" }] }]);
    expect(withRule(await findingsOf(harness, course.id), "question.duplicate_options")).toEqual([]);
  });
});

describe("heading.skipped_level", () => {
  test("a level-4 heading right after a level-2 heading, and a Markdown #### after the title, are warnings", async () => {
    const outline = cleanOutline();
    const firstModule = (outline.modules as Json[])[0] as { lessons: Json[] };
    firstModule.lessons[0] = {
      title: "Get out",
      blocks: [
        { type: "heading", text: "Your way out", level: 2 },
        { type: "heading", text: "Details", level: 4 },
      ],
    };
    firstModule.lessons.push({ title: "More", blocks: [{ type: "text", markdown: "#### Too deep\n\nText." }] });
    const course = await createCourse(harness, outline);
    const findings = withRule(await findingsOf(harness, course.id), "heading.skipped_level");
    expect(findings.map((finding) => [finding.severity, finding.location.field])).toEqual([
      ["warning", "level"],
      ["warning", "markdown"],
    ]);
    expect(findings[0]!.fix).toContain("level: 3");
  });

  test("headings that go down one level at a time and back up are fine", async () => {
    const course = await courseWithBlocks([
      { type: "heading", text: "Deeper", level: 4 },
      { type: "heading", text: "Back up", level: 2 },
      { type: "text", markdown: "### Under it\n\n```\n##### not a heading in code\n```" },
    ]);
    expect(withRule(await findingsOf(harness, course.id), "heading.skipped_level")).toEqual([]);
  });
});
