/**
 * validate_course on the teaching blocks of issue 20: a scenario whose stored scenes strand the learner
 * (content from history or an import, which input would refuse), a labeled-graphic marker without text,
 * a continue block that ends its lesson, and an attachment whose asset is gone; each on the field to fix.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { blockOfType, createCourse, findingsOf, storeRawBlock, withRule, type Course } from "./support/review-courses.ts";
import { phishingScenario } from "./support/teaching-blocks.ts";
import type { JsonValue } from "../src/store/types.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await openHarness();
});
afterAll(() => harness.close());

const pdf = Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64");

async function courseWithBlocks(blocks: Json[]): Promise<Course> {
  const course = await createCourse(harness);
  await harness.call("alice", "add_blocks", { courseId: course.id, lessonId: course.modules[0]!.lessons[0]!.id, blocks });
  return (await harness.call("alice", "get_course", { courseId: course.id })) as Course;
}

describe("teaching block rules", () => {
  test("a stored scenario with a scene nobody reaches is scenario.unreachable_scene at that scene", async () => {
    const course = await courseWithBlocks([phishingScenario(), { type: "text", markdown: "After the scenario." }]);
    const scenario = blockOfType(course, "scenario");
    const orphan = { id: "orphan", markdown: "Never shown.", ending: { outcome: "neutral" } };
    await storeRawBlock(harness, scenario.id, (body) => ({ ...body, scenes: [...(body.scenes as JsonValue[]), orphan] }));
    const [finding, ...others] = withRule(await findingsOf(harness, course.id), "scenario.unreachable_scene");
    expect(others).toEqual([]);
    expect(finding).toMatchObject({ severity: "error", location: { blockId: scenario.id, field: "scenes[4]" } });
    expect(finding?.message).toContain('scene "orphan" cannot be reached');
    expect(finding?.fix).toContain("update_block");
  });

  test("a marker without text is labeled_graphic.marker_without_text at its markdown", async () => {
    const course = await courseWithBlocks([
      { type: "labeled_graphic", image: { url: "https://example.com/email.png" }, alt: "A phishing email", markers: [{ x: 10, y: 10, title: "Sender", markdown: "Misspelt." }, { x: 50, y: 50, title: "Link" }] },
      { type: "text", markdown: "More." },
    ]);
    const [finding] = withRule(await findingsOf(harness, course.id), "labeled_graphic.marker_without_text");
    expect(finding).toMatchObject({ severity: "warning", location: { field: "markers[1].markdown" } });
  });

  test("a continue block as the lesson's last block is continue.last_block", async () => {
    const course = await courseWithBlocks([{ type: "continue" }]);
    const continueBlock = blockOfType(course, "continue");
    const [finding] = withRule(await findingsOf(harness, course.id), "continue.last_block");
    expect(finding).toMatchObject({ severity: "warning", location: { blockId: continueBlock.id } });
  });

  test("an attachment whose asset is gone is asset.broken_reference at its assetId", async () => {
    const created = await createCourse(harness);
    const upload = (await harness.call("alice", "upload_asset", { courseId: created.id, filename: "aid.pdf", dataBase64: pdf })) as { asset: { id: string } };
    await harness.call("alice", "add_blocks", { courseId: created.id, lessonId: created.modules[0]!.lessons[0]!.id, blocks: [{ type: "attachment", assetId: upload.asset.id, title: "Job aid" }, { type: "text", markdown: "x" }] });
    const course = (await harness.call("alice", "get_course", { courseId: created.id })) as Course;
    const attachment = blockOfType(course, "attachment");
    expect(withRule(await findingsOf(harness, course.id), "asset.broken_reference")).toEqual([]);
    await storeRawBlock(harness, attachment.id, (body) => ({ ...body, assetId: "ast_gone0000000000000000" }));
    const [finding] = withRule(await findingsOf(harness, course.id), "asset.broken_reference");
    expect(finding).toMatchObject({ severity: "error", location: { blockId: attachment.id, field: "assetId" } });
  });
});
