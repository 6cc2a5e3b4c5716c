/**
 * One upload for every course (issue 41), through the real service over MCP: a person's own library takes
 * files with no course (upload_asset, the files view's chunked uploads) and lists them to them alone; an
 * asset is used by its ID in every course its owner can edit, and the previews and packages of that
 * course carry its bytes; another person's asset is refused naming the rule, nothing written; a
 * co-editor keeps and edits what the owner placed and reads it with the course, never otherwise; a Word
 * review copy coming back is kept in the library: the course's version does not move and its translation
 * sees no source change.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unzipSync } from "fflate";
import { crc32, deflateSync } from "node:zlib";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { redPng } from "./support/office-documents.ts";
import { embeddedBytes, exportPackage } from "./support/transfer.ts";
import { startTestService, type TestService } from "./support/service.ts";

type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let bob: Agent;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

async function newCourse(agent: Agent, title: string): Promise<{ courseId: string; lessonId: string }> {
  const created = (await agent.call("create_course", { title, modules: [{ title: "One", lessons: [{ title: "First", blocks: [{ type: "text", markdown: "Hello." }] }] }] })) as Json;
  return { courseId: created.id, lessonId: created.modules[0].lessons[0].id };
}

const versionOf = async (agent: Agent, courseId: string) => ((await agent.call("get_course", { courseId, includeBlocks: false })) as Json).version as number;

async function sendToLibrary(agent: Agent, filename: string, bytes: Uint8Array, courseId?: string): Promise<Json> {
  const begun = (await agent.call("begin_upload", { ...(courseId ? { courseId } : {}), filename, byteSize: bytes.length })) as Json;
  for (let index = 0; index * begun.chunkBytes < bytes.length; index++) {
    await agent.call("upload_chunk", { uploadId: begun.uploadId, index, dataBase64: base64(bytes.subarray(index * begun.chunkBytes, (index + 1) * begun.chunkBytes)) });
  }
  return agent.call("finish_upload", { uploadId: begun.uploadId });
}

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  bob = await connectAgent(service, await devAccessToken(service, "bob"));
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await service?.dispose();
});

describe("the person's own library", () => {
  test("files go to the library without a course, listed to their owner alone", async () => {
    const uploaded = (await alice.call("upload_asset", { filename: "poster.png", dataBase64: base64(redPng) })) as Json;
    expect(uploaded.courseId).toBeNull();
    expect(uploaded.version).toBeUndefined();
    const viaView = await sendToLibrary(alice, "logo.png", redPng);
    expect(viaView.courseId).toBeNull();
    expect(viaView.version).toBeUndefined();
    expect(viaView).toMatchObject({ mediaType: "image/png", width: 40, height: 30 });

    const library = (await alice.call("list_assets", {})) as Json;
    expect(library.courseId).toBeNull();
    expect(library.assets.map((asset: Json) => asset.id)).toEqual([uploaded.asset.id, viaView.assetId]);
    // list_assets without a course still opens the files view, now for the library.
    const tools = await alice.client.listTools();
    expect((tools.tools.find((tool) => tool.name === "list_assets")?._meta as Json)?.ui?.resourceUri).toBe("ui://course-authoring/files.html");
    expect(((await bob.call("list_assets", {})) as Json).assets).toEqual([]);
  });
});

describe("one upload, every course its owner can edit", () => {
  let courseA: { courseId: string; lessonId: string };
  let courseB: { courseId: string; lessonId: string };
  let fromA: string;
  let fromLibrary: string;
  let imageBlockId: string;

  beforeAll(async () => {
    courseA = await newCourse(alice, "Course A");
    courseB = await newCourse(alice, "Course B");
    fromA = ((await alice.call("upload_asset", { courseId: courseA.courseId, filename: "hands.png", dataBase64: base64(redPng) })) as Json).asset.id;
    fromLibrary = ((await alice.call("upload_asset", { filename: "moments.png", dataBase64: base64(redPng) })) as Json).asset.id;
  });

  test("an asset of course A and one of the library are used by ID in course B", async () => {
    const added = (await alice.call("add_blocks", {
      courseId: courseB.courseId,
      lessonId: courseB.lessonId,
      blocks: [
        { type: "image", assetId: fromA, alt: "Hands being washed" },
        { type: "labeled_graphic", image: { assetId: fromLibrary }, alt: "The five moments", markers: [{ x: 20, y: 30, title: "Before" }] },
      ],
    })) as Json;
    imageBlockId = added.blocks[0].id;
    await alice.call("update_course", { courseId: courseB.courseId, theme: { logo: { assetId: fromLibrary, alt: "Hospital" } } });
    const validation = (await alice.call("validate_course", { courseId: courseB.courseId })) as Json;
    expect(validation.findings.filter((finding: Json) => finding.ruleId === "asset.broken_reference")).toEqual([]);
  });

  test("course B's preview and package carry the bytes of both", async () => {
    const read = await alice.client.readResource({ uri: `course://${courseB.courseId}/lessons/${courseB.lessonId}/preview` });
    const content = read.contents[0] as unknown as { text: string; _meta: { omittedAssetIds: string[] } };
    expect(content._meta.omittedAssetIds).toEqual([]);
    expect(content.text).toContain(`data:image/png;base64,${base64(redPng)}`);

    const { result } = await exportPackage(alice, { courseId: courseB.courseId, format: "html", delivery: "embedded" });
    const files = unzipSync(embeddedBytes(result).bytes);
    for (const assetId of [fromA, fromLibrary]) {
      const name = Object.keys(files).find((path) => path.includes(assetId));
      expect(name, assetId).toBeDefined();
      expect(Buffer.from(files[name!]!).equals(Buffer.from(redPng))).toBe(true);
    }
  });

  test("another person's asset is refused naming the rule, and nothing is written", async () => {
    const bobs = await newCourse(bob, "Bob's course");
    const before = await versionOf(bob, bobs.courseId);
    for (const assetId of [fromA, fromLibrary]) {
      const refused = await bob.fail("add_blocks", { courseId: bobs.courseId, lessonId: bobs.lessonId, blocks: [{ type: "text", markdown: "Kept?" }, { type: "image", assetId, alt: "Not mine" }] });
      expect(refused.code).toBe("invalid_arguments");
      expect(refused.message).toContain("blocks[1].assetId");
      expect(refused.message).toContain("another person's");
      expect(refused.message).toContain("by its owner");
    }
    const theme = await bob.fail("update_course", { courseId: bobs.courseId, theme: { logo: { assetId: fromLibrary, alt: "Not mine" } } });
    expect(theme.message).toContain("theme.logo.assetId");
    expect(await versionOf(bob, bobs.courseId)).toBe(before);
    const outline = (await bob.call("get_course", { courseId: bobs.courseId })) as Json;
    expect(outline.modules[0].lessons[0].blocks).toHaveLength(1);
    // Nor can Bob read Alice's library file any other way: importing it is "not found".
    const imported = await bob.fail("import_course", { assetId: fromLibrary });
    expect(imported.code).toBe("not_found");
  });

  test("a co-editor of course B reads and edits what the owner placed, and cannot take it elsewhere", async () => {
    await alice.call("share_course", { courseId: courseB.courseId, sub: "bob", role: "editor" });
    const read = await bob.client.readResource({ uri: `course://${courseB.courseId}/lessons/${courseB.lessonId}/preview` });
    expect((read.contents[0] as unknown as { _meta: { omittedAssetIds: string[] } })._meta.omittedAssetIds).toEqual([]);
    expect((read.contents[0] as unknown as { text: string }).text).toContain(`data:image/png;base64,${base64(redPng)}`);
    // Editing the block keeps Alice's picture; adding another use in the same course is fine: B already uses it.
    await bob.call("update_block", { courseId: courseB.courseId, blockId: imageBlockId, block: { type: "image", assetId: fromA, alt: "Hands being washed with soap" } });
    await bob.call("add_blocks", { courseId: courseB.courseId, lessonId: courseB.lessonId, blocks: [{ type: "image", assetId: fromLibrary, alt: "The five moments again" }] });
    const { result } = await exportPackage(bob, { courseId: courseB.courseId, format: "html", delivery: "embedded" });
    expect(Object.keys(unzipSync(embeddedBytes(result).bytes)).some((path) => path.includes(fromLibrary))).toBe(true);
    // Still not in a course of his own.
    const bobs = await newCourse(bob, "Bob's other course");
    const refused = await bob.fail("add_blocks", { courseId: bobs.courseId, lessonId: bobs.lessonId, blocks: [{ type: "image", assetId: fromLibrary, alt: "x" }] });
    expect(refused.message).toContain("another person's");
    expect(((await bob.call("list_assets", {})) as Json).assets).toEqual([]);
  });
});

describe("a file brought back to be read is not course content", () => {
  test("a returned review copy is kept in the library: no version bump, no source change, and its comments still come back", async () => {
    const course = await newCourse(alice, "Reviewed course");
    const translation = (await alice.call("create_translation", { courseId: course.courseId, language: "es" })) as Json;
    const inStep = (await alice.call("get_course", { courseId: translation.courseId, includeBlocks: false })) as Json;
    expect(inStep.translationOf).toMatchObject({ upToDate: true });
    const version = await versionOf(alice, course.courseId);
    const copy = embeddedBytes((await exportPackage(alice, { courseId: course.courseId, format: "docx_review", delivery: "embedded" })).result).bytes;

    // Sent to the course, as a person in the course's files view would.
    const uploaded = (await alice.call("upload_asset", { courseId: course.courseId, filename: "review.docx", dataBase64: base64(copy) })) as Json;
    expect(uploaded.courseId).toBeNull();
    expect(uploaded.keptInLibrary).toContain("review copy");
    const viaView = await sendToLibrary(alice, "review-2.docx", copy, course.courseId);
    expect(viaView.courseId).toBeNull();
    expect(viaView.version).toBeUndefined();

    expect(await versionOf(alice, course.courseId)).toBe(version);
    expect(((await alice.call("list_assets", { courseId: course.courseId })) as Json).assets).toEqual([]);
    const after = (await alice.call("get_course", { courseId: translation.courseId, includeBlocks: false })) as Json;
    expect(after.translationOf).toMatchObject({ upToDate: true });

    const back = (await alice.call("import_review_copy", { courseId: course.courseId, assetId: uploaded.asset.id })) as Json;
    expect(back.copyVersion).toBe(version);
    expect(await versionOf(alice, course.courseId)).toBe(version);
  });

  test("a picture uploaded to a course but not used yet is no source change for its translation", async () => {
    const course = await newCourse(alice, "Translated course");
    const translation = (await alice.call("create_translation", { courseId: course.courseId, language: "fr" })) as Json;
    await alice.call("upload_asset", { courseId: course.courseId, filename: "later.png", dataBase64: base64(redPng) });
    const after = (await alice.call("get_course", { courseId: translation.courseId, includeBlocks: false })) as Json;
    expect(after.translationOf).toMatchObject({ upToDate: true });
  });
});

/** A real `width`×`height` RGB PNG, each row with a different filter, so decoding and averaging are exercised. */
function stripedPng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const stride = width * 3 + 1;
  const rows = Buffer.alloc(stride * height);
  // Filter "up" (2) on every other row: a difference from the row above, here zero, so the stripes stay.
  for (let y = 0; y < height; y++) {
    rows[y * stride] = y % 2 === 1 ? 2 : 0;
    if (y % 2 === 1) continue;
    for (let x = 0; x < width; x++) rows.set(x < width / 2 ? [220, 30, 30] : [30, 30, 220], y * stride + 1 + x * 3);
  }
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]));
}

