/**
 * Markup for labeled_graphic, process, timeline, attachment and continue. Each is written first as the
 * complete, script-free page (every marker text, every step, everything after a continue shows, which
 * is also what prints); `installInteractions` then turns it into the one-at-a-time widget, so nothing is
 * lost when script is off or the page is printed.
 */
import type { Block } from "../authoring/schemas/blocks.ts";
import type { RenderContext } from "./context.ts";
import { html, type SafeHtml } from "./html.ts";
import { interactionText } from "./ui-text.ts";
import { markdownHtml } from "./markdown.ts";
import { mediaSourceUrl } from "./media-blocks.ts";

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

export function renderLabeledGraphicBlock(block: BlockOf<"labeled_graphic">, context: RenderContext): SafeHtml {
  const src = mediaSourceUrl(block.image, context);
  const listId = context.ids.next("markers");
  const itemIds = block.markers.map(() => context.ids.next("marker"));
  const buttons = block.markers.map(
    (marker, index) =>
      html`<button type="button" class="marker-button" data-marker data-x="${marker.x}" data-y="${marker.y}" aria-expanded="false" aria-controls="${itemIds[index]}"><span aria-hidden="true">${index + 1}</span><span class="visually-hidden">${interactionText.markerLabel(index + 1, marker.title)}</span></button>`,
  );
  const items = block.markers.map(
    (marker, index) => html`<li class="marker-item" id="${itemIds[index]}" data-marker-item><p class="marker-title">${marker.title}</p>${marker.markdown ? markdownHtml(marker.markdown) : ""}</li>`,
  );
  const image = src === null ? "" : html`<img src="${src}" alt="${block.alt}" decoding="async">`;
  return html`<figure class="block labeled-graphic" data-labeled-graphic data-interactive>
<div class="graphic-stage">${image}<div class="marker-layer" role="group" aria-label="${interactionText.markersGroup}">${buttons}</div></div>
<figcaption class="visually-hidden">${block.alt}</figcaption>
<ol class="marker-list" id="${listId}" aria-label="${interactionText.markersList}">${items}</ol>
</figure>`;
}

export function renderProcessBlock(block: BlockOf<"process">, context: RenderContext): SafeHtml {
  const count = block.steps.length;
  const steps = block.steps.map((step, index) => {
    const titleId = context.ids.next("step-title");
    return html`<li class="process-step" data-step aria-labelledby="${titleId}"><p class="step-count">${interactionText.stepOf(index + 1, count)}</p><h2 class="step-title" id="${titleId}" tabindex="-1">${step.title}</h2>${pictureHtml(step.image, context, "step-image")}${markdownHtml(step.markdown)}</li>`;
  });
  return html`<section class="block process" data-process data-interactive aria-label="${interactionText.processLabel(count)}">
<ol class="process-steps">${steps}</ol>
<div class="process-controls" data-process-controls hidden><button type="button" class="button" data-step-previous>${interactionText.previousStep}</button><p class="process-status" aria-live="polite" data-step-status></p><button type="button" class="button button-primary" data-step-next>${interactionText.nextStep}</button></div>
</section>`;
}

export function renderTimelineBlock(block: BlockOf<"timeline">, context: RenderContext): SafeHtml {
  const events = block.events.map(
    (event) => html`<li class="timeline-event"><p class="timeline-date">${event.date}</p><h2 class="timeline-title">${event.title}</h2>${pictureHtml(event.image, context, "timeline-image")}${markdownHtml(event.markdown)}</li>`,
  );
  return html`<section class="block timeline" aria-label="${interactionText.timelineLabel}"><ol class="timeline-events">${events}</ol></section>`;
}

export function renderAttachmentBlock(block: BlockOf<"attachment">, context: RenderContext): SafeHtml {
  const href = mediaSourceUrl({ assetId: block.assetId }, context);
  const description = block.description ? html`<p class="attachment-description">${block.description}</p>` : "";
  const link =
    href === null
      ? html`<p class="attachment-title">${block.title}</p>`
      : html`<a class="attachment-link" href="${href}" download><span class="attachment-icon" aria-hidden="true">&#8681;</span><span>${block.title}</span><span class="visually-hidden"> ${interactionText.download}</span></a>`;
  return html`<div class="block attachment">${link}${description}</div>`;
}

export function renderContinueBlock(block: BlockOf<"continue">, context: RenderContext): SafeHtml {
  const hintId = context.ids.next("continue-hint");
  const hint = block.requireCompletion ? html`<p class="continue-hint" id="${hintId}" data-continue-hint>${interactionText.continueHint}</p>` : "";
  return html`<div class="block continue" data-continue data-require-completion="${block.requireCompletion ? "true" : "false"}" hidden>
<button type="button" class="button button-primary" data-continue-button${block.requireCompletion ? html` aria-describedby="${hintId}"` : ""}>${block.label}</button>${hint}
</div>`;
}
