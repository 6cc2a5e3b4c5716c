/**
 * A quiz lesson as an IMS QTI 1.2.1 assessment in the Common Cartridge profile (`cc.exam.v0p1`): single
 * choice and true/false as `cc.multiple_choice` / `cc.true_false`, multiple choice as
 * `cc.multiple_response`, a one-blank fill-in as `cc.fib`. Each question carries its explanation as
 * general feedback (`general_fb`, always shown) and the author's per-answer feedback as `itemfeedback`
 * that a response condition displays (the choice picked; a wrong blank). Matching, ordering and
 * multi-blank questions have no CC profile; they are left out and reported so the caller can say so.
 */
import { isQuestionType } from "../../authoring/schemas/question-blocks.ts";
import { renderMarkdown } from "../../render/index.ts";
import { trueFalseWords } from "../../render/ui-text.ts";
import type { RenderableBlock, RenderableLesson } from "../../render/types.ts";
import { el, xmlAttribute, xmlDocument, xmlId, xmlText, type XmlChild, type XmlElement } from "../../codecs/xml-write.ts";
import { unhandled } from "../../exhaustive.ts";

export const qtiNamespace = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2";

interface Choice {
  readonly text: string;
  readonly correct: boolean;
  /** Keeps its place when the choices are shuffled. */
  readonly fixed?: boolean;
  /** Where the choice's picture is, from the assessment, and its alt text. */
  readonly picture?: { readonly src: string; readonly alt: string };
  /** Markdown shown to a learner who picks this choice. */
  readonly feedback?: string;
}

interface QuestionBase {
  readonly id: string;
  readonly prompt: string;
  readonly points: number;
  /** Markdown shown once the question is answered, whatever the answer. */
  readonly explanation?: string;
}

type Question =
  | (QuestionBase & { readonly kind: "single" | "multiple" | "true_false"; readonly choices: readonly Choice[]; readonly shuffle: boolean })
  | (QuestionBase & { readonly kind: "fib"; readonly answers: readonly string[]; readonly caseSensitive: boolean; readonly wrongFeedback?: string });

export interface QtiAssessment {
  readonly xml: string;
  readonly includedQuestions: number;
  /** Block IDs of questions the CC profile cannot express. */
  readonly skippedBlockIds: readonly string[];
}

function field(label: string, entry: string): XmlElement {
  return el("qtimetadatafield", {}, el("fieldlabel", {}, label), el("fieldentry", {}, entry));
}

function html(markdown: string): XmlElement {
  return el("material", {}, el("mattext", { texttype: "text/html" }, renderMarkdown(markdown)));
}

function plain(text: string): XmlElement {
  return el("material", {}, el("mattext", { texttype: "text/plain" }, text));
}

/** How the assessment reaches the cartridge's files: `$IMS-CC-FILEBASE$` stands for `web_resources/`. */
export interface QtiAssessmentOptions {
  /** The picture's path under `web_resources/`, or its URL; "" when it cannot be shown. */
  readonly pictureHref: (picture: { assetId?: string; url?: string }) => string;
  /** The course's language: a true/false question's choices are worded in it (English when absent). */
  readonly language?: string;
}

