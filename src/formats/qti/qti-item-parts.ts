/**
 * The pieces every QTI item is built from, in QTI 2.1's names (`qtiDialects` renames them for 3.0): values,
 * score updates, the multiple-valued `FEEDBACK` outcome that turns modal feedback on, conditions, and an
 * item's parts (declarations, body, processing, feedback). `qti-items.ts` and `qti-more-items.ts` build
 * their interactions from these.
 */
import { el, type XmlChild, type XmlElement } from "../../codecs/xml-write.ts";

/** Where a question's pictures land in the package, by asset ID; URLs are kept as they are. */
export type PictureHref = (picture: { assetId?: string | undefined; url?: string | undefined }) => string;

export const explanationId = "EXPLANATION";

/** Markdown as paragraphs of its own text. */
export function paragraphs(markdown: string): XmlElement[] {
  return markdown
    .split(/\n{2,}/)
    .filter((part) => part.trim() !== "")
    .map((part) => el("p", {}, part));
}

export const float = (value: number): string => String(Math.round(value * 1e6) / 1e6);

export function value(text: string): XmlElement {
  return el("value", {}, text);
}

export function baseValue(baseType: string, text: string): XmlElement {
  return el("baseValue", { baseType }, text);
}

export const variable = (identifier: string): XmlElement => el("variable", { identifier });

export function setScore(expression: XmlElement): XmlElement {
  return el("setOutcomeValue", { identifier: "SCORE" }, expression);
}

export function addScore(points: number): XmlElement {
  return setScore(el("sum", {}, variable("SCORE"), baseValue("float", float(points))));
}

/** Adds `identifier` to the FEEDBACK outcome, which shows the modal feedback of that identifier. */
export function showFeedback(identifier: string): XmlElement {
  return el("setOutcomeValue", { identifier: "FEEDBACK" }, el("multiple", {}, variable("FEEDBACK"), baseValue("identifier", identifier)));
}

export function when(condition: XmlElement, ...then: XmlChild[]): XmlElement {
  return el("responseCondition", {}, el("responseIf", {}, condition, then));
}

export function feedback(identifier: string, markdown: string): XmlElement {
  return el("modalFeedback", { outcomeIdentifier: "FEEDBACK", showHide: "show", identifier }, el("contentBody", {}, paragraphs(markdown)));
}

export interface ItemParts {
  readonly declarations: XmlChild[];
  readonly body: XmlChild[];
  readonly processing: XmlChild[];
  readonly feedback: XmlChild[];
}

export function declaration(identifier: string, cardinality: string, baseType: string, correct: readonly string[], mapping?: XmlElement): XmlElement {
  return el("responseDeclaration", { identifier, cardinality, baseType }, el("correctResponse", {}, correct.map(value)), mapping);
}
