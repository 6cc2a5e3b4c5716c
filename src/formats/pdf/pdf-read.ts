/**
 * A PDF as a draft course (import_course of a PDF): its text in reading order from pdf.js (Mozilla's
 * PDF reader, `pdfjs-dist`, the legacy build that runs without a browser; kept up by Mozilla for
 * Firefox), headings from the document's tags (H1–H6) where it is tagged, else from its bookmarks
 * (outline), else from type size. Where the PDF is tagged, its structure tree (role-mapped names read
 * through /RoleMap) places each piece of text: table cells become a Markdown table (the block the Word
 * import writes for a table; a table the page break split comes back as one), BlockQuote/Quote elements
 * quote blocks, LI elements list items. Untagged, list items come from their bullets or numbers, and
 * tables from lines whose columns line up; quotes are read as paragraphs. Running headers, footers and
 * page numbers (the same line at the top or bottom of most pages) are removed; pictures become PNG assets
 * where they are drawn, with the Figure's alt text when the PDF is tagged (also LibreOffice's Figures,
 * which carry the alt text but not the picture), else a placeholder validate_course reports.
 *
 * Refused before pdf.js reads anything (`codecs/pdf-structure.ts`, `codecs/pdf-scan.ts`): an encrypted
 * file, a cross-reference table whose objects are not where it says, more than a million objects,
 * streams that decode past their caps (a decompression bomb), and what the upload scan refuses (script,
 * launch actions, embedded files, forms that send or load data). Refused while reading: more than
 * `pdfReadLimits.pages` pages, nesting deeper than pdf.js can follow, fonts that map their glyphs to no
 * characters or to private-use and control characters, a file with no text (a scan). The work is bounded
 * by pages, structure elements, pictures and their pixels, and text read; it runs on the heavy-work pool
 * with its CPU budget, off the event loop.
 */
import { activePdfContent } from "../../codecs/pdf-scan.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import type { Notice } from "../../notice.ts";
import { planFromParts } from "../markdown/markdown-outline.ts";
import type { MarkdownPart } from "../markdown/markdown-blocks.ts";
import { escapeMarkdown, markdownTable, type OfficePlan, type OfficeReport } from "../office/office-content.ts";
import { encodePng } from "../../codecs/png-write.ts";
import { pdfStreamLimits, pdfStreamProblem, type PdfStreamProblem } from "../../codecs/pdf-structure.ts";
import { inflateHead } from "../../codecs/inflate.ts";
import { unhandled } from "../../exhaustive.ts";
import type { ImportedAsset } from "../draft-course.ts";

export const pdfReadLimits = {
  /** Pages read; a longer document is refused (a manual of 2,000 pages is read). */
  pages: 2_000,
  /** Characters of text kept from the whole document. */
  characters: 4 * 1024 * 1024,
  /** Outline entries walked (bookmarks), and how deep. */
  outlineEntries: 5_000,
  outlineDepth: 8,
  /** Pictures taken as assets, and the pixels one may have (a 5,000 × 5,000 photo). */
  pictures: 200,
  picturePixels: 25_000_000,
  /** Structure elements walked per page, and how deep. */
  structureElements: 100_000,
  structureDepth: 64,
} as const;

interface Line {
  text: string;
  size: number;
  y: number;
  page: number;
  /** The structure tag the line's text was marked with (H1, P, LI, BlockQuote…), when tagged. */
  tag: string | undefined;
  /** A new marked paragraph started on this line. */
  starts: boolean;
  /** The line opens with a glyph that maps to no text (a list bullet drawn from a symbol font). */
  marked: boolean;
  /** A picture placed here, as an asset, with the figure's alt text when the PDF is tagged. */
  picture?: { sourceId: string; alt: string };
  /** Where the line's text stands in the structure tree (a table cell, a quote, a list item), when tagged. */
  place?: Place | undefined;
  /** The line's runs of text with wide gaps between them (columns, when the lines below align with them), by their left edge. */
  segments: { x: number; end: number; text: string }[];
}

/**
 * Where a piece of marked content stands in the document's structure tree: its standard role (role-mapped
 * names such as LibreOffice's "Standard" read as their /RoleMap says), and the table, row, cell, quote or
 * list item holding it. Ids are numbers given as the tree is walked, unique over the whole document.
 */
interface Place {
  tag: string;
  table?: { id: number; row: number; column: number; header: boolean };
  quote?: number;
  item?: number;
  /** How deep the list item is: 0 in a list, 1 in a list inside an item of another. */
  depth?: number;
  /** The paragraph (P, H…) inside a table cell: a cell's paragraphs are kept apart, as the Word import keeps them. */
  paragraph?: number;
}

/** The standard roles read from the structure tree (ISO 32000 §14.8.4). */
const blockRoles = /^(H[1-6]?|P|LI|LBody|Lbl|BlockQuote|Quote|TD|TH|Caption|Figure)$/;

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let loaded: Promise<PdfJs> | null = null;

/** pdf.js with its worker code run in this thread (already a heavy-work thread), imported statically so the binary carries it. */
async function pdfjs(): Promise<PdfJs> {
  loaded ??= (async () => {
    const worker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import("pdfjs-dist/legacy/build/pdf.mjs");
  })();
  return loaded;
}

