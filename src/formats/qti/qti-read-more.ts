/**
 * Reading the QTI interactions of the question types added in issue 42 (the other side of
 * `qti-more-items.ts`), from our packages and from other tools':
 * - a `textEntryInteraction` with a float or integer response becomes numeric (`equal` with its
 *   tolerance, `gte`/`lte` as a range, else the correct response as the exact value);
 * - `hotspotInteraction` becomes hotspot, and `selectPointInteraction` a hotspot on its scored areas;
 * - `graphicGapMatchInteraction` becomes drag_onto_image (text gaps, and picture gaps whose picture is a
 *   drawing of their text as QTI 2.1 needs, as text labels);
 * - `inlineChoiceInteraction`s become inline_choice;
 * - `extendedTextInteraction` becomes open_response, its scorers' rubric the model answer and criteria;
 * - choice interactions without a right answer over one shared scale become likert.
 * Anything else is left to `qti-read.ts` (undefined); an item that cannot be read says why (a string).
 */
import { regionBounds, type RegionShape } from "../../authoring/schemas/picture-questions.ts";
import { childElement, childElements, descendants, textContent, type XmlTree } from "../question-bank/xml-tree.ts";

export interface MoreItemInput {
  readonly root: XmlTree;
  readonly body: XmlTree;
  readonly interactions: readonly XmlTree[];
  declaration(identifier: string | undefined): XmlTree | undefined;
  /** The modal feedback of `FB_<id>` or `<id>`, taken. */
  feedbackOf(identifier: string): string | undefined;
  /** A picture (`img` or `object`) as an asset or URL, with the size the item gives it or the file's own. */
  picture(node: XmlTree): Promise<{ assetId?: string; url?: string; alt?: string; width?: number; height?: number }>;
  readonly notes: string[];
}

export interface MoreItem {
  readonly block: Record<string, unknown>;
  /** The prompt when the item's loose paragraphs are not it (they hold the interactions). */
  readonly prompt?: string;
}

export const moreInteractions = ["hotspotInteraction", "selectPointInteraction", "graphicGapMatchInteraction", "inlineChoiceInteraction", "extendedTextInteraction"] as const;

const values = (declaration: XmlTree | undefined): string[] => childElements(childElement(declaration, "correctResponse"), "value").map((value) => textContent(value).trim());
const mapped = (declaration: XmlTree | undefined): string[] =>
  childElements(childElement(declaration, "mapping"), "mapEntry")
    .filter((entry) => Number(entry.attributes.mappedValue ?? "0") > 0)
    .map((entry) => entry.attributes.mapKey ?? "");
const rightAnswers = (declaration: XmlTree | undefined): string[] => [...new Set([...values(declaration), ...mapped(declaration)])];

function textOf(node: XmlTree, skipped: ReadonlySet<string> = new Set()): string {
  return node.content.map((part) => (typeof part === "string" ? part : skipped.has(part.name) ? "" : textOf(part, skipped))).join("");
}

const paragraphs = (nodes: readonly XmlTree[]): string =>
  nodes
    .map((node) => textContent(node).trim())
    .filter((text) => text !== "")
    .join("\n\n");

/** A region from QTI's shape and coordinates (HTML image-map conventions), or null for a shape we do not draw. */
export function regionOf(shape: string | undefined, coords: string | undefined): RegionShape | null {
  const numbers = (coords ?? "").split(/[\s,]+/).filter(Boolean).map(Number);
  if (numbers.some((number) => !Number.isFinite(number))) return null;
  switch (shape) {
    case "rect": {
      const [left = 0, top = 0, right = 0, bottom = 0] = numbers;
      return numbers.length === 4 ? { shape: "rect", x: left, y: top, width: right - left, height: bottom - top } : null;
    }
    case "circle": {
      const [x = 0, y = 0, radius = 0] = numbers;
      return numbers.length === 3 ? { shape: "circle", x, y, radius } : null;
    }
    case "ellipse": {
      // Drawn as the circle of its larger radius: a region must still hold what the ellipse held.
      const [x = 0, y = 0, rx = 0, ry = 0] = numbers;
      return numbers.length === 4 ? { shape: "circle", x, y, radius: Math.max(rx, ry) } : null;
    }
    case "poly": {
      const points: [number, number][] = [];
      for (let index = 0; index + 1 < numbers.length; index += 2) points.push([numbers[index] as number, numbers[index + 1] as number]);
      const last = points.at(-1);
      if (points.length > 3 && last && last[0] === points[0]?.[0] && last[1] === points[0]?.[1]) points.pop();
      return points.length >= 3 ? { shape: "polygon", points } : null;
    }
    default:
      return null;
  }
}

