/**
 * Which fields of each block type are text a person reads, as paths into the block where a star stands
 * for every index of an array ("choices", star, "text"). Translation units, and anything else that
 * walks a course's words, read this table instead of knowing each block. A new block type must be
 * listed here (the compiler insists), with `[]` when it holds no text.
 */
import type { BlockType } from "./blocks.ts";

const questionTexts = ["prompt", "explanation"] as const;

export const blockTextFields: Record<BlockType, readonly string[]> = {
  text: ["markdown"],
  heading: ["text"],
  image: ["alt", "caption"],
  video: ["title", "transcript"],
  audio: ["title", "transcript"],
  callout: ["title", "markdown"],
  quote: ["text", "attribution"],
  code: ["caption"],
  divider: [],
  accordion: ["items/*/title", "items/*/markdown"],
  tabs: ["tabs/*/title", "tabs/*/markdown"],
  flashcards: ["cards/*/front", "cards/*/back"],
  single_choice: [...questionTexts, "choices/*/text", "choices/*/feedback", "choices/*/image/alt"],
  multiple_choice: [...questionTexts, "choices/*/text", "choices/*/feedback", "choices/*/image/alt"],
  true_false: [...questionTexts, "trueFeedback", "falseFeedback"],
  fill_in_blank: [...questionTexts, "text", "blanks/*/answers/*", "blanks/*/feedback"],
  matching: [...questionTexts, "pairs/*/left", "pairs/*/right", "pairs/*/feedback"],
  ordering: [...questionTexts, "items/*/text", "items/*/feedback"],
  // Items name their category by its title (`items/*/category`), which is not a unit of its own: the
  // mirror rewrites it with the translation of the category title it names (see translation/mirror.ts).
  sorting: [...questionTexts, "categories/*/title", "items/*/text", "items/*/feedback"],
  numeric: [...questionTexts, "unit", "correctFeedback", "incorrectFeedback"],
  // A translation may swap the picture (its own media) but never the regions: only their names are text.
  hotspot: [...questionTexts, "image/alt", "regions/*/name", "regions/*/feedback"],
  drag_onto_image: [...questionTexts, "image/alt", "zones/*/name", "labels/*/text", "labels/*/image/alt", "labels/*/feedback"],
  inline_choice: [...questionTexts, "text", "gaps/*/choices/*/text", "gaps/*/feedback"],
  open_response: [...questionTexts, "modelAnswer", "rubric/criteria/*/text"],
  likert: [...questionTexts, "statements/*/text", "scale/*"],
  scenario: ["title", "markdown", "character/name", "character/image/alt", "scenes/*/markdown", "scenes/*/image/alt", "scenes/*/choices/*/text", "scenes/*/choices/*/feedback"],
  labeled_graphic: ["alt", "markers/*/title", "markers/*/markdown"],
  process: ["steps/*/title", "steps/*/markdown", "steps/*/image/alt"],
  timeline: ["events/*/date", "events/*/title", "events/*/markdown", "events/*/image/alt"],
  attachment: ["title", "description"],
  continue: ["label"],
};

/** One text found in a block: its concrete path (`choices/2/text`) and its value. */
export interface BlockText {
  path: string;
  text: string;
}

/** Every non-empty text of a block, in the order of its type's field list, arrays in index order. */
export function blockTexts(type: string, body: Record<string, unknown>): BlockText[] {
  const patterns = (blockTextFields as Record<string, readonly string[] | undefined>)[type] ?? [];
  const found: BlockText[] = [];
  for (const pattern of patterns) collect(body, pattern.split("/"), [], found);
  return found;
}

function collect(value: unknown, rest: readonly string[], at: readonly string[], found: BlockText[]): void {
  if (rest.length === 0) {
    if (typeof value === "string" && value.trim() !== "") found.push({ path: at.join("/"), text: value });
    return;
  }
  const [step, ...tail] = rest as [string, ...string[]];
  if (step === "*") {
    if (Array.isArray(value)) value.forEach((item, index) => collect(item, tail, [...at, String(index)], found));
    return;
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) collect((value as Record<string, unknown>)[step], tail, [...at, step], found);
}

/** Replaces the text at `path` inside `body` (mutated); the path came from `blockTexts`, so it exists. */
export function setBlockText(body: Record<string, unknown>, path: string, text: string): void {
  const steps = path.split("/");
  let node: unknown = body;
  for (const step of steps.slice(0, -1)) node = (node as Record<string, unknown>)[step];
  (node as Record<string, unknown>)[steps[steps.length - 1] as string] = text;
}