function refused(fileName: string, rule: string, why: string, code: "invalid_arguments" | "limit_exceeded" = "invalid_arguments"): CourseAuthoringError {
  return new CourseAuthoringError(code, `${fileName}: ${why}; nothing was imported.`, { field: "assetId", file: fileName, rule });
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The refusal for a rule the file's streams or objects break, measured before pdf.js reads them. */
function streamRefusal(fileName: string, problem: PdfStreamProblem): CourseAuthoringError {
  switch (problem.rule) {
    case "encrypted":
      return refused(fileName, "encrypted", "is encrypted (rule: encrypted): its text cannot be checked or read as it is. Save or print it again without encryption or password, and upload that");
    case "objects":
      return refused(fileName, "objects", `defines more than ${problem.limit.toLocaleString("en")} objects (limit: objects)`, "limit_exceeded");
    case "decompressedBytes":
      return refused(
        fileName,
        "decompressedBytes",
        problem.scope === "stream"
          ? `holds a stream (object ${problem.object}) that decompresses to more than ${megabytes(problem.limit)} (limit: decompressed bytes), as a decompression bomb does`
          : `holds streams that decompress to more than ${megabytes(problem.limit)} together (limit: decompressed bytes)`,
        "limit_exceeded",
      );
    case "xref":
      return refused(fileName, "xref", `has a broken cross-reference table (rule: cross-reference table): ${problem.why}. A reader would guess at its objects; repair it first (open and save it again, or qpdf in.pdf out.pdf) and upload that`);
    case "filters":
      return refused(fileName, "filters", `holds a stream (object ${problem.object}) encoded with ${problem.filters}, which cannot be measured before it is read (rule: filters)`);
    default:
      return unhandled(problem, "PDF stream problem");
  }
}

/** What pdf.js failed at while reading pages, as the rule it names: nesting that overflowed the reader's stack, or broken objects. */
function unreadable(fileName: string, error: unknown): CourseAuthoringError {
  if (error instanceof CourseAuthoringError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/call stack|recursion/i.test(message)) return refused(fileName, "nesting", "nests arrays or dictionaries deeper than can be read (rule: nesting)");
  return refused(fileName, "broken", `cannot be read as a PDF (${message.slice(0, 200)}): its objects are broken`);
}

type PdfDocumentProxy = Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>;

async function open(fileName: string, bytes: Uint8Array): Promise<PdfDocumentProxy> {
  const header = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  if (!header.includes("%PDF-")) throw refused(fileName, "notPdf", "is not a PDF (no %PDF- header)");
  // Measured first: an encrypted file's object streams would otherwise be reported as ones that do not inflate.
  const problem = pdfStreamProblem(bytes);
  if (problem) throw streamRefusal(fileName, problem);
  const active = await activePdfContent(bytes);
  if (active) throw refused(fileName, "activeContent", `holds ${active}, which a course does not take (rule: active content)`);
  const library = await pdfjs();
  try {
    return await library.getDocument({ data: bytes.slice(), maxImageSize: pdfReadLimits.picturePixels, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: true, verbosity: 0, enableXfa: false, isOffscreenCanvasSupported: false, isImageDecoderSupported: false }).promise;
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "PasswordException") throw refused(fileName, "encrypted", "is encrypted (password protected); remove the password and upload it again");
    throw refused(fileName, "broken", `cannot be read as a PDF (${error instanceof Error ? error.message.slice(0, 200) : "broken"}): its cross-reference table or objects are broken`);
  }
}

/** Bookmark titles by their depth (0 = top), walked breadth-bounded. */
async function outlineLevels(document: PdfDocumentProxy): Promise<Map<string, number>> {
  const levels = new Map<string, number>();
  const outline = await document.getOutline().catch(() => null);
  let seen = 0;
  const walk = (items: readonly { title: string; items: readonly unknown[] }[], depth: number) => {
    if (depth >= pdfReadLimits.outlineDepth) return;
    for (const item of items) {
      if ((seen += 1) > pdfReadLimits.outlineEntries) return;
      const key = normalised(item.title);
      if (key && !levels.has(key)) levels.set(key, depth);
      walk(item.items as { title: string; items: readonly unknown[] }[], depth + 1);
    }
  };
  walk((outline ?? []) as { title: string; items: readonly unknown[] }[], 0);
  return levels;
}

const normalised = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

type TextPiece = { str?: string; transform?: number[]; width?: number; hasEOL?: boolean; type?: string; tag?: string; id?: string | null };

/** Adds a piece of text to a line's segments: a new segment where it starts well past the end of the last one. */
function addSegment(segments: Line["segments"], text: string, x: number, width: number, size: number): void {
  const last = segments[segments.length - 1];
  if (!text.trim()) {
    if (last) last.text += text;
    return;
  }
  if (last && x - last.end <= Math.max(size * 2, 12) && x >= last.x) {
    last.text += text;
    last.end = Math.max(last.end, x + width);
  } else segments.push({ x, end: x + width, text });
}

/** The table cell, quote and list item a place is in, as one key: text of two such regions never shares a line. */
const region = (place: Place | undefined) => (place ? `${place.table ? `${place.table.id}.${place.table.row}.${place.table.column}` : ""}|${place.quote ?? ""}|${place.item ?? ""}` : "");

/** How wide the text drawn was, and how much of it came out as no characters at all (glyphs a font maps to nothing). */
interface Glyphs {
  drawn: number;
  blank: number;
}

/** Characters no text has: private use, controls (but tab and line ends), unassigned code points and U+FFFD. */
const meaningless = /[\p{Co}\p{Cn}\uFFFD]|[^\P{Cc}\t\n\r]/gu;
/** The meaningless characters of a line, a bullet from a symbol font (private use) at its start aside. */
const meaninglessIn = (text: string) => (text.replace(/^[\uE000-\uF8FF]\s*/, "").match(meaningless) ?? []).length;

