/**
 * Reading an uploaded zip archive without trusting it. The central directory is read first and every
 * entry is checked before anything is inflated: no absolute paths, `..`, backslashes or control
 * characters in names (path traversal), a bounded entry count, and declared sizes and compression
 * ratios within limits (zip bombs). Then only the one course document is inflated, chunk by chunk
 * against a running byte budget, so an entry that lies about its size is stopped as soon as it does.
 */
import { Inflate } from "fflate";
import { CourseAuthoringError } from "../course-authoring-error.ts";

export const archiveLimits = {
  entries: 1_000,
  /** Uncompressed bytes of the whole archive, as declared, and of the document actually inflated. */
  uncompressedBytes: 32 * 1024 * 1024,
  /** Uncompressed/compressed ratio allowed once an entry is larger than `ratioFloorBytes`. */
  ratio: 100,
  ratioFloorBytes: 1024 * 1024,
} as const;

export interface ArchiveEntry {
  readonly name: string;
  readonly method: number;
  readonly flags: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localHeaderOffset: number;
}

/** Small input steps: one deflate step can expand ~1000×, and the budget is checked between steps. */
const inflateChunkBytes = 4 * 1024;

function notAnArchive(reason: string): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `content: is not a readable zip archive (${reason}); nothing was imported.`, { field: "content" });
}

function zipBomb(message: string, details: Record<string, unknown>): CourseAuthoringError {
  return new CourseAuthoringError("limit_exceeded", `content: ${message}; this looks like a zip bomb, so nothing was imported.`, { field: "content", ...details });
}

/** Why an entry name is unsafe to use as a path, or null when it is a plain relative path. */
export function unsafeEntryName(name: string): string | null {
  if (name.length === 0) return "it is empty";
  if (/[\u0000-\u001f\u007f]/.test(name)) return "it contains control characters";
  if (name.includes("\\")) return "it contains a backslash";
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) return "it is an absolute path";
  if (name.split("/").some((segment) => segment === ".." || segment === ".")) return "it climbs out of the archive with ..";
  return null;
}

/**
 * The entries the central directory names, as written, without judging them; more than `maxEntries` is
 * refused before any is read. Our own export packages are listed with this too.
 */
export function listArchiveEntries(bytes: Uint8Array, maxEntries: number = 0xffff): ArchiveEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw notAnArchive("no end of central directory record");
  const count = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw notAnArchive("ZIP64 archives are not accepted");
  if (count > maxEntries) {
    throw new CourseAuthoringError("limit_exceeded", `content: the archive has ${count} entries, more than the ${maxEntries} allowed; nothing was imported.`, {
      field: "content",
      entries: count,
    });
  }
  if (directoryOffset + directorySize > end) throw notAnArchive("the central directory is out of bounds");
  const entries: ArchiveEntry[] = [];
  let at = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || view.getUint32(at, true) !== 0x02014b50) throw notAnArchive("a central directory entry is damaged");
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > end) throw notAnArchive("an entry name is out of bounds");
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    entries.push({
      name,
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Every entry named in the central directory, checked before any byte is inflated; Office packages allow more entries (a part or four per slide). */
export function readCentralDirectory(bytes: Uint8Array, maxEntries: number = archiveLimits.entries): ArchiveEntry[] {
  const entries = listArchiveEntries(bytes, maxEntries);
  for (const entry of entries) checkEntry(entry);
  const declared = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (declared > archiveLimits.uncompressedBytes) {
    throw zipBomb(`the archive declares ${declared} bytes uncompressed, more than the ${archiveLimits.uncompressedBytes} allowed`, { declaredBytes: declared });
  }
  return entries;
}

function checkEntry(entry: ArchiveEntry): void {
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

/** Inflates one entry, stopping as soon as it produces more than it declared or than the budget allows. */
export function inflateEntry(bytes: Uint8Array, entry: ArchiveEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localHeaderOffset;
  if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) throw notAnArchive(`the data of "${entry.name}" is missing`);
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (start + entry.compressedSize > bytes.length) throw notAnArchive(`the data of "${entry.name}" is cut short`);
  const compressed = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return compressed.slice();
  if (entry.method !== 8) throw notAnArchive(`entry "${entry.name}" uses compression method ${entry.method}; only deflate and stored are read`);

  const budget = Math.min(entry.size, archiveLimits.uncompressedBytes);
  const chunks: Uint8Array[] = [];
  let produced = 0;
  let overflow = false;
  const inflater = new Inflate((chunk) => {
    produced += chunk.length;
    if (produced > budget) overflow = true;
    else chunks.push(chunk);
  });
  try {
    for (let offset = 0; offset < compressed.length && !overflow; offset += inflateChunkBytes) {
      inflater.push(compressed.subarray(offset, offset + inflateChunkBytes), offset + inflateChunkBytes >= compressed.length);
    }
  } catch (error) {
    throw notAnArchive(`"${entry.name}" does not inflate: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (overflow) throw zipBomb(`the entry "${entry.name}" inflates to more than the ${budget} bytes it declares`, { entry: entry.name });
  const output = new Uint8Array(produced);
  let at = 0;
  for (const chunk of chunks) {
    output.set(chunk, at);
    at += chunk.length;
  }
  return output;
}

const documentExtensions = /\.(json|md|markdown)$/i;

/** The one course document (a JSON export or a Markdown outline) inside the archive, inflated. */
export function documentInArchive(bytes: Uint8Array): { name: string; kind: "json" | "markdown"; bytes: Uint8Array } {
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
  const entry = candidates[0] as ArchiveEntry;
  return { name: entry.name, kind: /\.json$/i.test(entry.name) ? "json" : "markdown", bytes: inflateEntry(bytes, entry) };
}
