/**
 * What `import_course` was given, decoded and checked before anything is parsed: text or base64, the
 * size limit, and whether the bytes are what the stated format claims (a zip archive, JSON, or
 * Markdown text). The result is one document's text and what it is, whether it came as is or inside a
 * zip archive.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { documentInArchive } from "../codecs/archive.ts";
import { fromBase64 } from "../bytes.ts";
import { ownFileHint } from "../authoring/schemas/fields.ts";
import { inlineFileName, maxImportBytes } from "../formats/draft-course.ts";

export const importFormats = ["json", "markdown", "zip", "docx", "pptx", "pdf"] as const;
export type ImportFormat = (typeof importFormats)[number];

/** Decoded bytes an import may carry (the /mcp body limit is larger, so this is the binding one). */
export { maxImportBytes };

export interface ImportSource {
  readonly format?: ImportFormat | undefined;
  readonly content?: string | undefined;
  readonly contentBase64?: string | undefined;
  /** An uploaded file's bytes (import_course's assetId), already read. */
  readonly file?: { readonly fileName: string; readonly bytes: Uint8Array } | undefined;
}

/** A Word or PowerPoint file, planned by the Office reader rather than as text. */
export interface OfficeDocument {
  readonly kind: "office";
  readonly officeKind: "docx" | "pptx";
  readonly fileName: string;
  readonly bytes: Uint8Array;
}

/** A PDF, planned by the PDF reader. */
export interface PdfFile {
  readonly kind: "pdf";
  readonly fileName: string;
  readonly bytes: Uint8Array;
}

export interface ImportDocument {
  /** What the text is. */
  readonly kind: "json" | "markdown";
  readonly text: string;
  /** How it arrived: as is, or inside a zip archive (named `entry`). */
  readonly container: "none" | "zip";
  readonly entry?: string;
}

type Detected = ImportFormat | "binary";

/** How errors name a file sent inline, which has no name of its own. */

function tooLarge(field: string, bytes: number): CourseAuthoringError {
  return new CourseAuthoringError(
    "limit_exceeded",
    `${field}: the import is ${bytes} bytes; at most ${maxImportBytes} bytes (10 MB) can be imported at once. Split the course or leave large media out.`,
    { field, byteSize: bytes, limit: maxImportBytes },
  );
}

function notWhatItClaims(format: ImportFormat | undefined, detected: Detected, field: string): CourseAuthoringError {
  const actual = { pdf: "a PDF", zip: "a zip archive", json: "JSON", markdown: "plain text (Markdown)", binary: "binary data that is not a zip archive", docx: "a Word document", pptx: "a PowerPoint presentation" }[detected];
  const advice = detected === "binary" ? "send a JSON export, a Markdown outline or a zip archive holding one" : `send it with format "${detected}"`;
  const claim = format ? `format is ${format} but the content` : "the content";
  return new CourseAuthoringError("invalid_arguments", `${field}: ${claim} is ${actual}; ${advice}. Nothing was imported.`, { field, format, detected });
}

function decodeBase64(text: string): Uint8Array {
  const compact = text.replace(/\s+/g, "");
  // Length first: a huge string is refused before it is decoded.
  const decodedLength = Math.floor((compact.length * 3) / 4);
  if (decodedLength > maxImportBytes + 2) throw tooLarge("contentBase64", decodedLength);
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) {
    throw new CourseAuthoringError("invalid_arguments", "contentBase64: is not valid base64: use the standard alphabet A-Z a-z 0-9 + / with = padding, no data: prefix.", {
      field: "contentBase64",
    });
  }
  return fromBase64(compact);
}

function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
}

/** A PDF starts with `%PDF-` (some writers put a few bytes before it; readers accept it within the first kilobyte). */
function isPdf(bytes: Uint8Array): boolean {
  return new TextDecoder("latin1").decode(bytes.subarray(0, 1024)).includes("%PDF-");
}

/** UTF-8 text, or null when the bytes are not (or hold NUL characters, which no outline has). */
function textOf(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
    return text.includes("\u0000") ? null : text;
  } catch {
    return null;
  }
}

