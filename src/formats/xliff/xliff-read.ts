/**
 * Reads an XLIFF 2.0 or 1.2 file into unit targets as inline-code tokens, through the bounded XML
 * reader (`codecs/xml-read.ts`): strict XML, no DOCTYPE or entity declarations, limited nesting and size, and
 * the event loop free while a large file is read. Malformed XML is reported with its line and column.
 * Inline codes of both versions are read (2.0 ph/pc/sc/ec, 1.2 x/ph/g/bx/ex/bpt/ept/it); annotation
 * markers (mrk, sm, em) are transparent.
 */
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { scanXml, type XmlPosition, type XmlTag } from "../../codecs/xml-read.ts";
import type { TargetToken } from "./inline-codes.ts";
import { xliffNamespaces, type XliffFormat } from "./xliff-write.ts";

export interface XliffTargets {
  format: XliffFormat;
  /** "1.1" for the files translate-toolkit's po2xliff writes (read as 1.2, whose vocabulary they share). */
  version: "2.0" | "1.2" | "1.1";
  srcLang: string;
  trgLang: string;
  /** Unit ID → target tokens, for units with a non-empty target, in file order. */
  targets: Map<string, TargetToken[]>;
  /** Every unit ID the file holds, with or without a target. */
  unitIds: string[];
  /** Unit ID → the translator's notes (every note but the context and state ones export_translation writes), joined by new lines. */
  notes: Map<string, string>;
}

/** XLIFF 1.1's namespace: po2xliff writes it, with the 1.2 elements this reader knows. */
const xliff11Namespace = "urn:oasis:names:tc:xliff:document:1.1";
/**
 * The notes export_translation writes itself (2.0 `category`, 1.2 `from`): not the translator's. 1.2's
 * context note is `from="developer"`, and po2xliff writes a PO `#.` comment back the same way; files
 * exported before that carry `from="context"`.
 */
const serviceNotes = new Set(["context", "state", "developer"]);

/** Characters of XLIFF accepted in one import. */
export const xliffMaxCharacters = 16 * 1024 * 1024;
/** Elements open at once: a unit's target with inline codes nests a dozen at most. */
export const xliffMaxDepth = 256;

const transparent = new Set(["mrk", "sm", "em"]);
/** Elements whose text content is native code or metadata, never target text. */
const opaque = new Set(["ph", "bpt", "ept", "it", "originalData", "notes", "note", "sub"]);

function xliffError(message: string, details: Record<string, unknown> = {}): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `xliff: ${message}`, { field: "xliff", ...details });
}

export async function readXliff(xliff: string): Promise<XliffTargets> {
  if (xliff.length > xliffMaxCharacters) {
    throw new CourseAuthoringError("limit_exceeded", `xliff: ${xliff.length} characters is more than the ${xliffMaxCharacters} one import accepts; export with onlyOutdated or split the work.`, {
      field: "xliff",
      limit: xliffMaxCharacters,
    });
  }
  const state = new ReadState();
  await scanXml(
    xliff,
    { open: (tag, at) => state.open(tag, at), close: (tag) => state.close(tag), text: (text) => state.text(text) },
    { field: "xliff", limits: { maxLength: xliffMaxCharacters, maxDepth: xliffMaxDepth } },
  );
  return state.result();
}

interface UnitInProgress {
  id: string;
  /** po2xliff's unit: numbered, with the real ID as its PO location (`#: crs_…/title`). */
  location: string | undefined;
  /** po2xliff's PO header entry, not a unit. */
  skip: boolean;
  notes: string[];
  tokens: TargetToken[];
  sawTarget: boolean;
  /** A 2.0 segment without a target makes the whole unit untranslated. */
  missingSegmentTarget: boolean;
}

