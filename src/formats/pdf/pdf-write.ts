/**
 * Lays out a printable document (`pdf-nodes.ts`) as a tagged PDF with pdfkit: title and language in
 * the catalogue (and each part's language on its element), a structure tree in reading order (H1–H4,
 * P, BlockQuote, L/LI/Lbl/LBody, Table/TR/TH/TD, Figure with Alt, TOC/TOCI with links), decoration and
 * page numbers as artefacts, bookmarks for the headings, and embedded subset fonts with Unicode maps.
 * Pure layout: pictures come in as bytes, nothing is read or fetched here, and no browser is involved.
 */
import PDFDocument from "pdfkit";
import { pdfFontFiles, type FaceName } from "./pdf-fonts.ts";
import type { FigurePicture, HeadingLevel, PdfNode, Run } from "./pdf-nodes.ts";

type Doc = InstanceType<typeof PDFDocument>;
type Structure = ReturnType<Doc["struct"]>;

export interface PdfLook {
  readonly primary: string;
  readonly accent: string;
  readonly text: string;
}

export interface PdfInput {
  readonly title: string;
  readonly language: string;
  readonly subject?: string;
  readonly nodes: readonly PdfNode[];
  readonly look: PdfLook;
  /** The footer of page `page` of `pages`, e.g. "Course · Page 2 of 9". */
  readonly footer: (page: number, pages: number) => string;
  /** PNG or JPEG bytes by asset ID; a figure whose picture is not here is written as its alt text. */
  readonly pictures: ReadonlyMap<string, Uint8Array>;
  /** The page (from 1) each contents anchor is on, from an earlier pass; contents show no numbers without it. */
  readonly anchorPages?: ReadonlyMap<string, number>;
}

export interface PdfWritten {
  readonly bytes: Uint8Array;
  readonly pages: number;
  /** The page (from 1) each heading anchor landed on. */
  readonly anchorPages: Map<string, number>;
  /** Characters no embedded font has (shown as "?"). */
  readonly missingCharacters: number;
  /** Figures written as their alt text because their picture could not be drawn. */
  readonly undrawnPictures: number;
}

const headingSizes: Record<HeadingLevel, number> = { 1: 22, 2: 17, 3: 13.5, 4: 12 };
const bodySize = 11;
const margin = 56;

interface Layout {
  readonly doc: Doc;
  readonly root: Structure;
  readonly input: PdfInput;
  readonly covers: Record<string, { hasGlyphForCodePoint(codePoint: number): boolean }>;
  readonly anchors: Map<string, number>;
  readonly outline: { level1?: ReturnType<Doc["outline"]["addItem"]> };
  page: number;
  missing: number;
  undrawn: number;
}

function registerFonts(doc: Doc): Layout["covers"] {
  const covers: Layout["covers"] = {};
  for (const [face, sources] of Object.entries(pdfFontFiles()) as [FaceName, readonly Uint8Array[]][]) {
    sources.forEach((bytes, index) => {
      const name = `${face}${index}`;
      doc.registerFont(name, bytes);
      doc.font(name);
      const font = doc._font?.font;
      if (font) covers[name] = font;
    });
  }
  doc.font("regular0");
  return covers;
}

/** Signs the fonts lack, written with ones they have. */
const standIns: Readonly<Record<string, string>> = { "→": "->", "←": "<-", "⇒": "=>", "✔": "(/)", "✓": "(/)", "✘": "(x)", "✗": "(x)", "☐": "[ ]" };

/** A run split by the font file that has its characters; characters none has become "?". */
function segments(layout: Layout, text: string, face: FaceName): { font: string; text: string }[] {
  const out: { font: string; text: string }[] = [];
  for (const original of text) {
    const character = standIns[original] ?? original;
    const codePoint = character.codePointAt(0) ?? 63;
    let font = `${face}0`;
    let shown = character;
    if (codePoint > 32 && !layout.covers[font]?.hasGlyphForCodePoint(codePoint)) {
      if (layout.covers[`${face}1`]?.hasGlyphForCodePoint(codePoint)) font = `${face}1`;
      else if (!/\s/.test(character)) {
        shown = "?";
        layout.missing += 1;
      }
    }
    const last = out[out.length - 1];
    if (last && last.font === font) out.push({ font, text: `${out.pop()?.text ?? ""}${shown}` });
    else out.push({ font, text: shown });
  }
  return out;
}

const faceOf = (run: Run): FaceName => (run.bold ? "bold" : run.italic ? "italic" : "regular");

