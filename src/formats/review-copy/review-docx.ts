/**
 * A Word review copy of a course (format `docx_review`): a cover naming the course, its ID and version,
 * then every module, lesson and block in order with answers, feedback, quiz pool settings and scenario
 * paths visible. Every course part is wrapped in a bookmark named `<id>_<hash>` (the hash of its content
 * when the copy was made), which Word and LibreOffice keep, so comments and tracked changes made in the
 * copy can be brought back to the part they were made on, and a part changed since can be told apart.
 * The course ID and version are also kept as custom document properties.
 */
import type { AssetSource, ExportCourse } from "../package/types.ts";
import type { Block } from "../../authoring/schemas/blocks.ts";
import { el, xmlDocument, type XmlElement } from "../../codecs/xml-write.ts";
import type { ZipEntry } from "../../codecs/zip-write.ts";
import { blockLabel, blockLines, markdownLines, type Line, type Run } from "./block-lines.ts";
import { pictureXml } from "./review-drawing.ts";
import { ReviewPictures } from "./review-pictures.ts";
import { reviewCopyProperties, reviewCopyStyles, type ReviewCopyInfo } from "./review-parts.ts";
import { anchorHashes } from "./part-hash.ts";

const documentNamespaces = {
  "xmlns:w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
  "xmlns:r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
  "xmlns:wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
  "xmlns:a": "http://schemas.openxmlformats.org/drawingml/2006/main",
  "xmlns:pic": "http://schemas.openxmlformats.org/drawingml/2006/picture",
  "xmlns:wps": "http://schemas.microsoft.com/office/word/2010/wordprocessingShape",
};

class BodyWriter {
  readonly paragraphs: XmlElement[] = [];
  private bookmarkId = 0;
  private drawingId = 0;

  constructor(private readonly pictures: ReviewPictures) {}

  paragraph(line: Line, extra: { style?: string; before?: XmlElement[]; after?: XmlElement[] } = {}): void {
    if (line.table) {
      this.paragraphs.push(...(extra.before ?? []), this.table(line.table), ...(extra.after ?? []));
      return;
    }
    const style = extra.style ?? line.style;
    const runs = line.picture ? this.picture(line.picture) : line.runs.map((run) => this.run(run));
    this.paragraphs.push(el("w:p", {}, style ? el("w:pPr", {}, el("w:pStyle", { "w:val": style })) : null, ...(extra.before ?? []), ...runs, ...(extra.after ?? [])));
  }

  private run(run: Run): XmlElement {
    const props = run.bold || run.italic ? el("w:rPr", {}, run.bold ? el("w:b") : null, run.italic ? el("w:i") : null) : null;
    return el("w:r", {}, props, el("w:t", { "xml:space": "preserve" }, run.text));
  }

  /** The embedded picture (with its markers drawn on it), or words saying where it is and why it is not here. */
  private picture(picture: NonNullable<Line["picture"]>): XmlElement[] {
    const embedded = picture.assetId ? this.pictures.picture(picture.assetId) : undefined;
    if (embedded) {
      const drawings = pictureXml(embedded, picture, () => ++this.drawingId);
      return drawings.map((drawing) => el("w:r", {}, drawing));
    }
    const why = picture.assetId ? (this.pictures.gap(picture.assetId) ?? "it could not be read") : `it is on the web at ${picture.url ?? ""}`;
    const markers = picture.markers?.length ? ` Its ${picture.markers.length} markers are at ${picture.markers.map((marker, index) => `${index + 1} (${marker.x}% across, ${marker.y}% down)`).join(", ")}.` : "";
    return [this.run({ text: `Picture not shown in this copy: ${why}.${markers}`, italic: true })];
  }

  /** A table with borders; the first row is its header, repeated on each page. */
  private table(rows: NonNullable<Line["table"]>): XmlElement {
    const columns = Math.max(1, ...rows.map((row) => row.length));
    const width = Math.floor(9638 / columns);
    const border = (name: string) => el(`w:${name}`, { "w:val": "single", "w:sz": 4, "w:space": 0, "w:color": "808080" });
    return el(
      "w:tbl",
      {},
      el("w:tblPr", {}, el("w:tblW", { "w:w": width * columns, "w:type": "dxa" }), el("w:tblBorders", {}, ...["top", "left", "bottom", "right", "insideH", "insideV"].map(border))),
      el("w:tblGrid", {}, ...Array.from({ length: columns }, () => el("w:gridCol", { "w:w": width }))),
      ...rows.map((row, index) =>
        el(
          "w:tr",
          {},
          index === 0 ? el("w:trPr", {}, el("w:tblHeader")) : null,
          ...Array.from({ length: columns }, (_, column) => {
            const lines = row[column] ?? [];
            const paragraphs = (lines.length > 0 ? lines : [{ runs: [{ text: "" }] }]).map((line) => el("w:p", {}, ...line.runs.map((run) => this.run(run))));
            return el("w:tc", {}, el("w:tcPr", {}, el("w:tcW", { "w:w": width, "w:type": "dxa" })), ...paragraphs);
          }),
        ),
      ),
    );
  }

