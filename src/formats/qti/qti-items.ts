/**
 * One question block as a QTI assessment item, written once in QTI 2.1's names and renamed for QTI 3.0
 * by `qtiDialects` (the 3.0 names are the 2.1 names kebab-cased with a `qti-` prefix). Response
 * processing scores as our player does: a choice question earns its points when the set picked is exactly
 * the right one, an ordering when the whole order is right; blanks, matching pairs and sorted items each
 * earn their share. Per-answer feedback and the explanation are modal feedback that the processing turns
 * on through the multiple-valued `FEEDBACK` outcome. Markdown travels as its own text, one `<p>` per
 * paragraph, so an import gives it back unchanged.
 */
import type { QuestionBlock } from "../../authoring/schemas/blocks.ts";
import type { QuestionType } from "../../authoring/schemas/question-blocks.ts";
import { el, type XmlElement } from "../../codecs/xml-write.ts";
import { addScore, baseValue, declaration, explanationId, feedback, float, paragraphs, setScore, showFeedback, value, variable, when, type ItemParts, type PictureHref } from "./qti-item-parts.ts";
import { itemIdentifier, type QtiVersion } from "./qti-names.ts";
import { dragOntoImageParts, hotspotParts, inlineChoiceParts, likertParts, numericParts, openResponseParts } from "./qti-more-items.ts";
import { unhandled } from "../../exhaustive.ts";
import { trueFalseWords } from "../../render/ui-text.ts";

function choiceParts(question: Extract<QuestionBlock, { type: "single_choice" | "multiple_choice" }>, shuffle: boolean, pictureHref: PictureHref): ItemParts {
  const choices = question.choices.map((choice, index) => ({ ...choice, identifier: `C${index + 1}` }));
  const multiple = question.type === "multiple_choice";
  const correct = choices.filter((choice) => choice.correct).map((choice) => choice.identifier);
  const interaction = el(
    "choiceInteraction",
    { responseIdentifier: "RESPONSE", shuffle: String(shuffle), maxChoices: multiple ? 0 : 1 },
    choices.map((choice) =>
      el(
        "simpleChoice",
        { identifier: choice.identifier, ...(choice.fixed ? { fixed: "true" } : {}) },
        choice.text,
        choice.image ? el("img", { src: pictureHref(choice.image), alt: choice.image.alt ?? "" }) : null,
      ),
    ),
  );
  const withFeedback = choices.filter((choice) => choice.feedback);
  return {
    declarations: [declaration("RESPONSE", multiple ? "multiple" : "single", "identifier", correct)],
    body: [interaction],
    processing: [
      when(el("match", {}, variable("RESPONSE"), el("correct", { identifier: "RESPONSE" })), addScore(question.points)),
      withFeedback.map((choice) =>
        when(multiple ? el("member", {}, baseValue("identifier", choice.identifier), variable("RESPONSE")) : el("match", {}, variable("RESPONSE"), baseValue("identifier", choice.identifier)), showFeedback(`FB_${choice.identifier}`)),
      ),
    ],
    feedback: withFeedback.map((choice) => feedback(`FB_${choice.identifier}`, choice.feedback ?? "")),
  };
}

/** The two choices worded in the bank's language: the LMS shows them to learners as they are. */
function trueFalseParts(question: Extract<QuestionBlock, { type: "true_false" }>, language: string): ItemParts {
  const words = trueFalseWords(language);
  const options = [
    { identifier: "true", text: words.true, feedback: question.trueFeedback },
    { identifier: "false", text: words.false, feedback: question.falseFeedback },
  ];
  const withFeedback = options.filter((option) => option.feedback);
  return {
    declarations: [declaration("RESPONSE", "single", "identifier", [String(question.answer)])],
    body: [el("choiceInteraction", { responseIdentifier: "RESPONSE", shuffle: "false", maxChoices: 1 }, options.map((option) => el("simpleChoice", { identifier: option.identifier }, option.text)))],
    processing: [
      when(el("match", {}, variable("RESPONSE"), el("correct", { identifier: "RESPONSE" })), addScore(question.points)),
      withFeedback.map((option) => when(el("match", {}, variable("RESPONSE"), baseValue("identifier", option.identifier)), showFeedback(`FB_${option.identifier}`))),
    ],
    feedback: withFeedback.map((option) => feedback(`FB_${option.identifier}`, option.feedback ?? "")),
  };
}