/** The picture's frame: the size the item gives, else the file's own, else the regions' extent. */
function frameOf(picture: { width?: number; height?: number }, regions: readonly RegionShape[]): { width: number; height: number } {
  const right = Math.max(1, ...regions.map((region) => regionBounds(region)[2]));
  const bottom = Math.max(1, ...regions.map((region) => regionBounds(region)[3]));
  return { width: Math.ceil(picture.width ?? right), height: Math.ceil(picture.height ?? bottom) };
}

async function questionPicture(interaction: XmlTree, input: MoreItemInput, regions: readonly RegionShape[]): Promise<Record<string, unknown> | string> {
  const node = childElement(interaction, "object") ?? childElement(interaction, "img") ?? descendants(interaction, "img")[0];
  if (!node) return "has no picture to answer on";
  const found = await input.picture(node);
  const { width: _width, height: _height, alt, ...source } = found;
  const frame = frameOf(found, regions);
  return { ...source, alt: alt || textContent(node).trim() || "Picture", ...frame };
}

function numericItem(interaction: XmlTree, input: MoreItemInput): MoreItem | string {
  const identifier = interaction.attributes.responseIdentifier;
  const processing = childElement(input.root, "responseProcessing") ?? input.root;
  const equal = descendants(processing, "equal")[0];
  const baseOf = (node: XmlTree | undefined): number => Number(textContent(childElement(node, "baseValue")).trim());
  let answer: Record<string, unknown>;
  if (equal && Number.isFinite(baseOf(equal))) {
    const mode = equal.attributes.toleranceMode ?? "exact";
    const tolerance = Number((equal.attributes.tolerance ?? "0").split(/\s+/)[0]);
    answer = { value: baseOf(equal), ...(mode !== "exact" && tolerance > 0 ? { tolerance, ...(mode === "relative" ? { toleranceMode: "percent" } : {}) } : {}) };
  } else {
    const low = descendants(processing, "gte")[0];
    const high = descendants(processing, "lte")[0];
    if (low && high && Number.isFinite(baseOf(low)) && Number.isFinite(baseOf(high))) answer = { min: baseOf(low), max: baseOf(high) };
    else {
      const value = Number(values(input.declaration(identifier))[0]);
      if (!Number.isFinite(value)) return "has a number entry without a right number";
      answer = { value };
    }
  }
  // A short text after the entry in its paragraph ("ml") is the unit.
  const holder = input.body.children.find((child) => descendants(child, "textEntryInteraction").length > 0);
  const after = holder ? holder.content.slice(holder.content.indexOf(interaction) + 1).map((part) => (typeof part === "string" ? part : textContent(part))).join("").trim() : "";
  const unit = after.length > 0 && after.length <= 40 && !/[.!?]$/.test(after) ? { unit: after } : {};
  const right = input.feedbackOf("correct");
  const wrong = input.feedbackOf("incorrect");
  const holding = new Set(holder ? [holder] : []);
  return {
    block: { type: "numeric", ...answer, ...unit, ...(right ? { correctFeedback: right } : {}), ...(wrong ? { incorrectFeedback: wrong } : {}) },
    prompt: paragraphs(input.body.children.filter((child) => child.name === "p" && !holding.has(child))),
  };
}

async function hotspotItem(interaction: XmlTree, input: MoreItemInput): Promise<MoreItem | string> {
  const right = new Set(rightAnswers(input.declaration(interaction.attributes.responseIdentifier)));
  const choices = childElements(interaction, "hotspotChoice");
  const regions: Record<string, unknown>[] = [];
  const shapes: RegionShape[] = [];
  for (const [index, choice] of choices.entries()) {
    const region = regionOf(choice.attributes.shape, choice.attributes.coords);
    if (!region) {
      input.notes.push(`region ${choice.attributes.identifier ?? index + 1} (shape "${choice.attributes.shape ?? ""}") was dropped: only rectangles, circles, ellipses and polygons are drawn`);
      continue;
    }
    const feedback = input.feedbackOf(choice.attributes.identifier ?? "");
    shapes.push(region);
    regions.push({ ...region, name: choice.attributes.hotspotLabel || `Region ${index + 1}`, correct: right.has(choice.attributes.identifier ?? ""), ...(feedback ? { feedback } : {}) });
  }
  if (!regions.some((region) => region.correct)) return "has no right region";
  const image = await questionPicture(interaction, input, shapes);
  return typeof image === "string" ? image : { block: { type: "hotspot", image, regions } };
}

