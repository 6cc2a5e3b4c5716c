/**
 * The fixed parts of a review copy's package: content types, relationships, document properties (the
 * course ID and version also as custom properties, which Word and LibreOffice keep), and the styles its
 * paragraphs use.
 */
import type { ExportCourse } from "../package/types.ts";
import { el, xmlDocument } from "../../codecs/xml-write.ts";

export interface ReviewCopyInfo {
  readonly variant: "draft" | "published";
  readonly version: number;
  readonly exportedAt: string;
}

export const reviewCopyPropertyNames = { courseId: "CourseAuthoringCourseId", version: "CourseAuthoringCourseVersion" } as const;

const relationshipTypes = {
  document: "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument",
  core: "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
  custom: "http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties",
  styles: "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles",
  image: "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image",
};

/** `pictures`: relationship ID → path under word/ of each embedded picture. */
export function reviewCopyProperties(course: ExportCourse, info: ReviewCopyInfo, pictures: readonly [string, string][] = []) {
  const contentTypes = xmlDocument(
    el(
      "Types",
      { xmlns: "http://schemas.openxmlformats.org/package/2006/content-types" },
      el("Default", { Extension: "rels", ContentType: "application/vnd.openxmlformats-package.relationships+xml" }),
      el("Default", { Extension: "xml", ContentType: "application/xml" }),
      el("Default", { Extension: "png", ContentType: "image/png" }),
      el("Default", { Extension: "jpeg", ContentType: "image/jpeg" }),
      el("Default", { Extension: "gif", ContentType: "image/gif" }),
      el("Override", { PartName: "/word/document.xml", ContentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml" }),
      el("Override", { PartName: "/word/styles.xml", ContentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml" }),
      el("Override", { PartName: "/docProps/core.xml", ContentType: "application/vnd.openxmlformats-package.core-properties+xml" }),
      el("Override", { PartName: "/docProps/custom.xml", ContentType: "application/vnd.openxmlformats-officedocument.custom-properties+xml" }),
    ),
  );
  const relationships = (items: [string, string, string][]) =>
    xmlDocument(el("Relationships", { xmlns: "http://schemas.openxmlformats.org/package/2006/relationships" }, ...items.map(([id, type, target]) => el("Relationship", { Id: id, Type: type, Target: target }))));
  const core = xmlDocument(
    el(
      "cp:coreProperties",
      {
        "xmlns:cp": "http://schemas.openxmlformats.org/package/2006/metadata/core-properties",
        "xmlns:dc": "http://purl.org/dc/elements/1.1/",
        "xmlns:dcterms": "http://purl.org/dc/terms/",
        "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
      },
      el("dc:title", {}, `${course.title} (review copy, version ${info.version})`),
      el("dc:identifier", {}, course.id),
      el("dcterms:created", { "xsi:type": "dcterms:W3CDTF" }, info.exportedAt),
    ),
  );
  const property = (pid: number, name: string, value: string) =>
    el("property", { fmtid: "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}", pid, name }, el("vt:lpwstr", {}, value));
  const custom = xmlDocument(
    el(
      "Properties",
      { xmlns: "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties", "xmlns:vt": "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes" },
      property(2, reviewCopyPropertyNames.courseId, course.id),
      property(3, reviewCopyPropertyNames.version, String(info.version)),
    ),
  );
  return {
    contentTypes,
    rootRelationships: relationships([
      ["rId1", relationshipTypes.document, "word/document.xml"],
      ["rId2", relationshipTypes.core, "docProps/core.xml"],
      ["rId3", relationshipTypes.custom, "docProps/custom.xml"],
    ]),
    documentRelationships: relationships([["rId1", relationshipTypes.styles, "styles.xml"], ...pictures.map(([id, path]): [string, string, string] => [id, relationshipTypes.image, path])]),
    core,
    custom,
  };
}

export function reviewCopyStyles(): string {
  const style = (id: string, name: string, paragraph: Record<string, string>, run: { bold?: boolean; italic?: boolean; size?: number; font?: string; color?: string }, outline?: number) =>
    el(
      "w:style",
      { "w:type": "paragraph", "w:styleId": id, ...(id === "Normal" ? { "w:default": "1" } : {}) },
      el("w:name", { "w:val": name }),
      id === "Normal" ? null : el("w:basedOn", { "w:val": "Normal" }),
      el(
        "w:pPr",
        {},
        paragraph.before || paragraph.after ? el("w:spacing", { "w:before": paragraph.before, "w:after": paragraph.after }) : null,
        paragraph.left ? el("w:ind", { "w:left": paragraph.left }) : null,
        outline !== undefined ? el("w:outlineLvl", { "w:val": outline }) : null,
      ),
      el(
        "w:rPr",
        {},
        run.font ? el("w:rFonts", { "w:ascii": run.font, "w:hAnsi": run.font }) : null,
        run.bold ? el("w:b") : null,
        run.italic ? el("w:i") : null,
        run.color ? el("w:color", { "w:val": run.color }) : null,
        run.size ? el("w:sz", { "w:val": run.size }) : null,
      ),
    );
  return xmlDocument(
    el(
      "w:styles",
      { "xmlns:w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main" },
      style("Normal", "Normal", { after: "120" }, { font: "Liberation Sans", size: 22 }),
      style("Title", "Title", { after: "240" }, { bold: true, size: 48 }),
      style("Heading1", "heading 1", { before: "360", after: "120" }, { bold: true, size: 36 }, 0),
      style("Heading2", "heading 2", { before: "240", after: "120" }, { bold: true, size: 28 }, 1),
      style("BlockLabel", "Block label", { before: "200", after: "60" }, { italic: true, color: "595959", size: 18 }),
      style("Answer", "Answer", { left: "360" }, { color: "1F4E79" }),
      style("ListBullet", "List Bullet", { left: "360" }, {}),
      style("Quote", "Quote", { left: "720" }, { italic: true }),
      style("Code", "Code", { after: "0" }, { font: "Liberation Mono", size: 20 }),
    ),
  );
}
