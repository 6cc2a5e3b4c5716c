/**
 * Markup for question blocks. Each question is a fieldset (legend: number and points; the prompt names
 * the group) with native, labelled controls, a "Check answer" button where checking is allowed, and an
 * `aria-live` feedback region holding the per-answer feedback and explanation, hidden until checked.
 * No answer key is readable in the markup: each question carries salted hashes of the responses that
 * earn its parts (`data-key`) and its right answer sealed (`data-sealed`), see `answer-key.ts`.
 */
import type { Block, QuestionBlock } from "../authoring/schemas/blocks.ts";
import type { LessonContext } from "./context.ts";
import { html, type SafeHtml } from "./html.ts";
import { answerKey, normaliseTypedAnswer, seal } from "./answer-key.ts";
import { markdownHtml, markdownWithBlanksHtml } from "./markdown.ts";
import { shuffledIndices } from "./shuffle.ts";
import { sortingAnswers, sortingKey } from "./sorting-block.ts";
import { pictureHtml } from "./teaching-blocks.ts";
import { uiText } from "./ui-text.ts";
import { promptAsksForAllThatApply } from "./question-hints.ts";
import { ClassName, DataName } from "../page-contract/markup-names.ts";
import { unhandled } from "../exhaustive.ts";
import { isUnscoredQuestionType } from "../authoring/schemas/question-blocks.ts";
import { dragOntoImageAnswers, hotspotAnswers, inlineChoiceAnswers, likertAnswers, numericAnswers, openResponseAnswers } from "./more-question-blocks.ts";

type BlockOf<Type extends Block["type"]> = Extract<Block, { type: Type }>;

/** How the script grades the question: which parts it reads and how it scores them. */
type Grading = "choice" | "blanks" | "matching" | "ordering" | "self";

/**
 * What grading a question needs, without putting it in the page readable: for each part the responses
 * that earn it (in the form the page's `responseParts` builds for that grading), and the right answer in
 * the neutral form `QuestionAnswer.response` uses, which the LMS report needs after submitting.
 */
export interface QuestionKey {
  readonly parts: readonly (readonly string[])[];
  readonly correctResponse: readonly string[];
  /** Other responses that are just as right (fill-in: the other accepted answers), for the LMS report's patterns. */
  readonly otherCorrectResponses?: readonly (readonly string[])[];
}

/** The most right responses a question reports: a fill-in's blanks multiply their accepted answers. */
export const maxCorrectResponses = 10;

/**
 * Every combination of one accepted answer per blank, the first answers first, at most `maxCorrectResponses`
 * in all, without the all-first one (that is `correctResponse`).
 */
function otherAnswerCombinations(blanks: readonly (readonly string[])[]): string[][] {
  let combinations: string[][] = [[]];
  for (const answers of blanks) {
    const choices = answers.length > 0 ? answers : [""];
    combinations = combinations.flatMap((combination) => choices.map((answer) => [...combination, answer])).slice(0, maxCorrectResponses);
  }
  return combinations.slice(1);
}

/** The question's key as attributes: salted hashes per part and the sealed right answer. */
export function questionKeyAttributes(context: LessonContext, questionId: string, key: QuestionKey): SafeHtml {
  const secrets = context.secrets;
  return html` data-key="${JSON.stringify(answerKey(secrets, questionId, key.parts))}" data-sealed="${seal(secrets, questionId, { c: key.correctResponse, ...(key.otherCorrectResponses?.length ? { o: key.otherCorrectResponses } : {}) })}"`;
}

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
    const id = this.piece(markdown, about);
    return id ? html` data-${DataName.feedbackId}="${id}"` : "";
  }

  /** A piece the question shows by its own rule (a number right or wrong, the model answer): its id, "" without text. */
  piece(markdown: string | undefined, about: string): string {
    if (!markdown) return "";
    const id = this.context.ids.next("feedback");
    this.pieces.push({ id, about, markdown });
    return id;
  }
}

