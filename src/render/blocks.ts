/**
 * Renders one block: validates it against the block schema (the renderer accepts loosely typed stored
 * blocks), then dispatches on its type. A block that fails validation is never rendered from its raw
 * fields; the preview shows a notice naming it, a package leaves it out.
 */
import * as v from "valibot";
import { blockSchema, isQuestionBlock, type Block } from "../authoring/schemas/blocks.ts";
import {
  renderAccordionBlock,
  renderCalloutBlock,
  renderCodeBlock,
  renderDividerBlock,
  renderFlashcardsBlock,
  renderHeadingBlock,
  renderQuoteBlock,
  renderTabsBlock,
  renderTextBlock,
} from "./content-blocks.ts";
import type { LessonContext } from "./context.ts";
import { html, type SafeHtml } from "./html.ts";
import { renderAudioBlock, renderImageBlock, renderVideoBlock } from "./media-blocks.ts";
import { renderQuestionBlock } from "./question-blocks.ts";
import { renderScenarioBlock } from "./scenario-block.ts";
import { renderAttachmentBlock, renderContinueBlock, renderLabeledGraphicBlock, renderProcessBlock, renderTimelineBlock } from "./teaching-blocks.ts";
import type { RenderableBlock } from "./types.ts";
import { uiText } from "./ui-text.ts";
import { ClassName } from "../page-contract/markup-names.ts";

/** The block with its schema defaults applied, or null when it is not a valid block. */
export function validatedBlock(block: RenderableBlock): Block | null {
  const { id, ...content } = block;
  const result = v.safeParse(blockSchema, content);
  return result.success ? { id, ...result.output } : null;
}

export function renderBlock(block: RenderableBlock, context: LessonContext, courseLanguage: string): SafeHtml {
  const valid = validatedBlock(block);
  if (valid === null) {
    return context.options.mode === "preview"
      ? html`<p class="${ClassName.block} ${ClassName.blockUnavailable}" role="note">${uiText.blockUnavailable} (${block.type}, ${block.id}).</p>`
      : html``;
  }
  const rendered = renderValidBlock(valid, context, courseLanguage);
  // A translation's block not translated yet shows its source text, in the source's language.
  const language = (block as { lang?: unknown }).lang;
  return typeof language === "string" && language !== courseLanguage ? html`<div lang="${language}">${rendered}</div>` : rendered;
}

function renderValidBlock(block: Block, context: LessonContext, courseLanguage: string): SafeHtml {
  if (isQuestionBlock(block)) return renderQuestionBlock(block, context);
  switch (block.type) {
    case "text":
      return renderTextBlock(block);
    case "heading":
      return renderHeadingBlock(block);
    case "image":
      return renderImageBlock(block, context);
    case "video":
      return renderVideoBlock(block, context, courseLanguage);
    case "audio":
      return renderAudioBlock(block, context, courseLanguage);
    case "callout":
      return renderCalloutBlock(block, context);
    case "quote":
      return renderQuoteBlock(block);
    case "code":
      return renderCodeBlock(block, context);
    case "divider":
      return renderDividerBlock();
    case "accordion":
      return renderAccordionBlock(block);
    case "tabs":
      return renderTabsBlock(block, context);
    case "flashcards":
      return renderFlashcardsBlock(block, context);
    case "scenario":
      return renderScenarioBlock(block, context, context.lessonKind === "quiz");
    case "labeled_graphic":
      return renderLabeledGraphicBlock(block, context);
    case "process":
      return renderProcessBlock(block, context);
    case "timeline":
      return renderTimelineBlock(block, context);
    case "attachment":
      return renderAttachmentBlock(block, context);
    case "continue":
      return renderContinueBlock(block, context);
  }
}
