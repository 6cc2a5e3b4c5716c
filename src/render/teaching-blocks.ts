/**
 * Markup for labeled_graphic, process, timeline, attachment and continue. Each is written first as the
 * complete, script-free page (every marker text, every step, everything after a continue shows, which
 * is also what prints); `installInteractions` then turns it into the one-at-a-time widget, so nothing is
 * lost when script is off or the page is printed.
 */
import type { Block } from "../authoring/schemas/blocks.ts";
import type { RenderContext } from "./context.ts";
import { html, type SafeHtml } from "./html.ts";
import { englishInteractionText } from "./interaction-text.ts";
import { interactionText } from "./ui-text.ts";
import { markdownHtml } from "./markdown.ts";
import { mediaSourceUrl } from "./media-blocks.ts";
import { ClassName, DataName } from "../page-contract/markup-names.ts";

type BlockOf<Type extends Block["type"]> = Extract<Block, { type: Type }>;

interface PictureLike {
  readonly assetId?: string | undefined;
  readonly url?: string | undefined;
  readonly alt?: string | undefined;
}

/** An `<img>` for a picture field, or nothing when its source is missing or not allowed. */
export function pictureHtml(picture: PictureLike | undefined, context: RenderContext, className: string): SafeHtml | "" {
  const src = mediaSourceUrl(picture, context);
  return picture && src !== null ? html`<img class="${className}" src="${src}" alt="${picture.alt ?? ""}" loading="lazy" decoding="async">` : "";
}

/**
 * A marker button's name: its number (the button's visible text) and its title, said once. A title that
 * already carries the number ("Moment 1: before touching a patient") is the name alone, so a screen
 * reader does not hear "1: Moment 1".
 */
function markerName(number: number, title: string): string {
  return new RegExp(`(^|\\D)${number}(\\D|$)`).test(title) ? title : interactionText.markerLabel(number, title);
}

export function renderLabeledGraphicBlock(block: BlockOf<"labeled_graphic">, context: RenderContext): SafeHtml {
  const src = mediaSourceUrl(block.image, context);
  const listId = context.ids.next("markers");
  const itemIds = block.markers.map(() => context.ids.next("marker"));
  const buttons = block.markers.map(
    (marker, index) =>
      html`<button type="button" class="${ClassName.markerButton}" data-${DataName.marker} data-x="${marker.x}" data-y="${marker.y}" aria-expanded="false" aria-controls="${itemIds[index]}"><span aria-hidden="true">${index + 1}</span><span class="${ClassName.visuallyHidden}">${markerName(index + 1, marker.title)}</span></button>`,
  );
  const items = block.markers.map(
    (marker, index) => html`<li class="${ClassName.markerItem}" id="${itemIds[index]}" value="${index + 1}" data-${DataName.markerItem}><p class="${ClassName.markerTitle}">${marker.title}</p>${marker.markdown ? markdownHtml(marker.markdown) : ""}</li>`,
  );
  const image = src === null ? "" : html`<img src="${src}" alt="${block.alt}" decoding="async">`;
  return html`<figure class="${ClassName.block} ${ClassName.labeledGraphic}" data-${DataName.labeledGraphic} data-${DataName.interactive}>
<div class="${ClassName.graphicStage}">${image}<div class="${ClassName.markerLayer}" role="group" aria-label="${interactionText.markersGroup}">${buttons}</div></div>
<figcaption class="${ClassName.visuallyHidden}">${block.alt}</figcaption>
<ol class="${ClassName.markerList}" id="${listId}" aria-label="${interactionText.markersList}">${items}</ol>
</figure>`;
}

export function renderProcessBlock(block: BlockOf<"process">, context: RenderContext): SafeHtml {
  const count = block.steps.length;
  const steps = block.steps.map((step, index) => {
    const titleId = context.ids.next("step-title");
    return html`<li class="${ClassName.processStep}" data-${DataName.step} aria-labelledby="${titleId}"><p class="${ClassName.stepCount}">${interactionText.stepOf(index + 1, count)}</p><h2 class="${ClassName.stepTitle}" id="${titleId}" tabindex="-1">${step.title}</h2>${pictureHtml(step.image, context, ClassName.stepImage)}${markdownHtml(step.markdown)}</li>`;
  });
  return html`<section class="${ClassName.block} ${ClassName.process}" data-${DataName.process} data-${DataName.interactive} aria-label="${interactionText.processLabel(count)}">
<ol class="${ClassName.processSteps}">${steps}</ol>
<div class="${ClassName.processControls}" data-${DataName.processControls} hidden><button type="button" class="${ClassName.button}" data-${DataName.stepPrevious}>${interactionText.previousStep}</button><p class="${ClassName.processStatus}" aria-live="polite" data-${DataName.stepStatus}></p><button type="button" class="${ClassName.button} ${ClassName.buttonPrimary}" data-${DataName.stepNext}>${interactionText.nextStep}</button></div>
</section>`;
}

export function renderTimelineBlock(block: BlockOf<"timeline">, context: RenderContext): SafeHtml {
  const events = block.events.map(
    (event) => html`<li class="${ClassName.timelineEvent}"><p class="${ClassName.timelineDate}">${event.date}</p><h2 class="${ClassName.timelineTitle}">${event.title}</h2>${pictureHtml(event.image, context, ClassName.timelineImage)}${markdownHtml(event.markdown)}</li>`,
  );
  return html`<section class="${ClassName.block} timeline" aria-label="${interactionText.timelineLabel}"><ol class="${ClassName.timelineEvents}">${events}</ol></section>`;
}

export function renderAttachmentBlock(block: BlockOf<"attachment">, context: RenderContext): SafeHtml {
  const href = mediaSourceUrl({ assetId: block.assetId }, context);
  const description = block.description ? html`<p class="${ClassName.attachmentDescription}">${block.description}</p>` : "";
  const link =
    href === null
      ? html`<p class="attachment-title">${block.title}</p>`
      : html`<a class="${ClassName.attachmentLink}" href="${href}" download><span class="${ClassName.attachmentIcon}" aria-hidden="true">&#8681;</span><span>${block.title}</span><span class="${ClassName.visuallyHidden}"> ${interactionText.download}</span></a>`;
  return html`<div class="${ClassName.block} ${ClassName.attachment}">${link}${description}</div>`;
}

/**
 * The continue button's words: the author's own, else the pack's. A stored "Continue" is the English
 * default older courses kept whatever their language, so it reads from the pack too.
 */
function continueLabel(block: BlockOf<"continue">): string {
  const label = block.label?.trim();
  return label && label !== englishInteractionText.continueLabel ? label : interactionText.continueLabel;
}

export function renderContinueBlock(block: BlockOf<"continue">, context: RenderContext): SafeHtml {
  const hintId = context.ids.next("continue-hint");
  const hint = block.requireCompletion ? html`<p class="${ClassName.continueHint}" id="${hintId}" data-${DataName.continueHint}>${interactionText.continueHint}</p>` : "";
  return html`<div class="${ClassName.block} ${ClassName.continue}" data-${DataName.continue} data-${DataName.requireCompletion}="${block.requireCompletion ? "true" : "false"}" hidden>
<button type="button" class="${ClassName.button} ${ClassName.buttonPrimary}" data-${DataName.continueButton}${block.requireCompletion ? html` aria-describedby="${hintId}"` : ""}>${continueLabel(block)}</button>${hint}
</div>`;
}