export function renderQuestionBlock(block: QuestionBlock & { id: string }, context: LessonContext): SafeHtml {
  const feedback = new FeedbackCollector(context);
  const { grading, answers, key, attributes } = renderAnswers(block, context, feedback);
  const number = context.nextQuestionNumber();
  // Open responses and likert scales are never scored: they carry no points and say so in their heading.
  const points = isUnscoredQuestionType(block.type) || !("points" in block) ? 0 : block.points;
  const heading = isUnscoredQuestionType(block.type) ? uiText.questionHeadingUnscored(number) : uiText.questionHeading(number, points);
  const legendId = context.ids.next("question-legend", block.id);
  const promptId = context.ids.next("question-prompt", block.id);
  const { showsFeedback, canCheck } = context.questionMode;
  const explanation =
    block.explanation && showsFeedback
      ? html`<div class="${ClassName.explanation}" data-${DataName.explanation} hidden><p class="${ClassName.explanationLabel}">${uiText.explanation}</p>${markdownHtml(block.explanation)}</div>`
      : "";
  const pieces = showsFeedback
    ? feedback.pieces.map(
        (piece) => html`<div class="${ClassName.answerFeedback}" id="${piece.id}" data-${DataName.answerFeedback} hidden><p class="${ClassName.feedbackAbout}">${piece.about}</p>${markdownHtml(piece.markdown)}</div>`,
      )
    : [];
  const check = canCheck ? html`<div class="${ClassName.questionActions}"><button type="button" class="${ClassName.button}" data-${DataName.checkAnswer}>${uiText.checkAnswer}</button></div>` : "";
  return html`<div class="${ClassName.block} ${ClassName.question}" data-${DataName.question} data-${DataName.questionId}="${block.id}" data-${DataName.questionType}="${block.type}" data-${DataName.grading}="${grading}" data-${DataName.points}="${points}" data-${DataName.objectives}="${block.objectiveIds.join(" ")}"${questionKeyAttributes(context, block.id, key)}${attributes ?? ""}>
<fieldset class="${ClassName.questionFieldset}" aria-labelledby="${legendId} ${promptId}">
<legend class="${ClassName.questionLegend}" id="${legendId}" data-${DataName.questionLegend}>${heading}</legend>
<div class="${ClassName.questionPrompt}" id="${promptId}">${markdownHtml(block.prompt)}</div>
${answers}
</fieldset>
${check}
<div class="${ClassName.questionFeedback}" aria-live="polite" tabindex="-1" data-${DataName.feedbackRegion}>
<p class="${ClassName.verdict}" data-${DataName.verdict}></p>${pieces}${explanation}
</div>
</div>`;
}

interface RenderedAnswers {
  readonly grading: Grading;
  readonly answers: SafeHtml;
  readonly key: QuestionKey;
  readonly attributes?: SafeHtml;
}

function renderAnswers(block: QuestionBlock, context: LessonContext, feedback: FeedbackCollector): RenderedAnswers {
  switch (block.type) {
    case "single_choice":
      return { grading: "choice", answers: choiceList("radio", block.choices, context, feedback), key: choiceKey(block.choices) };
    case "multiple_choice":
      return {
        grading: "choice",
        answers: html`${promptAsksForAllThatApply(block.prompt) ? "" : html`<p class="${ClassName.questionHint}">${uiText.selectAllThatApply}</p>`}${choiceList("checkbox", block.choices, context, feedback)}`,
        key: choiceKey(block.choices),
      };
    case "true_false": {
      const choices = [
        { text: uiText.trueLabel, correct: block.answer, feedback: block.trueFeedback },
        { text: uiText.falseLabel, correct: !block.answer, feedback: block.falseFeedback },
      ];
      return { grading: "choice", answers: choiceList("radio", choices, context, feedback), key: choiceKey(choices) };
    }
    case "fill_in_blank":
      return {
        grading: "blanks",
        answers: blanksText(block, context, feedback),
        key: {
          parts: block.blanks.map((blank) => blank.answers.map((answer) => normaliseTypedAnswer(answer, blank.caseSensitive))),
          correctResponse: block.blanks.map((blank) => blank.answers[0] ?? ""),
          otherCorrectResponses: otherAnswerCombinations(block.blanks.map((blank) => blank.answers)),
        },
      };
    case "matching":
      return { grading: "matching", answers: matchingList(block, context, feedback), key: matchingKey(block) };
    case "ordering":
      return { grading: "ordering", answers: orderingList(block, context, feedback), key: orderingKey(block) };
    case "sorting":
      return { grading: "matching", answers: sortingAnswers(block, context, (markdown, about) => feedback.attribute(markdown, about)), key: sortingKey(block) };
    case "hotspot":
      return hotspotAnswers(block, context, (markdown, about) => feedback.attribute(markdown, about));
    case "drag_onto_image":
      return dragOntoImageAnswers(block, context, (markdown, about) => feedback.attribute(markdown, about));
    case "inline_choice":
      return inlineChoiceAnswers(block, context, (markdown, about) => feedback.attribute(markdown, about));
    case "numeric":
      return numericAnswers(block, context, (markdown, about) => feedback.piece(markdown, about));
    case "open_response":
      return openResponseAnswers(block, context, (markdown, about) => feedback.piece(markdown, about));
    case "likert":
      return likertAnswers(block, context);
    default:
      return unhandled(block, "question type");
  }
}

/** One part: the indices of the correct choices, ascending, comma-separated. */
function choiceKey(choices: readonly Choice[]): QuestionKey {
  const correct = choices.flatMap((choice, index) => (choice.correct ? [String(index)] : []));
  return { parts: [[correct.join(",")]], correctResponse: correct };
}

function rightTextsOf(block: BlockOf<"matching">): string[] {
  return [...new Set(block.pairs.map((pair) => pair.right))];
}

