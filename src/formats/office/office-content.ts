/**
 * What Word and PowerPoint imports share: pictures turned into assets (recognised from their bytes,
 * one asset per picture part, each given a placeholder alt text that validate_course flags, with the
 * document's own description reported beside it), tables as Markdown tables, text escaped for Markdown,
 * and the report of what was kept as text and what was dropped, and why.
 */
import { limits } from "../../authoring/schemas/fields.ts";
import { sniffMediaType } from "../../codecs/media-types.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import type { Notice } from "../../notice.ts";
import type { ImportedAsset, ImportPlan } from "../draft-course.ts";
import type { OfficePackage } from "./office-package.ts";
import type { XmlNode } from "./office-xml.ts";

export interface OfficeReport {
  /** Parts kept in another form (a chart's title as text, a text box as a paragraph), each with where it was. */
  readonly keptAsText: string[];
  /** Parts not carried into the course, with why. */
  readonly dropped: { what: string; why: string }[];
}

export interface OfficePlan extends ImportPlan {
  readonly report: OfficeReport;
  /** Speaker notes by lesson outline path, kept as review comments on those lessons. */
  readonly lessonNotes: readonly { path: string; text: string }[];
}

/**
 * Child elements one element may have where a reader walks them without yielding (a paragraph's runs,
 * a row's cells, a cell's or a text box's paragraphs): a real paragraph has at most a few hundred runs.
 */
export const maxChildElements = 10_000;

/** `node`'s child elements (only those named `name` when given), refused past `maxChildElements` before more are walked. */
export function boundedChildren(node: XmlNode, name: string | undefined, what: string): XmlNode[] {
  const found: XmlNode[] = [];
  let seen = 0;
  for (const child of node.children) {
    if (typeof child === "string") continue;
    seen += 1;
    if (seen > maxChildElements) {
      // "content: " becomes the file's name in planFromOffice.
      throw new CourseAuthoringError("limit_exceeded", `content: ${what} holds more than ${maxChildElements} elements; at most ${maxChildElements} are read in one paragraph, row, cell or text box (limit: childElements); nothing was imported.`, {
        limit: "childElements",
        max: maxChildElements,
      });
    }
    if (name === undefined || child.name === name) found.push(child);
  }
  return found;
}

const pictureTypes = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const reportEntries = 200;
/** Notices (log messages to the client) kept: a hostile file could otherwise make one per element. */
const maxNotices = 500;

export class OfficeContent {
  readonly assets: ImportedAsset[] = [];
  readonly notices: Notice[] = [];
  readonly report: OfficeReport = { keptAsText: [], dropped: [] };
  private readonly byPart = new Map<string, { sourceId: string; number: number; where: string }>();

  constructor(readonly officePackage: OfficePackage) {}

  keptAsText(text: string): void {
    if (this.report.keptAsText.length < reportEntries) this.report.keptAsText.push(text);
    this.notice({ level: "notice", text });
  }

  dropped(what: string, why: string): void {
    if (this.report.dropped.length < reportEntries) this.report.dropped.push({ what, why });
    this.notice({ level: "warning", text: `${what}: ${why}` });
  }

  private notice(notice: Notice): void {
    if (this.notices.length < maxNotices) this.notices.push(notice);
    else if (this.notices.length === maxNotices) this.notices.push({ level: "warning", text: `more than ${maxNotices} parts were changed or dropped; the first ${maxNotices} are listed` });
  }

  /** An image block for the picture part, its bytes read later by `loadPictures`; null when the file lacks the part. */
  picture(part: string | undefined, description: string, where: string): Record<string, unknown> | null {
    if (!part) {
      this.dropped(`a picture on ${where}`, "its image is missing from the file");
      return null;
    }
    let picture = this.byPart.get(part);
    if (!picture) {
      picture = { sourceId: `ast_officepicture${this.byPart.size + 1}`, number: this.byPart.size + 1, where };
      this.byPart.set(part, picture);
    }
    const placeholder = `Picture ${picture.number}`;
    if (description.trim() && description.trim() !== placeholder) {
      this.notice({ level: "notice", text: `${where}: the file describes picture ${picture.number} as ${JSON.stringify(description.trim().slice(0, 300))}; check it and set it as the alt text with update_block.` });
    }
    // "Picture N" is a placeholder validate_course reports (image.unhelpful_alt), so every picture is checked by a person.
    return { type: "image", assetId: picture.sourceId, alt: placeholder };
  }

  /** Reads and recognises every picture met; returns the source IDs of those that cannot be assets (reported as dropped). */
  async loadPictures(): Promise<Set<string>> {
    const failed = new Set<string>();
    for (const [part, picture] of this.byPart) {
      const bytes = await this.officePackage.part(part);
      const sniffed = await sniffMediaType(bytes);
      const name = part.split("/").pop() ?? part;
      if (sniffed.kind !== "accepted" || !pictureTypes.has(sniffed.type.mediaType)) {
        this.dropped(`the picture ${name} on ${picture.where}`, "it is not PNG, JPEG, GIF or WebP (for example EMF, WMF, TIFF or SVG); export it as PNG and add it with upload_asset");
        failed.add(picture.sourceId);
        continue;
      }
      if (bytes.byteLength > limits.assetBytes) {
        this.dropped(`the picture ${name} on ${picture.where}`, `it is ${bytes.byteLength} bytes; assets may be at most ${limits.assetBytes} bytes`);
        failed.add(picture.sourceId);
        continue;
      }
      const stem = name.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9._-]/g, "_") || "picture";
      this.assets.push({ sourceId: picture.sourceId, fileName: `${stem}.${sniffed.type.extensions[0]}`, mediaType: sniffed.type.mediaType, bytes });
    }
    return failed;
  }
}

/** The parts without image blocks whose picture could not become an asset. */
export function withoutFailedPictures<Part extends { kind: string; block?: Record<string, unknown> }>(parts: readonly Part[], failed: ReadonlySet<string>): Part[] {
  return parts.filter((part) => !(part.kind === "block" && part.block?.type === "image" && failed.has(String(part.block.assetId))));
}

/** Text safe to put in Markdown as words, not markup. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>#|])/g, "\\$1").replace(/^(\s*)([-+]|\d+[.)])(\s)/, "$1\\$2$3");
}

/** Rows of cell texts as a GitHub table (the first row is the header). */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  const width = Math.max(1, ...rows.map((row) => row.length));
  const line = (cells: readonly string[]) => `| ${Array.from({ length: width }, (_, index) => (cells[index] ?? "").replace(/\n+/g, " ").trim() || " ").join(" | ")} |`;
  const [header = [], ...body] = rows;
  return [line(header), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n");
}

export const monospaceFonts = /^(courier|consolas|menlo|monaco|liberation mono|dejavu sans mono|source code pro|lucida console|noto mono|fira code|cascadia)/i;
