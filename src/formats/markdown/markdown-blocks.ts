/**
 * A Markdown document as a flat list of parts, parsed with markdown-it: headings, and blocks in the
 * shapes `add_blocks` takes. A paragraph or a list becomes a text block holding its Markdown as written,
 * a lone image an image block, a fenced code block a code block, a quote a quote (or a callout for
 * GitHub's `> [!TIP]` alerts), `---` a divider, and a task list (`- [x]` / `- [ ]`) a set of choices
 * that the outline turns into a question with the paragraph before it as the prompt.
 *
 * Bounded (`markdownLimits`): the text's length, how deep lists and quotes nest, and the time: the
 * document is parsed section by section (split before a new top-level paragraph or heading, never inside
 * a list or a fence) with a yield to the event loop between sections, block structure only; inline
 * markup is parsed only for headings and lone images, which are short.
 */
import MarkdownIt, { type Token } from "markdown-it";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import type { Notice } from "../../notice.ts";
import { WorkSlicer } from "../../codecs/event-loop.ts";

interface PartBase {
  /** 1-based line where the part starts, for error messages. */
  readonly line: number;
  /** The part's Markdown as written. */
  readonly source: string;
  /** What became of it when that is not what the author may expect, with its level. */
  readonly notice?: Notice;
}

export type MarkdownPart =
  | (PartBase & { readonly kind: "heading"; readonly level: number; readonly text: string })
  | (PartBase & { readonly kind: "block"; readonly block: Record<string, unknown>; readonly paragraph: boolean; readonly listItems?: readonly string[] })
  | (PartBase & { readonly kind: "choices"; readonly choices: readonly { text: string; correct: boolean }[] });

export const markdownLimits = {
  /** Characters of one outline: a long book's outline is a few hundred KB. */
  maxLength: 2 * 1024 * 1024,
  /** Characters of one section that cannot be split (one list, quote or code block); a text block holds 100 KB. */
  maxSectionLength: 128 * 1024,
  /** Levels of markup open at once (a list item in a list is two); past it the rest would be lost. */
  maxNesting: 32,
  /** Characters of inline markup parsed for a heading's text or a lone image. */
  maxInlineLength: 4096,
} as const;

const blockParser = new MarkdownIt({ html: false, linkify: false, maxNesting: markdownLimits.maxNesting }).disable(["inline", "text_join"]);
const inlineParser = new MarkdownIt({ html: false, linkify: false, maxNesting: markdownLimits.maxNesting });

const alertVariants: Record<string, string> = { NOTE: "note", TIP: "tip", IMPORTANT: "info", WARNING: "warning", CAUTION: "danger" };

/** An inline token's children, parsed now (block parsing leaves them out); none when it is too long to need them. */
function inlineChildren(inline: Token | undefined): Token[] | null {
  if (!inline || inline.content.length > markdownLimits.maxInlineLength) return null;
  return inlineParser.parseInline(inline.content, {})[0]?.children ?? null;
}

