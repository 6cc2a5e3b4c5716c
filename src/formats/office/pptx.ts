/**
 * A PowerPoint deck as an outline. Slides are read in the deck's order (presentation.xml), hidden ones
 * reported and left out. The first slide, when it is a title slide (title layout or a centred-title
 * placeholder), gives the course title and its subtitle the description; a section-header slide (or a
 * later slide holding only its title) starts a module; every other slide is a lesson titled by its title placeholder ("Slide N" without one). Shapes are
 * read title first, then top to bottom and left to right; body placeholders are lists unless bullets are
 * turned off, tables become Markdown tables, pictures image blocks. Speaker notes are kept as a review
 * comment on the slide's lesson, where the author sees them and learners do not.
 */
import { limits } from "../../authoring/schemas/fields.ts";
import type { Notice } from "../../notice.ts";
import type { MarkdownPart } from "../markdown/markdown-blocks.ts";
import { objectivesHeading, planFromParts } from "../markdown/markdown-outline.ts";
import { boundedChildren, escapeMarkdown, markdownTable, OfficeContent, withoutFailedPictures, type OfficePlan } from "./office-content.ts";
import { WorkSlicer, yieldToEventLoop } from "../../codecs/event-loop.ts";
import { officeError, type OfficePackage } from "./office-package.ts";
import { childElements, descendants, describedBy, firstChild, textOf, type XmlNode } from "./office-xml.ts";

export const maxSlides = 1_000;
/** Shapes of one slide read between two yields (a hostile slide may hold thousands). */
const shapesPerSlice = 500;

const titleTypes = new Set(["title", "ctrTitle"]);
/** Placeholders whose paragraphs are bulleted unless a paragraph turns bullets off. */
const bulletedTypes = new Set(["body", "obj", ""]);

interface Shape {
  node: XmlNode;
  placeholder?: string;
  y: number;
  x: number;
}

function placeholderType(shape: XmlNode): string | undefined {
  const ph = descendants(firstChild(shape, "nvSpPr") ?? firstChild(shape, "nvPicPr") ?? firstChild(shape, "nvGraphicFramePr") ?? shape, "ph")[0];
  return ph ? (ph.attributes.type ?? "") : undefined;
}

function position(shape: XmlNode): { x: number; y: number } {
  const offset = descendants(firstChild(shape, "spPr") ?? firstChild(shape, "xfrm") ?? firstChild(shape, "grpSpPr") ?? shape, "off")[0];
  return { x: Number(offset?.attributes.x ?? 0), y: Number(offset?.attributes.y ?? 0) };
}

function paragraphText(paragraph: XmlNode): { markdown: string; plain: string } {
  let markdown = "";
  let plain = "";
  for (const child of boundedChildren(paragraph, undefined, "a paragraph")) {
    if (child.name === "br") {
      markdown += "  \n";
      plain += "\n";
      continue;
    }
    if (child.name !== "r" && child.name !== "fld") continue;
    const text = textOf(child, "t");
    if (!text) continue;
    plain += text;
    const rPr = firstChild(child, "rPr");
    let piece = escapeMarkdown(text);
    const trimmed = piece.trim();
    if (trimmed && rPr?.attributes.b === "1") piece = piece.replace(trimmed, `**${trimmed}**`);
    if (trimmed && rPr?.attributes.i === "1") piece = piece.replace(trimmed, `*${trimmed}*`);
    markdown += piece;
  }
  return { markdown: markdown.trim(), plain: plain.trim() };
}

