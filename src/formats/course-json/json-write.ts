/**
 * The lossless JSON export: the course document exactly as the domain returns it (minus who is asking:
 * role, owner, collaborators) and every referenced asset as base64, written as a stream so media is
 * encoded a chunk at a time. `import_course` reads this format back into an identical course.
 */
import { honestAssetFileName } from "../asset-names.ts";
import { timeSlicer } from "../../codecs/event-loop.ts";
import type { PackagedAsset } from "../package/plan.ts";
import { jsonPieces } from "./json-pieces.ts";
import type { AssetSource, ExportCourse } from "../package/types.ts";
import { toBase64 as bytesToBase64 } from "../../bytes.ts";

export const jsonExportFormat = "course-authoring-service/course";
export const jsonExportFormatVersion = 1;

/** Fields that describe the caller's relation to the course, not the course itself. */
const callerFields = new Set(["role", "collaborators", "ownerSub"]);

export function exportableCourse(course: ExportCourse): Record<string, unknown> {
  return Object.fromEntries(Object.entries(course).filter(([key]) => !callerFields.has(key)));
}

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  return bytesToBase64(bytes);
}

/** Base64 of a byte stream, cut on 3-byte boundaries so the pieces concatenate into one valid string. */
async function* byteChunks(body: Uint8Array | ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (body instanceof Uint8Array) {
    yield body;
    return;
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

async function* base64Chunks(body: Uint8Array | ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let carry = new Uint8Array(0);
  for await (const chunk of byteChunks(body)) {
    const joined = new Uint8Array(carry.length + chunk.length);
    joined.set(carry);
    joined.set(chunk, carry.length);
    const usable = joined.length - (joined.length % 3);
    if (usable > 0) yield encoder.encode(toBase64(joined.subarray(0, usable)));
    carry = joined.slice(usable);
  }
  if (carry.length > 0) yield encoder.encode(toBase64(carry));
}

export async function* jsonExportChunks(
  course: ExportCourse,
  assets: ReadonlyMap<string, PackagedAsset>,
  source: AssetSource,
  exportedAt: string,
): AsyncGenerator<Uint8Array> {
  const header = { format: jsonExportFormat, formatVersion: jsonExportFormatVersion, exportedAt, course: exportableCourse(course) };
  // Header → course → modules → module → lessons → lesson → blocks → one block at a time.
  const pause = timeSlicer();
  let text = "";
  for (const piece of jsonPieces(header, 7)) {
    // Flushed before a piece is added, so the last piece (the closing "\n}") is always still in `text`.
    if (text.length >= 64 * 1024) {
      yield encoder.encode(text);
      text = "";
      await pause();
    }
    text += piece;
  }
  // Re-open the top-level object (its closing "\n}") to append the assets array after the course.
  yield encoder.encode(`${text.slice(0, -2)},\n  "assets": [`);
  let first = true;
  for (const asset of assets.values()) {
    // A name stored before upload and import shared one rule is corrected, so the file imports again.
    const fileName = honestAssetFileName(asset.info.fileName, asset.info.mimeType);
    const meta = JSON.stringify({ id: asset.assetId, fileName, mimeType: asset.info.mimeType });
    yield encoder.encode(`${first ? "" : ","}\n    ${meta.slice(0, -1)}, "base64": "`);
    yield* base64Chunks(await source.open(asset.assetId));
    yield encoder.encode('"}');
    first = false;
  }
  yield encoder.encode(`${first ? "" : "\n  "}]\n}\n`);
}
