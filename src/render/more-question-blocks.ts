/**
 * The answer areas of the round-5 question types (issue 42), each written as a complete, script-free form
 * the quiz grades with the machinery it has:
 * - hotspot: native radio buttons (one right region) or checkboxes (several), named by the regions'
 *   names, graded as choices; the picture's regions are an SVG overlay in picture coordinates (its
 *   viewBox is the picture's frame), pointer targets the question-types script ties to the inputs.
 * - drag_onto_image: one zone picker (`<select>`) per label, graded as a matching; the zones are drawn on
 *   the picture, where the script shows each placed label and takes drops, as sorting does.
 * - inline_choice: a native `<select>` in each gap of the text, graded as a matching.
 * - numeric, open_response, likert: graded by the question-types script itself ("self"): a number read
 *   in the course language's way against the sealed range; an open answer kept, cut to its length guide
 *   with a visible count, shown beside the model answer; opinions recorded. The last two are never scored.
 */
import type { Block } from "../authoring/schemas/blocks.ts";
import { numericRange } from "../authoring/schemas/numeric-block.ts";
import type { RegionShape } from "../authoring/schemas/picture-questions.ts";
import type { LessonContext } from "./context.ts";
import { html, type SafeHtml } from "./html.ts";
import { markdownWithBlanksHtml } from "./markdown.ts";
import { mediaSourceUrl } from "./media-blocks.ts";
import { pictureHtml } from "./teaching-blocks.ts";
import { uiText } from "./ui-text.ts";
import { ClassName, DataName } from "../page-contract/markup-names.ts";

type BlockOf<Type extends Block["type"]> = Extract<Block, { type: Type }>;

/** Adds an author's feedback for one part and returns its attribute (as the question renderer's collector does). */
export type FeedbackAttribute = (markdown: string | undefined, about: string) => SafeHtml | "";
/** Adds a feedback piece and returns its element id ("" when there is no text). */
export type FeedbackPiece = (markdown: string | undefined, about: string) => string;

export interface MoreAnswers {
  readonly grading: "choice" | "matching" | "self";
  readonly answers: SafeHtml;
  readonly key: { readonly parts: readonly (readonly string[])[]; readonly correctResponse: readonly string[] };
  /** Attributes for the question's own element (never scored, the feedback piece shown on grading). */
  readonly attributes?: SafeHtml;
}

function shapeHtml(region: RegionShape, extra: SafeHtml): SafeHtml {
  switch (region.shape) {
    case "rect":
      return html`<rect class="${ClassName.regionShape}" x="${region.x}" y="${region.y}" width="${region.width}" height="${region.height}"${extra}/>`;
    case "circle":
      return html`<circle class="${ClassName.regionShape}" cx="${region.x}" cy="${region.y}" r="${region.radius}"${extra}/>`;
    case "polygon":
      return html`<polygon class="${ClassName.regionShape}" points="${region.points.map((point) => point.join(",")).join(" ")}"${extra}/>`;
  }
}

/** The centre of a region's bounding box, where a placed label's name is written. */
function centreOf(region: RegionShape): [number, number] {
  if (region.shape === "polygon") {
    const xs = region.points.map((point) => point[0]);
    const ys = region.points.map((point) => point[1]);
    return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  }
  return region.shape === "circle" ? [region.x, region.y] : [region.x + region.width / 2, region.y + region.height / 2];
}

/** The picture with an SVG overlay in its own coordinates; the overlay is for the pointer and the eye, never read out. */
function pictureFrame(image: BlockOf<"hotspot">["image"], context: LessonContext, shapes: readonly SafeHtml[]): SafeHtml {
  const src = mediaSourceUrl(image, context);
  const picture = src === null ? html`<p class="${ClassName.questionHint}">${image.alt}</p>` : html`<img src="${src}" alt="${image.alt}" decoding="async">`;
  return html`<div class="${ClassName.pictureFrame}">${picture}<svg viewBox="0 0 ${image.width} ${image.height}" preserveAspectRatio="none" aria-hidden="true" focusable="false">${shapes}</svg></div>`;
}