/** One page's text as lines: pieces on the same baseline joined, each line with its size and tag. */
function pageLines(items: readonly TextPiece[], page: number, places: ReadonlyMap<string, Place> = new Map(), glyphs: Glyphs = { drawn: 0, blank: 0 }): Line[] {
  const lines: Line[] = [];
  const tags: string[] = [];
  const marked: (Place | undefined)[] = [];
  let fresh = false;
  let current: Line | null = null;
  for (const item of items) {
    if (item.type === "beginMarkedContentProps" || item.type === "beginMarkedContent") {
      tags.push(item.tag ?? "");
      marked.push(item.id ? places.get(item.id) : undefined);
      fresh = true;
      continue;
    }
    if (item.type === "endMarkedContent") {
      tags.pop();
      marked.pop();
      continue;
    }
    if (typeof item.str !== "string" || !item.transform) continue;
    if (item.str.trim()) glyphs.drawn += item.width ?? 0;
    else if (item.str === "" && !item.hasEOL) glyphs.blank += item.width ?? 0;
    const size = Math.round(Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) * 10) / 10;
    const y = item.transform[5] ?? 0;
    const x = item.transform[4] ?? 0;
    if (tags.includes("Artifact")) continue;
    const place = marked.findLast((candidate) => candidate !== undefined);
    const tag = place?.tag ?? tags.findLast((name) => blockRoles.test(name));
    // A table cell, a quote or a list item of its own starts a line even on the same baseline.
    const elsewhere = current !== null && region(current.place) !== region(place);
    if (current && !elsewhere && Math.abs(current.y - y) <= Math.max(2, size * 0.3) && !(fresh && tag && /^H|^P$/.test(tag) && current.tag !== tag)) {
      current.text += item.str;
      current.size = Math.max(current.size, size);
      current.tag ??= tag;
      addSegment(current.segments, item.str, x, item.width ?? 0, size);
    } else if (item.str.trim() || current === null || current.text.trim() || elsewhere) {
      if (current && current.text.trim()) lines.push(current);
      current = { text: item.str, size, y, page, tag, starts: fresh, marked: item.str === "" && item.hasEOL === false, place, segments: [] };
      addSegment(current.segments, item.str, x, item.width ?? 0, size);
    }
    fresh = false;
    if (item.hasEOL && current) {
      if (current.text.trim()) lines.push(current);
      current = null;
    }
  }
  if (current && current.text.trim()) lines.push(current);
  return lines.map((line) => ({ ...line, text: line.text.replace(/\s+/g, " ").trim() }));
}

/** Lines at the top or bottom of pages that repeat on most pages (digits aside), and bare page numbers there. */
function runningLines(pages: readonly Line[][]): Set<Line> {
  const edges = pages.flatMap((lines) => [lines[0], lines[1], lines[lines.length - 2], lines[lines.length - 1]].filter((line): line is Line => line !== undefined));
  const key = (line: Line) => line.text.replace(/\d+/g, "#").toLowerCase();
  const counts = new Map<string, Set<number>>();
  for (const line of edges) counts.set(key(line), (counts.get(key(line)) ?? new Set()).add(line.page));
  const running = new Set<Line>();
  for (const line of edges) {
    const pagesWith = counts.get(key(line))?.size ?? 0;
    const pageNumber = /^(page\s*)?\d+(\s*(of|\/)\s*\d+)?$/i.test(line.text) || /^[-–]\s*\d+\s*[-–]$/.test(line.text);
    if ((pages.length >= 3 && pagesWith >= Math.max(2, pages.length * 0.5)) || pageNumber) running.add(line);
  }
  return running;
}

interface ReadText {
  readonly pages: Line[][];
  readonly pictures: number;
  readonly tagged: boolean;
  readonly assets: ImportedAsset[];
  /** The numbering of tables, quotes and list items, carried on to tables found from positions. */
  readonly numbering: { next: number };
  readonly glyphs: Glyphs;
}

type PageProxy = Awaited<ReturnType<PdfDocumentProxy["getPage"]>>;
type DecodedImage = { width?: number; height?: number; kind?: number; data?: Uint8Array | Uint8ClampedArray };

/** The page's images by ID, each once pdf.js has decoded it (decoding finishes after the operator list; a failed one is null). */
async function decodedImages(page: PageProxy, ids: readonly string[]): Promise<Map<string, DecodedImage | null>> {
  const images = new Map<string, DecodedImage | null>();
  for (const id of new Set(ids).values()) {
    if (images.size >= pdfReadLimits.pictures) break;
    const objects = id.startsWith("g_") ? page.commonObjs : page.objs;
    images.set(id, await new Promise<DecodedImage | null>((resolve) => {
      // An image pdf.js never resolves (a broken stream) is given up after a while rather than holding the import.
      setTimeout(() => resolve(null), 5_000);
      try {
        (objects as unknown as { get(id: string, callback: (value: unknown) => void): void }).get(id, (value) => resolve((value ?? null) as DecodedImage | null));
      } catch {
        resolve(null);
      }
    }));
  }
  return images;
}

type StructNode = { role?: string; alt?: string; children?: unknown[]; type?: string; id?: string };

/** What a structure element hands down to the ones inside it. */
interface Inherited {
  tag?: string;
  table?: { id: number; rows: { count: number } };
  row?: { index: number; columns: { count: number } };
  cell?: Place["table"];
  quote?: number;
  item?: number;
  lists?: number;
  paragraph?: number;
}

/** Roles that hold for everything inside them: a paragraph in a table cell is the cell's text, one in a quote the quote's. */
const holdingRoles = /^(TD|TH|BlockQuote|Quote|H[1-6]?|LI)$/;