/** A text body as Markdown: list items (bulleted or numbered, by level) and paragraphs. */
function textBody(body: XmlNode, bulleted: boolean): string {
  const lines: string[] = [];
  let previousList = false;
  for (const paragraph of boundedChildren(body, "p", "a text box")) {
    const { markdown } = paragraphText(paragraph);
    if (!markdown) continue;
    const pPr = firstChild(paragraph, "pPr");
    const level = Math.min(8, Number(pPr?.attributes.lvl ?? 0));
    const numbered = firstChild(pPr, "buAutoNum") !== undefined;
    const list = firstChild(pPr, "buNone") === undefined && (bulleted || numbered || firstChild(pPr, "buChar") !== undefined);
    if (list) {
      lines.push(`${"   ".repeat(level)}${numbered ? "1." : "-"} ${markdown}`);
    } else {
      if (lines.length > 0) lines.push("");
      lines.push(markdown);
    }
    if (!list && previousList) lines.splice(lines.length - 2, 0, "");
    previousList = list;
  }
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}

/** Without a title placeholder, the top-most text box holding one short line is the slide's title. */
function titleTextBox(shapes: readonly Shape[]): Shape | undefined {
  const texts = shapes.filter((shape) => shape.node.name === "sp" && shape.placeholder === undefined && textOf(shape.node, "t").trim() !== "");
  const top = [...texts].sort((a, b) => a.y - b.y || a.x - b.x)[0];
  if (!top) return undefined;
  const lines = childElements(firstChild(top.node, "txBody") ?? top.node, "p").filter((paragraph) => paragraph.children.length > 0 && textOf(paragraph, "t").trim() !== "");
  return lines.length === 1 && textOf(top.node, "t").trim().length <= 200 ? top : undefined;
}

/** A first slide of only a title and at most one more line of text (no body, picture or table) opens the deck. */
function looksLikeTitleSlide(shapes: readonly Shape[], title: Shape | undefined): boolean {
  if (!title) return false;
  const rest = shapes.filter((shape) => shape !== title);
  return rest.length <= 1 && rest.every((shape) => shape.node.name === "sp" && (shape.placeholder === undefined || shape.placeholder === "subTitle") && childElements(firstChild(shape.node, "txBody") ?? shape.node, "p").length <= 2);
}

/** ` ("5-Point Star 3", star5)`: a shape's name and drawn geometry, for the report. */
function shapeName(node: XmlNode): string {
  const name = descendants(firstChild(node, "nvSpPr") ?? firstChild(node, "nvCxnSpPr") ?? node, "cNvPr")[0]?.attributes.name ?? "";
  const geometry = descendants(firstChild(node, "spPr") ?? node, "prstGeom")[0]?.attributes.prst ?? (descendants(firstChild(node, "spPr") ?? node, "custGeom").length > 0 ? "freeform" : "");
  const named = [name ? `"${name.slice(0, 60)}"` : "", geometry].filter(Boolean).join(", ");
  return named ? ` (${named})` : "";
}

class SlideReader {
  readonly content: OfficeContent;

  constructor(private readonly file: OfficePackage) {
    this.content = new OfficeContent(file);
  }

  /**
   * Slide parts in deck order, refused over the limit before any slide is read. A slide part the deck
   * lists again (another slide ID, or another relationship to the same part) is read once, where it
   * first appears, and the repeat is reported.
   */
  async slides(): Promise<{ part: string; hidden: boolean }[]> {
    const presentation = await this.file.xml(this.file.mainPart);
    const ids = childElements(firstChild(presentation, "sldIdLst") ?? presentation, "sldId");
    if (ids.length > maxSlides) {
      throw officeError(this.file.fileName, `has ${ids.length} slides; a deck may have at most ${maxSlides} slides. Split it into several decks`, "limit_exceeded", { slides: ids.length, limit: maxSlides });
    }
    const relationships = await this.file.relationships(this.file.mainPart);
    const firstListed = new Map<string, number>();
    const repeats: { listed: number; first: number }[] = [];
    for (const [index, id] of ids.entries()) {
      const part = relationships.get(id.attributes["r:id"] ?? "")?.target;
      if (!part || !this.file.has(part)) throw officeError(this.file.fileName, `names a slide (${id.attributes["r:id"]}) that the file does not hold`);
      const first = firstListed.get(part);
      if (first === undefined) firstListed.set(part, index + 1);
      else repeats.push({ listed: index + 1, first });
    }
    if (repeats.length > 0) this.reportRepeats(repeats);
    return [...firstListed.keys()].map((part) => ({ part, hidden: false }));
  }