class ReadState {
  format: XliffFormat | undefined;
  version: XliffTargets["version"] = "2.0";
  namespace = "";
  readonly notes = new Map<string, string>();
  /** Text of a unit-level note or PO location being read, and where it goes when its element closes. */
  private capture: { element: string; text: string; into: (text: string) => void } | undefined;
  private inLocationGroup = false;
  srcLang = "";
  trgLang = "";
  readonly targets = new Map<string, TargetToken[]>();
  readonly unitIds: string[] = [];
  private unit: UnitInProgress | undefined;
  private inTarget = 0;
  private opaqueDepth = 0;
  private segmentHasTarget = false;
  /** Open pair elements inside a target, to emit their close. */
  private readonly pairs: (string | null)[] = [];

  open(tag: XmlTag, where: XmlPosition): void {
    const name = tag.local;
    const attr = (key: string) => tag.attributes[key]?.value;
    if (this.format === undefined) {
      const root = rootFormat(tag, where);
      this.format = root.format;
      this.version = root.version;
      this.namespace = tag.uri;
      if (this.format === "xliff20") {
        this.srcLang = attr("srcLang") ?? "";
        this.trgLang = attr("trgLang") ?? "";
      }
      return;
    }
    if (tag.uri !== this.namespace && this.inTarget === 0) return;
    if (this.format === "xliff12" && name === "file") {
      this.setLanguages(attr("source-language") ?? "", attr("target-language") ?? "", where);
      return;
    }
    if ((this.format === "xliff20" && name === "unit") || (this.format === "xliff12" && name === "trans-unit")) {
      const id = this.format === "xliff20" ? (attr("name") ?? attr("id")?.replace(/:/g, "/")) : attr("id");
      if (!id) throw xliffError(`the ${name} at line ${where.line} has no id.`, where);
      this.unit = { id, location: undefined, skip: attr("restype") === "x-gettext-domain-header", notes: [], tokens: [], sawTarget: false, missingSegmentTarget: false };
      return;
    }
    if (!this.unit) return;
    if (this.inTarget === 0 && this.openUnitMetadata(name, attr)) return;
    if (name === "segment") this.segmentHasTarget = false;
    if (name === "target") {
      this.inTarget += 1;
      this.unit.sawTarget = true;
      this.segmentHasTarget = true;
      return;
    }
    if (this.inTarget === 0) return;
    if (this.opaqueDepth > 0) {
      this.opaqueDepth += 1;
      return;
    }
    this.inlineOpen(name, attr, where);
  }

  private setLanguages(srcLang: string, trgLang: string, where: XmlPosition): void {
    if (this.srcLang !== "" && (this.srcLang !== srcLang || this.trgLang !== trgLang)) {
      throw xliffError(`the file at line ${where.line} has languages ${srcLang} → ${trgLang}, unlike the first file's ${this.srcLang} → ${this.trgLang}.`, where);
    }
    this.srcLang = srcLang;
    this.trgLang = trgLang;
  }

  private inlineOpen(name: string, attr: (key: string) => string | undefined, where: XmlPosition): void {
    const unit = this.unit as UnitInProgress;
    const id = attr("id");
    const need = (value: string | undefined) => {
      if (value === undefined) throw xliffError(`unit ${unit.id}: the <${name}> at line ${where.line}, column ${where.column} has no id.`, { unitId: unit.id, ...where });
      return value;
    };
    if (transparent.has(name)) {
      this.pairs.push(null);
      return;
    }
    switch (name) {
      case "pc":
      case "g":
        unit.tokens.push({ kind: "open", id: need(id) });
        this.pairs.push(need(id));
        return;
      case "sc":
      case "bx":
        unit.tokens.push({ kind: "open", id: need(id) });
        break;
      case "ec":
      case "ex":
        unit.tokens.push({ kind: "close", id: need(attr("startRef") ?? attr("rid") ?? id) });
        break;
      case "bpt":
        unit.tokens.push({ kind: "open", id: need(id) });
        break;
      case "ept":
        unit.tokens.push({ kind: "close", id: need(attr("rid") ?? id) });
        break;
      case "it":
        unit.tokens.push({ kind: attr("pos") === "close" ? "close" : "open", id: need(id) });
        break;
      case "ph":
      case "x":
        unit.tokens.push({ kind: "ph", id: need(id) });
        break;
      default:
        throw xliffError(`unit ${unit.id}: <${name}> at line ${where.line}, column ${where.column} is not an inline element this service reads.`, { unitId: unit.id, ...where });
    }
    // Their content, if any, is native code: skipped until the element closes.
    this.opaqueDepth = opaque.has(name) ? 1 : 0;
    this.pairs.push(opaque.has(name) ? "" : null);
  }

