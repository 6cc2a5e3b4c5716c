/**
 * What agents tripped on, over the real service with the official SDK client: `update_block` takes
 * either the whole new block or a partial `changes` object merged over the stored block and validated
 * as a whole (alone and as an `edit_course` step), and `upload_asset` reports the course version it
 * moved to, which the next write passes as expectedVersion.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { pngBase64 } from "./support/transfer.ts";

type Json = Record<string, unknown>;
type Block = Json & { id: string; type: string };

let service: TestService;
let alice: Agent;

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
});
afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

const question = {
  type: "single_choice",
  prompt: "Where do you meet after a fire alarm?",
  choices: [
    { text: "At the assembly point", correct: true, feedback: "Yes." },
    { text: "At your desk", feedback: "No: leave the building." },
    { text: "In the lift" },
  ],
  explanation: "The assembly point is on the map by every exit.",
  points: 2,
};

/** A course with one lesson holding a text block, an image block and a question; returns their IDs. */
async function courseWithBlocks(title: string) {
  const course = await alice.call("create_course", {
    title,
    modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "text", markdown: "Intro." }, { type: "image", url: "https://example.test/map.png", alt: "Map" }, question] }] }],
  });
  const read = await alice.call("get_course", { courseId: course.id });
  const blocks = ((read.modules as Json[])[0]!.lessons as Json[])[0]!.blocks as Block[];
  return { courseId: read.id as string, version: read.version as number, text: blocks[0]!, image: blocks[1]!, question: blocks[2]! };
}

async function readBlocks(courseId: string) {
  const read = await alice.call("get_course", { courseId });
  return { version: read.version as number, blocks: ((read.modules as Json[])[0]!.lessons as Json[])[0]!.blocks as Block[] };
}

