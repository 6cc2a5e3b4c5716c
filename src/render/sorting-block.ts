/**
 * The answer area of a sorting question. Every item carries a category picker (a labelled `<select>`),
 * which is the keyboard and screen-reader path and what the quiz script grades (as a matching question:
 * each select's value against the hashed key `sortingKey` gives, one part per item in authored order). The category boxes are drop targets the in-page script
 * wires up for dragging, moving an item there and setting its picker, so both paths stay one state.
 */
import type { Block } from "../authoring/schemas/blocks.ts";
import type { LessonContext } from "./context.ts";
import { html, type SafeHtml } from "./html.ts";
import { interactionText } from "./ui-text.ts";
import { shuffledIndices } from "./shuffle.ts";
import { ClassName, DataName } from "../page-contract/markup-names.ts";

type Sorting = Extract<Block, { type: "sorting" }>;

/** Adds an author's feedback for one item and returns its attribute (as `FeedbackCollector.attribute`). */
export type FeedbackAttribute = (markdown: string | undefined, about: string) => SafeHtml | "";

export function sortingAnswers(block: Sorting, context: LessonContext, feedback: FeedbackAttribute): SafeHtml {
  const titles = block.categories.map((category) => category.title);
  const options = titles.map((title, index) => html`<option value="${index}">${title}</option>`);
  const order = shuffledIndices(block.items.length, block.id);
  const items = order.map((position) => {
    const item = block.items[position];
    if (!item) return "";
    const selectId = context.ids.next("sort");
    const feedbackAttribute = feedback(item.feedback, `“${item.text}”:`);
    return html`<li class="${ClassName.matchingRow} ${ClassName.sortingItem}" data-${DataName.sortItem} draggable="true"><label for="${selectId}">${item.text}</label><select id="${selectId}" data-${DataName.part} data-${DataName.item}="${position}" aria-label="${interactionText.categoryOf(item.text)}"${feedbackAttribute}><option value="">${interactionText.chooseCategory}</option>${options}</select></li>`;
  });
  const bins = titles.map((title, index) => {
    const headingId = context.ids.next("sort-category");
    return html`<div class="${ClassName.sortingCategory}" data-${DataName.sortCategory}="${index}" role="group" aria-labelledby="${headingId}"><p class="${ClassName.sortingCategoryTitle}" id="${headingId}">${title}</p><ul class="${ClassName.sortingBin}" role="list" data-${DataName.sortBin}></ul></div>`;
  });
  return html`<p class="${ClassName.questionHint}">${interactionText.sortingHint}</p>
<div class="${ClassName.sorting}" data-${DataName.sorting}>
<div class="${ClassName.sortingPool}" data-${DataName.sortCategory}="" role="group" aria-label="${interactionText.unsorted}"><ul class="${ClassName.sortingBin} ${ClassName.matchingList}" role="list" data-${DataName.sortBin}>${items}</ul></div>
<div class="${ClassName.sortingCategories}" data-${DataName.sortCategories} hidden>${bins}</div>
</div><p class="${ClassName.visuallyHidden}" aria-live="polite" data-${DataName.sortStatus}></p>`;
}

/** One part per item, in authored order: the index of its category. */
export function sortingKey(block: Sorting): { parts: string[][]; correctResponse: string[] } {
  const titles = block.categories.map((category) => category.title);
  const correct = block.items.map((item) => String(titles.indexOf(item.category)));
  return { parts: correct.map((index) => [index]), correctResponse: correct };
}