async function selectPointItem(interaction: XmlTree, input: MoreItemInput): Promise<MoreItem | string> {
  const declaration = input.declaration(interaction.attributes.responseIdentifier);
  const areas = childElements(childElement(declaration, "areaMapping"), "areaMapEntry").filter((entry) => Number(entry.attributes.mappedValue ?? "0") > 0);
  const shapes = areas.map((area) => regionOf(area.attributes.shape, area.attributes.coords)).filter((region): region is RegionShape => region !== null);
  if (shapes.length === 0) return "scores no area of its picture";
  input.notes.push("a select-point item became a hotspot question on its scored areas");
  const image = await questionPicture(interaction, input, shapes);
  if (typeof image === "string") return image;
  return { block: { type: "hotspot", image, regions: shapes.map((shape, index) => ({ ...shape, name: `Area ${index + 1}`, correct: true })) } };
}

/** A gap's label: text, or a picture; QTI 2.1's drawing of a text (an SVG `data:` URI) is its text. */
async function gapLabel(gap: XmlTree, input: MoreItemInput): Promise<Record<string, unknown>> {
  if (gap.name === "gapText") return { text: textContent(gap).trim() || gap.attributes.identifier || "Label" };
  const object = childElement(gap, "object") ?? childElement(gap, "img");
  const name = gap.attributes.objectLabel || gap.attributes.label || textContent(object).trim();
  const data = object?.attributes.data ?? object?.attributes.src ?? "";
  if (!object || data.startsWith("data:")) return { text: name || gap.attributes.identifier || "Label" };
  const found = await input.picture(object);
  const { width: _width, height: _height, alt, ...source } = found;
  return { image: { ...source, alt: alt || name || "Label" }, ...(name ? { text: name } : {}) };
}

async function graphicGapItem(interaction: XmlTree, input: MoreItemInput): Promise<MoreItem | string> {
  const hotspots = childElements(interaction, "associableHotspot");
  const zones: Record<string, unknown>[] = [];
  const shapes: RegionShape[] = [];
  const zoneIds = new Map<string, string>();
  for (const [index, hotspot] of hotspots.entries()) {
    const region = regionOf(hotspot.attributes.shape, hotspot.attributes.coords);
    if (!region) return `its zone ${hotspot.attributes.identifier ?? index + 1} has a shape we do not draw ("${hotspot.attributes.shape ?? ""}")`;
    // Our own packages name a zone `Z_<its id>`; another tool's zones are numbered.
    const own = /^Z_([a-z0-9_-]{1,40})$/.exec(hotspot.attributes.identifier ?? "")?.[1];
    const id = own && !zoneIds.has(own) ? own : `zone${index + 1}`;
    zoneIds.set(hotspot.attributes.identifier ?? "", id);
    shapes.push(region);
    zones.push({ ...region, id, name: hotspot.attributes.hotspotLabel || `Zone ${index + 1}` });
  }
  const placedOn = new Map<string, string>();
  for (const pair of rightAnswers(input.declaration(interaction.attributes.responseIdentifier))) {
    const [gap = "", zone = ""] = pair.split(/\s+/);
    if (placedOn.has(gap)) continue;
    if ([...placedOn.values()].includes(zone)) return "puts several labels on one zone; a zone takes one label";
    placedOn.set(gap, zone);
  }
  const labels: Record<string, unknown>[] = [];
  for (const gap of interaction.children.filter((child) => child.name === "gapText" || child.name === "gapImg")) {
    const identifier = gap.attributes.identifier ?? "";
    const zone = zoneIds.get(placedOn.get(identifier) ?? "");
    const feedback = input.feedbackOf(identifier);
    labels.push({ ...(await gapLabel(gap, input)), ...(zone ? { zone } : {}), ...(feedback ? { feedback } : {}) });
  }
  if (!labels.some((label) => label.zone)) return "places no label on a zone";
  const image = await questionPicture(interaction, input, shapes);
  return typeof image === "string" ? image : { block: { type: "drag_onto_image", image, zones, labels } };
}

function inlineChoiceItem(input: MoreItemInput): MoreItem | string {
  const holders = input.body.children.filter((child) => descendants(child, "inlineChoiceInteraction").length > 0);
  const sentenceHolder = input.body.children.find((child) => child.name === "div" && child.attributes.class === "sentence");
  const lines = sentenceHolder ? childElements(sentenceHolder, "p") : holders;
  const gaps: Record<string, unknown>[] = [];
  let missing = false;
  const write = (node: XmlTree): string =>
    node.content
      .map((part) => {
        if (typeof part === "string") return part;
        if (part.name !== "inlineChoiceInteraction") return write(part);
        const right = new Set(rightAnswers(input.declaration(part.attributes.responseIdentifier)));
        const choices = childElements(part, "inlineChoice").map((choice) => ({ text: textContent(choice).trim(), ...(right.has(choice.attributes.identifier ?? "") ? { correct: true } : {}) }));
        if (right.size === 0) missing = true;
        const feedback = input.feedbackOf(`G${gaps.length + 1}`);
        gaps.push({ choices, ...(feedback ? { feedback } : {}) });
        return `{{${gaps.length}}}`;
      })
      .join("");
  const text = lines.map((line) => write(line).trim()).join("\n\n");
  if (missing) return "has a drop-down without a right choice";
  const holding = new Set([...holders, ...(sentenceHolder ? [sentenceHolder] : [])]);
  return { block: { type: "inline_choice", text, gaps }, prompt: paragraphs(input.body.children.filter((child) => child.name === "p" && !holding.has(child))) };
}

