/**
 * What a PDF's streams decode to, measured before a reader decodes them: a PDF reader (pdf.js) inflates
 * a stream whole when it reads it, so a few kilobytes of FlateDecode that inflate to gigabytes (a
 * decompression bomb) would take the memory of the whole process. Every stream's filters are applied in
 * order here (FlateDecode, LZWDecode, RunLengthDecode, ASCIIHexDecode, ASCII85Decode; the picture codecs
 * stop the count, since pictures are bounded by their pixels), keeping no more than one stream's worth of
 * output and counting the last stage without keeping it, so the check itself stays within its caps. Also
 * counted: the objects the file defines, in its body and inside object streams (/N).
 *
 * An encrypted file's streams are cipher text and cannot be measured, so `/Encrypt` is reported first.
 * The cross-reference table is checked too: `startxref` must lead to a table (or a cross-reference
 * stream), and every object the last table lists must be at the offset it gives. A reader rebuilds a
 * broken table by guessing from the objects it finds, which is how a damaged or doctored file shows
 * something other than what its table says; such a file is refused, saying how to repair it.
 */
import { Inflate, Unzlib } from "fflate";
import { decodePdfName, filterValue } from "./pdf-scan.ts";

export const pdfStreamLimits = {
  /** Bytes one stream may decode to (a 25-megapixel picture with transparency is 100 MB). */
  streamBytes: 128 * 1024 * 1024,
  /** Bytes all streams of one file may decode to together. */
  totalBytes: 512 * 1024 * 1024,
  /** Objects one file may define. */
  objects: 1_000_000,
} as const;

export type PdfStreamProblem =
  | { rule: "encrypted" }
  | { rule: "decompressedBytes"; object: string; limit: number; scope: "stream" | "file" }
  | { rule: "objects"; limit: number }
  | { rule: "filters"; object: string; filters: string }
  | { rule: "xref"; why: string };

const abbreviations: Record<string, string> = { Fl: "FlateDecode", LZW: "LZWDecode", RL: "RunLengthDecode", AHx: "ASCIIHexDecode", A85: "ASCII85Decode" };
/** Filters whose output is a picture's pixels (bounded by the reader's picture size) or that end the count. */
const pictureFilters = new Set(["DCTDecode", "JPXDecode", "CCITTFaxDecode", "JBIG2Decode", "DCT", "CCF", "Crypt"]);

/** Output of one stage: the bytes when a later stage needs them, and how many there were. */
interface Stage {
  bytes: Uint8Array | null;
  size: number;
  over: boolean;
}

