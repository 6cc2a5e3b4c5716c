/**
 * An uploaded Word or PowerPoint file opened as an OPC package without trusting it: the zip is read
 * through the import's bounded archive reader (entry count, declared sizes, ratios, a running budget),
 * macro-enabled packages are refused (a vbaProject part or a macro content type), the main part must be
 * the format the caller expects, and a relationship that reaches outside the package is refused unless
 * it is a hyperlink (hyperlinks stay links). Parts are inflated on demand, within one budget for the file,
 * and each is parsed once however often it is named; the elements of every part read count against caps
 * fit for real documents (`officeElementCaps`), so a file of millions of tiny elements is refused early.
 */
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { sniffMediaType } from "../../codecs/media-types.ts";
import { inlineFileName } from "../draft-course.ts";
import { archiveLimits, inflateEntry, readCentralDirectory } from "../../codecs/archive.ts";
import { WorkSlicer } from "../../codecs/event-loop.ts";
import type { ZipEntry } from "../../codecs/zip-read.ts";
import { childElements, readOfficeXml, scanOfficeXml, type OfficeXmlHandlers, type XmlNode } from "./office-xml.ts";

export type OfficeKind = "docx" | "pptx";

/** A slide brings up to four parts (slide, notes and their relationships) and media: room for the 1,000 slides a deck may have. */
export const officeMaxEntries = 8_000;

const mainContentTypes: Record<OfficeKind, string> = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
};
const kindNames: Record<OfficeKind, string> = { docx: "a Word document (.docx)", pptx: "a PowerPoint presentation (.pptx)" };
/** A count of elements across every part read, refused past `max` with `limit_exceeded` naming `limit`. */
export interface ElementCap {
  readonly limit: string;
  /** Local names counted (w:p and a:p are both `p`). */
  readonly elements: readonly string[];
  readonly max: number;
}

/**
 * Far above real documents: a 500-page manual holds about 20,000-50,000 paragraphs (table cells
 * included) and Word splits them into a few runs each; a 300-slide deck about 15,000 shapes (layouts
 * and notes included). A deck's 1,000 slides are capped in `pptx.ts`.
 */
export const officeElementCaps: Record<OfficeKind, readonly ElementCap[]> = {
  docx: [
    { limit: "paragraphs", elements: ["p"], max: 200_000 },
    { limit: "runs", elements: ["r"], max: 1_000_000 },
    { limit: "tables", elements: ["tbl"], max: 20_000 },
    { limit: "relationships", elements: ["Relationship"], max: 50_000 },
  ],
  pptx: [
    { limit: "paragraphs", elements: ["p"], max: 200_000 },
    { limit: "runs", elements: ["r"], max: 1_000_000 },
    { limit: "shapes", elements: ["sp", "pic", "graphicFrame", "grpSp", "cxnSp", "contentPart"], max: 50_000 },
    { limit: "relationships", elements: ["Relationship"], max: 50_000 },
  ],
};

/** Parsing a part, however small, counts as this many bytes of work, so many tiny parts still yield. */
const partWorkBytes = 4 * 1024;
const yieldEveryBytes = 64 * 1024;

const hyperlinkType = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink";

export interface Relationship {
  readonly type: string;
  /** A part name inside the package, or the URL of an external hyperlink. */
  readonly target: string;
  readonly external: boolean;
}

export function officeError(fileName: string, rule: string, code: "invalid_arguments" | "limit_exceeded" = "invalid_arguments", details: Record<string, unknown> = {}): CourseAuthoringError {
  return new CourseAuthoringError(code, `${fileName}: ${rule}; nothing was imported.`, { field: fileName === inlineFileName ? "contentBase64" : "assetId", file: fileName, ...details });
}

/** The archive reader's words ("content: …; nothing was imported.") as this file's. */
function asFileError(fileName: string, error: unknown): unknown {
  if (!(error instanceof CourseAuthoringError) || !error.message.startsWith("content: ")) return error;
  const rule = error.message.replace(/^content: /, "").replace(/[;,.]? ?(this looks like a zip bomb, so )?nothing was imported\.?$/i, (_all, bomb) => (bomb ? "; it looks like a zip bomb" : ""));
  return officeError(fileName, rule, error.code === "limit_exceeded" ? "limit_exceeded" : "invalid_arguments");
}

