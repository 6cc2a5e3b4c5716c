/**
 * Markup for question blocks. Each question is a fieldset (legend: number and points; the prompt names
 * the group) with native, labelled controls, a "Check answer" button and an `aria-live` feedback region
 * holding the per-answer feedback and explanation, hidden until checked. Grading data sits in `data-`
 * attributes the in-page script reads; the correct answers are in the page, as in any offline quiz.
 */
import type { Block, QuestionBlock } from "../authoring/schemas/blocks.ts";
import type { LessonContext } from "./context.ts";
import { html, type SafeHtml } from "./html.ts";
import { markdownHtml, markdownWithBlanksHtml } from "./markdown.ts";
import { shuffledIndices } from "./shuffle.ts";
import { sortingAnswers } from "./sorting-block.ts";
import { pictureHtml } from "./teaching-blocks.ts";
import { uiText } from "./ui-text.ts";
import { promptAsksForAllThatApply } from "./question-hints.ts";

type BlockOf<Type extends Block["type"]> = Extract<Block, { type: Type }>;

/** How the script grades the question: which parts it reads and how it scores them. */
type Grading = "choice" | "blanks" | "matching" | "ordering";

interface FeedbackPiece {
  readonly id: string;
  /** Plain text naming the answer the feedback is about ("You chose “Paris”:"). */
  readonly about: string;
  readonly markdown: string;
}

/** Allocates an element for a part's feedback, if the author wrote one, and returns its attribute. */
class FeedbackCollector {
  readonly pieces: FeedbackPiece[] = [];
  constructor(private readonly context: LessonContext) {}

  attribute(markdown: string | undefined, about: string): SafeHtml | "" {
    if (!markdown) return "";
    const id = this.context.ids.next("feedback");
    this.pieces.push({ id, about, markdown });
    return html` data-feedback-id="${id}"`;
  }
}

export function renderQuestionBlock(block: QuestionBlock & { id: string }, context: LessonContext): SafeHtml {
  const feedback = new FeedbackCollector(context);
  const { grading, answers } = renderAnswers(block, context, feedback);
  const number = context.nextQuestionNumber();
  const legendId = context.ids.next("question-legend", block.id);
  const promptId = context.ids.next("question-prompt", block.id);
  const explanation = block.explanation
    ? html`<div class="explanation" data-explanation hidden><p class="explanation-label">${uiText.explanation}</p>${markdownHtml(block.explanation)}</div>`
    : "";
  const pieces = feedback.pieces.map(
    (piece) => html`<div class="answer-feedback" id="${piece.id}" data-answer-feedback hidden><p class="feedback-about">${piece.about}</p>${markdownHtml(piece.markdown)}</div>`,
  );
  return html`<div class="block question" data-question data-question-id="${block.id}" data-question-type="${block.type}" data-grading="${grading}" data-points="${block.points}">
<fieldset class="question-fieldset" aria-labelledby="${legendId} ${promptId}">
<legend class="question-legend" id="${legendId}">${uiText.questionHeading(number, block.points)}</legend>
<div class="question-prompt" id="${promptId}">${markdownHtml(block.prompt)}</div>
${answers}
</fieldset>
<div class="question-actions"><button type="button" class="button" data-check-answer>${uiText.checkAnswer}</button></div>
<div class="question-feedback" aria-live="polite" tabindex="-1" data-feedback-region>
<p class="verdict" data-verdict></p>${pieces}${explanation}
</div>
</div>`;
}

function renderAnswers(block: QuestionBlock, context: LessonContext, feedback: FeedbackCollector): { grading: Grading; answers: SafeHtml } {
  switch (block.type) {
    case "single_choice":
      return { grading: "choice", answers: choiceList("radio", block.choices, context, feedback) };
    case "multiple_choice":
      return {
        grading: "choice",
        answers: html`${promptAsksForAllThatApply(block.prompt) ? "" : html`<p class="question-hint">${uiText.selectAllThatApply}</p>`}${choiceList("checkbox", block.choices, context, feedback)}`,
      };
    case "true_false": {
      const choices = [
        { text: uiText.trueLabel, correct: block.answer, feedback: block.trueFeedback },
        { text: uiText.falseLabel, correct: !block.answer, feedback: block.falseFeedback },
      ];
      return { grading: "choice", answers: choiceList("radio", choices, context, feedback) };
    }
    case "fill_in_blank":
      return { grading: "blanks", answers: blanksText(block, context, feedback) };
    case "matching":
      return { grading: "matching", answers: matchingList(block, context, feedback) };
    case "ordering":
      return { grading: "ordering", answers: orderingList(block, context, feedback) };
    case "sorting":
      return { grading: "matching", answers: sortingAnswers(block, context, (markdown, about) => feedback.attribute(markdown, about)) };
  }
}