/**
 * The page's structure tree (pdf.js reads /RoleMap, so role-mapped names come back standard): the alt
 * texts of its Figure elements in the tree's order, and where each piece of marked content stands.
 * Walked to a bounded depth and number of elements.
 */
async function structureOf(page: PageProxy, ids: { next: number }): Promise<{ alts: string[]; places: Map<string, Place> }> {
  const alts: string[] = [];
  const places = new Map<string, Place>();
  const tree = (await page.getStructTree().catch(() => null)) as StructNode | null;
  let visited = 0;
  const walk = (node: StructNode, from: Inherited, depth: number) => {
    if (depth > pdfReadLimits.structureDepth || (visited += 1) > pdfReadLimits.structureElements) return;
    if (node.type === "content" && typeof node.id === "string") {
      if (from.tag) places.set(node.id, { tag: from.tag, ...(from.cell ? { table: from.cell, ...(from.paragraph !== undefined ? { paragraph: from.paragraph } : {}) } : {}), ...(from.quote !== undefined ? { quote: from.quote } : {}), ...(from.item !== undefined ? { item: from.item, depth: Math.max(0, (from.lists ?? 1) - 1) } : {}) });
      return;
    }
    const role = node.role ?? "";
    const inside: Inherited = { ...from };
    if (role === "Figure" && alts.length < pdfReadLimits.pictures) alts.push(typeof node.alt === "string" ? node.alt.trim() : "");
    if (role === "Table") {
      inside.table = { id: (ids.next += 1), rows: { count: 0 } };
      delete inside.row;
      delete inside.cell;
    } else if (role === "TR" && inside.table) {
      inside.row = { index: inside.table.rows.count++, columns: { count: 0 } };
    } else if ((role === "TD" || role === "TH") && inside.table && inside.row) {
      inside.cell = { id: inside.table.id, row: inside.row.index, column: inside.row.columns.count++, header: role === "TH" };
    } else if (role === "BlockQuote" || role === "Quote") {
      inside.quote = ids.next += 1;
    } else if (role === "LI") {
      inside.item = ids.next += 1;
    } else if (role === "L") {
      inside.lists = (from.lists ?? 0) + 1;
    } else if (inside.cell && /^(P|H[1-6]?|LI)$/.test(role)) {
      inside.paragraph = ids.next += 1;
    }
    if (blockRoles.test(role) && !(from.tag && holdingRoles.test(from.tag))) inside.tag = role;
    for (const child of node.children ?? []) if (child && typeof child === "object") walk(child as StructNode, inside, depth + 1);
  };
  if (tree) walk(tree, {}, 0);
  return { alts, places };
}

/** A PDF string's bytes as text: UTF-16BE or UTF-8 with their byte-order marks, else PDFDocEncoding (read as Latin-1). */
function pdfText(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder("utf-8").decode(bytes.subarray(3));
  return new TextDecoder("latin1").decode(bytes);
}

/** The string value that opens `source` (a hex `<…>` or a literal `(…)` string), as text. */
function pdfString(source: string): string | undefined {
  if (source.startsWith("<")) {
    const hex = /^<([0-9a-fA-F\s]*)>/.exec(source)?.[1]?.replace(/\s/g, "");
    return hex === undefined ? undefined : pdfText(Uint8Array.from(hex.padEnd(hex.length + (hex.length % 2), "0").match(/../g) ?? [], (pair) => Number.parseInt(pair, 16)));
  }
  if (!source.startsWith("(")) return undefined;
  const bytes: number[] = [];
  let depth = 0;
  for (let at = 0; at < source.length; at += 1) {
    const char = source[at] as string;
    if (char === "\\") {
      const next = source[(at += 1)] ?? "";
      const octal = /^[0-7]{1,3}/.exec(source.slice(at, at + 3))?.[0];
      if (octal) {
        bytes.push(Number.parseInt(octal, 8) & 0xff);
        at += octal.length - 1;
      } else if (next !== "\n" && next !== "\r") bytes.push(({ n: 10, r: 13, t: 9, b: 8, f: 12 } as Record<string, number>)[next] ?? next.charCodeAt(0));
      continue;
    }
    if (char === "(" && (depth += 1) === 1) continue;
    if (char === ")" && (depth -= 1) === 0) break;
    bytes.push(char.charCodeAt(0) & 0xff);
  }
  return pdfText(Uint8Array.from(bytes));
}

/**
 * Figure elements with alt text but no content, by the page they name (/Pg): LibreOffice writes a
 * picture's Figure with its /Alt yet draws the picture itself as an artefact, so the page's structure
 * tree never reaches the Figure. Read from the file's own objects (outside object streams), bounded.
 */
async function emptyFigures(bytes: Uint8Array, document: PdfDocumentProxy): Promise<Map<number, string[]>> {
  const byPage = new Map<number, string[]>();
  const text = new TextDecoder("latin1").decode(bytes);
  const bodies: string[] = [];
  const figure = /\/S\s*\/Figure\b/g;
  for (let match = figure.exec(text); match !== null && bodies.length < pdfReadLimits.pictures * 4; match = figure.exec(text)) {
    const start = text.lastIndexOf("obj", match.index);
    const end = text.indexOf("endobj", match.index);
    if (start >= 0 && end >= 0 && match.index - start <= 4096 && end - match.index <= 4096) bodies.push(text.slice(start, end));
  }
  bodies.push(...objectStreamFigures(bytes, text));
  let found = 0;
  for (const body of bodies) {
    if (found >= pdfReadLimits.pictures || /\/K\b/.test(body)) continue;
    const altAt = /\/Alt\s*/.exec(body);
    const page = /\/Pg\s+(\d+)\s+(\d+)\s+R/.exec(body);
    const alt = altAt ? pdfString(body.slice(altAt.index + altAt[0].length))?.trim() : undefined;
    if (!alt || !page) continue;
    const index = await document.getPageIndex({ num: Number(page[1]), gen: Number(page[2]) }).catch(() => -1);
    if (index < 0) continue;
    found += 1;
    byPage.set(index + 1, [...(byPage.get(index + 1) ?? []), alt]);
  }
  return byPage;
}

