/**
 * What Word and PowerPoint imports share: pictures turned into assets (recognised from their bytes,
 * one asset per picture part, each given a placeholder alt text that validate_course flags, with the
 * document's own description reported beside it), tables as Markdown tables, text escaped for Markdown,
 * and the report of what was kept as text and what was dropped, and why.
 */
import { limits } from "../../authoring/schemas/fields.ts";
import { sniffMediaType } from "../../authoring/media-types.ts";
import type { Notice } from "../../notice.ts";
import type { ImportedAsset, ImportPlan } from "../plan.ts";
import type { OfficePackage } from "./office-package.ts";

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

const pictureTypes = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const reportEntries = 200;

export class OfficeContent {
  readonly assets: ImportedAsset[] = [];
  readonly notices: Notice[] = [];
  readonly report: OfficeReport = { keptAsText: [], dropped: [] };
  private readonly byPart = new Map<string, string | null>();

  constructor(readonly officePackage: OfficePackage) {}

  keptAsText(text: string): void {
    if (this.report.keptAsText.length < reportEntries) this.report.keptAsText.push(text);
    this.notices.push({ level: "notice", text });
  }

  dropped(what: string, why: string): void {
    if (this.report.dropped.length < reportEntries) this.report.dropped.push({ what, why });
    this.notices.push({ level: "warning", text: `${what}: ${why}` });
  }

  /** An image block for the picture part, or null (and a report entry) when it cannot be one. */
  picture(part: string | undefined, description: string, where: string): Record<string, unknown> | null {
    if (!part) {
      this.dropped(`a picture on ${where}`, "its image is missing from the file");
      return null;
    }
    let sourceId = this.byPart.get(part);
    if (sourceId === undefined) {
      sourceId = this.storePicture(part, where);
      this.byPart.set(part, sourceId);
    }
    if (sourceId === null) return null;
    const number = this.assets.findIndex((asset) => asset.sourceId === sourceId) + 1;
    const placeholder = `Picture ${number}`;
    if (description.trim() && description.trim() !== placeholder) {
      this.notices.push({ level: "notice", text: `${where}: the file describes picture ${number} as ${JSON.stringify(description.trim().slice(0, 300))}; check it and set it as the alt text with update_block.` });
    }
    // "Picture N" is a placeholder validate_course reports (image.unhelpful_alt), so every picture is checked by a person.
    return { type: "image", assetId: sourceId, alt: placeholder };
  }

  private storePicture(part: string, where: string): string | null {
    const bytes = this.officePackage.part(part);
    const sniffed = sniffMediaType(bytes);
    const name = part.split("/").pop() ?? part;
    if (sniffed.kind !== "accepted" || !pictureTypes.has(sniffed.type.mediaType)) {
      this.dropped(`the picture ${name} on ${where}`, "it is not PNG, JPEG, GIF or WebP (for example EMF, WMF, TIFF or SVG); export it as PNG and add it with upload_asset");
      return null;
    }
    if (bytes.byteLength > limits.assetBytes) {
      this.dropped(`the picture ${name} on ${where}`, `it is ${bytes.byteLength} bytes; assets may be at most ${limits.assetBytes} bytes`);
      return null;
    }
    const stem = name.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9._-]/g, "_") || "picture";
    const sourceId = `ast_officepicture${this.assets.length + 1}`;
    this.assets.push({ sourceId, fileName: `${stem}.${sniffed.type.extensions[0]}`, mediaType: sniffed.type.mediaType, bytes });
    return sourceId;
  }
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
