/**
 * Reading zip archives without trusting them: the central directory is listed with a bounded entry
 * count, entry names can be judged as paths, and an entry's data is inflated with a byte cap and a
 * ratio limit that hold whatever sizes its headers declare (`inflate.ts`). Callers choose the policy
 * (which entries, how much in all); this module only reads.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { inflateBounded, inflateHead, type InflateLimits, type InflateOutcome } from "./inflate.ts";

export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly flags: number;
  /** As the central directory declares them: checked, never relied on. */
  readonly compressedSize: number;
  readonly size: number;
  readonly localHeaderOffset: number;
}

export class ZipFormatError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "ZipFormatError";
  }
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
 * The entries the central directory names, as written, without judging them; more than `maxEntries`
 * throws a `limit_exceeded` naming `field` before any is read. Damage throws `ZipFormatError`.
 */
export function listZipEntries(bytes: Uint8Array, maxEntries: number = 0xffff, field = "content"): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new ZipFormatError("no end of central directory record");
  const count = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw new ZipFormatError("ZIP64 archives are not accepted");
  if (count > maxEntries) {
    throw new CourseAuthoringError("limit_exceeded", `${field}: the archive has ${count} entries, more than the ${maxEntries} allowed; nothing was read from it.`, {
      field,
      entries: count,
      limit: maxEntries,
    });
  }
  if (directoryOffset + directorySize > end) throw new ZipFormatError("the central directory is out of bounds");
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  let at = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || view.getUint32(at, true) !== 0x02014b50) throw new ZipFormatError("a central directory entry is damaged");
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > end) throw new ZipFormatError("an entry name is out of bounds");
    entries.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
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

/** The entry's stored bytes (compressed or not), located through its local header. */
export function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localHeaderOffset;
  if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) throw new ZipFormatError(`the data of "${entry.name}" is missing`);
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (start + entry.compressedSize > bytes.length) throw new ZipFormatError(`the data of "${entry.name}" is cut short`);
  if (entry.flags & 1) throw new ZipFormatError(`entry "${entry.name}" is encrypted`);
  if (entry.method !== 0 && entry.method !== 8) throw new ZipFormatError(`entry "${entry.name}" uses compression method ${entry.method}; only deflate and stored are read`);
  return bytes.subarray(start, start + entry.compressedSize);
}

/**
 * The entry inflated within `limits` (and never past the size it declares: an entry that produces more
 * stops with limit "maxBytes"), yielding to the event loop as it goes.
 */
export async function inflateZipEntry(bytes: Uint8Array, entry: ZipEntry, limits: InflateLimits): Promise<InflateOutcome> {
  const data = entryData(bytes, entry);
  const capped = { ...limits, maxBytes: Math.min(limits.maxBytes, entry.size) };
  if (entry.method === 0) {
    return data.length > capped.maxBytes
      ? { kind: "limit", limit: "maxBytes", bytes: data.slice(0, capped.maxBytes), produced: data.length, consumed: data.length }
      : { kind: "done", bytes: data.slice() };
  }
  return inflateBounded(data, "deflate", capped);
}

/** At most `maxBytes` of the entry, synchronously, for sniffing; "limit" when it holds more. */
export function zipEntryHead(bytes: Uint8Array, entry: ZipEntry, maxBytes: number): InflateOutcome {
  const data = entryData(bytes, entry);
  if (entry.method === 0) {
    return data.length > maxBytes ? { kind: "limit", limit: "maxBytes", bytes: data.slice(0, maxBytes), produced: data.length, consumed: data.length } : { kind: "done", bytes: data.slice() };
  }
  return inflateHead(data, "deflate", maxBytes);
}