/** The sentence's paragraphs, each `{{n}}` an inline text entry. */
function sentenceWithEntries(text: string): XmlElement[] {
  return text
    .split(/\n{2,}/)
    .filter((part) => part.trim() !== "")
    .map((part) =>
      el(
        "p",
        {},
        part.split(/(\{\{\d+\}\})/).map((piece) => {
          const number = /^\{\{(\d+)\}\}$/.exec(piece)?.[1];
          return number ? el("textEntryInteraction", { responseIdentifier: `RESPONSE_${number}`, expectedLength: 20 }) : piece === "" ? null : piece;
        }),
      ),
    );
}

function blanksParts(question: Extract<QuestionBlock, { type: "fill_in_blank" }>): ItemParts {
  const share = question.points / question.blanks.length;
  return {
    declarations: question.blanks.map((blank, index) => declaration(`RESPONSE_${index + 1}`, "single", "string", [blank.answers[0] ?? ""])),
    body: [el("div", { class: "sentence" }, sentenceWithEntries(question.text))],
    processing: question.blanks.map((blank, index) => {
      const matches = blank.answers.map((answer) => el("stringMatch", { caseSensitive: String(blank.caseSensitive) }, variable(`RESPONSE_${index + 1}`), baseValue("string", answer)));
      return el(
        "responseCondition",
        {},
        el("responseIf", {}, matches.length === 1 ? matches[0] : el("or", {}, matches), addScore(share)),
        blank.feedback ? el("responseElse", {}, showFeedback(`FB_B${index + 1}`)) : null,
      );
    }),
    feedback: question.blanks.flatMap((blank, index) => (blank.feedback ? [feedback(`FB_B${index + 1}`, blank.feedback)] : [])),
  };
}

/** Matching (left to right) and sorting (item to category): pairs earn their share, a wrong pair shows its feedback. */
function associationParts(
  sources: readonly { identifier: string; text: string; target: string; feedback?: string | undefined }[],
  targets: readonly { identifier: string; text: string }[],
  targetMatchMax: number,
  points: number,
): ItemParts {
  const share = points / sources.length;
  const pairs = sources.map((source) => `${source.identifier} ${source.target}`);
  const mapping = el("mapping", { defaultValue: "0" }, pairs.map((pair) => el("mapEntry", { mapKey: pair, mappedValue: float(share) })));
  const withFeedback = sources.filter((source) => source.feedback);
  return {
    declarations: [declaration("RESPONSE", "multiple", "directedPair", pairs, mapping)],
    body: [
      el(
        "matchInteraction",
        { responseIdentifier: "RESPONSE", shuffle: "true", maxAssociations: sources.length },
        el("simpleMatchSet", {}, sources.map((source) => el("simpleAssociableChoice", { identifier: source.identifier, matchMax: 1 }, source.text))),
        el("simpleMatchSet", {}, targets.map((target) => el("simpleAssociableChoice", { identifier: target.identifier, matchMax: targetMatchMax }, target.text))),
      ),
    ],
    processing: [
      setScore(el("mapResponse", { identifier: "RESPONSE" })),
      withFeedback.map((source) => when(el("not", {}, el("member", {}, baseValue("directedPair", `${source.identifier} ${source.target}`), variable("RESPONSE"))), showFeedback(`FB_${source.identifier}`))),
    ],
    feedback: withFeedback.map((source) => feedback(`FB_${source.identifier}`, source.feedback ?? "")),
  };
}

function matchingParts(question: Extract<QuestionBlock, { type: "matching" }>): ItemParts {
  const sources = question.pairs.map((pair, index) => ({ identifier: `L${index + 1}`, text: pair.left, target: `R${index + 1}`, feedback: pair.feedback }));
  const targets = question.pairs.map((pair, index) => ({ identifier: `R${index + 1}`, text: pair.right }));
  return associationParts(sources, targets, 1, question.points);
}

function sortingParts(question: Extract<QuestionBlock, { type: "sorting" }>): ItemParts {
  const categoryId = new Map(question.categories.map((category, index) => [category.title, `K${index + 1}`]));
  const sources = question.items.map((item, index) => ({ identifier: `I${index + 1}`, text: item.text, target: categoryId.get(item.category) ?? "K1", feedback: item.feedback }));
  const targets = question.categories.map((category, index) => ({ identifier: `K${index + 1}`, text: category.title }));
  return associationParts(sources, targets, 0, question.points);
}

