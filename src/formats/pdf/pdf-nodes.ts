/**
 * The printable document both PDF exports are written from: headings, paragraphs, lists, tables,
 * figures and quotes in reading order, each with the language of its part when it differs from the
 * document's. `pdf-write.ts` lays it out as a tagged PDF; `course-handout.ts` and `job-aid.ts` build it
 * from a course. Markdown (the course's text fields) becomes nodes here, through markdown-it's tokens,
 * so a Markdown list is a PDF list and a Markdown table a PDF table.
 */
import MarkdownIt, { type Token } from "markdown-it";

export interface Run {
  readonly text: string;
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly code?: boolean;
}

export type HeadingLevel = 1 | 2 | 3 | 4;

/** A picture to place: an uploaded asset (PNG or JPEG can be drawn) with its alt text, or decorative. */
export interface FigurePicture {
  readonly assetId?: string;
  readonly url?: string;
  /** Empty for a decorative picture, which is drawn as an artefact. */
  readonly alt: string;
  /** Numbered markers drawn on the picture (a labelled graphic), at percent positions. */
  readonly markers?: readonly { readonly x: number; readonly y: number }[];
}

export type PdfNode =
  | { readonly kind: "heading"; readonly level: HeadingLevel; readonly text: string; readonly anchor?: string; readonly newPage?: boolean; readonly lang?: string }
  | { readonly kind: "paragraph"; readonly runs: readonly Run[]; readonly style?: "normal" | "quote" | "code" | "label" | "small"; readonly lang?: string }
  | { readonly kind: "list"; readonly ordered: boolean; readonly items: readonly (readonly Run[])[]; readonly start?: number; readonly lang?: string; readonly boxes?: boolean }
  | { readonly kind: "table"; readonly header: readonly string[]; readonly rows: readonly (readonly string[])[]; readonly lang?: string }
  | { readonly kind: "figure"; readonly picture: FigurePicture; readonly caption?: string; readonly lang?: string }
  | { readonly kind: "contents"; readonly title: string; readonly entries: readonly { readonly level: HeadingLevel; readonly text: string; readonly anchor: string }[] }
  | { readonly kind: "rule" };

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Inline tokens as runs: emphasis kept, links as their words with the address after, pictures as their alt text. */
function inlineRuns(tokens: readonly Token[] | null): Run[] {
  const runs: Run[] = [];
  let bold = 0;
  let italic = 0;
  let href: string | null = null;
  for (const token of tokens ?? []) {
    const style = { ...(bold > 0 ? { bold: true } : {}), ...(italic > 0 ? { italic: true } : {}) };
    if (token.type === "strong_open") bold += 1;
    else if (token.type === "strong_close") bold -= 1;
    else if (token.type === "em_open") italic += 1;
    else if (token.type === "em_close") italic -= 1;
    else if (token.type === "text") runs.push({ text: token.content, ...style });
    else if (token.type === "code_inline") runs.push({ text: token.content, code: true });
    else if (token.type === "softbreak" || token.type === "hardbreak") runs.push({ text: " " });
    else if (token.type === "link_open") href = String(token.attrGet("href") ?? "");
    else if (token.type === "link_close") {
      if (href && /^https?:|^mailto:/i.test(href)) runs.push({ text: ` (${href.replace(/^mailto:/i, "")})` });
      href = null;
    } else if (token.type === "image") runs.push({ text: token.content ? `[${token.content}]` : "", italic: true });
  }
  return runs.filter((run) => run.text.length > 0);
}

function runsText(runs: readonly Run[]): string {
  return runs.map((run) => run.text).join("");
}

/** The index of the token closing the one at `start` (its matching `_close` at the same nesting). */
function closing(tokens: readonly Token[], start: number): number {
  let depth = 0;
  for (let index = start; index < tokens.length; index += 1) {
    depth += tokens[index]?.nesting ?? 0;
    if (depth === 0) return index;
  }
  return tokens.length - 1;
}