/** The Figure elements kept in compressed object streams (a file re-saved with object streams), each object's text, inflated within a small budget. */
function objectStreamFigures(bytes: Uint8Array, text: string): string[] {
  const bodies: string[] = [];
  let budget = 32 * 1024 * 1024;
  for (const match of text.matchAll(/\/Type\s*\/ObjStm\b/g)) {
    const keyword = text.indexOf("stream", match.index);
    const dictionary = text.slice(Math.max(0, text.lastIndexOf("obj", match.index)), keyword);
    if (keyword < 0 || budget <= 0 || !/\/Filter\s*\/FlateDecode\b/.test(dictionary)) continue;
    const dataStart = text[keyword + 6] === "\r" ? keyword + 8 : keyword + 7;
    const end = text.indexOf("endstream", dataStart);
    const outcome = inflateHead(bytes.subarray(dataStart, end < 0 ? bytes.length : end), "zlib", budget);
    if (outcome.kind === "damaged") continue;
    budget -= outcome.bytes.length;
    const decoded = new TextDecoder("latin1").decode(outcome.bytes);
    if (!/\/S\s*\/Figure\b/.test(decoded)) continue;
    const first = Number(/\/First\s+(\d+)/.exec(dictionary)?.[1] ?? Number.NaN);
    const count = Math.min(Number(/\/N\s+(\d+)/.exec(dictionary)?.[1] ?? 0), pdfStreamLimits.objects);
    if (!Number.isFinite(first)) continue;
    const offsets = (decoded.slice(0, first).match(/\d+/g) ?? []).slice(0, count * 2).filter((_, index) => index % 2 === 1).map(Number);
    offsets.forEach((offset, index) => {
      const body = decoded.slice(first + offset, index + 1 < offsets.length ? first + (offsets[index + 1] as number) : decoded.length);
      if (/\/S\s*\/Figure\b/.test(body)) bodies.push(body);
    });
  }
  return bodies;
}

function imageAsPng(image: DecodedImage | null): Uint8Array | null {
  const { width = 0, height = 0, kind, data } = image ?? {};
  if (!data || width <= 0 || height <= 0 || width * height > pdfReadLimits.picturePixels) return null;
  const channels = kind === 2 ? 3 : kind === 3 ? 4 : null;
  if (channels === null || data.length < width * height * channels) return null;
  return encodePng(width, height, channels, new Uint8Array(data.buffer, data.byteOffset, width * height * channels));
}

/**
 * The page's pictures where they are drawn: the operator list is walked with its transformation matrix
 * (save, restore, transform) so each picture lands among the lines by its top edge.
 */
function placePictures(page: PageProxy, operators: { fnArray: number[]; argsArray: unknown[][] }, ops: PdfJs["OPS"], lines: Line[], pageNumber: number, state: { assets: ImportedAsset[]; alts: string[]; images: ReadonlyMap<string, DecodedImage | null> }): number {
  let matrix = [1, 0, 0, 1, 0, 0];
  const stack: number[][] = [];
  let found = 0;
  operators.fnArray.forEach((operator, index) => {
    const args = operators.argsArray[index] ?? [];
    if (operator === ops.save) stack.push(matrix);
    else if (operator === ops.restore) matrix = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (operator === ops.transform) {
      const [a, b, c, d, e, f] = args as number[];
      const [m0, m1, m2, m3, m4, m5] = matrix as [number, number, number, number, number, number];
      matrix = [(a ?? 1) * m0 + (b ?? 0) * m2, (a ?? 1) * m1 + (b ?? 0) * m3, (c ?? 0) * m0 + (d ?? 1) * m2, (c ?? 0) * m1 + (d ?? 1) * m3, (e ?? 0) * m0 + (f ?? 0) * m2 + m4, (e ?? 0) * m1 + (f ?? 0) * m3 + m5];
    } else if (operator === ops.paintImageXObject) {
      found += 1;
      if (state.assets.length >= pdfReadLimits.pictures) return;
      const id = String(args[0] ?? "");
      const image = state.images.get(id) ?? null;
      const png = imageAsPng(image);
      if (!png) return;
      const sourceId = `ast_pdfpicture${state.assets.length + 1}`;
      state.assets.push({ sourceId, fileName: `page-${pageNumber}-picture-${found}.png`, mediaType: "image/png", bytes: png });
      const top = Math.max(matrix[5] ?? 0, (matrix[5] ?? 0) + (matrix[3] ?? 0));
      const line: Line = { text: "", size: 0, y: top, page: pageNumber, tag: "Figure", starts: true, marked: false, segments: [], picture: { sourceId, alt: state.alts.shift() ?? "" } };
      const at = lines.findIndex((candidate) => candidate.y < top - 1);
      lines.splice(at < 0 ? lines.length : at, 0, line);
    }
  });
  return found;
}

