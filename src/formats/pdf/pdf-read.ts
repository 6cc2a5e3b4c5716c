/**
 * A PDF as a draft course (import_course of a PDF): its text in reading order from pdf.js (Mozilla's
 * PDF reader, `pdfjs-dist`, the legacy build that runs without a browser; kept up by Mozilla for
 * Firefox), headings from the document's tags (H1–H6) where it is tagged, else from its bookmarks
 * (outline), else from type size; list items from their bullets or numbers (and LI tags), quotes from
 * BlockQuote tags; running headers, footers and page numbers (the same line at the top or bottom of
 * most pages) removed; pictures become PNG assets where they are drawn, with the figure's alt text when
 * the PDF is tagged (else a placeholder validate_course reports).
 *
 * Refused before reading: what the upload scan refuses (script, launch actions, embedded files, forms),
 * an encrypted or broken file, more than `pdfReadLimits.pages` pages, a file with no text (a scan).
 * The work is bounded by pages and text read; it runs on the heavy-work pool with its CPU budget.
 */
import { activePdfContent } from "../../codecs/pdf-scan.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import type { Notice } from "../../notice.ts";
import { planFromParts } from "../markdown/markdown-outline.ts";
import type { MarkdownPart } from "../markdown/markdown-blocks.ts";
import { escapeMarkdown, type OfficePlan, type OfficeReport } from "../office/office-content.ts";
import { encodePng } from "../../codecs/png-write.ts";
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
}

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

type PdfDocumentProxy = Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>;

async function open(fileName: string, bytes: Uint8Array): Promise<PdfDocumentProxy> {
  const header = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  if (!header.includes("%PDF-")) throw refused(fileName, "notPdf", "is not a PDF (no %PDF- header)");
  const active = await activePdfContent(bytes);
  if (active) throw refused(fileName, "activeContent", `holds ${active}, which a course does not take (rule: active content)`);
  const library = await pdfjs();
  try {
    return await library.getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: true, verbosity: 0, enableXfa: false, isOffscreenCanvasSupported: false, isImageDecoderSupported: false }).promise;
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

type TextPiece = { str?: string; transform?: number[]; hasEOL?: boolean; type?: string; tag?: string };

/** One page's text as lines: pieces on the same baseline joined, each line with its size and tag. */
function pageLines(items: readonly TextPiece[], page: number): Line[] {
  const lines: Line[] = [];
  const tags: string[] = [];
  let fresh = false;
  let current: Line | null = null;
  for (const item of items) {
    if (item.type === "beginMarkedContentProps" || item.type === "beginMarkedContent") {
      tags.push(item.tag ?? "");
      fresh = true;
      continue;
    }
    if (item.type === "endMarkedContent") {
      tags.pop();
      continue;
    }
    if (typeof item.str !== "string" || !item.transform) continue;
    const size = Math.round(Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) * 10) / 10;
    const y = item.transform[5] ?? 0;
    const tag = tags.findLast((name) => /^(H\d?|P|LI|LBody|Lbl|BlockQuote|Quote|TD|TH|Caption|Figure|Artifact)$/.test(name));
    if (tag === "Artifact") continue;
    if (current && Math.abs(current.y - y) <= Math.max(2, size * 0.3) && !(fresh && tag && /^H|^P$/.test(tag) && current.tag !== tag)) {
      current.text += item.str;
      current.size = Math.max(current.size, size);
      current.tag ??= tag;
    } else if (item.str.trim() || current === null || current.text.trim()) {
      if (current && current.text.trim()) lines.push(current);
      current = { text: item.str, size, y, page, tag, starts: fresh, marked: item.str === "" && item.hasEOL === false };
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

/** The alt texts of the page's Figure elements, in the order of its structure tree. */
async function figureAlts(page: PageProxy): Promise<string[]> {
  const alts: string[] = [];
  const tree = (await page.getStructTree().catch(() => null)) as { role?: string; alt?: string; children?: unknown[] } | null;
  const walk = (node: { role?: string; alt?: string; children?: unknown[] }, depth: number) => {
    if (depth > 64 || alts.length > pdfReadLimits.pictures) return;
    if (node.role === "Figure") alts.push(typeof node.alt === "string" ? node.alt.trim() : "");
    for (const child of node.children ?? []) if (child && typeof child === "object") walk(child as typeof node, depth + 1);
  };
  if (tree) walk(tree, 0);
  return alts;
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
      const line: Line = { text: "", size: 0, y: top, page: pageNumber, tag: "Figure", starts: true, marked: false, picture: { sourceId, alt: state.alts.shift() ?? "" } };
      const at = lines.findIndex((candidate) => candidate.y < top - 1);
      lines.splice(at < 0 ? lines.length : at, 0, line);
    }
  });
  return found;
}

