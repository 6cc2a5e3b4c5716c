/**
 * A PDF as a draft course (import_course of a PDF): its text in reading order from pdf.js (Mozilla's
 * PDF reader, `pdfjs-dist`, the legacy build that runs without a browser; kept up by Mozilla for
 * Firefox), headings from the document's tags (H1–H6) where it is tagged, else from its bookmarks
 * (outline), else from type size; list items from their bullets or numbers (and LI tags), quotes from
 * BlockQuote tags; running headers, footers and page numbers (the same line at the top or bottom of
 * most pages) removed. Pictures are not carried yet: the report says how many were left out.
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

export const pdfReadLimits = {
  /** Pages read; a longer document is refused (a manual of 2,000 pages is read). */
  pages: 2_000,
  /** Characters of text kept from the whole document. */
  characters: 4 * 1024 * 1024,
  /** Outline entries walked (bookmarks), and how deep. */
  outlineEntries: 5_000,
  outlineDepth: 8,
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
    return await library.getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: true, verbosity: 0, enableXfa: false }).promise;
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
}

async function readPages(document: PdfDocumentProxy, fileName: string): Promise<ReadText> {
  const library = await pdfjs();
  const pages: Line[][] = [];
  let characters = 0;
  let pictures = 0;
  let tagged = false;
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent({ includeMarkedContent: true });
    const lines = pageLines(content.items as TextPiece[], number);
    tagged ||= lines.some((line) => line.tag !== undefined);
    characters += lines.reduce((sum, line) => sum + line.text.length, 0);
    if (characters > pdfReadLimits.characters) throw refused(fileName, "characters", `holds more than ${pdfReadLimits.characters} characters of text (limit: characters)`, "limit_exceeded");
    const operators = await page.getOperatorList();
    pictures += operators.fnArray.filter((operator) => operator === library.OPS.paintImageXObject || operator === library.OPS.paintInlineImageXObject).length;
    pages.push(lines);
    page.cleanup();
  }
  return { pages, pictures, tagged };
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
    if (lines.reduce((sum, line) => sum + line.text.replace(/\s/g, "").length, 0) < 20) {
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
    if (read.pictures > 0) report.dropped.push({ what: `${read.pictures} picture(s)`, why: "pictures in a PDF are not imported yet: upload them with upload_asset and add them as image blocks" });
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
    return { ...plan, notices: [...notices, ...plan.notices], report, lessonNotes: [] };
  } finally {
    await document.destroy();
  }
}