async function readPages(document: PdfDocumentProxy, fileName: string, bytes: Uint8Array): Promise<ReadText> {
  const library = await pdfjs();
  const numbering = { next: 0 };
  const glyphs: Glyphs = { drawn: 0, blank: 0 };
  const unplaced = await emptyFigures(bytes, document);
  const pages: Line[][] = [];
  let characters = 0;
  let pictures = 0;
  let tagged = false;
  const assets: ImportedAsset[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent({ includeMarkedContent: true });
    const structure = await structureOf(page, numbering);
    const lines = pageLines(content.items as TextPiece[], number, structure.places, glyphs);
    tagged ||= lines.some((line) => line.tag !== undefined);
    characters += lines.reduce((sum, line) => sum + line.text.length, 0);
    if (characters > pdfReadLimits.characters) throw refused(fileName, "characters", `holds more than ${pdfReadLimits.characters} characters of text (limit: characters)`, "limit_exceeded");
    const operators = await page.getOperatorList();
    const alts = tagged ? [...structure.alts, ...(unplaced.get(number) ?? [])] : [];
    const ids = operators.fnArray.flatMap((operator, index) => (operator === library.OPS.paintImageXObject ? [String(operators.argsArray[index]?.[0] ?? "")] : []));
    const images = await decodedImages(page, ids);
    pictures += placePictures(page, operators as { fnArray: number[]; argsArray: unknown[][] }, library.OPS, lines, number, { assets, alts, images });
    pictures += operators.fnArray.filter((operator) => operator === library.OPS.paintInlineImageXObject).length;
    pages.push(lines);
    page.cleanup();
  }
  return { pages, pictures, tagged, assets, numbering, glyphs };
}

/** Heading levels by type size when the document has neither tags nor bookmarks: sizes well above the body's, largest first. */
function sizeLevels(lines: readonly Line[]): Map<number, number> {
  const bySize = new Map<number, number>();
  for (const line of lines) bySize.set(line.size, (bySize.get(line.size) ?? 0) + line.text.length);
  const body = [...bySize.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const larger = [...bySize.keys()].filter((size) => size >= body * 1.15).sort((a, b) => b - a).slice(0, 4);
  return new Map(larger.map((size, index) => [size, index]));
}

/** A list item's opening: a bullet (also one from a symbol font, in Unicode's private use area), a number or a letter. */
const bullet = /^(?:([•◦▪▫■□●○‣⁃∙·*–\-\uE000-\uF8FF])\s*|(\d{1,3}[.)]|[a-z][.)])\s+)(\S.*)$/;

/**
 * Tables in text without tags, from the text's positions: two or more consecutive lines of a page, close
 * together, each in two or more segments (runs of text with wide gaps between them) whose left (or right)
 * edges line up column by column with the first line's. Each such line becomes a row, its segments the cells. Prose in two columns is not
 * taken for a table: cells must be short (a table's cells average well under a line of prose).
 */
function alignedTables(lines: readonly Line[], numbering: { next: number }): { lines: Line[]; tables: number } {
  const out: Line[] = [];
  let tables = 0;
  const columnsOf = (line: Line) => (line.place || line.picture || line.segments.length < 2 ? null : line.segments);
  // A column lines up by its left edges or, for figures set flush right, by its right edges.
  const aligned = (a: Line["segments"], b: Line["segments"]) =>
    a.length === b.length && a.every((cell, index) => Math.abs(cell.x - (b[index]?.x ?? Number.NaN)) <= 3 || Math.abs(cell.end - (b[index]?.end ?? Number.NaN)) <= 3);
  for (let index = 0; index < lines.length; ) {
    const first = lines[index] as Line;
    const columns = columnsOf(first);
    let end = index + 1;
    if (columns) {
      while (end < lines.length) {
        const next = lines[end] as Line;
        const above = lines[end - 1] as Line;
        const nextColumns = columnsOf(next);
        if (!nextColumns || next.page !== first.page || !aligned(columns, nextColumns) || above.y - next.y > next.size * 3) break;
        end += 1;
      }
    }
    const rows = lines.slice(index, end);
    const cells = rows.flatMap((row) => row.segments);
    if (!columns || rows.length < 2 || cells.reduce((sum, cell) => sum + cell.text.trim().length, 0) / cells.length > 50) {
      out.push(first);
      index += 1;
      continue;
    }
    const id = (numbering.next += 1);
    tables += 1;
    rows.forEach((row, rowIndex) =>
      row.segments.forEach((segment, column) => out.push({ ...row, text: segment.text.replace(/\s+/g, " ").trim(), segments: [segment], place: { tag: "TD", table: { id, row: rowIndex, column, header: false } } })),
    );
    index = end;
  }
  return { lines: out, tables };
}

/** A table's rows of cells from its lines, by the row and column each line's structure place gives. */
function tableRows(lines: readonly Line[]): string[][] {
  const rows: Line[][][] = [];
  for (const line of lines) {
    const cell = line.place?.table;
    if (!cell) continue;
    const row = (rows[cell.row] ??= []);
    (row[cell.column] ??= []).push(line);
  }
  // Lines of one paragraph join with a space, paragraphs of one cell with a line break (<br>, as the Word import writes them).
  const cellText = (cell: readonly Line[]) =>
    cell.reduce((text, line, index) => text + (index === 0 ? "" : line.place?.paragraph !== cell[index - 1]?.place?.paragraph ? "<br>" : " ") + escapeMarkdown(line.text), "").replace(/(\w)- (\w)/g, "$1$2");
  return rows.filter((row) => row !== undefined).map((row) => Array.from(row, (cell) => cellText(cell ?? [])));
}

