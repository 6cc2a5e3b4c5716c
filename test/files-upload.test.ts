/**
 * The files view's chunked uploads through the real service, called as the view calls them: a file
 * sent in ordered chunks becomes an asset only when whole and recognised as upload_asset recognises it,
 * with its picture size; the tools are app-only (MCP Apps visibility) and list_assets links the view.
 * Out of order, another person's, beyond the declared size, over the limit, cancelled or lying about its
 * type: refused with the rule named, and nothing of the file left behind.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { crc32, deflateSync } from "node:zlib";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { testDatabaseFor } from "./support/postgres.ts";
import { startTestService, type TestService } from "./support/service.ts";

type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let bob: Agent;
let courseId: string;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** A PNG of random pixels, stored without compression so it is larger than one chunk. */
function noisyPng(width: number, height: number): Uint8Array {
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
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let index = 0; index < rows.length; index++) rows[index] = index % (width * 3 + 1) === 0 ? 0 : (index * 2654435761) >>> 24;
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(rows, { level: 0 })), chunk("IEND", Buffer.alloc(0))]));
}

async function assets(): Promise<Json[]> {
  return (await alice.call("list_assets", { courseId })).assets as Json[];
}

/** Sends a whole file the way the view does; returns finish_upload's result. */
async function sendFile(agent: Agent, filename: string, bytes: Uint8Array, mediaType?: string): Promise<Json> {
  const begun = (await agent.call("begin_upload", { courseId, filename, byteSize: bytes.length, ...(mediaType ? { mediaType } : {}) })) as Json;
  for (let index = 0; index * begun.chunkBytes < bytes.length; index++) {
    await agent.call("upload_chunk", { uploadId: begun.uploadId, index, dataBase64: base64(bytes.subarray(index * begun.chunkBytes, (index + 1) * begun.chunkBytes)) });
  }
  return agent.call("finish_upload", { uploadId: begun.uploadId });
}

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  bob = await connectAgent(service, await devAccessToken(service, "bob"));
  courseId = (await alice.call("create_course", { title: "Files" })).id as string;
});

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await service?.dispose();
});

describe("the view's tools", () => {
  test("the chunk tools are for the view only, and list_assets opens the files view", async () => {
    const tools = (await alice.client.listTools()).tools;
    for (const name of ["begin_upload", "upload_chunk", "finish_upload"]) {
      expect(tools.find((tool) => tool.name === name)?._meta).toEqual({ ui: { visibility: ["app"] } });
    }
    const opener = tools.find((tool) => tool.name === "list_assets") as Json;
    expect(opener._meta.ui.resourceUri).toBe("ui://course-authoring/files.html");
    const view = await alice.client.readResource({ uri: opener._meta.ui.resourceUri });
    expect(view.contents[0]?.mimeType).toBe("text/html;profile=mcp-app");
    expect(String((view.contents[0] as Json).text)).toContain('type="file" multiple');
  });

  test("a picture larger than one chunk arrives in order and becomes an asset with its pixel size", async () => {
    const picture = noisyPng(320, 300);
    expect(picture.length).toBeGreaterThan(256 * 1024);
    const finished = await sendFile(alice, "noise.png", picture, "image/png");
    expect(finished).toMatchObject({ mediaType: "image/png", byteSize: picture.length, width: 320, height: 300 });
    expect((await assets()).map((asset) => asset.id)).toContain(finished.assetId);
  });
});

