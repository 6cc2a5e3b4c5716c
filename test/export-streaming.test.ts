/**
 * The zip is streamed: entries are read and written one chunk at a time, so memory stays flat however
 * large the media and however many lessons. Memory is sampled while a package far larger than the
 * allowed growth is drained (a size bound, never a timing assertion). Also the lossless JSON export.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildPackage } from "../src/export/build-package.ts";
import { jsonExportFormat } from "../src/formats/course-json/json-write.ts";
import type { AssetSource } from "../src/formats/package/types.ts";
import { zipStream } from "../src/codecs/zip-write.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { generatedCourse, memoryAssets, pixelPng, sampleCourse, streamBytes, unzipPackage } from "./support/export-course.ts";

const megabyte = 1024 * 1024;

describe("streaming zip", () => {
  test("a package of 240 MB of media is produced with memory growth far below its size", async () => {
    // Measured in a fresh process: in the shared test process, other files' garbage blurs resident memory.
    const probe = Bun.spawn([process.execPath, join(import.meta.dir, "support", "export-memory-probe.ts")], { stdout: "pipe", stderr: "inherit" });
    const output = await new Response(probe.stdout).text();
    expect(await probe.exited).toBe(0);
    const { bytes, peakGrowth, expectedBytes } = JSON.parse(output) as { bytes: number; peakGrowth: number; expectedBytes: number };
    expect(bytes).toBeGreaterThan(expectedBytes);
    expect(peakGrowth).toBeLessThan(64 * megabyte);
  }, 60_000);

  test("a 1,000-lesson course packages one SCO per module and every page is in the zip", async () => {
    const course = generatedCourse(1000);
    const built = await buildPackage(course, { format: "scorm12", scoMode: "module", assets: memoryAssets({}), renderer: renderCourseHtml });
    const files = await unzipPackage(built.stream);
    const pages = Object.keys(files).filter((path) => /^module-\d+\.html$/.test(path));
    expect(pages).toHaveLength(100);
    const manifest = new TextDecoder().decode(files["imsmanifest.xml"]);
    expect(manifest.match(/adlcp:scormtype="sco"/g)).toHaveLength(100);
  });

  test("entries are pulled only as the reader asks: cancelling stops reading the remaining entries", async () => {
    const opened: string[] = [];
    const entries = Array.from({ length: 50 }, (_, index) => ({
      path: `file-${index}.bin`,
      body: () => {
        opened.push(`file-${index}`);
        return Promise.resolve(new Uint8Array(512 * 1024).fill(index));
      },
    }));
    const reader = zipStream(entries).getReader();
    for (let read = 0; read < 3; read++) await reader.read();
    await reader.cancel();
    expect(opened.length).toBeLessThan(5);
  });

  test("unsafe entry paths are refused", async () => {
    for (const path of ["../evil.txt", "/abs.txt", "a/../../b", "a\\b", ""]) {
      await expect(streamBytes(zipStream([{ path, body: "x" }]))).rejects.toThrow("unsafe zip entry path");
    }
  });
});

describe("JSON export", () => {
  test("is the course document without the caller's role, with every asset as base64", async () => {
    const course = sampleCourse();
    const built = await buildPackage(course, { format: "json", assets: memoryAssets(), renderer: renderCourseHtml });
    expect(built.mimeType).toBe("application/json");
    expect(built.fileName).toBe("safe-lab-practice-handling.json");
    const document = JSON.parse(new TextDecoder().decode(await streamBytes(built.stream))) as {
      format: string;
      formatVersion: number;
      course: Record<string, unknown>;
      assets: { id: string; fileName: string; mimeType: string; base64: string }[];
    };
    expect(document.format).toBe(jsonExportFormat);
    expect(document.formatVersion).toBe(1);
    const { role: _role, collaborators: _collaborators, ownerSub: _owner, ...content } = course;
    expect(document.course).toEqual(content);
    expect(document.assets).toEqual([{ id: "ast_goggles", fileName: "goggles.png", mimeType: "image/png", base64: Buffer.from(pixelPng).toString("base64") }]);
  });

  test("streams media in pieces that concatenate into valid base64", async () => {
    const bytes = Uint8Array.from({ length: 100_003 }, (_, index) => (index * 7) & 0xff);
    const course = sampleCourse();
    const assets: AssetSource = {
      describe: async () => ({ mimeType: "image/png", fileName: "big.png" }),
      open: async () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (let offset = 0; offset < bytes.length; offset += 1000) controller.enqueue(bytes.slice(offset, offset + 1000));
            controller.close();
          },
        }),
    };
    const built = await buildPackage(course, { format: "json", assets, renderer: renderCourseHtml });
    const document = JSON.parse(new TextDecoder().decode(await streamBytes(built.stream))) as { assets: { base64: string }[] };
    expect(new Uint8Array(Buffer.from(document.assets[0]?.base64 ?? "", "base64"))).toEqual(bytes);
  });
});
