/**
 * Reading an uploaded zip archive for import without trusting it (`codecs/zip-read.ts` does the reading).
 * The central directory is checked before anything is inflated: no absolute paths, `..`, backslashes
 * or control characters in names (path traversal), a bounded entry count, and declared sizes and
 * compression ratios within limits (zip bombs). Then only the one course document is inflated, with a
 * byte cap and a ratio limit that hold whatever its header says, yielding to the event loop meanwhile.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";
import type { InflateOutcome } from "./inflate.ts";
import { inflateZipEntry, listZipEntries, unsafeEntryName, ZipFormatError, type ZipEntry } from "./zip-read.ts";

export const archiveLimits = {
  entries: 1_000,
  /** Uncompressed bytes of the whole archive, as declared, and of the document actually inflated. */
  uncompressedBytes: 32 * 1024 * 1024,
  /** Uncompressed/compressed ratio allowed once an entry is larger than `ratioFloorBytes`. */
  ratio: 100,
  ratioFloorBytes: 1024 * 1024,
} as const;

function notAnArchive(reason: string): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `content: is not a readable zip archive (${reason}); nothing was imported.`, { field: "content" });
}

function zipBomb(message: string, details: Record<string, unknown>): CourseAuthoringError {
  return new CourseAuthoringError("limit_exceeded", `content: ${message}; this looks like a zip bomb, so nothing was imported.`, { field: "content", ...details });
}

function readingArchive<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ZipFormatError) throw notAnArchive(error.reason);
    throw error;
  }
}

/** Every entry named in the central directory, checked before any byte is inflated; Office packages allow more entries (up to four parts per slide). */
export function readCentralDirectory(bytes: Uint8Array, maxEntries: number = archiveLimits.entries): ZipEntry[] {
  const entries = readingArchive(() => listZipEntries(bytes, maxEntries));
  for (const entry of entries) checkEntry(entry);
  const declared = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (declared > archiveLimits.uncompressedBytes) {
    throw zipBomb(`the archive declares ${declared} bytes uncompressed, more than the ${archiveLimits.uncompressedBytes} allowed`, { declaredBytes: declared });
  }
  return entries;
}

function checkEntry(entry: ZipEntry): void {
  const unsafe = unsafeEntryName(entry.name);
  if (unsafe) {
    throw new CourseAuthoringError("invalid_arguments", `content: the archive entry "${entry.name.slice(0, 200)}" is not a safe path (${unsafe}); nothing was imported.`, {
      field: "content",
      entry: entry.name.slice(0, 200),
    });
  }
  if (entry.compressedSize === 0xffffffff || entry.size === 0xffffffff) throw notAnArchive(`entry "${entry.name}" uses ZIP64 sizes`);
  if (entry.flags & 1) throw notAnArchive(`entry "${entry.name}" is encrypted`);
  if (entry.size > archiveLimits.ratioFloorBytes && entry.size > entry.compressedSize * archiveLimits.ratio) {
    throw zipBomb(`the entry "${entry.name}" declares ${entry.size} bytes from ${entry.compressedSize} compressed (more than ${archiveLimits.ratio}:1)`, {
      entry: entry.name,
    });
  }
}

/** Inflates one entry, stopping as soon as it produces more than it declared, than the budget allows, or past the ratio. */
export async function inflateEntry(bytes: Uint8Array, entry: ZipEntry): Promise<Uint8Array> {
  const limits = { maxBytes: archiveLimits.uncompressedBytes, maxRatio: archiveLimits.ratio, ratioFloorBytes: archiveLimits.ratioFloorBytes };
  let outcome: InflateOutcome;
  try {
    outcome = await inflateZipEntry(bytes, entry, limits);
  } catch (error) {
    throw error instanceof ZipFormatError ? notAnArchive(error.reason) : error;
  }
  if (outcome.kind === "damaged") throw notAnArchive(`"${entry.name}" does not inflate: ${outcome.reason}`);
  if (outcome.kind === "limit" && outcome.limit === "maxRatio") {
    throw zipBomb(`the entry "${entry.name}" inflates more than ${archiveLimits.ratio}:1`, { entry: entry.name, limit: "ratio" });
  }
  if (outcome.kind === "limit") {
    const budget = Math.min(entry.size, archiveLimits.uncompressedBytes);
    throw zipBomb(`the entry "${entry.name}" inflates to more than the ${budget} bytes it declares`, { entry: entry.name });
  }
  return outcome.bytes;
}

const documentExtensions = /\.(json|md|markdown)$/i;

/** The one course document (a JSON export or a Markdown outline) inside the archive, inflated. */
export async function documentInArchive(bytes: Uint8Array): Promise<{ name: string; kind: "json" | "markdown"; bytes: Uint8Array }> {
  const entries = readCentralDirectory(bytes);
  const candidates = entries.filter(
    (entry) => !entry.name.endsWith("/") && documentExtensions.test(entry.name) && !entry.name.split("/").some((part) => part.startsWith(".") || part === "__MACOSX"),
  );
  if (candidates.length !== 1) {
    const found = candidates.length === 0 ? "none" : candidates.map((entry) => entry.name).slice(0, 10).join(", ");
    throw new CourseAuthoringError(
      "invalid_arguments",
      `content: the archive must hold exactly one course document (a .json export or a .md outline); found ${found}. Nothing was imported.`,
      { field: "content" },
    );
  }
  const entry = candidates[0] as ZipEntry;
  return { name: entry.name, kind: /\.json$/i.test(entry.name) ? "json" : "markdown", bytes: await inflateEntry(bytes, entry) };
}