describe("refused chunks leave nothing behind", () => {
  test("a chunk out of order, another person's chunk, more bytes than declared", async () => {
    const before = await assets();
    const begun = await alice.call("begin_upload", { courseId, filename: "notes.txt", byteSize: 10 });
    const outOfOrder = await alice.fail("upload_chunk", { uploadId: begun.uploadId, index: 1, dataBase64: base64(new TextEncoder().encode("hello")) });
    expect([outOfOrder.code, outOfOrder.message]).toEqual(["invalid_arguments", expect.stringContaining("chunk 1 of notes.txt is out of order")]);
    const someoneElse = await bob.fail("upload_chunk", { uploadId: begun.uploadId, index: 0, dataBase64: base64(new TextEncoder().encode("hello")) });
    expect([someoneElse.code, someoneElse.message]).toEqual(["forbidden", expect.stringContaining("begun by another person")]);
    const tooLong = await alice.fail("upload_chunk", { uploadId: begun.uploadId, index: 0, dataBase64: base64(new TextEncoder().encode("hello world!")) });
    expect([tooLong.code, tooLong.message]).toEqual(["limit_exceeded", expect.stringContaining("longer than the 10 bytes")]);
    const early = await alice.fail("finish_upload", { uploadId: begun.uploadId });
    expect([early.code, early.message]).toEqual(["invalid_state", expect.stringContaining("0 of 10 bytes")]);
    await alice.call("finish_upload", { uploadId: begun.uploadId, cancel: true });
    expect((await alice.fail("upload_chunk", { uploadId: begun.uploadId, index: 0, dataBase64: base64(new TextEncoder().encode("hello")) })).code).toBe("not_found");
    expect(await assets()).toEqual(before);
  });

  test("a file over the limit is refused before any chunk, naming the file and the limit", async () => {
    const error = await alice.fail("begin_upload", { courseId, filename: "film.mp4", byteSize: 11 * 1024 * 1024 });
    expect([error.code, error.message]).toEqual(["limit_exceeded", expect.stringContaining("film.mp4 is 11534336 bytes; a file may be at most 10485760 bytes")]);
  });

  test("a file whose content is not what its name says is refused when finished, and deleted", async () => {
    const before = await assets();
    const pdfNamedPng = new TextEncoder().encode("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
    const begun = await alice.call("begin_upload", { courseId, filename: "photo.png", byteSize: pdfNamedPng.length });
    await alice.call("upload_chunk", { uploadId: begun.uploadId, index: 0, dataBase64: base64(pdfNamedPng) });
    const error = await alice.fail("finish_upload", { uploadId: begun.uploadId });
    expect([error.code, error.message]).toEqual(["invalid_arguments", expect.stringContaining("ends in .png but the content is application/pdf")]);
    expect(error.message).toContain("The upload was deleted.");
    expect((await alice.fail("finish_upload", { uploadId: begun.uploadId })).code).toBe("not_found");
    expect(await assets()).toEqual(before);
  });

  test("a person who cannot edit the course cannot begin an upload to it", async () => {
    expect((await bob.fail("begin_upload", { courseId, filename: "x.png", byteSize: 10 })).code).toBe("not_found");
  });
});

describe("on PostgreSQL", () => {
  let database: { env: Record<string, string>; drop(): Promise<void> };
  let pgService: TestService;
  let carol: Agent;

  beforeAll(async () => {
    database = await testDatabaseFor("postgres");
    pgService = await startTestService(database.env);
    carol = await connectAgent(pgService, await devAccessToken(pgService, "carol"));
  }, 60_000);

  afterAll(async () => {
    await carol?.close();
    await pgService?.dispose();
    await database?.drop();
  });

  test("chunks arrive in order and become an asset; a cancelled upload leaves nothing", async () => {
    const id = (await carol.call("create_course", { title: "PG files" })).id as string;
    const picture = noisyPng(320, 300);
    const begun = (await carol.call("begin_upload", { courseId: id, filename: "noise.png", byteSize: picture.length })) as Json;
    const chunk = (index: number) => base64(picture.subarray(index * begun.chunkBytes, (index + 1) * begun.chunkBytes));
    await carol.call("upload_chunk", { uploadId: begun.uploadId, index: 0, dataBase64: chunk(0) });
    expect((await carol.fail("upload_chunk", { uploadId: begun.uploadId, index: 0, dataBase64: chunk(0) })).message).toContain("out of order");
    await carol.call("upload_chunk", { uploadId: begun.uploadId, index: 1, dataBase64: chunk(1) });
    const finished = await carol.call("finish_upload", { uploadId: begun.uploadId });
    expect([finished.width, finished.height]).toEqual([320, 300]);
    const cancelled = await carol.call("begin_upload", { courseId: id, filename: "later.png", byteSize: picture.length });
    await carol.call("upload_chunk", { uploadId: cancelled.uploadId, index: 0, dataBase64: chunk(0) });
    await carol.call("finish_upload", { uploadId: cancelled.uploadId, cancel: true });
    expect(((await carol.call("list_assets", { courseId: id })).assets as Json[]).map((asset) => asset.filename)).toEqual(["noise.png"]);
  }, 60_000);
});