describe("pictures reach the model once, small", () => {
  test("upload_asset answers a picture with its thumbnail, at most 160 px, named by its asset ID", async () => {
    const result = await alice.callRaw("upload_asset", { filename: "wide.png", dataBase64: base64(stripedPng(1200, 600)) });
    expect(result.isError).toBeFalsy();
    const image = result.content.find((item) => item.type === "image") as { data: string; mimeType: string };
    const bytes = Buffer.from(image.data, "base64");
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([160, 80]);
    expect(bytes.length).toBeLessThan(4096);
    const structured = result.structuredContent as Json;
    expect(result.content.some((item) => item.type === "text" && item.text.includes(structured.asset.id))).toBe(true);
  });

  test("a PowerPoint deck's pictures come back from import_course as thumbnails named by their new asset IDs", async () => {
    const { default: PptxGenJS } = await import("pptxgenjs");
    const pptx = new PptxGenJS();
    for (const topic of ["The five moments", "Rubbing technique"]) {
      const slide = pptx.addSlide();
      slide.addText(topic, { x: 0.5, y: 0.3, w: 9, h: 0.8 });
      slide.addImage({ data: `image/png;base64,${base64(redPng)}`, x: 1, y: 1.5, w: 4, h: 3 });
    }
    const deck = (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
    const course = await newCourse(alice, "Deck target");
    const file = ((await alice.call("upload_asset", { filename: "deck.pptx", dataBase64: base64(deck) })) as Json).asset.id;
    const result = await alice.callRaw("import_course", { assetId: file, into: { courseId: course.courseId } });
    expect(result.isError).toBeFalsy();
    const images = result.content.filter((item) => item.type === "image") as { data: string; mimeType: string }[];
    expect(images.length).toBeGreaterThanOrEqual(1);
    for (const image of images) {
      expect(image.mimeType).toBe("image/png");
      const bytes = Buffer.from(image.data, "base64");
      expect(bytes.subarray(1, 4).toString()).toBe("PNG");
      expect(Math.max(bytes.readUInt32BE(16), bytes.readUInt32BE(20))).toBeLessThanOrEqual(160);
    }
    const assets = ((await alice.call("list_assets", { courseId: course.courseId })) as Json).assets as Json[];
    const texts = result.content.flatMap((item) => (item.type === "text" ? [item.text] : [])).join("\n");
    expect(texts).toContain("picture(s) arrived");
    for (const asset of assets.filter((candidate) => candidate.mediaType.startsWith("image/"))) expect(texts).toContain(asset.id);
  });
});