function asQuestion(block: RenderableBlock, shuffle: boolean, options: QtiAssessmentOptions): Question | null {
  if (!isQuestionType(block.type)) return null;
  const data = block as unknown as Record<string, unknown>;
  const prompt = typeof data.prompt === "string" ? data.prompt : "";
  const points = typeof data.points === "number" ? data.points : 1;
  const markdownOf = (value: unknown): { feedback?: string } => (typeof value === "string" && value.trim() !== "" ? { feedback: value } : {});
  const base: QuestionBase = { id: block.id, prompt, points, ...(typeof data.explanation === "string" && data.explanation.trim() !== "" ? { explanation: data.explanation } : {}) };
  const pictureOf = (image: unknown): { picture?: { src: string; alt: string } } => {
    if (typeof image !== "object" || image === null) return {};
    const { assetId, url, alt } = image as { assetId?: string; url?: string; alt?: string };
    const src = options.pictureHref({ ...(assetId ? { assetId } : {}), ...(url ? { url } : {}) });
    return src ? { picture: { src, alt: alt ?? "" } } : {};
  };
  const choices = Array.isArray(data.choices)
    ? (data.choices as { text?: unknown; correct?: unknown; feedback?: unknown; fixed?: unknown; image?: unknown }[]).map((choice) => ({
        text: String(choice.text ?? ""),
        correct: choice.correct === true,
        ...(choice.fixed === true ? { fixed: true } : {}),
        ...markdownOf(choice.feedback),
        ...pictureOf(choice.image),
      }))
    : [];
  switch (block.type) {
    case "single_choice":
      return { ...base, kind: "single", choices, shuffle };
    case "multiple_choice":
      return { ...base, kind: "multiple", choices, shuffle };
    case "true_false": {
      // The LMS shows the choices as written, so they are worded in the course's language.
      const words = trueFalseWords(options.language ?? "en");
      return {
        ...base,
        kind: "true_false",
        shuffle: false,
        choices: [
          { text: words.true, correct: data.answer === true, ...markdownOf(data.trueFeedback) },
          { text: words.false, correct: data.answer === false, ...markdownOf(data.falseFeedback) },
        ],
      };
    }
    case "fill_in_blank": {
      const blanks = Array.isArray(data.blanks) ? (data.blanks as { answers?: unknown; caseSensitive?: unknown; feedback?: unknown }[]) : [];
      const [blank] = blanks;
      if (blanks.length !== 1 || !blank || !Array.isArray(blank.answers)) return null;
      const sentence = typeof data.text === "string" ? data.text.replace(/\{\{1\}\}/g, "_____") : "";
      const wrong = markdownOf(blank.feedback).feedback;
      return { ...base, kind: "fib", prompt: `${prompt}\n\n${sentence}`, answers: blank.answers.map(String), caseSensitive: blank.caseSensitive === true, ...(wrong ? { wrongFeedback: wrong } : {}) };
    }
    // Common Cartridge's QTI profile has no item for these; the export's notices name each one left out.
    case "matching":
    case "ordering":
    case "sorting":
    case "numeric":
    case "hotspot":
    case "drag_onto_image":
    case "inline_choice":
    case "open_response":
    case "likert":
      return null;
    default:
      return unhandled(block.type, "question type");
  }
}

const profiles = { single: "cc.multiple_choice.v0p1", multiple: "cc.multiple_response.v0p1", true_false: "cc.true_false.v0p1", fib: "cc.fib.v0p1" } as const;

function scoreOutcome(): XmlElement {
  return el("outcomes", {}, el("decvar", { maxvalue: "100", minvalue: "0", varname: "SCORE", vartype: "Decimal" }));
}

function setFullScore(): XmlElement {
  return el("setvar", { action: "Set", varname: "SCORE" }, "100");
}

const generalFeedbackId = "general_fb";

/** `itemfeedback` holding author Markdown as HTML. */
function itemFeedback(ident: string, markdown: string): XmlElement {
  return el("itemfeedback", { ident }, el("flow_mat", {}, html(markdown)));
}

/** Shows `linkrefid` when `condition` holds, and goes on to the next condition (scoring comes last). */
function showFeedback(condition: XmlElement, linkrefid: string): XmlElement {
  return el("respcondition", { continue: "Yes" }, condition, el("displayfeedback", { feedbacktype: "Response", linkrefid }));
}

/** The explanation, shown whatever the answer. */
function explanationParts(question: Question): { condition: XmlElement | null; feedback: XmlElement | null } {
  if (!question.explanation) return { condition: null, feedback: null };
  return { condition: showFeedback(el("conditionvar", {}, el("other")), generalFeedbackId), feedback: itemFeedback(generalFeedbackId, question.explanation) };
}

/** A choice's material: its text, and its picture as HTML pointing at the cartridge's file. */
function choiceMaterial(choice: Choice): XmlElement {
  if (!choice.picture) return plain(choice.text);
  return el("material", {}, el("mattext", { texttype: "text/html" }, `<p>${xmlText(choice.text)} <img src="${xmlAttribute(choice.picture.src)}" alt="${xmlAttribute(choice.picture.alt)}"></p>`));
}

