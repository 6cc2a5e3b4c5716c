/**
 * Run by test/export-streaming.test.ts in its own process: builds a SCORM 2004 package carrying 240 MB
 * of generated video, drains it while sampling resident memory, and prints the byte count and the peak
 * memory growth as JSON. A fresh process keeps the measurement free of other tests' garbage.
 */
import { buildPackage } from "../../src/export/build-package.ts";
import type { AssetSource } from "../../src/formats/package/types.ts";
import { renderCourseHtml } from "../../src/render/index.ts";
import { sampleCourse } from "./export-course.ts";

const megabyte = 1024 * 1024;

/** A media file produced on demand, `size` bytes in 256 KB chunks, never held whole. */
function generatedMedia(size: number, seed: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      const chunk = new Uint8Array(Math.min(256 * 1024, size - sent));
      for (let index = 0; index < chunk.length; index += 4096) chunk[index] = (seed + index) & 0xff;
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

/** Drains a stream, sampling resident memory, and returns the byte count and the peak growth. */
async function drainMeasuring(stream: ReadableStream<Uint8Array>): Promise<{ bytes: number; peakGrowth: number }> {
  Bun.gc(true);
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let bytes = 0;
  let chunks = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (++chunks % 16 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  return { bytes, peakGrowth: peak - baseline };
}

const videoCount = 6;
const course = sampleCourse();
const firstModule = course.modules[0];
if (!firstModule) throw new Error("fixture has no module");
const videoBlocks = Array.from({ length: videoCount }, (_, index) => ({ id: `blk_v${index}`, type: "video", assetId: `ast_v${index}`, transcript: "Narration." }));
const withVideos = { ...course, modules: [{ ...firstModule, lessons: [{ id: "les_v", title: "Videos", kind: "content" as const, blocks: videoBlocks }] }, ...course.modules.slice(1)] };
const assets: AssetSource = {
  describe: async (assetId) => (assetId.startsWith("ast_v") ? { mimeType: "video/mp4", fileName: `${assetId}.mp4` } : null),
  open: async (assetId) => generatedMedia(40 * megabyte, Number(assetId.slice(5))),
};
const built = await buildPackage(withVideos, { format: "scorm2004", assets, renderer: renderCourseHtml });
const { bytes, peakGrowth } = await drainMeasuring(built.stream);
console.log(JSON.stringify({ bytes, peakGrowth, expectedBytes: videoCount * 40 * megabyte }));