/** Resolves a relationship target against the folder of the part that names it. */
function resolvePartName(from: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = from.split("/").slice(0, -1);
  for (const segment of target.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== "." && segment !== "") parts.push(segment);
  }
  return parts.join("/");
}

/** Whether a relationship's TargetMode says External, in any letter case (the attribute's name too). */
function isExternal(attributes: Readonly<Record<string, string>>): boolean {
  return Object.entries(attributes).some(([name, value]) => name.toLowerCase() === "targetmode" && value.trim().toLowerCase() === "external");
}

export class OfficePackage {
  private inflatedBytes = 0;
  private readonly relationshipCache = new Map<string, Map<string, Relationship>>();
  /** Parsed parts by name: a part named many times (1,000 slide IDs on one slide) is parsed once. */
  private readonly parsed = new Map<string, Promise<XmlNode>>();
  private readonly counts = new Map<string, number>();
  private readonly capsByElement = new Map<string, ElementCap[]>();
  private readonly slicer = new WorkSlicer(yieldEveryBytes);
  mainPart = "";

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly entries: Map<string, ZipEntry>,
    readonly fileName: string,
    readonly kind: OfficeKind,
  ) {
    for (const cap of officeElementCaps[kind]) for (const element of cap.elements) this.capsByElement.set(element, [...(this.capsByElement.get(element) ?? []), cap]);
  }

  /** Counts one element of a part being read; past a cap the whole file is refused, naming the cap. */
  private readonly countElement = (name: string): void => {
    const caps = this.capsByElement.get(name);
    if (!caps) return;
    for (const cap of caps) {
      const count = (this.counts.get(cap.limit) ?? 0) + 1;
      this.counts.set(cap.limit, count);
      if (count > cap.max) {
        throw officeError(this.fileName, `holds more than ${cap.max} ${cap.limit}; at most ${cap.max} ${cap.limit} are read (limit: ${cap.limit}). Split it into smaller files`, "limit_exceeded", { limit: cap.limit, max: cap.max });
      }
    }
  };

  /** Opens and checks the package: macros, the main part's type, and every relationship, before any content is read. */
  static async open(bytes: Uint8Array, fileName: string, kind: OfficeKind): Promise<OfficePackage> {
    let listed: ZipEntry[];
    try {
      listed = readCentralDirectory(bytes, officeMaxEntries);
    } catch (error) {
      throw asFileError(fileName, error);
    }
    const file = new OfficePackage(bytes, new Map(listed.map((entry) => [entry.name, entry])), fileName, kind);
    const macros = listed.find((entry) => /(^|\/)vbaProject\.bin$|(^|\/)activeX\//i.test(entry.name));
    if (macros) throw officeError(fileName, `holds macros or ActiveX (${macros.name}); macro-enabled Office files are refused, save it as a plain .${kind}`);
    const types = await file.xml("[Content_Types].xml");
    const overrides = childElements(types, "Override");
    const typeValues = [...overrides, ...childElements(types, "Default")].map((node) => node.attributes.ContentType ?? "");
    if (typeValues.some((type) => /macroEnabled|vbaProject|activeX/i.test(type))) {
      throw officeError(fileName, `is a macro-enabled Office file (.docm, .pptm); save it as a plain .${kind}`);
    }
    const main = overrides.find((node) => node.attributes.ContentType === mainContentTypes[kind]);
    if (!main) {
      const other = (Object.keys(mainContentTypes) as OfficeKind[]).find((candidate) => overrides.some((node) => node.attributes.ContentType === mainContentTypes[candidate]));
      throw officeError(fileName, `is not ${kindNames[kind]}${other ? `; it is ${kindNames[other]}` : ""}`);
    }
    file.mainPart = resolvePartName("", main.attributes.PartName ?? "");
    // Every relationship is checked up front, so a file reaching outside itself is refused whole.
    for (const name of file.entries.keys()) {
      const match = /^(.*?)_rels\/([^/]*)\.rels$/.exec(name);
      if (match) await file.relationships(`${match[1]}${match[2]}`);
    }
    return file;
  }

  has(part: string): boolean {
    return this.entries.has(part);
  }

  /** A part's bytes, inflated within what is left of the file's budget. */
  async part(name: string): Promise<Uint8Array> {
    const entry = this.entries.get(name);
    if (!entry) throw officeError(this.fileName, `names the part ${name}, which the package does not hold`);
    this.inflatedBytes += entry.size;
    if (this.inflatedBytes > archiveLimits.uncompressedBytes) {
      throw officeError(this.fileName, `inflates to more than ${archiveLimits.uncompressedBytes} bytes`, "limit_exceeded");
    }
    try {
      return await inflateEntry(this.bytes, entry);
    } catch (error) {
      throw asFileError(this.fileName, error);
    }
  }

  /** A part's element tree, parsed once; its elements count against the file's caps. */
  xml(name: string): Promise<XmlNode> {
    let tree = this.parsed.get(name);
    if (!tree) {
      tree = this.parse(name);
      this.parsed.set(name, tree);
    }
    return tree;
  }

  private async parse(name: string): Promise<XmlNode> {
    const bytes = await this.part(name);
    const tree = await readOfficeXml(bytes, name, this.fileName, this.countElement);
    await this.slicer.done(bytes.length + partWorkBytes);
    return tree;
  }

  /**
   * Streams a part through handlers without keeping its tree, for readers that keep only what they need
   * (the review copy): memory does not grow with its elements, so only the XML reader's limits apply.
   */
  async scan(name: string, handlers: OfficeXmlHandlers): Promise<void> {
    const bytes = await this.part(name);
    await scanOfficeXml(bytes, name, this.fileName, handlers);
    await this.slicer.done(bytes.length + partWorkBytes);
  }

  /** The relationships of a part by ID; a non-hyperlink reaching outside the package is refused. */
  async relationships(part: string): Promise<Map<string, Relationship>> {
    const cached = this.relationshipCache.get(part);
    if (cached) return cached;
    const slash = part.lastIndexOf("/");
    const relsName = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
    const found = new Map<string, Relationship>();
    if (this.entries.has(relsName)) {
      for (const node of childElements(await this.xml(relsName), "Relationship")) {
        const type = node.attributes.Type ?? "";
        const target = node.attributes.Target ?? "";
        const external = isExternal(node.attributes);
        if (external && type !== hyperlinkType) {
          const linkedPicture = type.endsWith("/image")
            ? "; it is a picture linked rather than embedded (in LibreOffice: Edit › Links to External Files › Break Link, in Word: File › Info › Edit Links to Files › Break Link; then save and upload again)"
            : "";
          throw officeError(this.fileName, `${part || "the package"} has an external relationship (TargetMode="External") to ${JSON.stringify(target.slice(0, 200))}; only hyperlinks may point outside the file${linkedPicture}`);
        }
        found.set(node.attributes.Id ?? "", { type, target: external ? target : resolvePartName(part, target), external });
      }
    }
    this.relationshipCache.set(part, found);
    return found;
  }

  /** The first relationship of a part with a type ending in `/typeSuffix`. */
  async related(part: string, typeSuffix: string): Promise<string | undefined> {
    for (const relationship of (await this.relationships(part)).values()) {
      if (!relationship.external && relationship.type.endsWith(`/${typeSuffix}`)) return relationship.target;
    }
    return undefined;
  }
}

export const officeMediaTypes: Record<string, OfficeKind> = {
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
};

/** The Office kind of a file by its bytes, or null when it is not Word or PowerPoint. */
export async function officeKindOf(file: { fileName: string; bytes: Uint8Array }): Promise<OfficeKind | null> {
  const sniffed = await sniffMediaType(file.bytes, { filename: file.fileName });
  if (sniffed.kind === "refused") throw officeError(file.fileName, `is refused: ${sniffed.reason}`);
  if (sniffed.kind !== "accepted") return null;
  const kind = officeMediaTypes[sniffed.type.mediaType] ?? null;
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.fileName)?.[1]?.toLowerCase();
  if (kind && extension && extension !== kind) {
    throw officeError(file.fileName, `is named .${extension} but its content is a .${kind} file; rename it or send the right file`);
  }
  return kind;
}
