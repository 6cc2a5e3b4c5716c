/**
 * Markup for the presentation blocks that carry text: text, heading, callout, quote, code, divider,
 * accordion, tabs and flashcards. Disclosure widgets use native `<details>`; tabs and flashcards are
 * complete ARIA patterns whose keyboard behaviour the in-page script supplies.
 */
import type { Block } from "../authoring/schemas/blocks.ts";
import { calloutVariants, headingLevels } from "../authoring/schemas/content-blocks.ts";
import type { RenderContext } from "./context.ts";
import { html, type SafeHtml } from "./html.ts";
import { markdownHtml } from "./markdown.ts";
import { uiText } from "./ui-text.ts";

type BlockOf<Type extends Block["type"]> = Extract<Block, { type: Type }>;

export function renderTextBlock(block: BlockOf<"text">): SafeHtml {
  return html`<div class="block block-text">${markdownHtml(block.markdown)}</div>`;
}

export function renderHeadingBlock(block: BlockOf<"heading">): SafeHtml {
  const level = headingLevels.includes(block.level) ? block.level : 2;
  const tag = `h${level}`;
  return html`<${tag} class="block block-heading">${block.text}</${tag}>`;
}

export function renderCalloutBlock(block: BlockOf<"callout">, context: RenderContext): SafeHtml {
  const variant = calloutVariants.includes(block.variant) ? block.variant : "info";
  const titleId = context.ids.next("callout-title");
  const variantLabel = uiText.calloutVariants[variant] ?? variant;
  const title = block.title ? html`<span class="visually-hidden">${variantLabel}: </span>${block.title}` : html`${variantLabel}`;
  return html`<div class="block callout callout-${variant}" role="note" aria-labelledby="${titleId}">
<p class="callout-title" id="${titleId}">${title}</p>
<div class="callout-body">${markdownHtml(block.markdown)}</div>
</div>`;
}

export function renderQuoteBlock(block: BlockOf<"quote">): SafeHtml {
  const attribution = block.attribution ? html`<figcaption>&mdash; ${block.attribution}</figcaption>` : "";
  return html`<figure class="block quote"><blockquote>${markdownHtml(block.text)}</blockquote>${attribution}</figure>`;
}

export function renderCodeBlock(block: BlockOf<"code">, context: RenderContext): SafeHtml {
  const captionId = context.ids.next("code-caption");
  const caption = block.caption ? html` <span class="code-caption">${block.caption}</span>` : "";
  return html`<figure class="block code-block" aria-labelledby="${captionId}">
<figcaption id="${captionId}"><span class="code-language"><span class="visually-hidden">${uiText.codeLabel}: </span>${block.language}</span>${caption}</figcaption>
<pre tabindex="0"><code class="language-${block.language}">${block.code}</code></pre>
</figure>`;
}

export function renderDividerBlock(): SafeHtml {
  return html`<hr class="block divider">`;
}

export function renderAccordionBlock(block: BlockOf<"accordion">): SafeHtml {
  const items = block.items.map(
    (item) => html`<details class="accordion-item"><summary>${item.title}</summary><div class="accordion-body">${markdownHtml(item.markdown)}</div></details>`,
  );
  return html`<div class="block accordion">${items}</div>`;
}

export function renderTabsBlock(block: BlockOf<"tabs">, context: RenderContext): SafeHtml {
  const tabIds = block.tabs.map(() => context.ids.next("tab"));
  const panelIds = block.tabs.map(() => context.ids.next("tab-panel"));
  const tabs = block.tabs.map(
    (tab, index) =>
      html`<button type="button" role="tab" class="tab" id="${tabIds[index]}" aria-controls="${panelIds[index]}" aria-selected="${index === 0 ? "true" : "false"}" tabindex="${index === 0 ? "0" : "-1"}">${tab.title}</button>`,
  );
  const panels = block.tabs.map(
    (tab, index) =>
      html`<div role="tabpanel" class="tab-panel" id="${panelIds[index]}" aria-labelledby="${tabIds[index]}" data-print-title="${tab.title}" tabindex="0"${index === 0 ? "" : html` hidden`}>${markdownHtml(tab.markdown)}</div>`,
  );
  return html`<div class="block tabs" data-tabs><div role="tablist" class="tab-list">${tabs}</div>${panels}</div>`;
}

export function renderFlashcardsBlock(block: BlockOf<"flashcards">, context: RenderContext): SafeHtml {
  const cards = block.cards.map((card, index) => {
    const labelId = context.ids.next("flashcard-label");
    return html`<li class="flashcard" data-flashcard aria-labelledby="${labelId}">
<p class="flashcard-label" id="${labelId}">${uiText.flashcardLabel(index + 1, block.cards.length)}</p>
<div class="flashcard-faces" aria-live="polite">
<div class="flashcard-face flashcard-front" data-face="front"><p>${card.front}</p></div>
<div class="flashcard-face flashcard-back" data-face="back" hidden>${markdownHtml(card.back)}</div>
</div>
<button type="button" class="button flashcard-flip" data-flip data-show-back="${uiText.showBack}" data-show-front="${uiText.showFront}">${uiText.showBack}</button>
</li>`;
  });
  return html`<ul class="block flashcards" role="list">${cards}</ul>`;
}