interface Choice {
  readonly text: string;
  readonly correct: boolean;
  readonly feedback?: string | undefined;
  readonly image?: { readonly assetId?: string | undefined; readonly url?: string | undefined; readonly alt?: string | undefined } | undefined;
}

function choiceList(inputType: "radio" | "checkbox", choices: readonly Choice[], context: LessonContext, feedback: FeedbackCollector): SafeHtml {
  const groupName = context.ids.next("choices");
  const items = choices.map((choice, index) => {
    const inputId = context.ids.next("choice");
    const feedbackAttribute = feedback.attribute(choice.feedback, uiText.youChose(choice.text));
    return html`<div class="choice"><input type="${inputType}" name="${groupName}" id="${inputId}" value="${index}" data-part data-correct="${choice.correct ? "true" : "false"}"${feedbackAttribute}><label for="${inputId}">${pictureHtml(choice.image, context, "choice-image")}${choice.text}</label></div>`;
  });
  return html`<div class="choice-list">${items}</div>`;
}

function blanksText(block: BlockOf<"fill_in_blank">, context: LessonContext, feedback: FeedbackCollector): SafeHtml {
  const text = markdownWithBlanksHtml(block.text, (number) => {
    const blank = block.blanks[number - 1];
    if (!blank) return html`{{${number}}}`;
    const feedbackAttribute = feedback.attribute(blank.feedback, uiText.aboutBlank(number));
    return html`<input type="text" class="blank" id="${context.ids.next("blank")}" aria-label="${uiText.blankLabel(number)}" autocomplete="off" autocapitalize="off" spellcheck="false" data-part data-answers="${JSON.stringify(blank.answers)}" data-case-sensitive="${blank.caseSensitive ? "true" : "false"}"${feedbackAttribute}>`;
  });
  return html`<div class="blank-text">${text}</div>`;
}

function matchingList(block: BlockOf<"matching">, context: LessonContext, feedback: FeedbackCollector): SafeHtml {
  const rightTexts = [...new Set(block.pairs.map((pair) => pair.right))];
  const optionOrder = shuffledIndices(rightTexts.length, block.id);
  const options = optionOrder.map((rightIndex) => html`<option value="${rightIndex}">${rightTexts[rightIndex]}</option>`);
  const rows = block.pairs.map((pair) => {
    const selectId = context.ids.next("match");
    const feedbackAttribute = feedback.attribute(pair.feedback, uiText.aboutPair(pair.left));
    return html`<li class="matching-row"><label for="${selectId}">${pair.left}</label><select id="${selectId}" data-part data-answer="${rightTexts.indexOf(pair.right)}"${feedbackAttribute}><option value="">${uiText.chooseMatch}</option>${options}</select></li>`;
  });
  return html`<ul class="matching-list" role="list">${rows}</ul>`;
}

function orderingList(block: BlockOf<"ordering">, context: LessonContext, feedback: FeedbackCollector): SafeHtml {
  const order = shuffledIndices(block.items.length, block.id);
  const items = order.map((position) => {
    const item = block.items[position];
    if (!item) return "";
    const feedbackAttribute = feedback.attribute(item.feedback, uiText.aboutItem(item.text));
    return html`<li class="ordering-item" data-part data-position="${position}"${feedbackAttribute}><span class="ordering-text">${item.text}</span><span class="ordering-controls"><button type="button" class="icon-button" data-move="up"><span aria-hidden="true">↑</span><span class="visually-hidden">${uiText.moveUp(item.text)}</span></button><button type="button" class="icon-button" data-move="down"><span aria-hidden="true">↓</span><span class="visually-hidden">${uiText.moveDown(item.text)}</span></button></span></li>`;
  });
  return html`<p class="question-hint">${uiText.arrangeInOrder}</p><ol class="ordering-list" data-ordering-list>${items}</ol><p class="visually-hidden" aria-live="polite" data-ordering-status></p>`;
}
