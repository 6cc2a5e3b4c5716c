/**
 * A Word document as an outline: the Title style is the course title, headings (by style name, style
 * outline level, or the paragraph's own outline level) become modules, lessons and heading blocks as in
 * a Markdown outline; list paragraphs become Markdown lists, tables Markdown tables, quote styles quote
 * blocks, code styles (or runs all in a monospace font) code blocks, pictures image blocks. Footnotes,
 * headers, footers, comments, text boxes, charts and equations are reported as dropped.
 */
import type { Notice } from "../../notice.ts";
import { WorkSlicer } from "../../codecs/event-loop.ts";
import type { MarkdownPart } from "../markdown/markdown-blocks.ts";
import { planFromParts } from "../markdown/markdown-outline.ts";
import { boundedChildren, escapeMarkdown, markdownTable, monospaceFonts, OfficeContent, withoutFailedPictures, type OfficePlan } from "./office-content.ts";
import type { OfficePackage, Relationship } from "./office-package.ts";
import { childElements, descendants, describedBy, firstChild, textOf, type XmlNode } from "./office-xml.ts";

interface StyleInfo {
  name: string;
  outlineLevel?: number;
  basedOn?: string;
  numbered: boolean;
}

type Paragraph =
  | { kind: "heading"; level: number; text: string }
  | { kind: "list"; ordered: boolean; depth: number; markdown: string; list: string }
  | { kind: "quote" | "code" | "text"; markdown: string; plain: string }
  | { kind: "block"; block: Record<string, unknown>; source: string };

/** Body paragraphs and tables read between two yields to the event loop. */
const paragraphsPerSlice = 256;
/** Styles and list definitions read between two yields. */
const definitionsPerSlice = 1_000;
/** Word lists have nine levels (ilvl 0-8). */
const wordListLevels = 9;

const on = (node: XmlNode | undefined) => node !== undefined && !/^(0|false|off|none)$/i.test(node.attributes.val ?? "true");

export class DocxReader {
  private readonly styles = new Map<string, StyleInfo>();
  private readonly numberFormats = new Map<string, string>();
  readonly content: OfficeContent;
  private paragraphNumber = 0;

  private constructor(
    private readonly file: OfficePackage,
    private readonly relationships: Map<string, Relationship>,
  ) {
    this.content = new OfficeContent(file);
  }

  static async create(file: OfficePackage): Promise<DocxReader> {
    const reader = new DocxReader(file, await file.relationships(file.mainPart));
    await reader.readStyles();
    await reader.readNumbering();
    return reader;
  }

  private async readStyles(): Promise<void> {
    const part = await this.file.related(this.file.mainPart, "styles");
    if (!part || !this.file.has(part)) return;
    const slicer = new WorkSlicer(definitionsPerSlice);
    for (const style of childElements(await this.file.xml(part), "style")) {
      await slicer.done(1);
      const id = style.attributes.styleId;
      if (!id) continue;
      const pPr = firstChild(style, "pPr");
      const level = firstChild(pPr, "outlineLvl")?.attributes.val;
      this.styles.set(id, {
        name: firstChild(style, "name")?.attributes.val ?? id,
        ...(level !== undefined ? { outlineLevel: Number(level) } : {}),
        ...(firstChild(style, "basedOn")?.attributes.val ? { basedOn: firstChild(style, "basedOn")?.attributes.val as string } : {}),
        numbered: firstChild(pPr, "numPr") !== undefined,
      });
    }
  }

  /**
   * numId:ilvl → numFmt (bullet, decimal, …), to tell bulleted from numbered lists. Each definition's
   * levels are read once, and only Word's nine: many numbers sharing one definition of many levels
   * would otherwise cost their product.
   */
  private async readNumbering(): Promise<void> {
    const part = await this.file.related(this.file.mainPart, "numbering");
    if (!part || !this.file.has(part)) return;
    const numbering = await this.file.xml(part);
    const slicer = new WorkSlicer(definitionsPerSlice);
    const formats = new Map<string, [string, string][]>();
    for (const node of childElements(numbering, "abstractNum")) {
      await slicer.done(1);
      const levels = childElements(node, "lvl").slice(0, wordListLevels);
      formats.set(node.attributes.abstractNumId ?? "", levels.map((level) => [level.attributes.ilvl ?? "", firstChild(level, "numFmt")?.attributes.val ?? "bullet"]));
    }
    for (const num of childElements(numbering, "num")) {
      await slicer.done(1);
      for (const [ilvl, format] of formats.get(firstChild(num, "abstractNumId")?.attributes.val ?? "") ?? []) this.numberFormats.set(`${num.attributes.numId}:${ilvl}`, format);
    }
  }