export function hotspotAnswers(block: BlockOf<"hotspot">, context: LessonContext, feedback: FeedbackAttribute): MoreAnswers {
  const several = block.regions.filter((region) => region.correct).length > 1;
  const groupName = context.ids.next("regions");
  const shapes = block.regions.map((region, index) => shapeHtml(region, html` data-${DataName.region}="${index}"`));
  const rows = block.regions.map((region, index) => {
    const inputId = context.ids.next("region");
    const feedbackAttribute = feedback(region.feedback, uiText.youChose(region.name));
    return html`<div class="${ClassName.choice}"><input type="${several ? "checkbox" : "radio"}" name="${groupName}" id="${inputId}" value="${index}" data-${DataName.part}${feedbackAttribute}><label for="${inputId}">${region.name}</label></div>`;
  });
  const correct = block.regions.flatMap((region, index) => (region.correct ? [String(index)] : []));
  return {
    grading: "choice",
    answers: html`<p class="${ClassName.questionHint}">${several ? uiText.hotspotHintSeveral : uiText.hotspotHint}</p>
<div class="${ClassName.pictureQuestion}" data-${DataName.hotspot}>${pictureFrame(block.image, context, shapes)}<div class="${ClassName.regionChoices}">${rows}</div></div>`,
    key: { parts: [[correct.join(",")]], correctResponse: correct },
  };
}

export function dragOntoImageAnswers(block: BlockOf<"drag_onto_image">, context: LessonContext, feedback: FeedbackAttribute): MoreAnswers {
  // The placed labels' names, about a sixteenth of the picture high at any width.
  const fontSize = Math.max(8, Math.round(block.image.height / 16));
  const shapes = block.zones.map((zone, index) => {
    const [x, y] = centreOf(zone);
    return html`<g data-${DataName.zone}="${index}">${shapeHtml(zone, html``)}<text class="${ClassName.zoneText}" x="${x}" y="${y}" font-size="${fontSize}" text-anchor="middle" dominant-baseline="middle">${index + 1}</text></g>`;
  });
  const options = block.zones.map((zone, index) => html`<option value="${index}">${zone.name}</option>`);
  const rows = block.labels.map((label, index) => {
    const name = label.text ?? label.image?.alt ?? "";
    const selectId = context.ids.next("zone-of");
    const feedbackAttribute = feedback(label.feedback, uiText.aboutItem(name));
    const picture = label.image ? pictureHtml(label.image, context, ClassName.choiceImage) : "";
    return html`<li class="${ClassName.matchingRow}" draggable="true" data-${DataName.item}="${index}"><label for="${selectId}">${picture}${label.text ?? ""}</label><select id="${selectId}" data-${DataName.part} aria-label="${uiText.zoneOf(name)}"${feedbackAttribute}><option value="">${uiText.notPlaced}</option>${options}</select></li>`;
  });
  const zoneIds = block.zones.map((zone) => zone.id);
  const correct = block.labels.map((label) => (label.zone === undefined ? "" : String(zoneIds.indexOf(label.zone))));
  return {
    grading: "matching",
    answers: html`<p class="${ClassName.questionHint}">${uiText.dragOntoImageHint}</p>
<div class="${ClassName.pictureQuestion}" data-${DataName.dropImage}>${pictureFrame(block.image, context, shapes)}<ul class="${ClassName.matchingList}" role="list">${rows}</ul><p class="${ClassName.visuallyHidden}" aria-live="polite" data-${DataName.dropStatus}></p></div>`,
    key: { parts: correct.map((zone) => [zone]), correctResponse: correct },
  };
}

export function inlineChoiceAnswers(block: BlockOf<"inline_choice">, context: LessonContext, feedback: FeedbackAttribute): MoreAnswers {
  const text = markdownWithBlanksHtml(block.text, (number) => {
    const gap = block.gaps[number - 1];
    if (!gap) return html`{{${number}}}`;
    const options = gap.choices.map((choice, index) => html`<option value="${index}">${choice.text}</option>`);
    return html`<select class="${ClassName.gapSelect}" id="${context.ids.next("gap")}" aria-label="${uiText.gapLabel(number)}" data-${DataName.part}${feedback(gap.feedback, uiText.aboutGap(number))}><option value="">${uiText.chooseOption}</option>${options}</select>`;
  });
  const correct = block.gaps.map((gap) => String(gap.choices.findIndex((choice) => choice.correct)));
  return { grading: "matching", answers: html`<div class="blank-text">${text}</div>`, key: { parts: correct.map((index) => [index]), correctResponse: correct } };
}