async function readPages(document: PdfDocumentProxy, fileName: string): Promise<ReadText> {
  const library = await pdfjs();
  const pages: Line[][] = [];
  let characters = 0;
  let pictures = 0;
  let tagged = false;
  const assets: ImportedAsset[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent({ includeMarkedContent: true });
    const lines = pageLines(content.items as TextPiece[], number);
    tagged ||= lines.some((line) => line.tag !== undefined);
    characters += lines.reduce((sum, line) => sum + line.text.length, 0);
    if (characters > pdfReadLimits.characters) throw refused(fileName, "characters", `holds more than ${pdfReadLimits.characters} characters of text (limit: characters)`, "limit_exceeded");
    const operators = await page.getOperatorList();
    const alts = tagged ? await figureAlts(page) : [];
    const ids = operators.fnArray.flatMap((operator, index) => (operator === library.OPS.paintImageXObject ? [String(operators.argsArray[index]?.[0] ?? "")] : []));
    const images = await decodedImages(page, ids);
    pictures += placePictures(page, operators as { fnArray: number[]; argsArray: unknown[][] }, library.OPS, lines, number, { assets, alts, images });
    pictures += operators.fnArray.filter((operator) => operator === library.OPS.paintInlineImageXObject).length;
    pages.push(lines);
    page.cleanup();
  }
  return { pages, pictures, tagged, assets };
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

/** The lines as outline parts: headings, list blocks, quotes and paragraphs. */
function partsOf(lines: readonly Line[], levelOf: (line: Line) => number | undefined): MarkdownPart[] {
  const parts: MarkdownPart[] = [];
  let paragraph: Line[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  let quote: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) {
      const markdown = escapeMarkdown(paragraph.map((line) => line.text).join(" ").replace(/(\w)- (\w)/g, "$1$2"));
      parts.push({ kind: "block", line: paragraph[0]?.page ?? 1, source: markdown, paragraph: true, block: { type: "text", markdown } });
    }
    if (list && list.items.length > 0) {
      const source = list.items.map((item, index) => `${list?.ordered ? `${index + 1}.` : "-"} ${escapeMarkdown(item)}`).join("\n");
      parts.push({ kind: "block", line: 1, source, paragraph: false, block: { type: "text", markdown: source }, listItems: list.items });
    }
    if (quote.length > 0) parts.push({ kind: "block", line: 1, source: quote.join(" "), paragraph: false, block: { type: "quote", text: escapeMarkdown(quote.join(" ")) } });
    paragraph = [];
    list = null;
    quote = [];
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
    const level = levelOf(line);
    const item = bullet.exec(line.text);
    if (level !== undefined) {
      flush();
      parts.push({ kind: "heading", level, line: line.page, source: line.text, text: line.text });
    } else if (item || line.marked || line.tag === "LI" || line.tag === "Lbl" || line.tag === "LBody") {
      if (paragraph.length > 0 || quote.length > 0) flush();
      const ordered = item ? /^\d/.test(item[2] ?? "") : false;
      list ??= { ordered, items: [] };
      if (item) list.items.push(item[3] ?? "");
      else if (list.items.length > 0 && !line.starts) list.items[list.items.length - 1] += ` ${line.text}`;
      else list.items.push(line.text);
    } else if (line.tag === "BlockQuote" || line.tag === "Quote") {
      if (paragraph.length > 0 || list) flush();
      quote.push(line.text);
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
    const read = await readPages(document, file.fileName);
    const running = runningLines(read.pages);
    const lines = read.pages.flat().filter((line) => !running.has(line));
    if (lines.filter((line) => !line.picture).reduce((sum, line) => sum + line.text.replace(/\s/g, "").length, 0) < 20) {
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
    let parts = partsOf(lines, levelOf);
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
  } finally {
    await document.destroy();
  }
}