  private styleChain(id: string | undefined): StyleInfo[] {
    const chain: StyleInfo[] = [];
    for (let current = id, hops = 0; current && hops < 10; hops++) {
      const style = this.styles.get(current);
      if (!style) break;
      chain.push(style);
      current = style.basedOn;
    }
    return chain;
  }

  private headingLevel(pPr: XmlNode | undefined, chain: readonly StyleInfo[], styleId: string | undefined): number | undefined {
    const names = [...chain.map((style) => style.name), styleId ?? ""];
    if (names.some((name) => /^title$/i.test(name))) return 0;
    const own = firstChild(pPr, "outlineLvl")?.attributes.val;
    if (own !== undefined && Number(own) < 9) return Number(own) + 1;
    for (const name of names) {
      const match = /^heading\s*([1-9])$/i.exec(name);
      if (match) return Number(match[1]);
    }
    const styled = chain.find((style) => style.outlineLevel !== undefined && style.outlineLevel < 9);
    return styled ? (styled.outlineLevel as number) + 1 : undefined;
  }

  /** A run sequence as Markdown (bold, italic, links) and as plain text; pictures collected on the way. */
  private inline(node: XmlNode, where: string, pictures: Record<string, unknown>[]): { markdown: string; plain: string; monospace: boolean } {
    let markdown = "";
    let plain = "";
    let runs = 0;
    let monospaceRuns = 0;
    const visit = (element: XmlNode, link?: string) => {
      for (const child of boundedChildren(element, undefined, where)) {
        switch (child.name) {
          case "r": {
            const rPr = firstChild(child, "rPr");
            let text = "";
            for (const part of boundedChildren(child, undefined, `a run of ${where}`)) {
              if (part.name === "t") text += part.children.filter((item): item is string => typeof item === "string").join("");
              else if (part.name === "tab") text += " ";
              else if (part.name === "br" || part.name === "cr") text += "\n";
              else if (part.name === "drawing" || part.name === "pict") this.drawing(part, where, pictures);
              // Word 2010 shapes and LibreOffice's frames (a captioned picture) come as a choice with a VML fallback: the first choice is read, the fallback only without one.
              else if (part.name === "AlternateContent") for (const drawing of alternative(part)) this.drawing(drawing, where, pictures);
              else if (part.name === "object") this.content.dropped(`an embedded object on ${where}`, "embedded OLE objects are not carried");
              else if (part.name === "footnoteReference" || part.name === "endnoteReference") this.content.dropped(`a footnote on ${where}`, "footnotes and endnotes are not carried; add their text to the paragraph if it matters");
            }
            if (!text) break;
            runs += 1;
            const font = firstChild(rPr, "rFonts")?.attributes.ascii ?? "";
            if (monospaceFonts.test(font)) monospaceRuns += 1;
            plain += text;
            let piece = escapeMarkdown(text).replace(/\n/g, "  \n");
            const trimmed = piece.trim();
            if (trimmed && on(firstChild(rPr, "b"))) piece = piece.replace(trimmed, `**${trimmed}**`);
            if (trimmed && on(firstChild(rPr, "i"))) piece = piece.replace(trimmed, `*${trimmed}*`);
            markdown += piece;
            break;
          }
          case "hyperlink": {
            // The label is gathered on its own and appended once: re-slicing the paragraph per link would be quadratic.
            const target = this.relationships.get(child.attributes["r:id"] ?? "")?.target;
            const outer = markdown;
            markdown = "";
            visit(child, target);
            const label = markdown;
            markdown = outer + (target && /^(https?:|mailto:)/i.test(target) && label.trim() ? `[${label}](<${target.replace(/[<>\s]/g, encodeURIComponent)}>)` : label);
            break;
          }
          case "ins":
          case "smartTag":
          case "customXml":
          case "fldSimple":
            visit(child, link);
            break;
          case "sdt":
            visit(firstChild(child, "sdtContent") ?? child, link);
            break;
          case "oMath":
          case "oMathPara":
            this.content.dropped(`an equation on ${where}`, "equations are not carried; write it as text or add a picture of it");
            break;
        }
      }
    };
    visit(node);
    return { markdown: markdown.trim(), plain, monospace: runs > 0 && monospaceRuns === runs };
  }