/** The text a reader sees in an inline token: no emphasis markers, images by their alt text. */
export function plainText(inline: Token | undefined): string {
  const children = inlineChildren(inline);
  if (!children) return inline?.content.trim() ?? "";
  return children
    .map((child) => (child.type === "text" || child.type === "code_inline" ? child.content : child.type === "softbreak" || child.type === "hardbreak" ? " " : child.type === "image" ? child.content : ""))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

function paragraphPart(inline: Token | undefined, line: number, source: string): MarkdownPart {
  const lone = /^\s*!\[/.test(inline?.content ?? "") ? inlineChildren(inline) : null;
  const children = (lone ?? []).filter((child) => !(child.type === "text" && child.content.trim() === ""));
  const image = children.length === 1 && children[0]?.type === "image" ? children[0] : undefined;
  const url = String(image?.attrGet("src") ?? "");
  if (image && /^https?:\/\//i.test(url)) {
    const alt = image.content.trim();
    return { kind: "block", line, source, paragraph: true, block: alt ? { type: "image", url, alt } : { type: "image", url, decorative: true } };
  }
  // A picture beside the document (./map.png) is not in the import: the block keeps its Markdown.
  const notice: Notice | undefined = image
    ? { level: "warning", text: `line ${line}: the image ${JSON.stringify(url.slice(0, 200))} is not a web address, so it stays as Markdown text; upload the file with upload_asset and make that block an image.` }
    : undefined;
  return { kind: "block", line, source, paragraph: true, block: { type: "text", markdown: source }, ...(notice && { notice }) };
}

/** The index of the token closing the one at `open` (same level, nesting -1). */
function closingIndex(tokens: readonly Token[], open: number): number {
  const level = tokens[open]?.level ?? 0;
  for (let index = open + 1; index < tokens.length; index++) {
    const token = tokens[index];
    if (token && token.level === level && token.nesting === -1) return index;
  }
  return tokens.length - 1;
}

function listPart(tokens: readonly Token[], open: number, line: number, source: string): MarkdownPart {
  const close = closingIndex(tokens, open);
  const itemLevel = (tokens[open]?.level ?? 0) + 1;
  const items: string[] = [];
  for (let index = open + 1; index < close; index++) {
    if (tokens[index]?.type !== "list_item_open" || tokens[index]?.level !== itemLevel) continue;
    const inline = tokens.slice(index + 1, close).find((token) => token.type === "inline");
    items.push(inline?.content.trim() ?? "");
  }
  const tasks = items.map((item) => /^\[([ xX])\]\s+([\s\S]+)$/.exec(item));
  if (items.length >= 2 && tasks.every(Boolean)) {
    return { kind: "choices", line, source, choices: tasks.map((task) => ({ text: (task?.[2] ?? "").trim(), correct: task?.[1] !== " " })) };
  }
  return { kind: "block", line, source, block: { type: "text", markdown: source }, paragraph: false, listItems: items };
}

function quotePart(line: number, source: string): MarkdownPart {
  const inner = source
    .split("\n")
    .map((text) => text.replace(/^\s*> ?/, ""))
    .join("\n")
    .trim();
  const alert = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*\n?([\s\S]*)$/i.exec(inner);
  if (alert?.[2]?.trim()) {
    return { kind: "block", line, source, paragraph: false, block: { type: "callout", variant: alertVariants[(alert[1] ?? "NOTE").toUpperCase()], markdown: alert[2].trim() } };
  }
  return { kind: "block", line, source, paragraph: false, block: { type: "quote", text: inner } };
}

function codePart(token: Token, line: number, source: string): MarkdownPart | null {
  const code = token.content.replace(/\n$/, "");
  if (!code.trim()) return null;
  const language = token.info.trim().split(/\s+/)[0] ?? "";
  const valid = /^[A-Za-z0-9][A-Za-z0-9+#._-]{0,39}$/.test(language);
  const notice: Notice | undefined =
    language && !valid ? { level: "info", text: `line ${line}: the code block's language ${JSON.stringify(language.slice(0, 60))} is not a language name, so it is plaintext.` } : undefined;
  return { kind: "block", line, source, paragraph: false, block: { type: "code", language: valid ? language : "plaintext", code }, ...(notice && { notice }) };
}

function tooLarge(message: string, limit: keyof typeof markdownLimits, details: Record<string, unknown> = {}): CourseAuthoringError {
  return new CourseAuthoringError("limit_exceeded", `content: ${message}; the limit is ${markdownLimits[limit]} (${limit}), so nothing was imported.`, {
    field: "content",
    limit,
    max: markdownLimits[limit],
    ...details,
  });
}

const fence = /^ {0,3}(`{3,}|~{3,})/;
const listMarker = /^(?:[-*+]|\d{1,9}[.)])(?:\s|$)/;
const atxHeading = /^#{1,6}(?:[ \t]|$)/;

/**
 * Line ranges that parse the same apart as together: each starts with an ATX heading, or after a blank
 * line with a top-level line that continues nothing (not indented, not a list item), never inside a
 * fence, once the section so far is long enough to be worth a slice.
 */
function sections(lines: readonly string[], minLength: number): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  let start = 0;
  let length = 0;
  let openFence: string | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const marker = fence.exec(line)?.[1];
    const startsBlock = atxHeading.test(line) || ((lines[index - 1] ?? "").trim() === "" && /^[^\s]/.test(line) && !listMarker.test(line));
    if (openFence === null && length >= minLength && index > 0 && startsBlock) {
      found.push({ start, end: index });
      start = index;
      length = 0;
    }
    if (marker && (openFence === null || (marker[0] === openFence[0] && marker.length >= openFence.length))) openFence = openFence === null ? marker : null;
    length += line.length + 1;
  }
  found.push({ start, end: lines.length });
  return found;
}

/** The document's top-level parts in order. */
export async function markdownParts(text: string): Promise<MarkdownPart[]> {
  if (text.length > markdownLimits.maxLength) throw tooLarge(`the Markdown is ${text.length} characters, more than one import reads`, "maxLength", { length: text.length });
  const lines = text.split(/\r?\n/);
  const parts: MarkdownPart[] = [];
  // Link reference definitions of earlier sections serve later ones.
  const env = {};
  const slicer = new WorkSlicer(32 * 1024);
  for (const section of sections(lines, 16 * 1024)) {
    const sectionText = lines.slice(section.start, section.end).join("\n");
    if (sectionText.length > markdownLimits.maxSectionLength) {
      throw tooLarge(
        `lines ${section.start + 1} to ${section.end} hold ${sectionText.length} characters with no place to split them (one long list, quote or code block), more than is read at once`,
        "maxSectionLength",
        { line: section.start + 1 },
      );
    }
    const tokens = blockParser.parse(sectionText, env);
    const deepest = tokens.reduce((deepest, token) => Math.max(deepest, token.level), 0);
    if (deepest >= markdownLimits.maxNesting - 2) {
      const at = (tokens.find((token) => token.level === deepest)?.map?.[0] ?? 0) + section.start + 1;
      throw tooLarge(`lists and quotes nest more than ${markdownLimits.maxNesting} levels of markup deep at line ${at}`, "maxNesting", { line: at });
    }
    partsOf(tokens, lines, section.start, parts);
    await slicer.done(sectionText.length);
  }
  return parts;
}

function partsOf(tokens: readonly Token[], lines: readonly string[], offset: number, parts: MarkdownPart[]): void {
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as Token;
    if (token.level !== 0 || token.nesting === -1) continue;
    const map = token.map ? [token.map[0] + offset, token.map[1] + offset] : undefined;
    const line = (map?.[0] ?? offset) + 1;
    const source = map ? lines.slice(map[0], map[1]).join("\n").trim() : "";
    switch (token.type) {
      case "heading_open":
        parts.push({ kind: "heading", line, source, level: Number(token.tag.slice(1)), text: plainText(tokens[index + 1]) });
        break;
      case "paragraph_open":
        parts.push(paragraphPart(tokens[index + 1], line, source));
        break;
      case "bullet_list_open":
      case "ordered_list_open":
        parts.push(listPart(tokens, index, line, source));
        break;
      case "blockquote_open":
        parts.push(quotePart(line, source));
        break;
      case "fence":
      case "code_block": {
        const code = codePart(token, line, source);
        if (code) parts.push(code);
        break;
      }
      case "hr":
        parts.push({ kind: "block", line, source, block: { type: "divider" }, paragraph: false });
        break;
      case "table_open":
      case "html_block":
        if (source) parts.push({ kind: "block", line, source, block: { type: "text", markdown: source }, paragraph: false });
        break;
    }
    if (token.nesting === 1) index = closingIndex(tokens, index);
  }
}
