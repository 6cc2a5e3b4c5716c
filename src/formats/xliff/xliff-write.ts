/**
 * Writes translation units as XLIFF 2.0 or 1.2, valid against the OASIS schemas. Markdown's inline
 * syntax becomes inline codes (2.0: `ph` and `pc` with the markup in `originalData`; 1.2: `ph`, and
 * `bpt`/`ept` for pairs, with the markup inside), so a CAT tool shows tags it keeps instead of asterisks and
 * URLs it might translate. Yields the file in pieces, so a large course is never one string in memory.
 * Every text and attribute value goes through the one XML writer's escapers (src/codecs/xml-write.ts).
 */
import { alignToSource, segmentMarkdown, type Segment } from "./inline-codes.ts";
import { xmlAttribute, xmlText } from "../../codecs/xml-write.ts";

export const xliffFormats = ["xliff20", "xliff12"] as const;
export type XliffFormat = (typeof xliffFormats)[number];

export const xliffNamespaces: Record<XliffFormat, string> = {
  xliff20: "urn:oasis:names:tc:xliff:document:2.0",
  xliff12: "urn:oasis:names:tc:xliff:document:1.2",
};

/** A unit as the file carries it; the domain's translation units have this shape. */
export interface XliffUnit {
  /** `<entity ID>/<field path>`. */
  readonly id: string;
  readonly source: string;
  readonly target: string | null;
  readonly state: "untranslated" | "translated" | "outdated";
  /** Where the text is, in words, for the translator. */
  readonly note: string;
  /** What a translator wrote about the unit, kept for the next export. */
  readonly translatorNote?: string;
}

export interface XliffDocument {
  courseId: string;
  srcLang: string;
  trgLang: string;
  units: readonly XliffUnit[];
}

/** 2.0 unit IDs are NMTOKENs, which have no "/": `les_x/title` is written `les_x:title` (IDs never hold ":"); `name` keeps the real ID. */
export function xliff20UnitId(unitId: string): string {
  return unitId.replace(/\//g, ":");
}

const pairTypes = (open: string) => (open.startsWith("[") || open.startsWith("![") ? "link" : "fmt");

function inline20(segments: readonly Segment[]): string {
  return segments
    .map((segment) => {
      if (segment.kind === "text") return xmlText(segment.text);
      if (segment.kind === "ph") return `<ph id="${segment.id}" dataRef="d${segment.id}" canDelete="no"/>`;
      return `<pc id="${segment.id}" type="${pairTypes(segment.open)}" dataRefStart="d${segment.id}s" dataRefEnd="d${segment.id}e" canDelete="no">${inline20(segment.children)}</pc>`;
    })
    .join("");
}

function originalData20(segments: readonly Segment[], into: string[] = []): string[] {
  for (const segment of segments) {
    if (segment.kind === "ph") into.push(`<data id="d${segment.id}">${xmlText(segment.code)}</data>`);
    if (segment.kind === "pc") {
      into.push(`<data id="d${segment.id}s">${xmlText(segment.open)}</data>`, `<data id="d${segment.id}e">${xmlText(segment.close)}</data>`);
      originalData20(segment.children, into);
    }
  }
  return into;
}

function inline12(segments: readonly Segment[]): string {
  return segments
    .map((segment) => {
      if (segment.kind === "text") return xmlText(segment.text);
      if (segment.kind === "ph") return `<ph id="${segment.id}">${xmlText(segment.code)}</ph>`;
      // bpt/ept carry the markup itself, so a tool that flattens tags to text (xliff2po) keeps the Markdown.
      const ctype = pairTypes(segment.open) === "link" ? "link" : segment.open.length >= 2 && segment.open !== "~~" ? "bold" : "italic";
      return `<bpt id="${segment.id}" ctype="${ctype}">${xmlText(segment.open)}</bpt>${inline12(segment.children)}<ept id="${segment.id}">${xmlText(segment.close)}</ept>`;
    })
    .join("");
}

function targetOf(unit: XliffUnit, source: readonly Segment[]): Segment[] | null {
  return unit.target === null ? null : alignToSource(source, segmentMarkdown(unit.target));
}

const states20 = { untranslated: "initial", translated: "translated", outdated: "initial" } as const;
const states12 = { untranslated: "new", translated: "translated", outdated: "needs-review-translation" } as const;

/** The XLIFF file in pieces (a header, one piece per unit, a footer). */
export function* writeXliff(format: XliffFormat, document: XliffDocument): Generator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n`;
  if (format === "xliff20") {
    yield `<xliff xmlns="${xliffNamespaces.xliff20}" version="2.0" srcLang="${xmlAttribute(document.srcLang)}" trgLang="${xmlAttribute(document.trgLang)}">\n`;
    yield `<file id="${document.courseId}" original="course://${document.courseId}">\n`;
    for (const unit of document.units) yield unit20(unit);
    yield `</file>\n</xliff>\n`;
    return;
  }
  yield `<xliff xmlns="${xliffNamespaces.xliff12}" version="1.2">\n`;
  yield `<file original="course://${document.courseId}" source-language="${xmlAttribute(document.srcLang)}" target-language="${xmlAttribute(document.trgLang)}" datatype="x-markdown">\n<body>\n`;
  for (const unit of document.units) yield unit12(unit);
  yield `</body>\n</file>\n</xliff>\n`;
}

function unit20(unit: XliffUnit): string {
  const source = segmentMarkdown(unit.source);
  const target = targetOf(unit, source);
  const data = originalData20(source);
  const translator = unit.translatorNote ? `<note category="translator">${xmlText(unit.translatorNote)}</note>` : "";
  const notes = `<notes><note category="context">${xmlText(unit.note)}</note><note category="state">${unit.state}</note>${translator}</notes>`;
  const original = data.length ? `<originalData>${data.join("")}</originalData>` : "";
  const targetXml = target ? `<target xml:space="preserve">${inline20(target)}</target>` : "";
  return (
    `<unit id="${xliff20UnitId(unit.id)}" name="${xmlAttribute(unit.id)}" canResegment="no">${notes}${original}` +
    `<segment state="${target ? states20[unit.state] : "initial"}"><source xml:space="preserve">${inline20(source)}</source>${targetXml}</segment></unit>\n`
  );
}

/**
 * 1.2's `from` for the note saying where a unit sits. translate-toolkit keeps only notes whose `from`
 * holds "developer" (PO `#.`) or "translator" (PO `# `); where a string sits is the developer's word,
 * and a PO tool never shows it as something a translator wrote.
 */
const contextNoteOrigin12 = "developer";

function unit12(unit: XliffUnit): string {
  const source = segmentMarkdown(unit.source);
  const target = targetOf(unit, source);
  const targetXml = target ? `<target state="${states12[unit.state]}">${inline12(target)}</target>` : "";
  // translate-toolkit marks every unapproved target fuzzy: approving the translated ones lets a PO file tell them from outdated ones.
  const approved = target && unit.state === "translated" ? ` approved="yes"` : "";
  return (
    `<trans-unit id="${xmlAttribute(unit.id)}" resname="${xmlAttribute(unit.id)}"${approved} xml:space="preserve"><source>${inline12(source)}</source>${targetXml}` +
    `<note from="${contextNoteOrigin12}">${xmlText(unit.note)}</note><note from="state">${unit.state}</note>` +
    `${unit.translatorNote ? `<note from="translator">${xmlText(unit.translatorNote)}</note>` : ""}</trans-unit>\n`
  );
}
