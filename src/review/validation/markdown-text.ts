/**
 * What validation needs to know about Markdown without rendering it: the images it embeds (with their
 * alt text), the levels of its headings, and its readable prose as plain text. Read with the renderer's
 * own markdown-it parser, so validation and the page never disagree on what the Markdown says.
 */
import type { Token } from "markdown-it";
import type { Block } from "../../authoring/schemas/blocks.ts";
import { markdownTokens } from "../../render/markdown.ts";

export interface MarkdownField {
  /** Path of the field inside the block, e.g. `markdown` or `items[2].markdown`. */
  field: string;
  markdown: string;
}

type FieldsOf<T extends Block["type"]> = (block: Extract<Block, { type: T }>) => [string, string | undefined][];

const question = (block: { prompt: string; explanation?: string | undefined }): [string, string | undefined][] => [
  ["prompt", block.prompt],
  ["explanation", block.explanation],
];

/** Where each block type keeps Markdown a learner reads; a new block type must say where its Markdown is. */
const markdownByType: { readonly [T in Block["type"]]: FieldsOf<T> } = {
  text: (block) => [["markdown", block.markdown]],
  callout: (block) => [["markdown", block.markdown]],
  quote: (block) => [["text", block.text]],
  accordion: (block) => (block.items ?? []).map((item, index) => [`items[${index}].markdown`, item.markdown ?? ""]),
  tabs: (block) => (block.tabs ?? []).map((tab, index) => [`tabs[${index}].markdown`, tab.markdown ?? ""]),
  flashcards: (block) => (block.cards ?? []).map((card, index) => [`cards[${index}].back`, card.back ?? ""]),
  video: (block) => [["transcript", block.transcript]],
  audio: (block) => [["transcript", block.transcript]],
  heading: () => [],
  image: () => [],
  code: () => [],
  divider: () => [],
  attachment: () => [],
  continue: () => [],
  labeled_graphic: (block) => block.markers.map((marker, index) => [`markers[${index}].markdown`, marker.markdown]),
  process: (block) => block.steps.map((step, index) => [`steps[${index}].markdown`, step.markdown]),
  timeline: (block) => block.events.map((event, index) => [`events[${index}].markdown`, event.markdown]),
  scenario: (block) => [
    ["markdown", block.markdown],
    ...block.scenes.flatMap((scene, index): [string, string | undefined][] => [
      [`scenes[${index}].markdown`, scene.markdown],
      ...(scene.choices ?? []).map((choice, choiceIndex): [string, string | undefined] => [`scenes[${index}].choices[${choiceIndex}].feedback`, choice.feedback]),
    ]),
  ],
  single_choice: question,
  multiple_choice: question,
  true_false: question,
  fill_in_blank: question,
  matching: question,
  ordering: question,
  sorting: question,
  numeric: (block) => [...question(block), ["correctFeedback", block.correctFeedback], ["incorrectFeedback", block.incorrectFeedback]],
  hotspot: (block) => [...question(block), ...block.regions.map((region, index): [string, string | undefined] => [`regions[${index}].feedback`, region.feedback])],
  drag_onto_image: (block) => [...question(block), ...block.labels.map((label, index): [string, string | undefined] => [`labels[${index}].feedback`, label.feedback])],
  inline_choice: (block) => [...question(block), ["text", block.text], ...block.gaps.map((gap, index): [string, string | undefined] => [`gaps[${index}].feedback`, gap.feedback])],
  open_response: (block) => [...question(block), ["modelAnswer", block.modelAnswer]],
  likert: question,
};

/** Every Markdown field of a block a learner reads. */
export function markdownFields<T extends Block["type"]>(block: Extract<Block, { type: T }>): MarkdownField[] {
  const entries = (markdownByType[block.type as T] as FieldsOf<T>)(block);
  // Accordion, tabs and flashcards list every item, empty or not, so a field's index stays its item's.
  const keepEmpty = block.type === "accordion" || block.type === "tabs" || block.type === "flashcards";
  return entries.flatMap(([field, markdown]) => (markdown || (keepEmpty && markdown !== undefined) ? [{ field, markdown: markdown ?? "" }] : []));
}

/** The fields that carry a lesson's teaching prose, for the reading level. */
export function proseFields(block: Block): MarkdownField[] {
  return ["text", "callout", "quote", "accordion", "tabs"].includes(block.type) ? markdownFields(block) : [];
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