/** The lines as outline parts: headings, list blocks, tables, quotes and paragraphs. */
function partsOf(lines: readonly Line[], levelOf: (line: Line) => number | undefined, found: { tables: number; quotes: number }): MarkdownPart[] {
  const parts: MarkdownPart[] = [];
  let paragraph: Line[] = [];
  let list: { items: { text: string; ordered: boolean; depth: number | undefined; x: number }[] } | null = null;
  let quote: Line[] = [];
  let table: Line[] = [];
  /** The last table written: a table the page break split continues it (a repeated header row left out). */
  let lastTable: { part: number; rows: string[][]; page: number } | null = null;
  const flush = () => {
    if (paragraph.length > 0) {
      const markdown = escapeMarkdown(paragraph.map((line) => line.text).join(" ").replace(/(\w)- (\w)/g, "$1$2"));
      parts.push({ kind: "block", line: paragraph[0]?.page ?? 1, source: markdown, paragraph: true, block: { type: "text", markdown } });
    }
    if (list && list.items.length > 0) {
      // Depth from the tags (lists inside list items), else from how far each item is indented.
      const indents = [...new Set(list.items.map((item) => Math.round(item.x)))].sort((a, b) => a - b).filter((x, index, all) => index === 0 || x - (all[index - 1] as number) > 3);
      const depthOf = (item: { depth: number | undefined; x: number }) => Math.min(8, item.depth ?? Math.max(0, indents.findLastIndex((x) => item.x >= x - 3)));
      const counters: number[] = [];
      const source = list.items
        .map((item) => {
          const depth = depthOf(item);
          counters.length = depth + 1;
          counters[depth] = (counters[depth] ?? 0) + 1;
          return `${"   ".repeat(depth)}${item.ordered ? `${counters[depth]}.` : "-"} ${escapeMarkdown(item.text)}`;
        })
        .join("\n");
      parts.push({ kind: "block", line: 1, source, paragraph: false, block: { type: "text", markdown: source }, listItems: list.items.filter((item) => depthOf(item) === 0).map((item) => item.text) });
    }
    if (quote.length > 0) {
      // Lines of one quote element join into a paragraph; separate quote elements become paragraphs of one quote, as Word's quote paragraphs do.
      const text = quote.reduce((joined, line, index) => joined + (index === 0 ? "" : line.place?.quote !== quote[index - 1]?.place?.quote ? "\n\n" : " ") + escapeMarkdown(line.text), "");
      parts.push({ kind: "block", line: quote[0]?.page ?? 1, source: text, paragraph: false, block: { type: "quote", text } });
      found.quotes += 1;
    }
    if (table.length > 0) {
      let rows = tableRows(table);
      const first = table[0] as Line;
      const width = (cells: readonly string[][]) => Math.max(0, ...cells.map((row) => row.length));
      if (lastTable && lastTable.part === parts.length - 1 && first.page === lastTable.page + 1 && width(rows) === width(lastTable.rows)) {
        if (rows[0]?.join("|") === lastTable.rows[0]?.join("|")) rows = rows.slice(1);
        rows = [...lastTable.rows, ...rows];
        parts.pop();
      } else found.tables += 1;
      const markdown = markdownTable(rows);
      parts.push({ kind: "block", line: first.page, source: markdown, paragraph: false, block: { type: "text", markdown } });
      lastTable = { part: parts.length - 1, rows, page: table[table.length - 1]?.page ?? first.page };
    }
    paragraph = [];
    list = null;
    quote = [];
    table = [];
  };
  let previous: Line | undefined;
  for (const line of lines) {
    if (line.picture) {
      flush();
      const number = Number(line.picture.sourceId.replace(/\D/g, ""));
      // "Picture N" is the placeholder validate_course reports, so a person writes the alt text the PDF did not give.
      const alt = line.picture.alt || `Picture ${number}`;
      parts.push({ kind: "block", line: line.page, source: alt, paragraph: false, block: { type: "image", assetId: line.picture.sourceId, alt } });
      previous = undefined;
      continue;
    }
    if (line.place?.table) {
      if (table.length > 0 && table[0]?.place?.table?.id !== line.place.table.id) flush();
      if (table.length === 0) flush();
      table.push(line);
      previous = line;
      continue;
    }
    if (table.length > 0) flush();
    const level = levelOf(line);
    const item = bullet.exec(line.text);
    if (level !== undefined) {
      flush();
      parts.push({ kind: "heading", level, line: line.page, source: line.text, text: line.text });
    } else if (line.tag === "BlockQuote" || line.tag === "Quote") {
      if (paragraph.length > 0 || list) flush();
      quote.push(line);
    } else if (item || line.marked || line.tag === "LI" || line.tag === "Lbl" || line.tag === "LBody") {
      if (paragraph.length > 0 || quote.length > 0) flush();
      const ordered = item ? /^\d/.test(item[2] ?? "") : false;
      list ??= { items: [] };
      const entry = { ordered, depth: line.place?.depth, x: line.segments[0]?.x ?? 0 };
      const last = list.items[list.items.length - 1];
      // A tagged list item (LI) is one item however many lines it takes; untagged, a line without a bullet continues the item above.
      const sameItem = line.place?.item !== undefined ? previous?.place?.item === line.place.item : !line.starts;
      if (item && !(sameItem && line.place?.item !== undefined)) list.items.push({ ...entry, text: item[3] ?? "" });
      else if (last && sameItem) last.text += ` ${line.text}`;
      else list.items.push({ ...entry, text: line.text });
    } else {
      const gap = previous && previous.page === line.page ? previous.y - line.y : 0;
      const newParagraph = line.starts || list !== null || quote.length > 0 || (previous !== undefined && (previous.size !== line.size || gap > line.size * 1.9 || previous.page !== line.page && /[.!?:]$/.test(previous.text)));
      if (newParagraph) flush();
      paragraph.push(line);
    }
    previous = line;
  }
  flush();
  return parts;
}