/** JSON when it opens an object (as our export does) or is an array that parses; Markdown otherwise. */
function detectText(text: string): "json" | "markdown" {
  if (/^\s*\{/.test(text)) return "json";
  if (!/^\s*\[/.test(text)) return "markdown";
  try {
    JSON.parse(text);
    return "json";
  } catch {
    return "markdown";
  }
}

/** The bytes given, as text or base64, within the size limit. */
export function importBytes(source: Omit<ImportSource, "format">): { bytes: Uint8Array; field: "content" | "contentBase64" | "assetId" } {
  const given = [source.content, source.contentBase64, source.file].filter((value) => value !== undefined).length;
  if (given !== 1) {
    throw new CourseAuthoringError("invalid_arguments", `content: give exactly one of content (text), contentBase64 (any file, required for zip) or assetId (an uploaded file; ${ownFileHint}).`, {
      field: "content",
    });
  }
  if (source.file !== undefined) {
    if (source.file.bytes.byteLength > maxImportBytes) throw tooLarge("assetId", source.file.bytes.byteLength);
    return { bytes: source.file.bytes, field: "assetId" };
  }
  const field = source.content !== undefined ? "content" : "contentBase64";
  const bytes = source.content !== undefined ? new TextEncoder().encode(source.content) : decodeBase64(source.contentBase64 as string);
  if (bytes.byteLength > maxImportBytes) throw tooLarge(field, bytes.byteLength);
  return { bytes, field };
}

/** Office files are zips the media sniffer names; `officeKindOf` comes from the caller, keeping this layer free of the Office reader. */
export async function readImportSource(
  source: ImportSource & { format?: ImportFormat | undefined },
  officeKindOf: (file: { fileName: string; bytes: Uint8Array }) => Promise<"docx" | "pptx" | null>,
): Promise<ImportDocument | OfficeDocument | PdfFile> {
  const { bytes, field } = importBytes(source);
  if (isPdf(bytes)) {
    if (source.format !== undefined && source.format !== "pdf") throw notWhatItClaims(source.format, "pdf", field);
    return { kind: "pdf", fileName: source.file?.fileName ?? inlineFileName, bytes };
  }
  if (source.format === "pdf") throw new CourseAuthoringError("invalid_arguments", `${field}: format is pdf but the content does not start with %PDF-; nothing was imported.`, { field, format: "pdf" });
  if (!isZip(bytes)) {
    const text = textOf(bytes);
    if (text === null) throw notWhatItClaims(source.format, "binary", field);
    const kind = detectText(text);
    if (source.format !== undefined && source.format !== kind) throw notWhatItClaims(source.format, kind, field);
    return { kind, text, container: "none" };
  }
  const fileName = source.file?.fileName ?? inlineFileName;
  const officeKind = await officeKindOf({ fileName, bytes });
  if (officeKind !== null) {
    if (source.format !== undefined && source.format !== officeKind) throw notWhatItClaims(source.format, officeKind, field);
    return { kind: "office", officeKind, fileName, bytes };
  }
  if (source.format === "docx" || source.format === "pptx") {
    throw new CourseAuthoringError("invalid_arguments", `${fileName}: format is ${source.format} but the content is not a Word or PowerPoint file (its [Content_Types].xml names no main document); nothing was imported.`, { field, format: source.format });
  }
  if (source.format !== undefined && source.format !== "zip") throw notWhatItClaims(source.format, "zip", field);

  const inner = await documentInArchive(bytes);
  const innerText = textOf(inner.bytes);
  if (innerText === null || detectText(innerText) !== inner.kind) {
    const claimed = inner.kind === "json" ? "a JSON export" : "a Markdown outline";
    throw new CourseAuthoringError("invalid_arguments", `content: "${inner.name}" in the archive is named like ${claimed} but is not one; nothing was imported.`, {
      field,
      entry: inner.name,
    });
  }
  return { kind: inner.kind, text: innerText, container: "zip", entry: inner.name };
}
