/**
 * The QTI items of the question types added in issue 42, in QTI 2.1's names (renamed for 3.0 by
 * `qtiDialects`):
 * - numeric: a `textEntryInteraction` with a float response, scored by `equal` (exact, or an absolute or
 *   relative tolerance) or by `gte`/`lte` for a range; the unit follows the entry as text;
 * - hotspot: a `hotspotInteraction` on the picture, each region a `hotspotChoice` (rect, circle, poly in
 *   picture pixels, its name as `hotspotLabel`), right when exactly the right regions are chosen;
 * - drag_onto_image: a `graphicGapMatchInteraction`, zones as `associableHotspot`s and labels as gaps,
 *   each placed label earning its share; QTI 3.0 writes a text label as `gapText`, QTI 2.1 (which has only
 *   `gapImg`) as a picture of its text, an SVG in a `data:` URI whose `label` keeps the text;
 * - inline_choice: an `inlineChoiceInteraction` per gap in the text, each right gap its share;
 * - open_response: an `extendedTextInteraction` never scored by the item (an LMS grader scores it), the
 *   model answer and rubric in a `rubricBlock` for scorers;
 * - likert: one unscored `choiceInteraction` per statement over the scale, no correct response.
 */
import type { QuestionBlock } from "../../authoring/schemas/blocks.ts";
import { numericRange } from "../../authoring/schemas/numeric-block.ts";
import type { RegionShape } from "../../authoring/schemas/picture-questions.ts";
import { el, type XmlChild, type XmlElement } from "../../codecs/xml-write.ts";
import { addScore, baseValue, declaration, feedback, float, paragraphs, showFeedback, variable, when, type ItemParts, type PictureHref } from "./qti-item-parts.ts";
import type { QtiVersion } from "./qti-names.ts";

type Question<T extends QuestionBlock["type"]> = Extract<QuestionBlock, { type: T }>;

const correctId = "FB_correct";
const incorrectId = "FB_incorrect";

/** Right / wrong modal feedback of a question that has one of each. */
function rightOrWrong(condition: XmlElement, points: number, right: string | undefined, wrong: string | undefined): Pick<ItemParts, "processing" | "feedback"> {
  return {
    processing: [
      el(
        "responseCondition",
        {},
        el("responseIf", {}, condition, addScore(points), right ? showFeedback(correctId) : null),
        wrong ? el("responseElse", {}, showFeedback(incorrectId)) : null,
      ),
    ],
    feedback: [right ? feedback(correctId, right) : null, wrong ? feedback(incorrectId, wrong) : null].filter((part): part is XmlElement => part !== null),
  };
}

export function numericParts(question: Question<"numeric">): ItemParts {
  const response = variable("RESPONSE");
  let condition: XmlElement;
  if (question.value === undefined) {
    const [low, high] = numericRange(question);
    condition = el("and", {}, el("gte", {}, response, baseValue("float", float(low))), el("lte", {}, response, baseValue("float", float(high))));
  } else {
    const tolerance = question.tolerance ?? 0;
    const mode = tolerance === 0 ? "exact" : question.toleranceMode === "percent" ? "relative" : "absolute";
    condition = el("equal", { toleranceMode: mode, ...(mode === "exact" ? {} : { tolerance: `${float(tolerance)} ${float(tolerance)}` }) }, response, baseValue("float", float(question.value)));
  }
  const middle = question.value ?? ((question.min ?? 0) + (question.max ?? 0)) / 2;
  const entry = el("textEntryInteraction", { responseIdentifier: "RESPONSE", expectedLength: 12 });
  return {
    declarations: [declaration("RESPONSE", "single", "float", [float(middle)])],
    body: [el("p", {}, entry, question.unit ? ` ${question.unit}` : null)],
    ...rightOrWrong(condition, question.points, question.correctFeedback, question.incorrectFeedback),
  };
}

/** A region's QTI shape and coordinates (HTML image-map conventions: rect is left,top,right,bottom). */
export function shapeCoords(region: RegionShape): { shape: string; coords: string } {
  switch (region.shape) {
    case "rect":
      return { shape: "rect", coords: [region.x, region.y, region.x + region.width, region.y + region.height].map(float).join(",") };
    case "circle":
      return { shape: "circle", coords: [region.x, region.y, region.radius].map(float).join(",") };
    case "polygon":
      return { shape: "poly", coords: region.points.flat().map(float).join(",") };
  }
}