function orderingParts(question: Extract<QuestionBlock, { type: "ordering" }>): ItemParts {
  const items = question.items.map((item, index) => ({ ...item, identifier: `I${index + 1}` }));
  const withFeedback = items.map((item, index) => ({ ...item, position: index + 1 })).filter((item) => item.feedback);
  return {
    declarations: [declaration("RESPONSE", "ordered", "identifier", items.map((item) => item.identifier))],
    body: [el("orderInteraction", { responseIdentifier: "RESPONSE", shuffle: "true" }, items.map((item) => el("simpleChoice", { identifier: item.identifier }, item.text)))],
    processing: [
      when(el("match", {}, variable("RESPONSE"), el("correct", { identifier: "RESPONSE" })), addScore(question.points)),
      withFeedback.map((item) =>
        when(el("not", {}, el("match", {}, el("index", { n: item.position }, variable("RESPONSE")), baseValue("identifier", item.identifier))), showFeedback(`FB_${item.identifier}`)),
      ),
    ],
    feedback: withFeedback.map((item) => feedback(`FB_${item.identifier}`, item.feedback ?? "")),
  };
}

/** The question types this writer has an item for; a bank's other questions are left out and named in its notices. */
export const qtiCarries: { readonly [T in QuestionType]: boolean } = {
  single_choice: true,
  multiple_choice: true,
  true_false: true,
  fill_in_blank: true,
  matching: true,
  ordering: true,
  sorting: true,
  numeric: true,
  hotspot: true,
  drag_onto_image: true,
  inline_choice: true,
  open_response: true,
  likert: true,
};

type CarriedQuestion = QuestionBlock;

/** Whether `question` has an item here (see `qtiCarries`). */
export function isCarriedByQti(question: QuestionBlock): question is CarriedQuestion {
  return qtiCarries[question.type];
}

function partsOf(question: CarriedQuestion, shuffle: boolean, pictureHref: PictureHref, language: string, version: QtiVersion): ItemParts {
  switch (question.type) {
    case "single_choice":
    case "multiple_choice":
      return choiceParts(question, shuffle, pictureHref);
    case "true_false":
      return trueFalseParts(question, language);
    case "fill_in_blank":
      return blanksParts(question);
    case "matching":
      return matchingParts(question);
    case "ordering":
      return orderingParts(question);
    case "sorting":
      return sortingParts(question);
    case "numeric":
      return numericParts(question);
    case "hotspot":
      return hotspotParts(question, pictureHref);
    case "drag_onto_image":
      return dragOntoImageParts(question, pictureHref, version);
    case "inline_choice":
      return inlineChoiceParts(question);
    case "open_response":
      return openResponseParts(question);
    case "likert":
      return likertParts(question);
    default:
      return unhandled(question);
  }
}

/** The item, in QTI 2.1 names, with the question type kept in `label` so our import knows a sorting from a matching. */
export function qtiItem(question: CarriedQuestion, options: { title: string; language: string; shuffle: boolean; pictureHref: PictureHref; version: QtiVersion }): XmlElement {
  const parts = partsOf(question, options.shuffle, options.pictureHref, options.language, options.version);
  // A likert question is never scored: its item's maximum is 0.
  const points = question.type === "likert" ? 0 : question.points;
  const explanation = question.explanation ? feedback(explanationId, question.explanation) : null;
  return el(
    "assessmentItem",
    { identifier: itemIdentifier(question.id), title: options.title, label: question.type, adaptive: "false", timeDependent: "false", "xml:lang": options.language },
    parts.declarations,
    el("outcomeDeclaration", { identifier: "SCORE", cardinality: "single", baseType: "float", normalMaximum: float(points) }, el("defaultValue", {}, value("0"))),
    el("outcomeDeclaration", { identifier: "MAXSCORE", cardinality: "single", baseType: "float" }, el("defaultValue", {}, value(float(points)))),
    el("outcomeDeclaration", { identifier: "FEEDBACK", cardinality: "multiple", baseType: "identifier" }),
    el("itemBody", {}, el("div", { class: "prompt" }, paragraphs(question.prompt)), parts.body),
    el(
      "responseProcessing",
      {},
      explanation ? el("setOutcomeValue", { identifier: "FEEDBACK" }, el("multiple", {}, baseValue("identifier", explanationId))) : null,
      parts.processing,
    ),
    explanation,
    parts.feedback,
  );
}