export async function planFromPdf(file: { fileName: string; bytes: Uint8Array }, title: string | undefined, fallbackTitle: string): Promise<OfficePlan> {
  const document = await open(file.fileName, file.bytes);
  try {
    if (document.numPages > pdfReadLimits.pages) {
      throw refused(file.fileName, "pages", `has ${document.numPages} pages; at most ${pdfReadLimits.pages} are imported at once (limit: pages). Split it`, "limit_exceeded");
    }
    const outline = await outlineLevels(document);
    const read = await readPages(document, file.fileName, file.bytes).catch((error: unknown) => {
      throw unreadable(file.fileName, error);
    });
    const running = runningLines(read.pages);
    const positioned = alignedTables(read.pages.flat().filter((line) => !running.has(line)), read.numbering);
    const lines = positioned.lines;
    const textLines = lines.filter((line) => !line.picture);
    const characters = textLines.reduce((sum, line) => sum + line.text.replace(/\s/g, "").length, 0);
    const nonsense = textLines.reduce((sum, line) => sum + meaninglessIn(line.text), 0);
    // Fonts that lie about their glyphs: text drawn that comes out as nothing, or as private-use and control characters.
    if (read.glyphs.blank > 200 && read.glyphs.blank > read.glyphs.drawn) {
      throw refused(file.fileName, "fontMappings", "draws its text with fonts that map their glyphs to no characters (rule: font text mappings), so its text cannot be read out. Export it again with fonts that carry Unicode mappings, or paste its text");
    }
    if (characters >= 20 && nonsense > characters * 0.05) {
      throw refused(file.fileName, "fontMappings", `has fonts that map their glyphs to characters no text has (rule: font text mappings): ${nonsense} of its ${characters} characters are private-use or control characters, so it would import as nonsense. Export it again with fonts that carry Unicode mappings, or paste its text`);
    }
    if (characters < 20) {
      throw refused(file.fileName, "noText", "has no text to import: it looks like a scanned document (pictures of pages). Run it through text recognition (OCR) first, or paste its text");
    }
    const headingTags = read.tagged && lines.some((line) => /^H\d?$/.test(line.tag ?? ""));
    const sizes = sizeLevels(lines);
    const levelOf = (line: Line): number | undefined => {
      if (line.text.length > 200) return undefined;
      if (headingTags) return /^H(\d)$/.test(line.tag ?? "") ? Number(line.tag?.slice(1)) : line.tag === "H" ? 1 : undefined;
      if (outline.size > 0) return outline.get(normalised(line.text)) !== undefined ? (outline.get(normalised(line.text)) ?? 0) + 1 : undefined;
      const level = sizes.get(line.size);
      return level === undefined ? undefined : level + 1;
    };
    const report: OfficeReport = { keptAsText: [], dropped: [] };
    const notices: Notice[] = [];
    const say = (notice: Notice) => notices.push(notice);
    if (running.size > 0) report.dropped.push({ what: `${running.size} running header, footer and page-number line(s)`, why: "they repeat on every page and are not course content" });
    if (read.pictures > read.assets.length) report.dropped.push({ what: `${read.pictures - read.assets.length} picture(s)`, why: `they could not be taken out (an inline or 1-bit image, larger than ${pdfReadLimits.picturePixels} pixels, or past ${pdfReadLimits.pictures} pictures)` });
    report.keptAsText.push(headingTags ? "headings from the PDF's tags" : outline.size > 0 ? "headings from the PDF's bookmarks" : "headings from type size (the PDF has no tags or bookmarks)");
    for (const entry of report.dropped) say({ level: "warning", text: `${entry.what}: ${entry.why}` });
    const found = { tables: 0, quotes: 0 };
    let parts = partsOf(lines, levelOf, found);
    const tagged = found.tables - positioned.tables;
    if (tagged > 0) report.keptAsText.push(`${tagged} table(s) from the PDF's tags, as Markdown tables (a cell spanning columns or rows is not spanned)`);
    if (positioned.tables > 0) report.keptAsText.push(`${positioned.tables} table(s) found from text aligned in columns (the PDF has no tags for them), as Markdown tables: check them, since a cell whose text wraps onto a second line becomes a row of its own`);
    if (!read.tagged) report.keptAsText.push("text without tags: tables are found only where their columns line up, and quotes are read as paragraphs");
    if (found.quotes > 0) report.keptAsText.push(`${found.quotes} quote(s) from the PDF's tags (BlockQuote) as quote blocks`);
    const headings = parts.filter((part) => part.kind === "heading");
    if (headings.length <= 1) {
      const heading = headings[0];
      const lessonTitle = (heading?.kind === "heading" ? heading.text : undefined) ?? title ?? fallbackTitle;
      parts = [{ kind: "heading", level: 0, line: 1, source: lessonTitle, text: title ?? lessonTitle }, { kind: "heading", level: 1, line: 1, source: lessonTitle, text: lessonTitle }, ...parts.filter((part) => part !== heading)];
    }
    const plan = planFromParts(parts, { title, fallbackTitle, place: (page) => `page ${page}` });
    const used = new Set(JSON.stringify(plan.outline).match(/ast_pdfpicture\d+/g) ?? []);
    if (used.size > 0) report.keptAsText.push(`${used.size} picture(s) as PNG assets${read.tagged ? " with the PDF's alt text where it had one" : ""}; check each alt text (validate_course names the missing ones)`);
    return { ...plan, assets: read.assets.filter((asset) => used.has(asset.sourceId)), notices: [...notices, ...plan.notices], report, lessonNotes: [] };
  } catch (error) {
    throw unreadable(file.fileName, error);
  } finally {
    await document.destroy();
  }
}