/** Writes runs as one flowing paragraph at the current position. */
function writeRuns(layout: Layout, runs: readonly Run[], options: { size: number; color: string; x: number; width: number; goTo?: string }): void {
  const { doc } = layout;
  const pieces = runs.flatMap((run) => segments(layout, run.text, faceOf(run))).filter((piece) => piece.text.length > 0);
  if (pieces.length === 0) return;
  doc.fontSize(options.size).fillColor(options.color);
  pieces.forEach((piece, index) => {
    doc.font(piece.font);
    const flow = { width: options.width, lineGap: 2.5, continued: index < pieces.length - 1, ...(options.goTo ? { goTo: options.goTo } : {}) };
    if (index === 0) doc.text(piece.text, options.x, doc.y, flow);
    else doc.text(piece.text, flow);
  });
}

const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

function ensureRoom(layout: Layout, height: number): void {
  const { doc } = layout;
  if (doc.y + height > doc.page.maxY()) doc.addPage();
}

function tagged(layout: Layout, type: string, options: Record<string, unknown>, draw: () => void, parent: Structure = layout.root): Structure {
  const element = layout.doc.struct(type, options, draw);
  parent.add(element);
  return element;
}

function artefact(layout: Layout, draw: () => void, type?: string): void {
  layout.doc.markContent("Artifact", type ? { type } : {});
  draw();
  layout.doc.endMarkedContent();
}

function heading(layout: Layout, node: Extract<PdfNode, { kind: "heading" }>): void {
  const { doc } = layout;
  const atTop = doc.y <= doc.page.margins.top + 1;
  if (node.newPage && !atTop) doc.addPage();
  else ensureRoom(layout, headingSizes[node.level] * 2 + 40);
  if (doc.y > doc.page.margins.top + 1) doc.moveDown(node.level <= 2 ? 0.8 : 0.5);
  if (node.anchor) {
    doc.addNamedDestination(node.anchor, "XYZ", doc.page.margins.left, doc.y, null);
    layout.anchors.set(node.anchor, layout.page);
  }
  if (node.level === 1) layout.outline.level1 = doc.outline.addItem(node.text, { expanded: true });
  else if (node.level === 2) (layout.outline.level1 ?? doc.outline).addItem(node.text);
  const color = node.level <= 2 ? layout.input.look.primary : layout.input.look.text;
  tagged(layout, `H${node.level}`, node.lang ? { lang: node.lang } : {}, () =>
    writeRuns(layout, [{ text: node.text, bold: true }], { size: headingSizes[node.level], color, x: doc.page.margins.left, width: contentWidth(doc) }),
  );
  doc.moveDown(0.3);
}

function paragraph(layout: Layout, node: Extract<PdfNode, { kind: "paragraph" }>): void {
  const { doc } = layout;
  const left = doc.page.margins.left;
  const indent = node.style === "quote" || node.style === "code" ? 18 : 0;
  const size = node.style === "small" || node.style === "code" ? bodySize - 1.5 : bodySize;
  const runs = node.style === "quote" ? node.runs.map((run) => ({ ...run, italic: true })) : node.style === "label" ? node.runs.map((run) => ({ ...run, bold: true })) : node.runs;
  ensureRoom(layout, size * 2.5);
  const top = doc.y;
  const startPage = layout.page;
  const type = node.style === "quote" ? "BlockQuote" : node.style === "code" ? "Code" : "P";
  const draw = () => writeRuns(layout, runs, { size, color: layout.input.look.text, x: left + indent, width: contentWidth(doc) - indent });
  if (type === "Code") tagged(layout, "P", node.lang ? { lang: node.lang } : {}, () => draw());
  else tagged(layout, type, node.lang ? { lang: node.lang } : {}, draw);
  if (indent > 0 && layout.page === startPage) {
    const bottom = doc.y;
    artefact(layout, () => doc.save().rect(left + 4, top, 3, bottom - top).fill(layout.input.look.accent).restore());
  }
  doc.moveDown(0.5);
}

function list(layout: Layout, node: Extract<PdfNode, { kind: "list" }>): void {
  const { doc } = layout;
  const left = doc.page.margins.left;
  const labels = node.items.map((_, index) => (node.ordered ? `${(node.start ?? 1) + index}.` : "•"));
  doc.font("regular0").fontSize(bodySize);
  const labelWidth = Math.max(...labels.map((text) => doc.widthOfString(text))) + 6;
  const listElement = doc.struct("L", node.lang ? { lang: node.lang } : {});
  layout.root.add(listElement);
  node.items.forEach((runs, index) => {
    ensureRoom(layout, bodySize * 2.2);
    const item = doc.struct("LI");
    listElement.add(item);
    const y = doc.y;
    const label = labels[index] ?? "•";
    // A worksheet's answer box is drawn, not read: the item's own words carry its letter.
    if (node.boxes) artefact(layout, () => doc.save().lineWidth(0.8).rect(left, y + 1.5, 9, 9).stroke(layout.input.look.text).restore());
    else item.add(doc.struct("Lbl", () => writeRuns(layout, [{ text: label }], { size: bodySize, color: layout.input.look.text, x: left, width: labelWidth })));
    doc.y = y;
    const bodyX = left + (node.boxes ? 16 : labelWidth);
    item.add(doc.struct("LBody", () => writeRuns(layout, runs, { size: bodySize, color: layout.input.look.text, x: bodyX, width: contentWidth(doc) - (bodyX - left) })));
    item.end();
    doc.moveDown(0.2);
  });
  listElement.end();
  doc.x = left;
  doc.moveDown(0.4);
}