  private drawing(node: XmlNode, where: string, pictures: Record<string, unknown>[]): void {
    const boxes = descendants(node, "txbxContent");
    const ids = pictureIds(node);
    const name = descendants(node, "docPr")[0]?.attributes.name ?? "";
    if (boxes.length > 0) {
      const text = boxes.map((box) => boxText(box)).join(" ").replace(/\s+/g, " ").trim();
      if (ids.length === 0) {
        if (text) this.content.dropped(`a text box on ${where} ("${text.slice(0, 60)}")`, "text boxes are not carried; move the text into the document body");
        else this.content.dropped(`an empty frame or shape${name ? ` ("${name.slice(0, 60)}")` : ""} on ${where}`, "a shape without text or picture is not carried");
        return;
      }
      // A frame holding pictures and words (LibreOffice's captioned picture): the pictures, the words their caption.
      const start = pictures.length;
      this.pictures(ids, describedBy(descendants(boxes[0] as XmlNode, "docPr")[0]), where, pictures);
      const first = pictures[start];
      if (first && text) {
        first.caption = text.slice(0, 500);
        this.content.keptAsText(`${where}: the words in the frame around the picture ("${text.slice(0, 60)}") became its caption`);
      }
      return;
    }
    if (ids.length === 0) {
      const geometry = descendants(node, "prstGeom")[0]?.attributes.prst ?? descendants(node, "custGeom").map(() => "freeform")[0] ?? "";
      const chart = descendants(node, "graphicData").some((data) => /chart|diagram/i.test(data.attributes.uri ?? ""));
      const what = chart ? "a chart or diagram" : "a shape without text";
      const named = [name, geometry].filter(Boolean).join(", ");
      this.content.dropped(`${what}${named ? ` (${named.slice(0, 80)})` : ""} on ${where}`, "only pictures and text are carried; export it as a PNG and add it with upload_asset");
      return;
    }
    this.pictures(ids, describedBy(descendants(node, "docPr")[0]), where, pictures);
  }

  private pictures(ids: readonly string[], description: string, where: string, pictures: Record<string, unknown>[]): void {
    for (const id of ids) {
      const relationship = this.relationships.get(id);
      const block = this.content.picture(relationship?.target, description, where);
      if (block) pictures.push(block);
    }
  }

  private paragraph(node: XmlNode): Paragraph[] {
    const where = `paragraph ${this.paragraphNumber}`;
    const pPr = firstChild(node, "pPr");
    const styleId = firstChild(pPr, "pStyle")?.attributes.val;
    const chain = this.styleChain(styleId);
    const names = chain.map((style) => style.name).join(" ");
    const pictures: Record<string, unknown>[] = [];
    const { markdown, plain, monospace } = this.inline(node, where, pictures);
    const out: Paragraph[] = [];
    if (plain.trim()) {
      const level = this.headingLevel(pPr, chain, styleId);
      const numPr = firstChild(pPr, "numPr");
      if (level !== undefined) out.push({ kind: "heading", level, text: plain.replace(/\s+/g, " ").trim() });
      else if (/quot/i.test(names)) out.push({ kind: "quote", markdown, plain });
      else if (/(code|preformatted|source text|html pre)/i.test(names) || monospace) out.push({ kind: "code", markdown, plain });
      else if (numPr || chain.some((style) => style.numbered) || /^list (bullet|number)/i.test(names)) {
        const numId = firstChild(numPr, "numId")?.attributes.val ?? "";
        const depth = Number(firstChild(numPr, "ilvl")?.attributes.val ?? 0);
        if (numId === "0") out.push({ kind: "text", markdown, plain });
        else {
          const format = this.numberFormats.get(`${numId}:${depth}`) ?? (/number/i.test(names) ? "decimal" : "bullet");
          out.push({ kind: "list", ordered: format !== "bullet" && format !== "none", depth: Math.min(depth, 8), markdown, list: numId || names });
        }
      } else out.push({ kind: "text", markdown, plain });
    }
    for (const block of pictures) out.push({ kind: "block", block, source: "" });
    return out;
  }

