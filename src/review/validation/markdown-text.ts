/**
 * What validation needs to know about Markdown without rendering it: the images it embeds (with their
 * alt text), the levels of its ATX headings, and its readable prose as plain text. Line scanners and
 * regular expressions, linear in the text; fenced code is skipped everywhere.
 */
import { isQuestionBlock, type Block } from "../../authoring/schemas/blocks.ts";

export interface MarkdownField {
  /** Path of the field inside the block, e.g. `markdown` or `items[2].markdown`. */
  field: string;
  markdown: string;
}

/** Every Markdown field of a block a learner reads. */
export function markdownFields(block: Block): MarkdownField[] {
  if (isQuestionBlock(block)) {
    return present([
      ["prompt", block.prompt],
      ["explanation", block.explanation],
    ]);
  }
  switch (block.type) {
    case "text":
    case "callout":
      return present([["markdown", block.markdown]]);
    case "quote":
      return present([["text", block.text]]);
    case "accordion":
      return (block.items ?? []).map((item, index) => ({ field: `items[${index}].markdown`, markdown: item.markdown ?? "" }));
    case "tabs":
      return (block.tabs ?? []).map((tab, index) => ({ field: `tabs[${index}].markdown`, markdown: tab.markdown ?? "" }));
    case "flashcards":
      return (block.cards ?? []).map((card, index) => ({ field: `cards[${index}].back`, markdown: card.back ?? "" }));
    case "video":
    case "audio":
      return present([["transcript", block.transcript]]);
    default:
      return [];
  }
}

/** The fields that carry a lesson's teaching prose, for the reading level. */
export function proseFields(block: Block): MarkdownField[] {
  return ["text", "callout", "quote", "accordion", "tabs"].includes(block.type) ? markdownFields(block) : [];
}

function present(entries: [string, string | undefined][]): MarkdownField[] {
  return entries.flatMap(([field, markdown]) => (markdown ? [{ field, markdown }] : []));
}

/** Lines outside fenced code blocks. */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker.slice(0, 3) : null;
      continue;
    }
    if (fence === null) lines.push(line);
  }
  return lines;
}

export interface MarkdownImage {
  alt: string;
  url: string;
}

export function markdownImages(markdown: string): MarkdownImage[] {
  if (!markdown.includes("![")) return [];
  const images: MarkdownImage[] = [];
  for (const line of proseLines(markdown)) {
    for (const match of line.matchAll(/!\[([^\]]*)\]\(\s*<?([^)\s>]*)/g)) images.push({ alt: (match[1] ?? "").trim(), url: match[2] ?? "" });
  }
  return images;
}

/** Levels (1-6) of the ATX headings (`## Title`), in order. */
export function markdownHeadingLevels(markdown: string): number[] {
  if (!markdown.includes("#")) return [];
  const levels: number[] = [];
  for (const line of proseLines(markdown)) {
    const hashes = /^ {0,3}(#{1,6})(?:[ \t]|$)/.exec(line)?.[1];
    if (hashes) levels.push(hashes.length);
  }
  return levels;
}

/**
 * Readable text: code, images, URLs and markup removed, link text kept. Headings are dropped (they
 * are not sentences); each remaining line ends with a newline so list items count as sentences.
 */
export function plainText(markdown: string): string {
  const lines: string[] = [];
  for (const line of proseLines(markdown)) {
    if (/^ {0,3}#{1,6}(?:[ \t]|$)/.test(line) || /^\s*\|?\s*:?-{3,}/.test(line)) continue;
    const text = line
      .replace(/`[^`]*`/g, " ")
      .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]+>/g, " ")
      .replace(/\bhttps?:\/\/\S+/g, " ")
      .replace(/^\s*(?:>\s*)*(?:[-*+]|\d+[.)])?\s+/, "")
      .replace(/[*_~|]+/g, " ")
      .trim();
    if (text) lines.push(text);
  }
  return lines.join("\n");
}