  private reportRepeats(repeats: readonly { listed: number; first: number }[]): void {
    const shown = repeats.slice(0, 5).map(({ listed, first }) => `${listed} (slide ${first} again)`);
    const more = repeats.length > shown.length ? ` and ${repeats.length - shown.length} more` : "";
    this.content.dropped(`${repeats.length} repeated slide ${repeats.length === 1 ? "entry" : "entries"}: ${shown.join(", ")}${more}`, "the deck lists the same slide more than once; each slide is imported once, where it first appears");
  }

  private readonly layoutTypes = new Map<string, string>();

  async layoutType(slidePart: string): Promise<string> {
    const layout = await this.file.related(slidePart, "slideLayout");
    if (!layout || !this.file.has(layout)) return "";
    let type = this.layoutTypes.get(layout);
    if (type === undefined) {
      type = (await this.file.xml(layout)).attributes.type ?? "";
      this.layoutTypes.set(layout, type);
    }
    return type;
  }

  shapes(tree: XmlNode, found: Shape[] = []): Shape[] {
    for (const child of childElements(tree)) {
      if (child.name === "grpSp") this.shapes(child, found);
      else if (child.name === "sp" || child.name === "pic" || child.name === "graphicFrame" || child.name === "cxnSp") {
        const type = placeholderType(child);
        found.push({ node: child, ...(type !== undefined ? { placeholder: type } : {}), ...position(child) });
      } else if (child.name === "AlternateContent") this.shapes(firstChild(child, "Fallback") ?? child, found);
    }
    return found;
  }

  async notes(slidePart: string): Promise<string> {
    const notesPart = await this.file.related(slidePart, "notesSlide");
    if (!notesPart || !this.file.has(notesPart)) return "";
    const tree = descendants(await this.file.xml(notesPart), "spTree")[0];
    if (!tree) return "";
    return this.shapes(tree)
      // The notes placeholder, or plain text boxes (LibreOffice writes notes as one); never the slide image, number, header or date.
      .filter((shape) => shape.node.name === "sp" && (shape.placeholder === "body" || shape.placeholder === undefined))
      .map((shape) => (firstChild(shape.node, "txBody") ? textBody(firstChild(shape.node, "txBody") as XmlNode, false) : ""))
      .filter(Boolean)
      .join("\n\n");
  }

  async blocks(slidePart: string, shapes: readonly Shape[], where: string): Promise<Record<string, unknown>[]> {
    const blocks: Record<string, unknown>[] = [];
    const relationships = await this.file.relationships(slidePart);
    const slicer = new WorkSlicer(shapesPerSlice);
    for (const shape of shapes) {
      await slicer.done(1);
      const node = shape.node;
      if (node.name === "sp") {
        const body = firstChild(node, "txBody");
        const markdown = body ? textBody(body, shape.placeholder !== undefined && bulletedTypes.has(shape.placeholder)) : "";
        if (markdown) blocks.push({ type: "text", markdown });
        // An empty placeholder shows nothing in the show; a drawn shape without words (a star, an arrow) is named.
        else if (shape.placeholder === undefined) this.content.dropped(`a shape without text on ${where}${shapeName(node)}`, "only text, tables and pictures are carried; export it as a PNG and add it with upload_asset");
      } else if (node.name === "pic") {
        if (descendants(node, "videoFile").length + descendants(node, "audioFile").length + descendants(node, "media").length > 0) {
          this.content.dropped(`a video or sound on ${where}`, "media in slides is not carried; upload it with upload_asset and add a video or audio block");
          continue;
        }
        const blip = descendants(node, "blip")[0]?.attributes["r:embed"];
        const description = describedBy(descendants(node, "cNvPr")[0]);
        const block = this.content.picture(relationships.get(blip ?? "")?.target, description, where);
        if (block) blocks.push(block);
      } else if (node.name === "cxnSp") {
        this.content.dropped(`a line or connector on ${where}${shapeName(node)}`, "only text, tables and pictures are carried");
      } else {
        const table = descendants(node, "tbl")[0];
        if (table) {
          const rows = boundedChildren(table, "tr", "a table").map((row) => boundedChildren(row, "tc", "a table row").map((cell) => boundedChildren(firstChild(cell, "txBody") ?? cell, "p", "a table cell").map((p) => paragraphText(p).markdown.replace(/\|/g, "\\|")).filter(Boolean).join("<br>")));
          blocks.push({ type: "text", markdown: markdownTable(rows) });
        } else {
          const title = textOf(node, "t").trim();
          this.content.dropped(`a chart, diagram or object on ${where}${title ? ` ("${title.slice(0, 60)}")` : ""}`, "only text, tables and pictures are carried; export it as a PNG and add it with upload_asset");
        }
      }
    }
    return blocks;
  }
}