function printable(layout: Layout, text: string): string {
  return segments(layout, text, "regular")
    .map((piece) => (piece.font === "regular0" ? piece.text : piece.text.replace(/[^\s]/g, "?")))
    .join("");
}

function table(layout: Layout, node: Extract<PdfNode, { kind: "table" }>): void {
  const { doc } = layout;
  const columns = Math.max(node.header.length, ...node.rows.map((row) => row.length), 1);
  const pad = (row: readonly string[]) => Array.from({ length: columns }, (_, index) => printable(layout, row[index] ?? ""));
  const header = node.header.length > 0 ? [pad(node.header).map((text) => ({ text, type: "TH", scope: "Column" }))] : [];
  ensureRoom(layout, 60);
  doc.font("regular0").fontSize(bodySize - 1).fillColor(layout.input.look.text);
  const holder = doc.struct("Div", node.lang ? { lang: node.lang } : {});
  layout.root.add(holder);
  doc.table({ data: [...header, ...node.rows.map(pad)], structParent: holder, defaultStyle: { border: 0.5, borderColor: "#8a8f98", padding: 4 } });
  holder.end();
  doc.x = doc.page.margins.left;
  doc.moveDown(0.6);
}

function figure(layout: Layout, node: Extract<PdfNode, { kind: "figure" }>): void {
  const { doc } = layout;
  const picture = node.picture;
  const bytes = picture.assetId ? layout.input.pictures.get(picture.assetId) : undefined;
  if (!bytes) {
    if (picture.alt) {
      layout.undrawn += 1;
      paragraph(layout, { kind: "paragraph", runs: [{ text: picture.alt, italic: true }], style: "normal", ...(node.lang ? { lang: node.lang } : {}) });
    }
  } else drawPicture(layout, picture, bytes, node.lang);
  if (node.caption) paragraph(layout, { kind: "paragraph", runs: [{ text: node.caption, italic: true }], style: "small", ...(node.lang ? { lang: node.lang } : {}) });
}

function drawPicture(layout: Layout, picture: FigurePicture, bytes: Uint8Array, lang: string | undefined): void {
  const { doc } = layout;
  let size: { width: number; height: number };
  try {
    size = doc.openImage(bytes);
  } catch {
    layout.undrawn += 1;
    if (picture.alt) paragraph(layout, { kind: "paragraph", runs: [{ text: picture.alt, italic: true }] });
    return;
  }
  const maxWidth = contentWidth(doc);
  // Pixels at 96 per inch, a small picture enlarged to a readable 200 pt, never wider than the text or taller than 300 pt.
  const wanted = Math.min(maxWidth, Math.max(size.width * 0.75, 200));
  const scale = Math.min(wanted / size.width, 300 / size.height);
  const width = size.width * scale;
  const height = size.height * scale;
  ensureRoom(layout, height + 10);
  const x = doc.page.margins.left;
  const y = doc.y;
  const draw = () => doc.image(bytes, x, y, { width, height });
  if (picture.alt) tagged(layout, "Figure", { alt: picture.alt, bbox: [x, y, x + width, y + height], placement: "Block", ...(lang ? { lang } : {}) }, draw);
  else artefact(layout, draw);
  const markers = picture.markers ?? [];
  if (markers.length > 0) {
    artefact(layout, () => {
      markers.forEach((marker, index) => {
        const cx = x + (width * marker.x) / 100;
        const cy = y + (height * marker.y) / 100;
        doc.save().circle(cx, cy, 9).fillAndStroke(layout.input.look.primary, "#ffffff").restore();
        doc.font("bold0").fontSize(9).fillColor("#ffffff").text(String(index + 1), cx - 9, cy - 4.5, { width: 18, align: "center", lineBreak: false });
      });
    });
  }
  doc.x = x;
  doc.y = y + height + 8;
}