function openResponseItem(interaction: XmlTree, input: MoreItemInput): MoreItem {
  const rubric = descendants(input.body, "rubricBlock").find((block) => /scorer|author|tutor/.test(block.attributes.view ?? "")) ?? descendants(input.body, "rubricBlock")[0];
  const modelDiv = rubric ? descendants(rubric, "div").find((div) => div.attributes.class === "model-answer") : undefined;
  const criteria = rubric
    ? descendants(rubric, "p")
        .filter((p) => p.attributes.class === "criterion")
        .map((p) => {
          const match = /^(.*)\((\d+(?:\.\d+)?)\)\s*$/s.exec(textContent(p).trim());
          return match ? { text: (match[1] ?? "").trim(), points: Number(match[2]) } : { text: textContent(p).trim(), points: 1 };
        })
        .filter((criterion) => criterion.text !== "")
    : [];
  const modelAnswer = modelDiv ? paragraphs(childElements(modelDiv, "p")) : rubric ? paragraphs(descendants(rubric, "p")) : values(input.declaration(interaction.attributes.responseIdentifier)).join("\n\n");
  if (!modelAnswer) input.notes.push("the item gives no model answer: write one for learners to compare with");
  const expected = Number(interaction.attributes.expectedLength ?? Number.NaN);
  return {
    block: {
      type: "open_response",
      modelAnswer: modelAnswer || "(no model answer given)",
      ...(Number.isInteger(expected) && expected > 0 ? { maxCharacters: Math.min(4_000, expected) } : {}),
      ...(criteria.length > 0 ? { rubric: { criteria: criteria.slice(0, 20) } } : {}),
    },
  };
}

/** Choice interactions with no right answer, all over the same 3 to 7 labels: an opinion scale. */
function likertItem(input: MoreItemInput): MoreItem | undefined {
  const choices = input.interactions.filter((interaction) => interaction.name === "choiceInteraction");
  if (choices.length === 0 || choices.length !== input.interactions.length) return undefined;
  if (choices.some((interaction) => rightAnswers(input.declaration(interaction.attributes.responseIdentifier)).length > 0)) return undefined;
  const scaleOf = (interaction: XmlTree): string[] => childElements(interaction, "simpleChoice").map((choice) => textOf(choice, new Set(["feedbackInline"])).trim());
  const scale = scaleOf(choices[0] as XmlTree);
  if (scale.length < 3 || scale.length > 7 || choices.some((interaction) => scaleOf(interaction).join("\u0000") !== scale.join("\u0000"))) return undefined;
  const statements = choices.map((interaction, index) => ({ text: textContent(childElement(interaction, "prompt")).trim() || `Statement ${index + 1}` }));
  const promptDiv = input.body.children.find((child) => child.name === "div" && child.attributes.class === "prompt");
  return { block: { type: "likert", statements: statements.slice(0, 20), scale }, prompt: promptDiv ? paragraphs(childElements(promptDiv, "p")) : paragraphs(input.body.children.filter((child) => child.name === "p")) };
}

export async function readMoreItem(input: MoreItemInput): Promise<MoreItem | string | undefined> {
  const first = input.interactions[0];
  if (!first) return undefined;
  switch (first.name) {
    case "textEntryInteraction": {
      const baseType = input.declaration(first.attributes.responseIdentifier)?.attributes.baseType;
      return input.interactions.length === 1 && (baseType === "float" || baseType === "integer") ? numericItem(first, input) : undefined;
    }
    case "hotspotInteraction":
      return hotspotItem(first, input);
    case "selectPointInteraction":
      return selectPointItem(first, input);
    case "graphicGapMatchInteraction":
      return graphicGapItem(first, input);
    case "inlineChoiceInteraction":
      return inlineChoiceItem(input);
    case "extendedTextInteraction":
      return openResponseItem(first, input);
    case "choiceInteraction":
      return likertItem(input);
    default:
      return undefined;
  }
}