/** An objectives slide's points: each top-level list item or paragraph of its text, without list markers. */
function lineItems(markdown: string): string[] {
  return markdown
    .split("\n")
    .filter((line) => line.trim() !== "" && !/^\s/.test(line))
    .map((line) => line.replace(/^(?:[-+*]|\d+[.)])\s+/, "").trim())
    .filter(Boolean);
}

export async function planFromPptx(file: OfficePackage, title: string | undefined, fallbackTitle: string): Promise<OfficePlan> {
  const reader = new SlideReader(file);
  const slides = await reader.slides();
  const parts: MarkdownPart[] = [];
  const notesByLine = new Map<number, string>();
  /** Notes of section slides, waiting for the next lesson; then carried by that lesson's slide number. */
  const sectionNotes: string[] = [];
  const carriedNotes = new Map<number, string[]>();
  let sawSection = false;
  for (const [index, { part }] of slides.entries()) {
    // Slides are small parts that never fill a parser slice: yield between them so other requests answer.
    await yieldToEventLoop();
    const number = index + 1;
    const where = `slide ${number}`;
    const slide = await file.xml(part);
    if (slide.attributes.show === "0" || slide.attributes.show === "false") {
      reader.content.dropped(`${where} (hidden)`, "hidden slides are left out");
      continue;
    }
    const layout = await reader.layoutType(part);
    const tree = descendants(slide, "spTree")[0];
    const shapes = tree ? reader.shapes(tree) : [];
    const titleShape = shapes.find((shape) => shape.placeholder !== undefined && titleTypes.has(shape.placeholder)) ?? titleTextBox(shapes);
    const slideTitle = titleShape ? textOf(titleShape.node, "t").replace(/\s+/g, " ").trim() : "";
    const others = shapes.filter((shape) => shape !== titleShape).sort((a, b) => a.y - b.y || a.x - b.x);
    const isTitleSlide = layout === "title" || titleShape?.placeholder === "ctrTitle" || (index === 0 && looksLikeTitleSlide(shapes, titleShape));
    const notes = await reader.notes(part);
    const blocks = await reader.blocks(part, others, where);
    if (index === 0 && isTitleSlide && slideTitle) {
      parts.push({ kind: "heading", level: 0, line: number, source: slideTitle, text: slideTitle });
      for (const block of blocks) parts.push({ kind: "block", line: number, source: String(block.markdown ?? ""), paragraph: false, block });
      if (notes) reader.content.dropped(`the speaker notes of ${where}`, "the title slide's notes have no lesson to go with");
      continue;
    }
    // A section header, a later title slide, or a slide holding nothing but its title starts a module.
    if (layout === "secHead" || (isTitleSlide && index > 0) || (index > 0 && slideTitle !== "" && blocks.length === 0)) {
      sawSection = true;
      parts.push({ kind: "heading", level: 1, line: number, source: slideTitle, text: slideTitle || `Section ${number}` });
      // A section slide has no lesson of its own: its notes go with the first lesson after it.
      if (notes) sectionNotes.push(`Speaker notes of slide ${number} (the section "${slideTitle || `Section ${number}`}"):\n\n${notes}`);
      for (const block of blocks) {
        if (block.type === "text") parts.push({ kind: "block", line: number, source: String(block.markdown), paragraph: false, block });
        else reader.content.dropped(`a picture on ${where}`, "a section slide's pictures have no lesson to go with");
      }
      continue;
    }
    parts.push({ kind: "heading", level: 2, line: number, source: slideTitle, text: slideTitle || `Slide ${number}` });
    if (!slideTitle) reader.content.keptAsText(`${where} has no title, so its lesson is called "Slide ${number}"`);
    if (notes) notesByLine.set(number, notes);
    if (sectionNotes.length > 0) carriedNotes.set(number, sectionNotes.splice(0));
    const objectives = objectivesHeading.test(slideTitle);
    for (const block of blocks) parts.push({ kind: "block", line: number, source: String(block.markdown ?? ""), paragraph: false, block, ...(objectives && block.type === "text" ? { listItems: lineItems(String(block.markdown)) } : {}) });
    if (objectives && notes) reader.content.dropped(`the speaker notes of ${where}`, "the slide became the course's objectives, which carry no notes");
  }
  for (const text of sectionNotes) reader.content.dropped(text.slice(0, text.indexOf(":")).replace("Speaker notes", "the speaker notes"), "no slide follows its section slide to carry them");
  if (!parts.some((part) => part.kind === "heading" && part.level === 2)) {
    throw officeError(file.fileName, "has no slide that can be a lesson (every slide is a title or section slide, or hidden)");
  }
  // A module holds at most limits.lessonsPerModule lessons: a longer run of slides continues in a new module.
  const failedPictures = await reader.content.loadPictures();
  const sized: MarkdownPart[] = [];
  const titlePart = parts.find((part) => part.kind === "heading" && part.level === 0);
  let moduleTitle = title ?? (titlePart?.kind === "heading" ? titlePart.text : fallbackTitle);
  let lessonsInModule = 0;
  for (const part of withoutFailedPictures(parts, failedPictures)) {
    if (part.kind === "heading" && part.level === 1) {
      moduleTitle = part.text;
      lessonsInModule = 0;
    } else if (part.kind === "heading" && part.level === 2) {
      if (lessonsInModule === limits.lessonsPerModule) {
        sized.push({ kind: "heading", level: 1, line: part.line, source: "", text: `${moduleTitle} (continued)`.slice(0, limits.titleCharacters) });
        reader.content.keptAsText(`slide ${part.line} starts the module "${moduleTitle} (continued)": a module holds at most ${limits.lessonsPerModule} lessons`);
        sawSection = true;
        lessonsInModule = 0;
      }
      lessonsInModule += 1;
    }
    sized.push(part);
  }
  // Without section slides every lesson sits in one module; the level gap keeps the outline flat.
  const plan = planFromParts(
    sawSection ? sized : sized.map((part) => (part.kind === "heading" && part.level === 1 ? { ...part, level: 2 } : part)),
    { title, fallbackTitle, place: (line) => `slide ${line}` },
  );
  // Told once as a notice by the outline; listed in the report too.
  reader.content.report.keptAsText.push(...plan.objectivesFrom);
  const notices: Notice[] = [...reader.content.notices, ...plan.notices];
  const lessonNotes = [...(plan.lessonLines ?? new Map<string, number>())]
    .filter(([, line]) => notesByLine.has(line) || carriedNotes.has(line))
    .map(([path, line]) => {
      const own = notesByLine.has(line) ? [`Speaker notes of slide ${line}:\n\n${notesByLine.get(line)}`] : [];
      return { path, text: [...(carriedNotes.get(line) ?? []), ...own].join("\n\n") };
    });
  return { ...plan, assets: reader.content.assets, notices, report: reader.content.report, lessonNotes };
}