  /** A table as a Markdown table, then the pictures its cells hold (a table cell of Markdown holds none). */
  private async table(node: XmlNode, slicer: WorkSlicer): Promise<Paragraph[]> {
    const rows: string[][] = [];
    const pictures: Record<string, unknown>[] = [];
    for (const row of childElements(node, "tr")) {
      await slicer.done(1);
      rows.push(
        boundedChildren(row, "tc", `a table row at paragraph ${this.paragraphNumber}`).map((cell) =>
          boundedChildren(cell, "p", `a table cell at paragraph ${this.paragraphNumber}`)
            .map((paragraph) => this.inline(paragraph, `the table at paragraph ${this.paragraphNumber}`, pictures).markdown.replace(/\|/g, "\\|"))
            .filter(Boolean)
            .join("<br>"),
        ),
      );
    }
    if (descendants(node, "tbl").length > 0) this.content.keptAsText(`paragraph ${this.paragraphNumber}: a table inside a table cell is kept as the cell's text`);
    if (pictures.length > 0) this.content.keptAsText(`paragraph ${this.paragraphNumber}: ${pictures.length === 1 ? "the picture" : `the ${pictures.length} pictures`} in the table's cells follow the table`);
    const markdown = markdownTable(rows);
    return [{ kind: "block", block: { type: "text", markdown }, source: markdown }, ...pictures.map((block): Paragraph => ({ kind: "block", block, source: "" }))];
  }

  /** The body's paragraphs and tables as outline parts, yielding to the event loop every few hundred. */
  async parts(): Promise<MarkdownPart[]> {
    const body = firstChild(await this.file.xml(this.file.mainPart), "body");
    const items: { paragraph: Paragraph; line: number }[] = [];
    const slicer = new WorkSlicer(paragraphsPerSlice);
    const walk = async (container: XmlNode): Promise<void> => {
      for (const child of childElements(container)) {
        await slicer.done(1);
        this.paragraphNumber += child.name === "p" || child.name === "tbl" ? 1 : 0;
        const line = this.paragraphNumber;
        if (child.name === "p") for (const paragraph of this.paragraph(child)) items.push({ paragraph, line });
        else if (child.name === "tbl") for (const paragraph of await this.table(child, slicer)) items.push({ paragraph, line });
        else if (child.name === "sdt") await walk(firstChild(child, "sdtContent") ?? child);
      }
    };
    if (body) await walk(body);
    return mergeParagraphs(items);
  }

  /** Page furniture and review marks the body does not carry. */
  reportSideParts(): void {
    const relationships = [...this.relationships.values()];
    const has = (suffix: string) => relationships.some((relationship) => relationship.type.endsWith(`/${suffix}`));
    if (has("header") || has("footer")) this.content.dropped("headers and footers", "page furniture is not course content");
    if (has("comments")) this.content.dropped("comments in the document", "Word comments are not course content (a review copy made by export_course brings comments back with import_review_copy)");
  }
}

/** The drawings of a markup-compatibility choice: its first choice's, or its fallback's when no choice holds one. */
function alternative(node: XmlNode): XmlNode[] {
  for (const branch of [...childElements(node, "Choice"), ...childElements(node, "Fallback")]) {
    const drawings = childElements(branch).filter((child) => child.name === "drawing" || child.name === "pict");
    if (drawings.length > 0) return drawings;
  }
  return [];
}

/** The picture relationship IDs in a drawing, in order; of a nested choice only the branch `alternative` reads. */
function pictureIds(node: XmlNode, found: string[] = [], depth = 0): string[] {
  if (depth > 64) return found;
  for (const child of childElements(node)) {
    if (child.name === "AlternateContent") {
      for (const drawing of alternative(child)) pictureIds(drawing, found, depth + 1);
      continue;
    }
    if (child.name === "blip" && child.attributes["r:embed"]) found.push(child.attributes["r:embed"]);
    else if (child.name === "imagedata" && child.attributes["r:id"]) found.push(child.attributes["r:id"]);
    else pictureIds(child, found, depth + 1);
  }
  return found;
}

