/**
 * The block union: one `v.variant` on `type` over every content and question block. It is the single
 * source of a block's TypeScript type, its validation and its JSON Schema in tool listings.
 */
import * as v from "valibot";
import * as contentBlocks from "./content-blocks.ts";
import { idField } from "./fields.ts";
import * as questionBlocks from "./question-blocks.ts";
import { inlineChoiceBlock } from "./inline-choice-block.ts";
import { numericBlock } from "./numeric-block.ts";
import { dragOntoImageBlock, hotspotBlock } from "./picture-questions.ts";
import { likertBlock, openResponseBlock } from "./reflection-blocks.ts";
import { scenarioBlock } from "./scenario-block.ts";
import { sortingBlock } from "./sorting-block.ts";
import * as teachingBlocks from "./teaching-blocks.ts";

export const blockSchema = v.variant("type", [
  contentBlocks.textBlock,
  contentBlocks.headingBlock,
  contentBlocks.imageBlock,
  contentBlocks.videoBlock,
  contentBlocks.audioBlock,
  contentBlocks.calloutBlock,
  contentBlocks.quoteBlock,
  contentBlocks.codeBlock,
  contentBlocks.dividerBlock,
  contentBlocks.accordionBlock,
  contentBlocks.tabsBlock,
  contentBlocks.flashcardsBlock,
  questionBlocks.singleChoiceBlock,
  questionBlocks.multipleChoiceBlock,
  questionBlocks.trueFalseBlock,
  questionBlocks.fillInBlankBlock,
  questionBlocks.matchingBlock,
  questionBlocks.orderingBlock,
  sortingBlock,
  numericBlock,
  hotspotBlock,
  dragOntoImageBlock,
  inlineChoiceBlock,
  openResponseBlock,
  likertBlock,
  scenarioBlock,
  teachingBlocks.labeledGraphicBlock,
  teachingBlocks.processBlock,
  teachingBlocks.timelineBlock,
  teachingBlocks.attachmentBlock,
  teachingBlocks.continueBlock,
]);

export type BlockInput = v.InferInput<typeof blockSchema>;
/** A validated block, defaults applied, without its ID. */
export type BlockContent = v.InferOutput<typeof blockSchema>;
export type BlockType = BlockContent["type"];
/** A stored block as tools return it. */
export type Block = { id: string } & BlockContent;
/** A stored question block: one whose type is in `questionTypes`. */
export type QuestionBlock = Extract<Block, { type: questionBlocks.QuestionType }>;

export function isQuestionBlock(block: Block): block is QuestionBlock {
  return questionBlocks.isQuestionType(block.type);
}

/**
 * Blocks a quiz lesson scores: every question but the unscored ones (open_response, likert), and a
 * scenario (correct when it ends in success).
 */
export function isGradedType(type: string): boolean {
  return (questionBlocks.isQuestionType(type) && !questionBlocks.isUnscoredQuestionType(type)) || type === "scenario";
}

/**
 * Every block type's role. A new block type fails to compile here until it is placed, and a test holds
 * `questionTypes` (the graded list tools and formats read) to the types marked "question".
 */
export const blockRoles: { readonly [T in BlockType]: "content" | "teaching" | "question" | "scenario" } = {
  text: "content",
  heading: "content",
  image: "content",
  video: "content",
  audio: "content",
  callout: "content",
  quote: "content",
  code: "content",
  divider: "content",
  accordion: "content",
  tabs: "content",
  flashcards: "content",
  single_choice: "question",
  multiple_choice: "question",
  true_false: "question",
  fill_in_blank: "question",
  matching: "question",
  ordering: "question",
  sorting: "question",
  numeric: "question",
  hotspot: "question",
  drag_onto_image: "question",
  inline_choice: "question",
  open_response: "question",
  likert: "question",
  scenario: "scenario",
  labeled_graphic: "teaching",
  process: "teaching",
  timeline: "teaching",
  attachment: "teaching",
  continue: "teaching",
};

export const blockTypes: readonly BlockType[] = blockSchema.options.map((option) =>
  "pipe" in option ? option.pipe[0].entries.type.literal : option.entries.type.literal,
);

/**
 * What tools return for a block. Deliberately open: the exact fields per type are the ones `add_blocks`
 * accepts, and repeating the whole union in every output schema would bloat the tool listing.
 */
export const storedBlockSchema = v.looseObject({
  id: idField("block"),
  type: v.picklist(blockTypes),
});