describe("update_block { changes }", () => {
  test("changing one field keeps every other field of the stored block", async () => {
    const { courseId, version, question: stored } = await courseWithBlocks("One field");
    const result = await alice.call("update_block", { courseId, expectedVersion: version, blockId: stored.id, changes: { explanation: "See the map by the exit." } });
    expect(result.version).toBe(version + 1);
    const after = (await readBlocks(courseId)).blocks[2]!;
    expect(after).toEqual({ ...stored, explanation: "See the map by the exit." });
  });

  test("a list is replaced whole, null removes an optional field, and a new type keeps the fields both types have", async () => {
    const { courseId, question: stored, image } = await courseWithBlocks("Lists");
    await alice.call("update_block", { courseId, blockId: stored.id, changes: { choices: [{ text: "Outside", correct: true }, { text: "Inside" }], explanation: null } });
    let after = (await readBlocks(courseId)).blocks[2]!;
    expect(after.choices).toEqual([{ text: "Outside", correct: true }, { text: "Inside", correct: false }]);
    expect(after).not.toHaveProperty("explanation");
    expect(after.prompt).toBe(question.prompt);
    expect(after.points).toBe(2);

    await alice.call("update_block", { courseId, blockId: stored.id, changes: { type: "multiple_choice" } });
    after = (await readBlocks(courseId)).blocks[2]!;
    expect(after).toMatchObject({ id: stored.id, type: "multiple_choice", prompt: question.prompt, points: 2, choices: [{ text: "Outside", correct: true }, { text: "Inside" }] });

    // A type that lacks some stored fields drops them: an image's alt does not follow it into a text block.
    await alice.call("update_block", { courseId, blockId: image.id, changes: { type: "text", markdown: "The map hangs by every exit." } });
    expect((await readBlocks(courseId)).blocks[1]).toEqual({ id: image.id, type: "text", markdown: "The map hangs by every exit." });
  });

  test("a merged block that is invalid as a whole is refused naming changes.<field>, and nothing is written", async () => {
    const { courseId, version, question: stored } = await courseWithBlocks("Invalid merge");
    const noneCorrect = await alice.fail("update_block", { courseId, blockId: stored.id, changes: { choices: [{ text: "A" }, { text: "B" }] } });
    expect(noneCorrect.code).toBe("invalid_arguments");
    expect(noneCorrect.message).toContain("changes.choices");
    expect(noneCorrect.message).toContain("exactly one choice with correct: true");
    expect((noneCorrect.details.fields as { path: string }[]).map((field) => field.path)).toContain("changes.choices");

    const badValue = await alice.fail("update_block", { courseId, blockId: stored.id, changes: { points: -3 } });
    expect(badValue.code).toBe("invalid_arguments");
    expect(badValue.message).toContain("changes.points");

    const after = await readBlocks(courseId);
    expect(after.version).toBe(version);
    expect(after.blocks[2]).toEqual(stored);
  });

  test("an unknown field is invalid_arguments naming the closest valid name, also deep inside a list", async () => {
    const { courseId, version, image, question: stored } = await courseWithBlocks("Typos in changes");
    const typo = await alice.fail("update_block", { courseId, blockId: image.id, changes: { altText: "Evacuation map" } });
    expect(typo.code).toBe("invalid_arguments");
    expect(typo.message).toContain("changes.altText: unknown argument (did you mean alt?)");

    const deep = await alice.fail("update_block", { courseId, blockId: stored.id, changes: { choices: [{ txt: "A", correct: true }] } });
    expect(deep.message).toContain("changes.choices[0].txt: unknown argument (did you mean text?)");
    expect((await readBlocks(courseId)).version).toBe(version);
  });

  test("exactly one of block and changes: both or neither is refused; the whole-block form still replaces", async () => {
    const { courseId, version, text } = await courseWithBlocks("Either form");
    const both = await alice.fail("update_block", { courseId, blockId: text.id, block: { type: "text", markdown: "A" }, changes: { markdown: "B" } });
    expect(both.code).toBe("invalid_arguments");
    expect(both.message).toContain("exactly one of changes");
    const neither = await alice.fail("update_block", { courseId, blockId: text.id });
    expect(neither.message).toContain("exactly one of changes");
    const empty = await alice.fail("update_block", { courseId, blockId: text.id, changes: {} });
    expect(empty.message).toContain("changes: names no field");
    expect((await readBlocks(courseId)).version).toBe(version);

    await alice.call("update_block", { courseId, blockId: text.id, block: { type: "callout", variant: "tip", markdown: "Whole." } });
    expect((await readBlocks(courseId)).blocks[0]).toEqual({ id: text.id, type: "callout", variant: "tip", markdown: "Whole." });
  });

  test("edit_course steps take changes too; a step whose merge is invalid names its index and the batch writes nothing", async () => {
    const { courseId, version, text, question: stored } = await courseWithBlocks("Batch changes");
    const edited = await alice.call("edit_course", {
      courseId,
      expectedVersion: version,
      operations: [
        { op: "update_block", blockId: text.id, changes: { markdown: "Welcome." } },
        { op: "update_block", blockId: stored.id, changes: { prompt: "Where is the assembly point?" } },
      ],
    });
    expect(edited.version).toBe(version + 1);
    const after = await readBlocks(courseId);
    expect(after.blocks[0]).toEqual({ ...text, markdown: "Welcome." });
    expect(after.blocks[2]).toEqual({ ...stored, prompt: "Where is the assembly point?" });

    const refused = await alice.fail("edit_course", {
      courseId,
      operations: [
        { op: "update_block", blockId: text.id, changes: { markdown: "Not kept." } },
        { op: "update_block", blockId: stored.id, changes: { choices: [{ text: "A", correct: true }, { text: "B", correct: true }] } },
      ],
    });
    expect(refused.code).toBe("invalid_arguments");
    expect(refused.message).toContain("operations[1] (update_block): changes.choices");
    expect(refused.details.operationIndex).toBe(1);
    const unchanged = await readBlocks(courseId);
    expect(unchanged.version).toBe(version + 1);
    expect(unchanged.blocks[0]!.markdown).toBe("Welcome.");

    const typo = await alice.fail("edit_course", { courseId, operations: [{ op: "update_block", blockId: stored.id, changes: { promt: "x" } }] });
    expect(typo.message).toContain("operations[0] (update_block): changes.promt: unknown argument (did you mean prompt?)");
  });
});

describe("upload_asset moves the course version", () => {
  test("the version it returns (structured and in its text) is the expectedVersion of the next write; the one before it conflicts", async () => {
    const course = await alice.call("create_course", { title: "Pictures", modules: [{ title: "M", lessons: [{ title: "L" }] }] });
    const createdVersion = course.version as number;
    const raw = (await alice.callRaw("upload_asset", { courseId: course.id, expectedVersion: createdVersion, filename: "map.png", dataBase64: pngBase64 })) as CallToolResult;
    expect(raw.isError).toBeFalsy();
    const uploaded = raw.structuredContent as Json & { version: number; asset: { id: string } };
    expect(uploaded.version).toBe(createdVersion + 1);
    expect((raw.content[0] as { text: string }).text.split("\n")[0]).toContain(`now at version ${uploaded.version}`);

    const lessonId = ((course.modules as Json[])[0]!.lessons as Json[])[0]!.id;
    const stale = await alice.fail("add_blocks", { courseId: course.id, expectedVersion: createdVersion, lessonId, blocks: [{ type: "text", markdown: "x" }] });
    expect(stale.code).toBe("conflict");
    const added = await alice.call("add_blocks", {
      courseId: course.id,
      expectedVersion: uploaded.version,
      lessonId,
      blocks: [{ type: "image", assetId: uploaded.asset.id, alt: "Evacuation map" }],
    });
    expect(added.version).toBe(uploaded.version + 1);
  });

  test("its description says that it moves the version", async () => {
    const { tools } = await alice.client.listTools();
    expect(tools.find((tool) => tool.name === "upload_asset")?.description).toContain("new version");
  });
});