  /** Lines wrapped in one bookmark: it starts in the first paragraph and ends in the last. */
  anchored(name: string, lines: readonly Line[], firstStyle?: string): void {
    const id = String(this.bookmarkId++);
    const all = lines.length > 0 ? lines : [{ runs: [{ text: "" }] }];
    all.forEach((line, index) => {
      const before = index === 0 ? [el("w:bookmarkStart", { "w:id": id, "w:name": name })] : [];
      const after = index === all.length - 1 ? [el("w:bookmarkEnd", { "w:id": id })] : [];
      const bulleted = line.style === "ListBullet" ? { ...line, runs: [{ text: line.marker ?? "• " }, ...line.runs] } : line;
      this.paragraph(bulleted, { ...(index === 0 && firstStyle ? { style: firstStyle } : {}), before, after });
    });
  }

  pageBreak(): void {
    this.paragraphs.push(el("w:p", {}, el("w:r", {}, el("w:br", { "w:type": "page" }))));
  }
}

function quizSettings(lesson: ExportCourse["modules"][number]["lessons"][number]): string {
  const settings = [
    `passing score ${lesson.passingScore ?? "none (any submission passes)"}${lesson.passingScore !== undefined && lesson.passingScore !== null ? "%" : ""}`,
    `attempts ${lesson.maxAttempts ?? "unlimited"}`,
    `questions drawn per attempt ${lesson.drawCount ?? "all"}`,
    ...(lesson.drawByObjective ? ["drawn across objectives"] : []),
    `choices shuffled ${lesson.shuffleChoices === false ? "no" : "yes"}`,
    `feedback ${String(lesson.feedbackMode ?? "after_submit").replace(/_/g, " ")}`,
    ...(lesson.finalAssessment ? ["final assessment (decides the course's success)"] : []),
  ];
  return `Quiz: ${settings.join("; ")}.`;
}

export function reviewDocumentXml(course: ExportCourse, info: ReviewCopyInfo, pictures: ReviewPictures = new ReviewPictures()): string {
  const body = new BodyWriter(pictures);
  const hashes = anchorHashes(course);
  const anchor = (id: string) => `${id}_${hashes.get(id)}`;
  const objectives = new Map(course.objectives.map((objective) => [objective.id, objective.text]));
  const context = { objectiveText: (id: string) => objectives.get(id) };
  const cover: Line[] = [
    { runs: [{ text: course.title }] },
    { runs: [{ text: "Review copy. ", bold: true }, { text: `Course ${course.id}, version ${info.version} (${info.variant}), made ${info.exportedAt.slice(0, 10)}.` }] },
    { runs: [{ text: "Comment on any paragraph, or edit with Track Changes on: import_review_copy brings each comment and change back as a review comment on its part.", italic: true }] },
    ...(pictures.leftOut > 0 ? [{ runs: [{ text: `${pictures.leftOut === 1 ? "One picture is" : `${pictures.leftOut} pictures are`} not shown in this copy (each says why where it would stand); see ${pictures.leftOut === 1 ? "it" : "them"} in the course's preview.`, italic: true }] }] : []),
    ...markdownLines(course.description ?? ""),
  ];
  body.anchored(anchor(course.id), cover, "Title");
  if (course.objectives.length > 0) {
    body.paragraph({ runs: [{ text: "Learning objectives", bold: true }] });
    for (const objective of course.objectives) body.paragraph({ style: "ListBullet", runs: [{ text: `• ${objective.text}` }] });
  }
  body.pageBreak();
  course.modules.forEach((module, moduleIndex) => {
    const heading: Line = { runs: [{ text: `Module ${moduleIndex + 1}: ${module.title}` }] };
    body.anchored(anchor(module.id), [heading, ...markdownLines(module.summary ?? "")], "Heading1");
    module.lessons.forEach((lesson, lessonIndex) => {
      const lines: Line[] = [{ runs: [{ text: `Lesson ${moduleIndex + 1}.${lessonIndex + 1}: ${lesson.title}` }] }];
      if (lesson.kind === "quiz") lines.push({ style: "Answer", runs: [{ text: quizSettings(lesson), bold: true }] });
      body.anchored(anchor(lesson.id), lines, "Heading2");
      for (const block of (lesson.blocks ?? []) as readonly Block[]) {
        body.anchored(anchor(block.id), [{ style: "BlockLabel", runs: [{ text: blockLabel(block), italic: true }] }, ...blockLines(block, context)]);
      }
    });
  });
  return xmlDocument(el("w:document", documentNamespaces, el("w:body", {}, ...body.paragraphs, el("w:sectPr", {}, el("w:pgSz", { "w:w": 11906, "w:h": 16838 }), el("w:pgMar", { "w:top": 1134, "w:right": 1134, "w:bottom": 1134, "w:left": 1134, "w:header": 709, "w:footer": 709, "w:gutter": 0 })))));
}

/** The copy's parts; its pictures are read first (within `reviewPictureLimits`), so the package's part list is known before it streams. */
export async function reviewCopyEntries(course: ExportCourse, info: ReviewCopyInfo, source?: AssetSource, notice?: (text: string) => void): Promise<ZipEntry[]> {
  const pictures = source ? await ReviewPictures.load(course, source, notice) : new ReviewPictures();
  const { contentTypes, rootRelationships, documentRelationships, core, custom } = reviewCopyProperties(course, info, pictures.relationships());
  return [
    { path: "[Content_Types].xml", body: contentTypes },
    { path: "_rels/.rels", body: rootRelationships },
    { path: "docProps/core.xml", body: core },
    { path: "docProps/custom.xml", body: custom },
    { path: "word/_rels/document.xml.rels", body: documentRelationships },
    { path: "word/styles.xml", body: reviewCopyStyles() },
    { path: "word/document.xml", body: () => Promise.resolve(reviewDocumentXml(course, info, pictures)) },
    ...pictures.entries(),
  ];
}