  /** Notes and (po2xliff) the PO location of a unit, outside its target; true when the element was one of them. */
  private openUnitMetadata(name: string, attr: (key: string) => string | undefined): boolean {
    const unit = this.unit as UnitInProgress;
    if (name === "note") {
      const kind = this.format === "xliff20" ? attr("category") : attr("from");
      this.capture = { element: name, text: "", into: (text) => void (!serviceNotes.has(kind ?? "") && text.trim() !== "" && unit.notes.push(text.trim())) };
      return true;
    }
    if (name === "context-group") this.inLocationGroup = attr("name") === "po-reference";
    if (name === "context" && this.inLocationGroup && attr("context-type") === "sourcefile") {
      this.capture = { element: name, text: "", into: (text) => void (unit.location = text.trim()) };
      return true;
    }
    return false;
  }

  close(tag: XmlTag): void {
    const name = tag.local;
    if (!this.unit) return;
    if (this.capture && this.inTarget === 0 && name === this.capture.element) {
      this.capture.into(this.capture.text);
      this.capture = undefined;
      return;
    }
    if (this.inTarget > 0 && name !== "target") {
      if (this.opaqueDepth > 1) {
        this.opaqueDepth -= 1;
        return;
      }
      if (this.opaqueDepth === 1) this.opaqueDepth = 0;
      const pair = this.pairs.pop();
      if (pair) this.unit.tokens.push({ kind: "close", id: pair });
      return;
    }
    if (name === "target") {
      this.inTarget -= 1;
      return;
    }
    if (name === "segment" && !this.segmentHasTarget) this.unit.missingSegmentTarget = true;
    if (name === "unit" || name === "trans-unit") {
      const unit = this.unit;
      this.unit = undefined;
      if (unit.skip) return;
      const id = unit.location?.includes("/") ? unit.location : unit.id;
      this.unitIds.push(id);
      const hasText = unit.tokens.some((token) => token.kind !== "text" || token.text.trim() !== "");
      if (unit.sawTarget && !unit.missingSegmentTarget && hasText) this.targets.set(id, unit.tokens);
      // po2xliff and pomerge may repeat a note the export carried: each text once.
      if (unit.notes.length > 0) this.notes.set(id, [...new Set(unit.notes)].join("\n"));
    }
  }

  text(text: string): void {
    if (this.capture && this.inTarget === 0) this.capture.text += text;
    if (!this.unit || this.inTarget === 0 || this.opaqueDepth > 0) return;
    const last = this.unit.tokens[this.unit.tokens.length - 1];
    if (last?.kind === "text") last.text += text;
    else this.unit.tokens.push({ kind: "text", text });
  }

  result(): XliffTargets {
    if (!this.format) throw xliffError("the document has no <xliff> root element.");
    return { format: this.format, version: this.version, srcLang: this.srcLang, trgLang: this.trgLang, targets: this.targets, unitIds: this.unitIds, notes: this.notes };
  }
}

function rootFormat(tag: XmlTag, where: XmlPosition): { format: XliffFormat; version: XliffTargets["version"] } {
  const version = tag.attributes.version?.value;
  if (tag.local === "xliff" && tag.uri === xliffNamespaces.xliff20 && version === "2.0") return { format: "xliff20", version };
  if (tag.local === "xliff" && tag.uri === xliffNamespaces.xliff12 && version === "1.2") return { format: "xliff12", version };
  if (tag.local === "xliff" && tag.uri === xliff11Namespace && version === "1.1") return { format: "xliff12", version };
  throw xliffError(
    `the root element at line ${where.line} is <${tag.name}> in namespace "${tag.uri}" (version ${version ?? "none"}); expected <xliff version="2.0"> in ${xliffNamespaces.xliff20} or <xliff version="1.2"> in ${xliffNamespaces.xliff12}.`,
    where,
  );
}
