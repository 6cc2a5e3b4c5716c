/**
 * Recognises an upload's real media type from its first bytes (magic numbers), never from the name or
 * the type the client claims. Only formats a course can safely embed or hand out are accepted; SVG is
 * refused because it is XML that can carry scripts and we do not sanitise it. Office files are zips
 * recognised by the head of their `[Content_Types].xml` part, nothing else inflated (macro-enabled ones
 * are refused); PDFs that carry script, actions, forms or embedded files are refused (`codecs/pdf-scan.ts`);
 * text must be clean UTF-8 and not markup.
 */
import { activePdfContent } from "./pdf-scan.ts";
import { listZipEntries, zipEntryHead } from "./zip-read.ts";

export interface MediaType {
  mediaType: string;
  /** File name extensions that honestly describe this type. */
  extensions: readonly string[];
}

export const acceptedMediaTypes: readonly MediaType[] = [
  { mediaType: "image/png", extensions: ["png"] },
  { mediaType: "image/jpeg", extensions: ["jpg", "jpeg"] },
  { mediaType: "image/gif", extensions: ["gif"] },
  { mediaType: "image/webp", extensions: ["webp"] },
  { mediaType: "audio/mpeg", extensions: ["mp3"] },
  { mediaType: "audio/wav", extensions: ["wav"] },
  { mediaType: "audio/ogg", extensions: ["ogg", "oga", "opus"] },
  { mediaType: "audio/mp4", extensions: ["m4a", "mp4"] },
  { mediaType: "video/mp4", extensions: ["mp4", "m4v"] },
  { mediaType: "video/webm", extensions: ["webm"] },
  { mediaType: "application/pdf", extensions: ["pdf"] },
  { mediaType: "text/vtt", extensions: ["vtt"] },
  { mediaType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", extensions: ["docx"] },
  { mediaType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", extensions: ["xlsx"] },
  { mediaType: "application/vnd.openxmlformats-officedocument.presentationml.presentation", extensions: ["pptx"] },
  { mediaType: "text/plain", extensions: ["txt", "text", "md", "json"] },
  { mediaType: "text/csv", extensions: ["csv"] },
];

export type SniffResult = { kind: "accepted"; type: MediaType } | { kind: "svg" } | { kind: "refused"; reason: string } | { kind: "unknown" };

/** What the uploader says the file is; used only to tell CSV from other plain text, both being text. */
export interface SniffHint {
  readonly claimed?: string | undefined;
  readonly filename?: string | undefined;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function byType(mediaType: string): MediaType {
  const found = acceptedMediaTypes.find((type) => type.mediaType === mediaType);
  if (!found) throw new Error(`unknown media type ${mediaType}`);
  return found;
}

/** The main part's content type names the Office format; anything else in a zip is not accepted. */
const officeMainParts: Record<string, string> = {
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

type Detected = string | { refused: string } | "svg" | null;

/** Bounds on sniffing a zip: its listing, and the one small part read. Nothing else is inflated. */
export const officeSniffLimits = { entries: 10_000, contentTypesBytes: 256 * 1024 } as const;

function detectOffice(bytes: Uint8Array): Detected {
  let types: Uint8Array;
  try {
    const entries = listZipEntries(bytes, officeSniffLimits.entries);
    if (entries.some((entry) => /(^|\/)vbaProject\.bin$/i.test(entry.name))) return { refused: macrosRefused };
    const part = entries.find((entry) => entry.name === "[Content_Types].xml");
    if (!part) return null;
    // Only the head of the content types part, whatever size its header claims: a real one is a few KB.
    const head = zipEntryHead(bytes, part, officeSniffLimits.contentTypesBytes);
    if (head.kind !== "done") return null;
    types = head.bytes;
  } catch {
    return null;
  }
  const xml = new TextDecoder().decode(types);
  if (/macroEnabled|vbaProject|ms-office\.activeX|application\/vnd\.ms-office\.vbaProject/i.test(xml)) return { refused: macrosRefused };
  const found = [...xml.matchAll(/ContentType="([^"]+)"/g)].map((match) => officeMainParts[match[1] ?? ""]).filter((type) => type !== undefined);
  return found.length === 1 ? (found[0] ?? null) : null;
}

const macrosRefused = "it is an Office file with macros or ActiveX; save it as a macro-free .docx, .xlsx or .pptx";

async function detectPdf(bytes: Uint8Array): Promise<Detected> {
  const active = await activePdfContent(bytes);
  return active ? { refused: `it is a PDF with active content ${active}; export it again without scripts, actions, forms or embedded files` } : "application/pdf";
}

/** Plain text: valid UTF-8 without control characters other than tab, line breaks and form feed, and not markup a browser would run. */
function detectText(bytes: Uint8Array): Detected {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  if (text.length === 0 || /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text)) return null;
  if (/^\s*<(?:!doctype|html|head|body|script|iframe|\?xml|svg)/i.test(text.replace(/^\uFEFF/, ""))) return null;
  return "text/plain";
}

/** Comma-, semicolon- or tab-separated rows with the same number of fields in each of the first lines. */
function looksLikeCsv(bytes: Uint8Array): boolean {
  const lines = new TextDecoder().decode(bytes.subarray(0, 64 * 1024)).split(/\r?\n/).filter((line) => line.trim() !== "").slice(0, 20);
  return [",", ";", "\t"].some((separator) => {
    const counts = lines.map((line) => line.replace(/"[^"]*"/g, "").split(separator).length - 1);
    return counts.length > 0 && counts.every((count) => count > 0 && count === counts[0]);
  });
}

/**
 * How an SVG file begins: an XML declaration, comments, a DOCTYPE, then `<svg`. A comment ends at its first
 * `-->`, as a browser reads it: a lazy `[\s\S]*?` could also end at any later one, which made a run of
 * comments exponential (a 400-byte head held the loop).
 */
export const svgStart = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--(?:[^-]|-(?!->))*-->\s*)*(?:<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i;

async function detect(bytes: Uint8Array): Promise<Detected> {
  const head = ascii(bytes, 0, 16);
  if (bytes[0] === 0x89 && head.slice(1, 8) === "PNG\r\n\x1a\n") return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (head.startsWith("GIF87a") || head.startsWith("GIF89a")) return "image/gif";
  if (head.startsWith("RIFF") && ascii(bytes, 8, 4) === "WEBP") return "image/webp";
  if (head.startsWith("RIFF") && ascii(bytes, 8, 4) === "WAVE") return "audio/wav";
  if (head.startsWith("OggS")) return "audio/ogg";
  if (head.startsWith("ID3") || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return "audio/mpeg";
  if (ascii(bytes, 4, 4) === "ftyp") return /^M4A |^M4B /.test(ascii(bytes, 8, 4)) ? "audio/mp4" : "video/mp4";
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return ascii(bytes, 0, 64).includes("webm") ? "video/webm" : null;
  if (head.startsWith("%PDF-")) return detectPdf(bytes);
  if (head.startsWith("PK\x03\x04")) return detectOffice(bytes);
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 512)).replace(/^\uFEFF/, "");
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(text)) return "text/vtt";
  if (svgStart.test(text)) return "svg";
  return detectText(bytes);
}

/** What the bytes are; PDFs are read whole (bounded, yielding), other types by their first bytes. */
export async function sniffMediaType(bytes: Uint8Array, hint: SniffHint = {}): Promise<SniffResult> {
  const detected = await detect(bytes);
  if (detected === "svg") return { kind: "svg" };
  if (detected !== null && typeof detected === "object") return { kind: "refused", reason: detected.refused };
  if (detected === "text/plain" && wantsCsv(hint) && looksLikeCsv(bytes)) return { kind: "accepted", type: byType("text/csv") };
  return detected ? { kind: "accepted", type: byType(detected) } : { kind: "unknown" };
}

function wantsCsv(hint: SniffHint): boolean {
  const claimed = hint.claimed?.split(";")[0]?.trim().toLowerCase();
  return claimed === "text/csv" || claimed === "application/csv" || /\.csv$/i.test(hint.filename ?? "");
}

/** True when a claimed type names the same format (`image/jpg` for JPEG, `audio/mp3` for MP3, `video/mp4` for an M4A box are accepted). */
export function claimMatches(claimed: string, actual: MediaType): boolean {
  const normalised = claimed.split(";")[0]?.trim().toLowerCase() ?? "";
  const aliases: Record<string, string[]> = {
    "image/jpeg": ["image/jpg", "image/pjpeg"],
    "audio/mpeg": ["audio/mp3", "audio/mpeg3"],
    "audio/wav": ["audio/wave", "audio/x-wav"],
    "audio/mp4": ["audio/x-m4a", "video/mp4"],
    "video/mp4": ["audio/mp4"],
    "audio/ogg": ["application/ogg", "video/ogg"],
    "text/csv": ["application/csv", "text/plain"],
  };
  return normalised === actual.mediaType || (aliases[actual.mediaType] ?? []).includes(normalised);
}

export function acceptedTypesText(): string {
  return "PNG, JPEG, GIF, WebP, MP3, WAV, Ogg, MP4, WebM, PDF, DOCX, XLSX, PPTX, plain text, CSV and WebVTT captions";
}