function contents(layout: Layout, node: Extract<PdfNode, { kind: "contents" }>): void {
  const { doc } = layout;
  heading(layout, { kind: "heading", level: 1, text: node.title, newPage: true });
  const toc = doc.struct("TOC");
  layout.root.add(toc);
  for (const entry of node.entries) {
    ensureRoom(layout, bodySize * 2);
    const indent = (entry.level - 1) * 16;
    const y = doc.y;
    const page = layout.input.anchorPages?.get(entry.anchor);
    const runs: Run[] = [{ text: entry.text, bold: entry.level === 1 }];
    const left = doc.page.margins.left;
    const item = doc.struct("TOCI");
    toc.add(item);
    const link = doc.struct("Link");
    item.add(link);
    link.add(() => {
      writeRuns(layout, runs, { size: bodySize, color: layout.input.look.text, x: left + indent, width: contentWidth(doc) - indent - 40 });
      const after = doc.y;
      // The number is on the entry's last line, right-aligned.
      if (page !== undefined) {
        doc.y = after - doc.currentLineHeight(true);
        doc.font("regular0").fontSize(bodySize).text(String(page), left, doc.y, { width: contentWidth(doc), align: "right" });
      }
      doc.y = Math.max(after, y);
    });
    // One link over the whole entry, a child of its Link element, described for assistive technology.
    doc.goTo(left + indent, y, contentWidth(doc) - indent, doc.y - y, entry.anchor, { structParent: link, Contents: new String(entry.text) });
    link.end();
    item.end();
    doc.moveDown(0.25);
  }
  toc.end();
  doc.x = doc.page.margins.left;
}

function writeNode(layout: Layout, node: PdfNode): void {
  switch (node.kind) {
    case "heading":
      return heading(layout, node);
    case "paragraph":
      return paragraph(layout, node);
    case "list":
      return node.items.length > 0 ? list(layout, node) : undefined;
    case "table":
      return table(layout, node);
    case "figure":
      return figure(layout, node);
    case "contents":
      return contents(layout, node);
    case "rule":
      ensureRoom(layout, 20);
      artefact(layout, () => layout.doc.save().moveTo(layout.doc.page.margins.left, layout.doc.y + 6).lineTo(layout.doc.page.margins.left + 120, layout.doc.y + 6).lineWidth(1).stroke(layout.input.look.accent).restore());
      layout.doc.moveDown(1);
      return;
  }
}

/** Page furniture on every page, as artefacts: the coloured band at the top and the footer with the page number. */
function furniture(layout: Layout): void {
  const { doc } = layout;
  const range = doc.bufferedPageRange();
  for (let index = 0; index < range.count; index += 1) {
    doc.switchToPage(range.start + index);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    artefact(layout, () => doc.save().rect(0, 0, doc.page.width, 8).fill(layout.input.look.primary).restore(), "Layout");
    artefact(
      layout,
      () => {
        const footer = printable(layout, layout.input.footer(index + 1, range.count));
        doc.font("regular0").fontSize(9).fillColor(layout.input.look.text).text(footer, doc.page.margins.left, doc.page.height - 36, { width: contentWidth(doc), align: "center", lineBreak: false });
      },
      "Pagination",
    );
    doc.page.margins.bottom = bottom;
  }
}

/** Writes the document and resolves with its bytes and where its anchors landed. */
export function writePdf(input: PdfInput): Promise<PdfWritten> {
  const doc = new PDFDocument({
    font: null,
    size: "A4",
    margins: { top: margin, bottom: margin + 10, left: margin, right: margin },
    autoFirstPage: false,
    bufferPages: true,
    tagged: true,
    pdfVersion: "1.7",
    subset: "PDF/UA",
    lang: input.language,
    displayTitle: true,
    info: { Title: input.title, ...(input.subject ? { Subject: input.subject } : {}), Creator: "Course Authoring Service", Producer: "Course Authoring Service (pdfkit)" },
  });
  const chunks: Uint8Array[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on("data", (chunk) => chunks.push(chunk));
    doc.on("end", () => resolve(concat(chunks)));
    doc.on("error", reject);
  });
  const covers = registerFonts(doc);
  const root = doc.struct("Document");
  doc.addStructure(root);
  const layout: Layout = { doc, root, input, covers, anchors: new Map(), outline: {}, page: 0, missing: 0, undrawn: 0 };
  doc.on("pageAdded", () => void (layout.page += 1));
  doc.addPage();
  for (const node of input.nodes) writeNode(layout, node);
  root.end();
  furniture(layout);
  const pages = doc.bufferedPageRange().count;
  doc.end();
  return done.then((bytes) => ({ bytes, pages, anchorPages: layout.anchors, missingCharacters: layout.missing, undrawnPictures: layout.undrawn }));
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