/** A text box's words, without the copy a nested choice's fallback repeats. */
function boxText(box: XmlNode, depth = 0): string {
  let text = "";
  for (const child of childElements(box)) {
    if (child.name === "Fallback" || depth > 64) continue;
    if (child.name === "t") text += child.children.filter((item): item is string => typeof item === "string").join("");
    else text += child.name === "p" ? ` ${boxText(child, depth + 1)} ` : boxText(child, depth + 1);
  }
  return text;
}

/** Consecutive list items become one list, consecutive code or quote paragraphs one block. */
function mergeParagraphs(items: readonly { paragraph: Paragraph; line: number }[]): MarkdownPart[] {
  const parts: MarkdownPart[] = [];
  for (let index = 0; index < items.length; ) {
    const { paragraph, line } = items[index] as { paragraph: Paragraph; line: number };
    if (paragraph.kind === "heading") {
      parts.push({ kind: "heading", line, source: paragraph.text, level: paragraph.level, text: paragraph.text });
      index += 1;
      continue;
    }
    if (paragraph.kind === "block") {
      parts.push({ kind: "block", line, source: paragraph.source, paragraph: false, block: paragraph.block });
      index += 1;
      continue;
    }
    const run: Paragraph[] = [];
    const sameList = (next: Paragraph) => next.kind === paragraph.kind && (next.kind !== "list" || paragraph.kind !== "list" || next.list === paragraph.list);
    while (index < items.length && sameList((items[index] as { paragraph: Paragraph }).paragraph)) run.push((items[index++] as { paragraph: Paragraph }).paragraph);
    if (paragraph.kind === "list") {
      const listItems = run.map((item) => (item.kind === "list" ? item : null)).filter((item) => item !== null);
      const counters: number[] = [];
      const source = listItems
        .map((item) => {
          counters.length = item.depth + 1;
          counters[item.depth] = (counters[item.depth] ?? 0) + 1;
          return `${"   ".repeat(item.depth)}${item.ordered ? `${counters[item.depth]}.` : "-"} ${item.markdown}`;
        })
        .join("\n");
      parts.push({ kind: "block", line, source, paragraph: false, block: { type: "text", markdown: source }, listItems: listItems.filter((item) => item.depth === 0).map((item) => item.markdown) });
    } else if (paragraph.kind === "code") {
      const code = run.map((item) => (item.kind === "code" ? item.plain : "")).join("\n");
      parts.push({ kind: "block", line, source: code, paragraph: false, block: { type: "code", language: "plaintext", code } });
    } else if (paragraph.kind === "quote") {
      const text = run.map((item) => (item.kind === "quote" ? item.markdown : "")).join("\n\n");
      parts.push({ kind: "block", line, source: text, paragraph: false, block: { type: "quote", text } });
    } else {
      for (const item of run) {
        if (item.kind !== "text") continue;
        parts.push({ kind: "block", line, source: item.markdown, paragraph: true, block: { type: "text", markdown: item.markdown } });
      }
    }
  }
  return parts;
}

export async function planFromDocx(file: OfficePackage, title: string | undefined, fallbackTitle: string): Promise<OfficePlan> {
  const reader = await DocxReader.create(file);
  let parts = await reader.parts();
  reader.reportSideParts();
  parts = withoutFailedPictures(parts, await reader.content.loadPictures());
  // A document without headings under its title is one lesson of one module.
  const titleLevel = parts.find((part) => part.kind === "heading")?.level;
  const headings = parts.filter((part) => part.kind === "heading");
  const onlyTitle = headings.length === 0 || (headings.length === 1 && titleLevel !== undefined);
  if (onlyTitle) {
    const heading = headings[0];
    const lessonTitle = (heading?.kind === "heading" ? heading.text : undefined) ?? title ?? fallbackTitle;
    const rest = parts.filter((part) => part !== heading);
    parts = [
      { kind: "heading", level: 0, line: 1, source: lessonTitle, text: title ?? lessonTitle },
      { kind: "heading", level: 1, line: 1, source: lessonTitle, text: lessonTitle },
      ...rest,
    ];
  }
  const plan = planFromParts(parts, { title, fallbackTitle, place: (line) => `paragraph ${line}` });
  // Told once as a notice by the outline; listed in the report too.
  reader.content.report.keptAsText.push(...plan.objectivesFrom);
  const notices: Notice[] = [...reader.content.notices, ...plan.notices];
  return { ...plan, assets: reader.content.assets, notices, report: reader.content.report, lessonNotes: [] };
}
