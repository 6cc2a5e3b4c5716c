/**
 * What validation needs to know about Markdown without rendering it: the images it embeds (with their
 * alt text), the levels of its headings, and its readable prose as plain text. Read with the renderer's
 * own markdown-it parser, so validation and the page never disagree on what the Markdown says.
 */
import type { Token } from "markdown-it";
import { isQuestionBlock, type Block } from "../../authoring/schemas/blocks.ts";
import { markdownTokens } from "../../render/markdown.ts";

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

export interface MarkdownImage {
  alt: string;
  url: string;
}

/** Inline tokens' children, in order (images, text, code, breaks), from the renderer's parser. */
function inlineChildren(tokens: readonly Token[]): Token[] {
  return tokens.flatMap((token) => (token.type === "inline" ? (token.children ?? []) : []));
}

export function markdownImages(markdown: string): MarkdownImage[] {
  if (!markdown.includes("![")) return [];
  return inlineChildren(markdownTokens(markdown))
    .filter((token) => token.type === "image")
    .map((token) => ({ alt: (token.children ?? []).map((child) => child.content).join("").trim(), url: String(token.attrGet("src") ?? "") }));
}

/** Levels (1-6) of the headings (ATX `## Title` and setext underlines), in order. */
export function markdownHeadingLevels(markdown: string): number[] {
  return markdownTokens(markdown)
    .filter((token) => token.type === "heading_open")
    .map((token) => Number(token.tag.slice(1)));
}

/**
 * Readable text: code, images, URLs and markup removed, link text kept. Headings are dropped (they
 * are not sentences); each paragraph, list item or table cell line ends with a newline so list items
 * count as sentences.
 */
export function plainText(markdown: string): string {
  const lines: string[] = [];
  let inHeading = false;
  for (const token of markdownTokens(markdown)) {
    if (token.type === "heading_open") inHeading = true;
    else if (token.type === "heading_close") inHeading = false;
    if (token.type !== "inline" || inHeading) continue;
    let text = "";
    for (const child of token.children ?? []) {
      if (child.type === "text") text += child.content;
      else if (child.type === "softbreak" || child.type === "hardbreak") text += "\n";
      else if (child.type === "code_inline" || child.type === "image") text += " ";
    }
    for (const line of text.split("\n")) {
      const cleaned = line.replace(/\bhttps?:\/\/\S+/g, " ").replace(/\s+/g, " ").trim();
      if (cleaned) lines.push(cleaned);
    }
  }
  return lines.join("\n");
}