function pictureObject(picture: { assetId?: string | undefined; url?: string | undefined; alt: string; width: number; height: number }, pictureHref: PictureHref): XmlElement {
  const href = pictureHref(picture);
  return el("object", { data: href, type: imageType(href), width: picture.width, height: picture.height }, picture.alt);
}

function imageType(href: string): string {
  const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(href)?.[1]?.toLowerCase();
  switch (extension) {
    case "jpg":
    case "jpeg":
      return "image/jpeg";
    case "gif":
      return "image/gif";
    case "svg":
      return "image/svg+xml";
    case "webp":
      return "image/webp";
    default:
      return "image/png";
  }
}

export function hotspotParts(question: Question<"hotspot">, pictureHref: PictureHref): ItemParts {
  const regions = question.regions.map((region, index) => ({ ...region, identifier: `H${index + 1}` }));
  const correct = regions.filter((region) => region.correct).map((region) => region.identifier);
  const multiple = correct.length > 1;
  const withFeedback = regions.filter((region) => region.feedback);
  return {
    declarations: [declaration("RESPONSE", multiple ? "multiple" : "single", "identifier", correct)],
    body: [
      el(
        "hotspotInteraction",
        { responseIdentifier: "RESPONSE", maxChoices: multiple ? regions.length : 1 },
        pictureObject(question.image, pictureHref),
        regions.map((region) => el("hotspotChoice", { identifier: region.identifier, ...shapeCoords(region), hotspotLabel: region.name })),
      ),
    ],
    processing: [
      when(el("match", {}, variable("RESPONSE"), el("correct", { identifier: "RESPONSE" })), addScore(question.points)),
      withFeedback.map((region) =>
        when(multiple ? el("member", {}, baseValue("identifier", region.identifier), variable("RESPONSE")) : el("match", {}, variable("RESPONSE"), baseValue("identifier", region.identifier)), showFeedback(`FB_${region.identifier}`)),
      ),
    ],
    feedback: withFeedback.map((region) => feedback(`FB_${region.identifier}`, region.feedback ?? "")),
  };
}

