/**
 * import_course refuses bad input through the real service, each time with a tool error that says
 * what is wrong and with nothing written: an unknown format, a broken asset reference, a file that is
 * not what it claims, an invalid course, a zip bomb, path traversal inside an archive, and an import
 * too large (50 MB is refused by the HTTP layer with 413; the tool's own limit is 10 MB).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { createRichCourse, embeddedBytes, exportPackage } from "./support/transfer.ts";

let service: TestService;
let alice: Agent;
let token: string;
let exportText: string;
let coursesBefore: unknown;

const encoder = new TextEncoder();
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

async function courseList(): Promise<unknown> {
  return (await alice.call("list_courses", { limit: 100 })).courses;
}

beforeAll(async () => {
  service = await startTestService();
  token = await devAccessToken(service, "alice");
  alice = await connectAgent(service, token);
  const courseId = await createRichCourse(alice);
  exportText = new TextDecoder().decode(embeddedBytes((await exportPackage(alice, { delivery: "embedded", courseId, format: "json" })).result).bytes);
  coursesBefore = await courseList();
});

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

async function refused(args: Record<string, unknown>, code: string, ...phrases: string[]): Promise<void> {
  const error = await alice.fail("import_course", args);
  expect(error.code).toBe(code);
  for (const phrase of phrases) expect(error.message).toContain(phrase);
  expect(await courseList()).toEqual(coursesBefore);
}

/** Sets an entry's declared uncompressed size in both its local and its central header. */
function declareSize(archive: Uint8Array, size: number): Uint8Array {
  const copy = archive.slice();
  const view = new DataView(copy.buffer);
  view.setUint32(22, size, true);
  for (let at = copy.length - 22; at >= 0; at--) {
    if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, size, true);
  }
  return copy;
}

describe("formats and claims", () => {
  test("an unknown format is invalid_arguments naming the accepted ones", async () => {
    await refused({ format: "rtf", content: "# Title" }, "invalid_arguments", "format", "json, markdown, zip, docx, pptx, pdf");
  });

  test("JSON that says it is Markdown, Markdown that says it is JSON, and text that says it is a zip", async () => {
    await refused({ format: "markdown", content: exportText }, "invalid_arguments", "format is markdown but the content is JSON");
    await refused({ format: "json", content: "# Just an outline\n\n## Module\n" }, "invalid_arguments", "format is json but the content is plain text");
    await refused({ format: "zip", content: "# Not an archive" }, "invalid_arguments", "format is zip but the content is plain text");
  });

  test("binary data that is neither text nor a zip archive", async () => {
    await refused({ contentBase64: base64(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe])) }, "invalid_arguments", "binary data");
  });

  test("JSON that is not our export, or not our version of it", async () => {
    await refused({ content: '{"title": "Some other tool"}' }, "invalid_arguments", "not a course export made by export_course");
    await refused({ content: exportText.replace('"formatVersion": 1', '"formatVersion": 9') }, "invalid_arguments", "version 9");
    await refused({ content: exportText.slice(0, 200) }, "invalid_arguments", "not valid JSON");
  });

  test("a .json inside an archive that is not JSON", async () => {
    await refused({ contentBase64: base64(zipSync({ "course.json": encoder.encode("# Markdown in disguise") })) }, "invalid_arguments", '"course.json"');
  });

  test("an archive without exactly one course document", async () => {
    await refused({ contentBase64: base64(zipSync({ "notes.txt": encoder.encode("hello") })) }, "invalid_arguments", "exactly one course document");
  });
});

describe("the course inside", () => {
  test("a block referencing an asset the file does not carry is refused naming the block", async () => {
    const document = JSON.parse(exportText) as { course: { modules: { lessons: { blocks: { id: string; type: string }[] }[] }[] }; assets: unknown[] };
    const image = document.course.modules[0]?.lessons[0]?.blocks.find((block) => block.type === "image");
    document.assets = [];
    await refused({ content: JSON.stringify(document) }, "invalid_arguments", `block ${image?.id}`, 'lesson "Welcome"', "does not carry");
  });

  test("an invalid block is refused with its path and its block ID", async () => {
    const document = JSON.parse(exportText) as { course: { modules: { lessons: { blocks: Record<string, unknown>[] }[] }[] } };
    const block = document.course.modules[0]?.lessons[0]?.blocks.find((candidate) => candidate.type === "image") as Record<string, unknown>;
    block.alt = "";
    await refused({ content: JSON.stringify(document) }, "invalid_arguments", "modules[0].lessons[0].blocks[4].alt", `block ${String(block.id)} (image)`);
  });

  test("a Markdown document without headings has no outline to import", async () => {
    await refused({ content: "Just a paragraph of text." }, "invalid_arguments", "no single top-level heading");
    await refused({ content: "# Only a title\n\nAnd a paragraph." }, "invalid_arguments", "no headings below the title");
  });
});

describe("archives", () => {
  test("path traversal, absolute paths and backslashes in entry names are refused before anything is read", async () => {
    for (const name of ["../evil.json", "course/../../evil.json", "/etc/course.json", "C:/course.json", "dir\\course.json"]) {
      await refused({ contentBase64: base64(zipSync({ [name]: encoder.encode(exportText) })) }, "invalid_arguments", "is not a safe path");
    }
  });

  test("a zip bomb (an entry declaring 40 MB from a few KB) is refused before inflating", async () => {
    const bomb = zipSync({ "course.json": new Uint8Array(40 * 1024 * 1024) }, { level: 9 });
    expect(bomb.byteLength).toBeLessThan(100_000);
    await refused({ contentBase64: base64(bomb) }, "limit_exceeded", "zip bomb");
  });

  test("an entry that lies about its size is stopped as soon as it inflates past it", async () => {
    const liar = declareSize(zipSync({ "course.json": new Uint8Array(20 * 1024 * 1024) }, { level: 9 }), 1000);
    await refused({ contentBase64: base64(liar) }, "limit_exceeded", "inflates to more than the 1000 bytes it declares");
  });

  test("more entries than allowed is refused", async () => {
    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, index) => [`part-${index}.txt`, encoder.encode("x")]));
    await refused({ contentBase64: base64(zipSync({ ...many, "course.json": encoder.encode(exportText) })) }, "limit_exceeded", "1002 entries");
  });
});

describe("size", () => {
  test("an import over 10 MB is limit_exceeded, as text or as base64", async () => {
    const big = `# Big\n\n## Module\n\n### Lesson\n\n${"word ".repeat(2_200_000)}`;
    await refused({ content: big }, "limit_exceeded", "at most 10485760 bytes");
    await refused({ contentBase64: base64(encoder.encode(big)) }, "limit_exceeded", "at most 10485760 bytes");
  });

  test("a 50 MB request is refused by the HTTP layer with 413 before any tool runs", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "import_course", arguments: { contentBase64: "A".repeat(50 * 1024 * 1024) } },
    });
    const response = await fetch(service.mcpUrl, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body,
    });
    await response.body?.cancel();
    expect(response.status).toBe(413);
    expect(await courseList()).toEqual(coursesBefore);
  });
});
