/**
 * Zip archives are read without trusting them (src/codecs/zip-read.ts, src/codecs/inflate.ts): through the real
 * server, an Office upload whose `[Content_Types].xml` lies about its size, or hides a bomb in another
 * part, costs only the head of that one part; an import whose entry lies about its size, or inflates
 * past the ratio allowed, is stopped at once; more entries than allowed are refused before any is
 * read. Each answers its specific error while /api/health keeps answering from another connection.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { probeHealthWhile } from "./support/health-probe.ts";
import { connectAgent, type Agent, type AgentToolError } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";

let service: TestService;
let alice: Agent;
let courseId: string;

const encoder = new TextEncoder();
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const contentTypes =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  `<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="${docxType}.main+xml"/></Types>`;
const documentXml = '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p/></w:body></w:document>';

/** `text` followed by spaces up to `size` bytes: compresses about 1000:1. */
function padded(text: string, size: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(encoder.encode(text));
  return bytes;
}

/** Sets the first entry's declared uncompressed size, in its local header and in every central header. */
function declareSize(archive: Uint8Array, size: number): Uint8Array {
  const copy = archive.slice();
  const view = new DataView(copy.buffer);
  view.setUint32(22, size, true);
  for (let at = copy.length - 22; at >= 0; at--) {
    if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, size, true);
  }
  return copy;
}

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  courseId = String((await alice.call("create_course", { title: "Zips" })).id);
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

/** The tool error `tool` answers, with health probed while it runs. */
async function refusedWhileHealthAnswers(tool: string, args: Record<string, unknown>, work: "quick" | "long" = "quick"): Promise<AgentToolError> {
  const { outcome, answeredWhilePending, answered } = await probeHealthWhile(service.url, alice.fail(tool, args));
  // Only long work can be overlapped; a quick refusal must still leave health answering.
  expect(work === "long" ? answeredWhilePending : answered).toBeGreaterThan(0);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

describe("upload_asset: Office files are recognised from the head of one small part", () => {
  test("a real .docx is accepted", async () => {
    const docx = zipSync({ "[Content_Types].xml": encoder.encode(contentTypes), "word/document.xml": encoder.encode(documentXml) });
    const result = await alice.call("upload_asset", { courseId, filename: "notes.docx", mediaType: docxType, dataBase64: base64(docx) });
    expect((result.asset as { mediaType: string }).mediaType).toBe(docxType);
  });

  test("a [Content_Types].xml that declares 500 bytes and inflates to 100 MB is not inflated past its head: refused as unrecognised while health answers", async () => {
    const liar = declareSize(zipSync({ "[Content_Types].xml": padded(contentTypes, 100 * 1024 * 1024), "word/document.xml": encoder.encode(documentXml) }, { level: 9 }), 500);
    expect(liar.length).toBeLessThan(200 * 1024);
    const error = await refusedWhileHealthAnswers("upload_asset", { courseId, filename: "notes.docx", mediaType: docxType, dataBase64: base64(liar) });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("dataBase64: the content is not a recognised file");
  }, 120_000);

  test("a bomb in another part of a real .docx costs nothing: only [Content_Types].xml is read", async () => {
    const docx = zipSync({ "[Content_Types].xml": encoder.encode(contentTypes), "word/document.xml": encoder.encode(documentXml), "word/media/huge.bin": new Uint8Array(100 * 1024 * 1024) }, { level: 9 });
    const { outcome, answered } = await probeHealthWhile(service.url, alice.call("upload_asset", { courseId, filename: "bomb.docx", mediaType: docxType, dataBase64: base64(docx) }));
    expect(answered).toBeGreaterThan(0);
    expect(outcome.ok && (outcome.value.asset as { mediaType: string }).mediaType).toBe(docxType);
  }, 120_000);

  test("a .docx carrying a VBA project is refused even when its content types do not say so", async () => {
    const docm = zipSync({ "[Content_Types].xml": encoder.encode(contentTypes), "word/document.xml": encoder.encode(documentXml), "word/vbaProject.bin": new Uint8Array(64) });
    const error = await alice.fail("upload_asset", { courseId, filename: "macro.docx", mediaType: docxType, dataBase64: base64(docm) });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("macros");
  });
});

describe("import_course: archive entries are inflated with a byte cap and a ratio limit, whatever they declare", () => {
  test("an entry declaring 1,000 bytes that inflates to 100 MB is stopped past 1,000 bytes while health answers", async () => {
    const liar = declareSize(zipSync({ "course.json": new Uint8Array(100 * 1024 * 1024) }, { level: 9 }), 1000);
    const error = await refusedWhileHealthAnswers("import_course", { contentBase64: base64(liar) });
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("inflates to more than the 1000 bytes it declares");
  }, 120_000);

  test("an entry whose declared ratio passes but whose data inflates faster is stopped at the ratio limit", async () => {
    // 30 MB declared from ~330 KB (under 100:1 as declared), but its first kilobytes inflate ~1000:1.
    const content = new Uint8Array(30 * 1024 * 1024);
    crypto.getRandomValues(content.subarray(content.length - 300 * 1024, content.length - 240 * 1024));
    crypto.getRandomValues(content.subarray(content.length - 240 * 1024, content.length - 180 * 1024));
    crypto.getRandomValues(content.subarray(content.length - 180 * 1024, content.length - 120 * 1024));
    crypto.getRandomValues(content.subarray(content.length - 120 * 1024, content.length - 60 * 1024));
    crypto.getRandomValues(content.subarray(content.length - 60 * 1024));
    const archive = zipSync({ "course.json": content }, { level: 9 });
    expect(content.length / archive.length).toBeLessThan(100);
    const error = await refusedWhileHealthAnswers("import_course", { contentBase64: base64(archive) });
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain('the entry "course.json" inflates more than 100:1');
  }, 120_000);

  test("more than 1,000 entries is refused before any entry is read", async () => {
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`part-${index}.txt`, encoder.encode("x")]));
    const error = await refusedWhileHealthAnswers("import_course", { contentBase64: base64(zipSync(many)) });
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("5000 entries, more than the 1000 allowed");
  }, 60_000);

  test("an export carrying an Office asset whose content types lie is refused by the same check as upload_asset", async () => {
    const liar = declareSize(zipSync({ "[Content_Types].xml": padded(contentTypes, 50 * 1024 * 1024) }, { level: 9 }), 500);
    const document = {
      format: "course-authoring-service/course",
      formatVersion: 1,
      course: { title: "Carrier", modules: [] },
      assets: [{ id: "ast_liar", fileName: "notes.docx", mimeType: docxType, base64: base64(liar) }],
    };
    const error = await refusedWhileHealthAnswers("import_course", { content: JSON.stringify(document) });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain('assets[0] (ast_liar, "notes.docx") is not a file type a course can embed');
  }, 60_000);
});