function choiceItemParts(question: Extract<Question, { choices: readonly Choice[] }>): XmlChild[] {
  const labels = question.choices.map((choice, index) => ({ ...choice, ident: `${question.id}_c${index + 1}` }));
  const responseId = `${question.id}_response`;
  const presentation = el(
    "presentation",
    {},
    html(question.prompt),
    el(
      "response_lid",
      { ident: responseId, rcardinality: question.kind === "multiple" ? "Multiple" : "Single" },
      el(
        "render_choice",
        { shuffle: question.shuffle ? "Yes" : "No" },
        labels.map((label) => el("response_label", { ident: label.ident, ...(question.shuffle && label.fixed ? { rshuffle: "No" } : {}) }, choiceMaterial(label))),
      ),
    ),
  );
  const correct = labels.filter((label) => label.correct);
  const condition =
    question.kind === "multiple"
      ? el(
          "conditionvar",
          {},
          el(
            "and",
            {},
            labels.map((label) => (label.correct ? el("varequal", { respident: responseId }, label.ident) : el("not", {}, el("varequal", { respident: responseId }, label.ident)))),
          ),
        )
      : el("conditionvar", {}, el("varequal", { respident: responseId }, correct[0]?.ident ?? ""));
  const explanation = explanationParts(question);
  const withFeedback = labels.filter((label) => label.feedback !== undefined);
  const feedbackConditions = withFeedback.map((label) => showFeedback(el("conditionvar", {}, el("varequal", { respident: responseId }, label.ident)), `${label.ident}_fb`));
  return [
    presentation,
    el("resprocessing", {}, scoreOutcome(), explanation.condition, feedbackConditions, el("respcondition", { continue: "No" }, condition, setFullScore())),
    explanation.feedback,
    withFeedback.map((label) => itemFeedback(`${label.ident}_fb`, label.feedback ?? "")),
  ];
}

function fibItemParts(question: Extract<Question, { kind: "fib" }>): XmlChild[] {
  const responseId = `${question.id}_response`;
  const presentation = el("presentation", {}, html(question.prompt), el("response_str", { ident: responseId, rcardinality: "Single" }, el("render_fib", { rows: "1" })));
  const conditions = question.answers.map((answer) =>
    el("respcondition", { continue: "No" }, el("conditionvar", {}, el("varequal", { respident: responseId, case: question.caseSensitive ? "Yes" : "No" }, answer)), setFullScore()),
  );
  const explanation = explanationParts(question);
  // Reached only when no accepted answer matched (those conditions stop processing): the answer is wrong.
  const wrong = question.wrongFeedback === undefined ? null : showFeedback(el("conditionvar", {}, el("other")), "incorrect_fb");
  return [
    presentation,
    el("resprocessing", {}, scoreOutcome(), explanation.condition, conditions, wrong),
    explanation.feedback,
    question.wrongFeedback === undefined ? null : itemFeedback("incorrect_fb", question.wrongFeedback),
  ];
}

function item(question: Question, number: number): XmlElement {
  const metadata = el(
    "itemmetadata",
    {},
    el("qtimetadata", {}, field("cc_profile", profiles[question.kind]), field("cc_weighting", String(question.points))),
  );
  const parts = question.kind === "fib" ? fibItemParts(question) : choiceItemParts(question);
  return el("item", { ident: xmlId("Q", question.id), title: `Question ${number}` }, metadata, parts);
}

export function qtiAssessment(lesson: RenderableLesson, options: QtiAssessmentOptions = { pictureHref: (picture) => picture.url ?? "" }): QtiAssessment {
  const blocks = lesson.blocks ?? [];
  const questions: Question[] = [];
  const skipped: string[] = [];
  for (const block of blocks) {
    const question = asQuestion(block, lesson.shuffleChoices !== false, options);
    if (question) questions.push(question);
    else if (isQuestionType(block.type)) skipped.push(block.id);
  }
  const attempts = typeof lesson.maxAttempts === "number" ? String(lesson.maxAttempts) : "unlimited";
  const permitted = lesson.feedbackMode === "none" ? "No" : "Yes";
  const root = el(
    "questestinterop",
    {
      xmlns: qtiNamespace,
      "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
      "xsi:schemaLocation": `${qtiNamespace} http://www.imsglobal.org/profile/cc/ccv1p3/ccv1p3_qtiasiv1p2p1_v1p0.xsd`,
    },
    el(
      "assessment",
      { ident: xmlId("A", lesson.id), title: lesson.title },
      el(
        "qtimetadata",
        {},
        field("cc_profile", "cc.exam.v0p1"),
        field("qmd_assessmenttype", "Examination"),
        // feedbackMode none: the LMS shows neither feedback nor the right answers (CC's Yes/No fields).
        field("qmd_feedbackpermitted", permitted),
        field("qmd_solutionspermitted", permitted),
        field("cc_maxattempts", attempts),
      ),
      el("section", { ident: xmlId("S", lesson.id) }, questions.map((question, index) => item(question, index + 1))),
    ),
  );
  return { xml: xmlDocument(root), includedQuestions: questions.length, skippedBlockIds: skipped };
}
