/**
 * Assets: the type comes from the bytes, never from the name or the claim; SVG, unknown bytes,
 * non-base64 and oversize uploads are refused by field; blocks may only point at this course's assets
 * of a fitting type.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { sniffMediaType } from "../src/codecs/media-types.ts";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { storeKinds } from "./support/postgres.ts";

// Every rule holds on both stores.
describe.each(storeKinds)("on %s", (store) => {
  let harness: Harness;
  let courseId: string;
  let lessonId: string;

  beforeEach(async () => {
    harness = await openHarness(store);
    const course = await harness.call("alice", "create_course", { title: "Media", modules: [{ title: "M", lessons: [{ title: "L" }] }] });
    courseId = course.id as string;
    lessonId = (course.modules as { lessons: { id: string }[] }[])[0]!.lessons[0]!.id;
  });
  afterEach(() => harness.close());

  const bytes = (...parts: (number[] | string)[]) =>
    Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "latin1") : Buffer.from(part))));

  const samples: Record<string, Buffer> = {
    "image/png": bytes([0x89], "PNG\r\n\x1a\n", [0, 0, 0, 13]),
    "image/jpeg": bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], "JFIF"),
    "image/gif": bytes("GIF89a", [1, 0, 1, 0]),
    "image/webp": bytes("RIFF", [36, 0, 0, 0], "WEBPVP8 "),
    "audio/mpeg": bytes("ID3", [4, 0, 0, 0, 0, 0, 0]),
    "audio/wav": bytes("RIFF", [36, 0, 0, 0], "WAVEfmt "),
    "audio/ogg": bytes("OggS", [0, 2, 0, 0]),
    "video/mp4": bytes([0, 0, 0, 24], "ftypisom", [0, 0, 2, 0]),
    "video/webm": bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], "webm"),
    "application/pdf": bytes("%PDF-1.7\n"),
    "text/vtt": bytes("WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n"),
  };

  describe("recognising uploads from their bytes", () => {
    for (const [mediaType, sample] of Object.entries(samples)) {
      test(mediaType, async () => {
        const result = await sniffMediaType(new Uint8Array(sample));
        expect(result.kind === "accepted" ? result.type.mediaType : result.kind).toBe(mediaType);
      });
    }
    test("SVG, even behind an XML declaration, is recognised and refused", async () => {
      expect((await sniffMediaType(new Uint8Array(bytes('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>')))).kind).toBe("svg");
    });
  });

  describe("upload_asset", () => {
    test("stores the asset with the detected type, size and hash, and lists it", async () => {
      const result = await harness.call("alice", "upload_asset", { courseId, filename: "logo.png", mediaType: "image/png", dataBase64: samples["image/png"]!.toString("base64") });
      expect(result.asset).toMatchObject({ filename: "logo.png", mediaType: "image/png", byteSize: samples["image/png"]!.length });
      expect((result.asset as Json).sha256).toMatch(/^[0-9a-f]{64}$/);
      const list = await harness.call("alice", "list_assets", { courseId });
      expect((list.assets as Json[]).map((a) => a.id)).toEqual([(result.asset as Json).id]);
    });

    const refusals: [string, () => Json, string, string][] = [
      ["not base64", () => ({ filename: "a.png", dataBase64: "!!!not base64!!!" }), "invalid_arguments", "dataBase64:"],
      ["a data: URL prefix", () => ({ filename: "a.png", dataBase64: `data:image/png;base64,${samples["image/png"]!.toString("base64")}` }), "invalid_arguments", "dataBase64:"],
      ["unknown bytes", () => ({ filename: "a.bin", dataBase64: Buffer.from([0x00, 0x01, 0xfe, 0x7f, 0x00]).toString("base64") }), "invalid_arguments", "dataBase64:"],
      ["SVG", () => ({ filename: "a.svg", dataBase64: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64") }), "invalid_arguments", "SVG"],
      ["a name that lies", () => ({ filename: "photo.png", dataBase64: samples["application/pdf"]!.toString("base64") }), "invalid_arguments", "filename:"],
      ["a claimed type that lies", () => ({ filename: "photo", mediaType: "image/png", dataBase64: samples["image/jpeg"]!.toString("base64") }), "invalid_arguments", "mediaType:"],
      ["more than 10 MB", () => ({ filename: "big.pdf", dataBase64: Buffer.concat([samples["application/pdf"]!, Buffer.alloc(10 * 1024 * 1024)]).toString("base64") }), "limit_exceeded", "dataBase64:"],
    ];
    for (const [name, args, code, field] of refusals) {
      test(`refuses ${name}`, async () => {
        const error = await harness.fail("alice", "upload_asset", { courseId, ...args() });
        expect(error.code as string).toBe(code);
        expect(error.message).toContain(field);
        expect((await harness.call("alice", "list_assets", { courseId })).assets).toEqual([]);
      });
    }

    test("blocks must use an asset of a fitting type that the person may use: the course's own, or their own from elsewhere", async () => {
      const audio = (await harness.call("alice", "upload_asset", { courseId, filename: "a.mp3", dataBase64: samples["audio/mpeg"]!.toString("base64") })).asset as Json;
      const wrongType = await harness.fail("alice", "add_blocks", { courseId, lessonId, blocks: [{ type: "image", assetId: audio.id, alt: "x" }] });
      expect(wrongType.code).toBe("invalid_arguments");
      expect(wrongType.message).toStartWith("blocks[0].assetId:");
      const other = await harness.call("alice", "create_course", { title: "Other" });
      const foreign = (await harness.call("alice", "upload_asset", { courseId: other.id, filename: "p.png", dataBase64: samples["image/png"]!.toString("base64") })).asset as Json;
      // Her own upload to another course serves this one too (issue 41: one upload, every course its owner can edit).
      await harness.call("alice", "add_blocks", { courseId, lessonId, blocks: [{ type: "image", assetId: foreign.id, alt: "x" }] });
      // Another person's is refused, naming the rule.
      const bobs = await harness.call("bob", "create_course", { title: "Bob's" });
      const bobsPicture = (await harness.call("bob", "upload_asset", { courseId: bobs.id, filename: "b.png", dataBase64: samples["image/png"]!.toString("base64") })).asset as Json;
      const elsewhere = await harness.fail("alice", "add_blocks", { courseId, lessonId, blocks: [{ type: "image", assetId: bobsPicture.id, alt: "x" }] });
      expect(elsewhere.code).toBe("invalid_arguments");
      expect(elsewhere.message).toContain("another person's");
      const vtt = (await harness.call("alice", "upload_asset", { courseId, filename: "c.vtt", dataBase64: samples["text/vtt"]!.toString("base64") })).asset as Json;
      await harness.call("alice", "add_blocks", { courseId, lessonId, blocks: [{ type: "audio", assetId: audio.id, captions: { assetId: vtt.id } }] });
    });
  });
});
