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
import { ClassName, DataName } from "../page-contract/markup-names.ts";

type BlockOf<Type extends Block["type"]> = Extract<Block, { type: Type }>;

export function renderTextBlock(block: BlockOf<"text">): SafeHtml {
  return html`<div class="${ClassName.block} block-text">${markdownHtml(block.markdown)}</div>`;
}

export function renderHeadingBlock(block: BlockOf<"heading">): SafeHtml {
  const level = headingLevels.includes(block.level) ? block.level : 2;
  const tag = `h${level}`;
  return html`<${tag} class="${ClassName.block} block-heading">${block.text}</${tag}>`;
}

/** Each variant's class, which sets its colours. */
const calloutClasses: Record<(typeof calloutVariants)[number], ClassName> = {
  info: ClassName.calloutInfo,
  tip: ClassName.calloutTip,
  note: ClassName.calloutNote,
  warning: ClassName.calloutWarning,
  danger: ClassName.calloutDanger,
  success: ClassName.calloutSuccess,
};

export function renderCalloutBlock(block: BlockOf<"callout">, context: RenderContext): SafeHtml {
  const variant = calloutVariants.includes(block.variant) ? block.variant : "info";
  const titleId = context.ids.next("callout-title");
  const variantLabel = uiText.calloutVariants[variant] ?? variant;
  const title = block.title ? html`<span class="${ClassName.visuallyHidden}">${variantLabel}: </span>${block.title}` : html`${variantLabel}`;
  return html`<div class="${ClassName.block} ${ClassName.callout} ${calloutClasses[variant]}" role="note" aria-labelledby="${titleId}">
<p class="${ClassName.calloutTitle}" id="${titleId}">${title}</p>
<div class="${ClassName.calloutBody}">${markdownHtml(block.markdown)}</div>
</div>`;
}

export function renderQuoteBlock(block: BlockOf<"quote">): SafeHtml {
  const attribution = block.attribution ? html`<figcaption>&mdash; ${block.attribution}</figcaption>` : "";
  return html`<figure class="${ClassName.block} ${ClassName.quote}"><blockquote>${markdownHtml(block.text)}</blockquote>${attribution}</figure>`;
}

/** Names a code block's language takes when it has none, which read to a learner as the pack's "plain text". */
const plainTextNames = new Set(["plaintext", "plain", "text", "txt"]);

/** The language a code block shows: its name, or the pack's words for plain text (imports store "plaintext"). */
function codeLanguageLabel(language: string): string {
  return plainTextNames.has(language.toLowerCase()) ? uiText.plainTextLanguage : language;
}

export function renderCodeBlock(block: BlockOf<"code">, context: RenderContext): SafeHtml {
  const captionId = context.ids.next("code-caption");
  const caption = block.caption ? html` <span class="code-caption">${block.caption}</span>` : "";
  return html`<figure class="${ClassName.block} ${ClassName.codeBlock}" aria-labelledby="${captionId}">
<figcaption id="${captionId}"><span class="${ClassName.codeLanguage}"><span class="${ClassName.visuallyHidden}">${uiText.codeLabel}: </span>${codeLanguageLabel(block.language)}</span>${caption}</figcaption>
<pre tabindex="0"><code class="language-${block.language}">${block.code}</code></pre>
</figure>`;
}

export function renderDividerBlock(): SafeHtml {
  return html`<hr class="${ClassName.block} ${ClassName.divider}">`;
}

export function renderAccordionBlock(block: BlockOf<"accordion">): SafeHtml {
  const items = block.items.map(
    (item) => html`<details class="${ClassName.accordionItem}"><summary>${item.title}</summary><div class="${ClassName.accordionBody}">${markdownHtml(item.markdown)}</div></details>`,
  );
  return html`<div class="${ClassName.block} accordion">${items}</div>`;
}

export function renderTabsBlock(block: BlockOf<"tabs">, context: RenderContext): SafeHtml {
  const tabIds = block.tabs.map(() => context.ids.next("tab"));
  const panelIds = block.tabs.map(() => context.ids.next("tab-panel"));
  const tabs = block.tabs.map(
    (tab, index) =>
      html`<button type="button" role="tab" class="${ClassName.tab}" id="${tabIds[index]}" aria-controls="${panelIds[index]}" aria-selected="${index === 0 ? "true" : "false"}" tabindex="${index === 0 ? "0" : "-1"}">${tab.title}</button>`,
  );
  const panels = block.tabs.map(
    (tab, index) =>
      html`<div role="tabpanel" class="${ClassName.tabPanel}" id="${panelIds[index]}" aria-labelledby="${tabIds[index]}" data-${DataName.printTitle}="${tab.title}" tabindex="0"${index === 0 ? "" : html` hidden`}>${markdownHtml(tab.markdown)}</div>`,
  );
  return html`<div class="${ClassName.block} tabs" data-${DataName.tabs}><div role="tablist" class="${ClassName.tabList}">${tabs}</div>${panels}</div>`;
}

export function renderFlashcardsBlock(block: BlockOf<"flashcards">, context: RenderContext): SafeHtml {
  const cards = block.cards.map((card, index) => {
    const labelId = context.ids.next("flashcard-label");
    return html`<li class="${ClassName.flashcard}" data-${DataName.flashcard} aria-labelledby="${labelId}">
<p class="${ClassName.flashcardLabel}" id="${labelId}">${uiText.flashcardLabel(index + 1, block.cards.length)}</p>
<div class="${ClassName.flashcardFaces}" aria-live="polite">
<div class="${ClassName.flashcardFace} ${ClassName.flashcardFront}" data-${DataName.face}="front"><p>${card.front}</p></div>
<div class="${ClassName.flashcardFace} ${ClassName.flashcardBack}" data-${DataName.face}="back" hidden>${markdownHtml(card.back)}</div>
</div>
<button type="button" class="${ClassName.button} flashcard-flip" data-${DataName.flip} data-${DataName.showBack}="${uiText.showBack}" data-${DataName.showFront}="${uiText.showFront}">${uiText.showBack}</button>
</li>`;
  });
  return html`<ul class="${ClassName.block} ${ClassName.flashcards}" role="list">${cards}</ul>`;
}