function listNode(tokens: readonly Token[], start: number, end: number, lang: string | undefined): PdfNode {
  const open = tokens[start];
  const items: Run[][] = [];
  let depth = 0;
  let itemHasText = false;
  for (let index = start + 1; index < end; index += 1) {
    const token = tokens[index];
    if (!token) continue;
    if (token.type === "list_item_open") {
      depth += 1;
      itemHasText = false;
    }
    if (token.type === "list_item_close") depth -= 1;
    // Nested lists' items join their parent's list, indented by a dash: the PDF list stays one level.
    if (token.type === "inline") {
      const prefix = depth > 1 ? "– ".repeat(depth - 1) : "";
      const runs = inlineRuns(token.children);
      // A second paragraph of the same item joins it.
      if (itemHasText && items.length > 0) items[items.length - 1]?.push({ text: " " }, ...runs);
      else items.push(prefix ? [{ text: prefix }, ...runs] : runs);
      itemHasText = true;
    }
  }
  const ordered = open?.type === "ordered_list_open";
  const first = Number(open?.attrGet("start") ?? 1);
  return { kind: "list", ordered, items, ...(ordered && first !== 1 ? { start: first } : {}), ...(lang ? { lang } : {}) };
}

function tableNode(tokens: readonly Token[], start: number, end: number, lang: string | undefined): PdfNode {
  const header: string[] = [];
  const rows: string[][] = [];
  let inHead = false;
  for (let index = start; index < end; index += 1) {
    const token = tokens[index];
    if (token?.type === "thead_open") inHead = true;
    else if (token?.type === "thead_close") inHead = false;
    else if (token?.type === "tr_open" && !inHead) rows.push([]);
    else if (token?.type === "inline") {
      const cell = runsText(inlineRuns(token.children));
      if (inHead) header.push(cell);
      else rows[rows.length - 1]?.push(cell);
    }
  }
  return { kind: "table", header, rows, ...(lang ? { lang } : {}) };
}

/**
 * Markdown as nodes: paragraphs, lists, tables, quotes and code; a heading inside a text becomes a
 * heading under `baseLevel` (the block's own level), never above it. Pictures become their alt text.
 */
export function markdownNodes(source: string, options: { baseLevel?: HeadingLevel; lang?: string } = {}): PdfNode[] {
  const tokens = markdown.parse(source, {});
  const nodes: PdfNode[] = [];
  const lang = options.lang;
  const part = lang ? { lang } : {};
  let quote = 0;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (!token) continue;
    if (token.type === "blockquote_open") quote += 1;
    else if (token.type === "blockquote_close") quote -= 1;
    else if (token.type === "heading_open") {
      const level = Math.min(4, (options.baseLevel ?? 3) + Number(token.tag.slice(1)) - 1) as HeadingLevel;
      nodes.push({ kind: "heading", level, text: runsText(inlineRuns(tokens[index + 1]?.children ?? null)), ...part });
      index = closing(tokens, index);
    } else if (token.type === "paragraph_open") {
      const runs = inlineRuns(tokens[index + 1]?.children ?? null);
      if (runs.length > 0) nodes.push({ kind: "paragraph", runs, style: quote > 0 ? "quote" : "normal", ...part });
      index = closing(tokens, index);
    } else if (token.type === "bullet_list_open" || token.type === "ordered_list_open") {
      const end = closing(tokens, index);
      nodes.push(listNode(tokens, index, end, lang));
      index = end;
    } else if (token.type === "table_open") {
      const end = closing(tokens, index);
      nodes.push(tableNode(tokens, index, end, lang));
      index = end;
    } else if (token.type === "fence" || token.type === "code_block") {
      nodes.push({ kind: "paragraph", runs: [{ text: token.content.replace(/\n$/, ""), code: true }], style: "code", ...part });
    } else if (token.type === "hr") nodes.push({ kind: "rule" });
  }
  return nodes;
}

/** A paragraph of plain text (no Markdown). */
export function textNode(text: string, style: "normal" | "quote" | "label" | "small" = "normal", lang?: string): PdfNode {
  return { kind: "paragraph", runs: [{ text, ...(style === "label" ? { bold: true } : {}) }], style, ...(lang ? { lang } : {}) };
}