/** Collects a stage's output up to `cap`, keeping it only when `keep`. */
class Sink {
  private readonly chunks: Uint8Array[] = [];
  size = 0;
  constructor(
    private readonly cap: number,
    private readonly keep: boolean,
  ) {}
  get over(): boolean {
    return this.size > this.cap;
  }
  push(chunk: Uint8Array): void {
    this.size += chunk.length;
    if (this.keep && !this.over) this.chunks.push(chunk);
  }
  stage(): Stage {
    if (!this.keep || this.over) return { bytes: null, size: this.size, over: this.over };
    const bytes = new Uint8Array(this.size);
    let at = 0;
    for (const chunk of this.chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return { bytes, size: this.size, over: false };
  }
}

/** Inflates in 4 KB steps (at most about 4 MB out per step), stopping past the cap; a damaged stream counts what it gave. */
function inflate(input: Uint8Array, sink: Sink): void {
  const zlib = input.length >= 2 && ((input[0] as number) & 0x0f) === 8 && (((input[0] as number) << 8) | (input[1] as number)) % 31 === 0;
  const stream = zlib ? new Unzlib((chunk) => sink.push(chunk)) : new Inflate((chunk) => sink.push(chunk));
  try {
    for (let at = 0; at < input.length && !sink.over; at += 4096) stream.push(input.subarray(at, at + 4096), at + 4096 >= input.length);
  } catch {
    // The reader stops where the data breaks, as this count does.
  }
}

function runLength(input: Uint8Array, sink: Sink): void {
  for (let at = 0; at < input.length && !sink.over; ) {
    const length = input[at] as number;
    if (length === 128) return;
    if (length < 128) {
      sink.push(input.subarray(at + 1, at + 2 + length));
      at += length + 2;
    } else {
      sink.push(new Uint8Array(257 - length).fill(input[at + 1] ?? 0));
      at += 2;
    }
  }
}

function asciiHex(input: Uint8Array, sink: Sink): void {
  const digits: number[] = [];
  for (const byte of input) {
    if (byte === 0x3e) break;
    const value = byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : byte >= 0x41 && byte <= 0x46 ? byte - 0x37 : byte >= 0x61 && byte <= 0x66 ? byte - 0x57 : -1;
    if (value >= 0) digits.push(value);
  }
  if (digits.length % 2 === 1) digits.push(0);
  sink.push(Uint8Array.from({ length: digits.length / 2 }, (_, index) => ((digits[index * 2] as number) << 4) | (digits[index * 2 + 1] as number)));
}

function ascii85(input: Uint8Array, sink: Sink): void {
  const out: number[] = [];
  let group: number[] = [];
  for (const byte of input) {
    if (byte === 0x7e) break;
    if (byte === 0x7a && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    if (byte < 0x21 || byte > 0x75) continue;
    group.push(byte - 0x21);
    if (group.length === 5) {
      const value = group.reduce((sum, digit) => sum * 85 + digit, 0);
      out.push((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
      group = [];
    }
  }
  if (group.length > 1) {
    const count = group.length - 1;
    while (group.length < 5) group.push(84);
    const value = group.reduce((sum, digit) => sum * 85 + digit, 0);
    out.push(...[(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].slice(0, count));
  }
  sink.push(Uint8Array.from(out));
}

/** LZW as PDF writes it (8-bit codes, clear 256, end 257, EarlyChange 1), decoded into the sink up to its cap. */
function lzw(input: Uint8Array, sink: Sink, earlyChange: number): void {
  const prefixes = new Int32Array(4096);
  const suffixes = new Uint8Array(4096);
  const lengths = new Int32Array(4096);
  for (let code = 0; code < 256; code += 1) {
    suffixes[code] = code;
    lengths[code] = 1;
    prefixes[code] = -1;
  }
  let next = 258;
  let width = 9;
  let previous = -1;
  let buffer = 0;
  let bits = 0;
  const spell = (code: number, first?: number) => {
    const length = lengths[code] as number;
    const out = new Uint8Array(length + (first === undefined ? 0 : 1));
    for (let at = length - 1, current = code; at >= 0; at -= 1, current = prefixes[current] as number) out[at] = suffixes[current] as number;
    if (first !== undefined) out[length] = first;
    return out;
  };
  for (let at = 0; at < input.length && !sink.over; ) {
    while (bits < width && at < input.length) {
      buffer = ((buffer << 8) | (input[at++] as number)) >>> 0;
      bits += 8;
    }
    if (bits < width) return;
    const code = (buffer >>> (bits - width)) & ((1 << width) - 1);
    bits -= width;
    if (code === 256) {
      next = 258;
      width = 9;
      previous = -1;
      continue;
    }
    if (code === 257) return;
    let word: Uint8Array;
    if (previous < 0) {
      if (code > 255) return;
      word = spell(code);
    } else if (code < next) {
      word = spell(code);
      if (next < 4096) {
        prefixes[next] = previous;
        suffixes[next] = word[0] as number;
        lengths[next] = (lengths[previous] as number) + 1;
        next += 1;
      }
    } else if (code === next && next < 4096) {
      const head = spell(previous);
      word = spell(previous, head[0]);
      prefixes[next] = previous;
      suffixes[next] = head[0] as number;
      lengths[next] = (lengths[previous] as number) + 1;
      next += 1;
    } else return;
    sink.push(word);
    previous = code;
    if (next + earlyChange >= 1 << width && width < 12) width += 1;
  }
}

/** The stream's data through its filters: the bytes each stage gives, the last one counted only. */
function decodedSize(data: Uint8Array, filters: readonly string[], dictionary: string, cap: number): { size: number; over: boolean } | "unchecked" {
  let input: Uint8Array | null = data;
  let size = data.length;
  for (const [index, filter] of filters.entries()) {
    if (pictureFilters.has(filter)) return { size, over: false };
    const last = index === filters.length - 1 || pictureFilters.has(filters[index + 1] ?? "");
    const sink = new Sink(cap, !last);
    if (input === null) return "unchecked";
    if (filter === "FlateDecode") inflate(input, sink);
    else if (filter === "RunLengthDecode") runLength(input, sink);
    else if (filter === "ASCIIHexDecode") asciiHex(input, sink);
    else if (filter === "ASCII85Decode") ascii85(input, sink);
    else if (filter === "LZWDecode") lzw(input, sink, /\/EarlyChange\s+0\b/.test(dictionary) ? 0 : 1);
    else return "unchecked";
    const stage = sink.stage();
    if (stage.over) return { size: stage.size, over: true };
    input = stage.bytes;
    size = stage.size;
  }
  return { size, over: false };
}

/**
 * The first rule the file breaks, or null: encrypted, more objects than allowed, a stream that decodes
 * to more than a stream may, all streams together more than a file may, or a filter this check cannot
 * follow (one the reader would still decode). `text` is `bytes` read one character per byte.
 */
export function pdfStreamProblem(bytes: Uint8Array, text: string = new TextDecoder("latin1").decode(bytes)): PdfStreamProblem | null {
  if (/\/Encrypt\s*(\d+\s+\d+\s+R|<<)/.test(text)) return { rule: "encrypted" };
  const xref = xrefProblem(text);
  if (xref) return { rule: "xref", why: xref };
  let objects = 0;
  for (const _ of text.matchAll(/\d{1,10}\s+\d{1,5}\s+obj\b/g)) if ((objects += 1) > pdfStreamLimits.objects) return { rule: "objects", limit: pdfStreamLimits.objects };
  // Objects inside object streams: each says how many it holds (/N) in its dictionary, near its /Type /ObjStm (names with escapes are rare enough to be read as written).
  for (const match of text.matchAll(/\/Type\s*\/ObjStm\b/g)) {
    const around = text.slice(Math.max(0, match.index - 1024), match.index + 1024);
    objects += Number(/\/N\s+(\d{1,10})/.exec(around)?.[1] ?? 0);
    if (objects > pdfStreamLimits.objects) return { rule: "objects", limit: pdfStreamLimits.objects };
  }
  let total = 0;
  for (let at = text.indexOf("stream"); at >= 0; at = text.indexOf("stream", at + 6)) {
    if (text.startsWith("end", at - 3)) continue;
    const after = at + 6;
    const dataStart = text[after] === "\r" && text[after + 1] === "\n" ? after + 2 : text[after] === "\n" || text[after] === "\r" ? after + 1 : -1;
    if (dataStart < 0) continue;
    const header = text.lastIndexOf("obj", at);
    if (header < 0) continue;
    const dictionary = text.slice(Math.max(header, at - 65536), at).replace(/\/([^\s/<>[\]()%{}]*)/g, (_, raw: string) => `/${decodePdfName(raw)}`);
    const filters = [...filterValue(dictionary).matchAll(/\/([^\s/<>[\]]+)/g)].map((match) => abbreviations[match[1] as string] ?? (match[1] as string));
    if (filters.length === 0) continue;
    const end = text.indexOf("endstream", dataStart);
    const object = /(\d+)\s+(\d+)\s*$/.exec(text.slice(Math.max(0, header - 24), header))?.slice(1, 3).join(" ") ?? "?";
    const fileBound = pdfStreamLimits.totalBytes - total < pdfStreamLimits.streamBytes;
    const decoded = decodedSize(bytes.subarray(dataStart, end < 0 ? bytes.length : end), filters, dictionary, fileBound ? pdfStreamLimits.totalBytes - total : pdfStreamLimits.streamBytes);
    if (decoded === "unchecked") return { rule: "filters", object, filters: filters.join(", ") };
    if (decoded.over) return fileBound ? { rule: "decompressedBytes", object, limit: pdfStreamLimits.totalBytes, scope: "file" } : { rule: "decompressedBytes", object, limit: pdfStreamLimits.streamBytes, scope: "stream" };
    total += decoded.size;
    if (end > 0) at = end;
  }
  return null;
}

/** Why the last cross-reference section is broken, or null. Offsets count from `%PDF-` (junk before it is tolerated, as readers do). */
function xrefProblem(text: string): string | null {
  const at = text.lastIndexOf("startxref");
  if (at < 0) return "it has no startxref, so no cross-reference table";
  const offset = Number(/^startxref\s+(\d{1,12})/.exec(text.slice(at, at + 40))?.[1] ?? Number.NaN);
  const base = Math.max(0, text.indexOf("%PDF-"));
  if (!Number.isFinite(offset) || base + offset >= text.length) return "its startxref points outside the file";
  // A writer an end-of-line off is tolerated, as readers do.
  const start = base + offset + (/^\s{0,2}/.exec(text.slice(base + offset, base + offset + 2))?.[0].length ?? 0);
  const head = text.slice(start, start + 1024);
  if (/^\d+\s+\d+\s+obj\b/.test(head)) return /\/Type\s*\/XRef\b/.test(head) ? null : "its startxref does not point to a cross-reference stream";
  if (!head.startsWith("xref")) return "its startxref does not point to a cross-reference table";
  const end = text.indexOf("trailer", start);
  if (end < 0) return "its cross-reference table has no trailer";
  const lines = text.slice(start + 4, end).split(/\r\n|\r|\n/).map((line) => line.trim()).filter(Boolean);
  let number = 0;
  let checked = 0;
  for (const line of lines) {
    const section = /^(\d+)\s+(\d+)$/.exec(line);
    if (section) {
      number = Number(section[1]);
      continue;
    }
    const entry = /^(\d{10})\s+(\d{5})\s+([nf])$/.exec(line);
    if (!entry) return `its cross-reference table has a line that is not an entry ("${line.slice(0, 30)}")`;
    if (entry[3] === "n" && Number(entry[1]) > 0 && checked < pdfStreamLimits.objects) {
      checked += 1;
      const object = base + Number(entry[1]);
      const found = /^\s{0,4}(\d+)\s+(\d+)\s+obj\b/.exec(text.slice(object, object + 40));
      if (!found || Number(found[1]) !== number || Number(found[2]) !== Number(entry[2])) return `object ${number} is not where its cross-reference table says`;
    }
    number += 1;
  }
  return null;
}