/** How a number is written in the course's language, for the hint: 2.5 or 2,5. */
function formattedExample(value: number): string {
  return String(value).replace(".", uiText.decimalSeparator);
}

export function numericAnswers(block: BlockOf<"numeric">, context: LessonContext, piece: FeedbackPiece): MoreAnswers {
  const inputId = context.ids.next("number");
  const right = piece(block.correctFeedback, uiText.aboutYourAnswer);
  const wrong = piece(block.incorrectFeedback, uiText.aboutYourAnswer);
  const [low, high] = numericRange(block);
  const unit = block.unit ? html` <span class="${ClassName.numberUnit}">${block.unit}</span>` : "";
  return {
    grading: "self",
    answers: html`<p class="${ClassName.numberRow}"><label for="${inputId}">${uiText.yourAnswer}</label> <input type="text" inputmode="decimal" class="${ClassName.numberInput}" id="${inputId}" autocomplete="off" spellcheck="false" data-${DataName.part} aria-describedby="${inputId}-hint">${unit}</p><p class="${ClassName.questionHint}" id="${inputId}-hint">${uiText.numberHint(formattedExample(2.5))}</p>`,
    key: { parts: [], correctResponse: [String(low), String(high)] },
    attributes: html` data-${DataName.numeric} data-${DataName.rightFeedback}="${right}" data-${DataName.wrongFeedback}="${wrong}"`,
  };
}

export function openResponseAnswers(block: BlockOf<"open_response">, context: LessonContext, piece: FeedbackPiece): MoreAnswers {
  const inputId = context.ids.next("open");
  const model = piece(block.modelAnswer, uiText.modelAnswer);
  const guide = block.minCharacters ? uiText.lengthGuideRange(block.minCharacters, block.maxCharacters) : uiText.lengthGuide(block.maxCharacters);
  return {
    grading: "self",
    answers: html`<p class="${ClassName.numberRow}"><label for="${inputId}">${uiText.yourAnswer}</label></p><textarea class="${ClassName.openAnswer}" id="${inputId}" rows="5" data-${DataName.part} data-${DataName.maxCharacters}="${block.maxCharacters}" aria-describedby="${inputId}-guide ${inputId}-count"></textarea>
<p class="${ClassName.questionHint}" id="${inputId}-guide">${guide}</p><p class="${ClassName.characterCount}" id="${inputId}-count" data-${DataName.characterCount}>${uiText.characterCount(0, block.maxCharacters)}</p><p class="${ClassName.cutNote}" role="status" data-${DataName.cutNote}></p>`,
    key: { parts: [], correctResponse: [] },
    attributes: html` data-${DataName.unscored} data-${DataName.openResponse} data-${DataName.rightFeedback}="${model}" data-${DataName.wrongFeedback}="${model}"`,
  };
}

export function likertAnswers(block: BlockOf<"likert">, context: LessonContext): MoreAnswers {
  const statements = block.statements.map((statement) => {
    const name = context.ids.next("opinion");
    const legendId = context.ids.next("statement");
    const points = block.scale.map((label, index) => {
      const inputId = context.ids.next("opinion-point");
      return html`<span class="${ClassName.likertPoint}"><input type="radio" name="${name}" id="${inputId}" value="${index}" data-${DataName.part}><label for="${inputId}">${label}</label></span>`;
    });
    return html`<div class="${ClassName.likertStatement}" role="radiogroup" aria-labelledby="${legendId}"><p class="${ClassName.likertText}" id="${legendId}">${statement.text}</p><div class="${ClassName.likertScale}">${points}</div></div>`;
  });
  return {
    grading: "self",
    answers: html`<p class="${ClassName.questionHint}">${uiText.opinionHint}</p><div data-${DataName.likert}>${statements}</div>`,
    key: { parts: [], correctResponse: [] },
    attributes: html` data-${DataName.unscored}`,
  };
}
