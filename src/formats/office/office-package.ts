/**
 * An uploaded Word or PowerPoint file opened as an OPC package without trusting it: the zip is read
 * through the import's bounded archive reader (entry count, declared sizes, ratios, a running budget),
 * macro-enabled packages are refused (a vbaProject part or a macro content type), the main part must be
 * the format the caller expects, and a relationship that reaches outside the package is refused unless
 * it is a hyperlink (hyperlinks stay links). Parts are inflated on demand, within one budget for the file.
 */
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { inlineFileName } from "../draft-course.ts";
import { archiveLimits, inflateEntry, readCentralDirectory } from "../../codecs/archive.ts";
import type { ZipEntry } from "../../codecs/zip-read.ts";
import { childElements, readOfficeXml, type XmlNode } from "./office-xml.ts";

export type OfficeKind = "docx" | "pptx";

/** A slide brings up to four parts (slide, notes and their relationships) and media: room for the 1,000 slides a deck may have. */
export const officeMaxEntries = 8_000;

const mainContentTypes: Record<OfficeKind, string> = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
};
const kindNames: Record<OfficeKind, string> = { docx: "a Word document (.docx)", pptx: "a PowerPoint presentation (.pptx)" };
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

export class OfficePackage {
  private inflatedBytes = 0;
  private readonly relationshipCache = new Map<string, Map<string, Relationship>>();
  mainPart = "";

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly entries: Map<string, ZipEntry>,
    readonly fileName: string,
    readonly kind: OfficeKind,
  ) {}

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

  async xml(name: string): Promise<XmlNode> {
    return readOfficeXml(await this.part(name), name, this.fileName);
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
        const external = node.attributes.TargetMode === "External";
        if (external && type !== hyperlinkType) {
          throw officeError(this.fileName, `${part || "the package"} has an external relationship (TargetMode="External") to ${JSON.stringify(target.slice(0, 200))}; only hyperlinks may point outside the file`);
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