/** A text label drawn as a small SVG picture, for QTI 2.1's `gapImg` (which holds an object, never text). */
export function textLabelPicture(text: string): { data: string; width: number; height: number } {
  const width = Math.min(400, Math.max(48, Math.round(text.length * 8.5) + 16));
  const escaped = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="32"><rect width="100%" height="100%" rx="4" fill="#fff" stroke="#333"/><text x="8" y="21" font-family="sans-serif" font-size="14" fill="#000">${escaped}</text></svg>`;
  return { data: `data:image/svg+xml,${encodeURIComponent(svg)}`, width, height: 32 };
}

function gap(label: Question<"drag_onto_image">["labels"][number], identifier: string, version: QtiVersion, pictureHref: PictureHref): XmlElement {
  const name = label.text ?? label.image?.alt ?? "";
  if (label.image) {
    const href = pictureHref(label.image);
    return el("gapImg", { identifier, matchMax: 1, objectLabel: name }, el("object", { data: href, type: imageType(href) }, name));
  }
  if (version === "qti3") return el("gapText", { identifier, matchMax: 1 }, name);
  const picture = textLabelPicture(name);
  return el("gapImg", { identifier, matchMax: 1, objectLabel: name }, el("object", { data: picture.data, type: "image/svg+xml", width: picture.width, height: picture.height }, name));
}

export function dragOntoImageParts(question: Question<"drag_onto_image">, pictureHref: PictureHref, version: QtiVersion): ItemParts {
  // A zone's identifier carries its id (ids are a-z, 0-9, _ and -: `Z_` makes it an XML name), so an import gives it back.
  const zoneIds = new Map(question.zones.map((zone) => [zone.id, `Z_${zone.id}`]));
  const labels = question.labels.map((label, index) => ({ ...label, identifier: `G${index + 1}` }));
  const placed = labels.filter((label) => label.zone !== undefined);
  const share = question.points / Math.max(1, placed.length);
  const pairs = placed.map((label) => `${label.identifier} ${zoneIds.get(label.zone ?? "") ?? ""}`);
  const mapping = el("mapping", { defaultValue: "0" }, pairs.map((pair) => el("mapEntry", { mapKey: pair, mappedValue: float(share) })));
  const withFeedback = placed.filter((label) => label.feedback);
  return {
    declarations: [declaration("RESPONSE", "multiple", "directedPair", pairs, mapping)],
    body: [
      el(
        "graphicGapMatchInteraction",
        { responseIdentifier: "RESPONSE" },
        pictureObject(question.image, pictureHref),
        labels.map((label) => gap(label, label.identifier, version, pictureHref)),
        question.zones.map((zone) => el("associableHotspot", { identifier: `Z_${zone.id}`, matchMax: 1, ...shapeCoords(zone), hotspotLabel: zone.name })),
      ),
    ],
    processing: [
      el("setOutcomeValue", { identifier: "SCORE" }, el("mapResponse", { identifier: "RESPONSE" })),
      withFeedback.map((label) =>
        when(el("not", {}, el("member", {}, baseValue("directedPair", `${label.identifier} ${zoneIds.get(label.zone ?? "") ?? ""}`), variable("RESPONSE"))), showFeedback(`FB_${label.identifier}`)),
      ),
    ],
    feedback: withFeedback.map((label) => feedback(`FB_${label.identifier}`, label.feedback ?? "")),
  };
}

/** The text's paragraphs, each `{{n}}` a drop-down of gap n's choices. */
function textWithDropDowns(question: Question<"inline_choice">): XmlElement[] {
  return question.text
    .split(/\n{2,}/)
    .filter((part) => part.trim() !== "")
    .map((part) =>
      el(
        "p",
        {},
        part.split(/(\{\{\d+\}\})/).map((piece): XmlChild => {
          const number = Number(/^\{\{(\d+)\}\}$/.exec(piece)?.[1] ?? 0);
          const gap = question.gaps[number - 1];
          if (!gap) return piece === "" ? null : piece;
          return el(
            "inlineChoiceInteraction",
            { responseIdentifier: `RESPONSE_${number}`, shuffle: "false" },
            gap.choices.map((choice, index) => el("inlineChoice", { identifier: `G${number}C${index + 1}` }, choice.text)),
          );
        }),
      ),
    );
}

export function inlineChoiceParts(question: Question<"inline_choice">): ItemParts {
  const share = question.points / question.gaps.length;
  const right = question.gaps.map((gap, index) => `G${index + 1}C${gap.choices.findIndex((choice) => choice.correct) + 1}`);
  return {
    declarations: question.gaps.map((_gap, index) => declaration(`RESPONSE_${index + 1}`, "single", "identifier", [right[index]!])),
    body: [el("div", { class: "sentence" }, textWithDropDowns(question))],
    processing: question.gaps.map((gap, index) =>
      el(
        "responseCondition",
        {},
        el("responseIf", {}, el("match", {}, variable(`RESPONSE_${index + 1}`), el("correct", { identifier: `RESPONSE_${index + 1}` })), addScore(share)),
        gap.feedback ? el("responseElse", {}, showFeedback(`FB_G${index + 1}`)) : null,
      ),
    ),
    feedback: question.gaps.flatMap((gap, index) => (gap.feedback ? [feedback(`FB_G${index + 1}`, gap.feedback)] : [])),
  };
}

/** The scorer's rubric: the model answer, then each criterion with its points. `contentBody` is 3.0's wrapper (2.1 drops it). */
function scorerRubric(question: Question<"open_response">): XmlElement {
  const criteria = question.rubric?.criteria ?? [];
  return el(
    "rubricBlock",
    { view: "scorer" },
    el(
      "contentBody",
      {},
      el("div", { class: "model-answer" }, paragraphs(question.modelAnswer)),
      criteria.length > 0 ? el("div", { class: "rubric" }, criteria.map((criterion) => el("p", { class: "criterion" }, `${criterion.text} (${float(criterion.points)})`))) : null,
    ),
  );
}

export function openResponseParts(question: Question<"open_response">): ItemParts {
  return {
    declarations: [el("responseDeclaration", { identifier: "RESPONSE", cardinality: "single", baseType: "string" })],
    body: [scorerRubric(question), el("extendedTextInteraction", { responseIdentifier: "RESPONSE", expectedLength: question.maxCharacters })],
    processing: [],
    feedback: [],
  };
}

export function likertParts(question: Question<"likert">): ItemParts {
  return {
    declarations: question.statements.map((_statement, index) => el("responseDeclaration", { identifier: `RESPONSE_${index + 1}`, cardinality: "single", baseType: "identifier" })),
    body: question.statements.map((statement, index) =>
      el(
        "choiceInteraction",
        { responseIdentifier: `RESPONSE_${index + 1}`, shuffle: "false", maxChoices: 1, class: "likert" },
        el("prompt", {}, statement.text),
        question.scale.map((label, point) => el("simpleChoice", { identifier: `S${index + 1}_${point + 1}` }, label)),
      ),
    ),
    processing: [],
    feedback: [],
  };
}