/** One part per row: the index of its right-hand text. */
function matchingKey(block: BlockOf<"matching">): QuestionKey {
  const rights = rightTextsOf(block);
  const correct = block.pairs.map((pair) => String(rights.indexOf(pair.right)));
  return { parts: correct.map((index) => [index]), correctResponse: correct };
}

/** Items are named by the place they are first shown at; one part: those names in the right order. */
export function orderingDisplayOrder(block: BlockOf<"ordering">): number[] {
  return shuffledIndices(block.items.length, block.id);
}

function orderingKey(block: BlockOf<"ordering">): QuestionKey {
  const shown = orderingDisplayOrder(block);
  const correct = block.items.map((_, position) => String(shown.indexOf(position)));
  return { parts: [[correct.join(",")]], correctResponse: correct };
}

interface Choice {
  readonly text: string;
  readonly correct: boolean;
  readonly fixed?: boolean | undefined;
  readonly feedback?: string | undefined;
  readonly image?: { readonly assetId?: string | undefined; readonly url?: string | undefined; readonly alt?: string | undefined } | undefined;
}

function choiceList(inputType: "radio" | "checkbox", choices: readonly Choice[], context: LessonContext, feedback: FeedbackCollector): SafeHtml {
  const groupName = context.ids.next("choices");
  const items = choices.map((choice, index) => {
    const inputId = context.ids.next("choice");
    const feedbackAttribute = feedback.attribute(choice.feedback, uiText.youChose(choice.text));
    const fixed = choice.fixed ? html` data-${DataName.fixed}` : "";
    return html`<div class="${ClassName.choice}"${fixed}><input type="${inputType}" name="${groupName}" id="${inputId}" value="${index}" data-${DataName.part}${feedbackAttribute}><label for="${inputId}">${pictureHtml(choice.image, context, ClassName.choiceImage)}${choice.text}</label></div>`;
  });
  return html`<div class="${ClassName.choiceList}">${items}</div>`;
}

function blanksText(block: BlockOf<"fill_in_blank">, context: LessonContext, feedback: FeedbackCollector): SafeHtml {
  const text = markdownWithBlanksHtml(block.text, (number) => {
    const blank = block.blanks[number - 1];
    if (!blank) return html`{{${number}}}`;
    const feedbackAttribute = feedback.attribute(blank.feedback, uiText.aboutBlank(number));
    return html`<input type="text" class="${ClassName.blank}" id="${context.ids.next("blank")}" aria-label="${uiText.blankLabel(number)}" autocomplete="off" autocapitalize="off" spellcheck="false" data-${DataName.part} data-${DataName.caseSensitive}="${blank.caseSensitive ? "true" : "false"}"${feedbackAttribute}>`;
  });
  return html`<div class="blank-text">${text}</div>`;
}

function matchingList(block: BlockOf<"matching">, context: LessonContext, feedback: FeedbackCollector): SafeHtml {
  const rightTexts = rightTextsOf(block);
  const optionOrder = shuffledIndices(rightTexts.length, block.id);
  const options = optionOrder.map((rightIndex) => html`<option value="${rightIndex}">${rightTexts[rightIndex]}</option>`);
  const rows = block.pairs.map((pair) => {
    const selectId = context.ids.next("match");
    const feedbackAttribute = feedback.attribute(pair.feedback, uiText.aboutPair(pair.left));
    return html`<li class="${ClassName.matchingRow}"><label for="${selectId}">${pair.left}</label><select id="${selectId}" data-${DataName.part}${feedbackAttribute}><option value="">${uiText.chooseMatch}</option>${options}</select></li>`;
  });
  return html`<ul class="${ClassName.matchingList}" role="list">${rows}</ul>`;
}

function orderingList(block: BlockOf<"ordering">, context: LessonContext, feedback: FeedbackCollector): SafeHtml {
  const order = orderingDisplayOrder(block);
  const items = order.map((position, shownAt) => {
    const item = block.items[position];
    if (!item) return "";
    const feedbackAttribute = feedback.attribute(item.feedback, uiText.aboutItem(item.text));
    return html`<li class="${ClassName.orderingItem}" data-${DataName.part} data-${DataName.item}="${shownAt}"${feedbackAttribute}><button type="button" class="${ClassName.orderingText}" data-${DataName.pick} aria-pressed="false">${item.text}</button><span class="${ClassName.orderingControls}"><button type="button" class="${ClassName.iconButton}" data-${DataName.move}="up"><span aria-hidden="true">↑</span><span class="${ClassName.visuallyHidden}">${uiText.moveUp(item.text)}</span></button><button type="button" class="${ClassName.iconButton}" data-${DataName.move}="down"><span aria-hidden="true">↓</span><span class="${ClassName.visuallyHidden}">${uiText.moveDown(item.text)}</span></button></span></li>`;
  });
  return html`<p class="${ClassName.questionHint}">${uiText.arrangeInOrder}</p><ol class="${ClassName.orderingList}" data-${DataName.orderingList}>${items}</ol><p class="${ClassName.visuallyHidden}" aria-live="polite" data-${DataName.orderingStatus}></p>`;
}
