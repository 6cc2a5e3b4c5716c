/**
 * The one way this service reads XML (XLIFF, Office parts, package manifests, question banks): strict,
 * namespace-aware XML through saxes, bounded in length, nesting depth, element count and attributes per
 * element, with no DTD processing at all. A DOCTYPE is refused outright, so neither external entities
 * (XXE) nor entity expansion (billion laughs) can happen, and undefined entities are errors. The input
 * is fed in slices with a yield to the event loop between them, so a large file never stalls other
 * requests, and the first limit crossed stops the read with an error naming that limit.
 *
 * Two forms: `scanXml` calls handlers as elements open and close (constant memory, for readers that keep
 * only what they need); `readXml` builds the element tree (for small documents read whole).
 */
import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from "saxes";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { WorkSlicer } from "./event-loop.ts";

export interface XmlLimits {
  /** UTF-16 characters of a string input, or bytes of a `Uint8Array` input. */
  maxLength: number;
  /** Elements open at once. XLIFF, Office XML and manifests never need more than a few dozen. */
  maxDepth: number;
  /** Elements in the whole document. */
  maxElements: number;
  /** Attributes (namespace declarations included) on one element. */
  maxAttributes: number;
}

export const defaultXmlLimits: XmlLimits = {
  maxLength: 16 * 1024 * 1024,
  maxDepth: 256,
  maxElements: 1_000_000,
  maxAttributes: 256,
};

export type XmlPosition = {
  line: number;
  column: number;
};

export interface XmlAttribute {
  /** As written, with its prefix. */
  name: string;
  prefix: string;
  local: string;
  /** Namespace URI; "" for an unprefixed attribute. */
  uri: string;
  value: string;
}

export interface XmlTag {
  /** As written, with its prefix. */
  name: string;
  prefix: string;
  local: string;
  /** Namespace URI; "" when none is in scope. */
  uri: string;
  /** By the name as written (`xml:lang`, `id`). */
  attributes: Readonly<Record<string, XmlAttribute>>;
}

export interface XmlHandlers {
  open?(tag: XmlTag, at: XmlPosition): void;
  close?(tag: XmlTag, at: XmlPosition): void;
  /** Character data (text and CDATA), entities decoded; may arrive in several pieces. */
  text?(text: string, at: XmlPosition): void;
}

export interface XmlReadOptions {
  /** The argument the XML came in, named in every error (`xliff`, `content`, `assets[2]`). */
  field: string;
  limits?: Partial<XmlLimits>;
}

export type XmlNode = XmlElement | string;

export interface XmlElement extends XmlTag {
  children: XmlNode[];
  line: number;
  column: number;
}

/**
 * Characters fed to the parser at once, and between yields to the event loop. Small, because dense
 * markup (a few bytes per element, each element an object) costs far more per character than text.
 */
const sliceLength = 8 * 1024;
const yieldEvery = 8 * 1024;

function limitError(field: string, message: string, limit: keyof XmlLimits, max: number, at?: XmlPosition): CourseAuthoringError {
  const where = at ? ` at line ${at.line}, column ${at.column}` : "";
  return new CourseAuthoringError("limit_exceeded", `${field}: ${message}${where}; the limit is ${max} (${limit}), so the XML was refused.`, {
    field,
    limit,
    max,
    ...at,
  });
}

function xmlError(field: string, message: string, at?: XmlPosition): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `${field}: ${message}`, { field, ...at });
}

/** Reads `input` as XML, calling `handlers` in document order; rejects at the first error or limit. */
export async function scanXml(input: string | Uint8Array, handlers: XmlHandlers, options: XmlReadOptions): Promise<void> {
  const limits = { ...defaultXmlLimits, ...options.limits };
  const { field } = options;
  if (input.length > limits.maxLength) {
    const unit = typeof input === "string" ? "characters" : "bytes";
    throw limitError(field, `the XML is ${input.length} ${unit}, more than can be read`, "maxLength", limits.maxLength);
  }
  const parser = new SaxesParser({ xmlns: true, position: true });
  const at = (): XmlPosition => ({ line: parser.line, column: parser.column + 1 });
  let depth = 0;
  let elements = 0;
  let attributes = 0;
  parser.on("error", (error) => {
    const where = at();
    const reason = error.message.replace(/^[^:]*:\d+:\d+: /, "");
    throw xmlError(field, `malformed XML at line ${where.line}, column ${where.column}: ${reason}`, where);
  });
  parser.on("doctype", () => {
    const where = at();
    throw xmlError(field, `a DOCTYPE at line ${where.line}, column ${where.column} is refused: DTDs and entity declarations are not accepted.`, where);
  });
  parser.on("opentagstart", () => {
    depth += 1;
    elements += 1;
    attributes = 0;
    if (depth > limits.maxDepth) throw limitError(field, `elements nest more than ${limits.maxDepth} deep`, "maxDepth", limits.maxDepth, at());
    if (elements > limits.maxElements) throw limitError(field, `the XML has more than ${limits.maxElements} elements`, "maxElements", limits.maxElements, at());
  });
  parser.on("attribute", () => {
    attributes += 1;
    if (attributes > limits.maxAttributes) throw limitError(field, `an element has more than ${limits.maxAttributes} attributes`, "maxAttributes", limits.maxAttributes, at());
  });
  parser.on("opentag", (tag) => {
    handlers.open?.(tagOf(tag as SaxesTagNS), at());
    if (tag.isSelfClosing) depth -= 1;
  });
  parser.on("closetag", (tag) => {
    if (!tag.isSelfClosing) depth -= 1;
    handlers.close?.(tagOf(tag as SaxesTagNS), at());
  });
  if (handlers.text) {
    const text = handlers.text;
    parser.on("text", (value) => text(value, at()));
    parser.on("cdata", (value) => text(value, at()));
  }

  const slicer = new WorkSlicer(yieldEvery);
  if (typeof input === "string") {
    for (let offset = 0; offset < input.length; offset += sliceLength) {
      parser.write(input.slice(offset, offset + sliceLength));
      await slicer.done(sliceLength);
    }
  } else {
    const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
    for (let offset = 0; offset < input.length; offset += sliceLength) {
      let text: string;
      try {
        text = decoder.decode(input.subarray(offset, offset + sliceLength), { stream: offset + sliceLength < input.length });
      } catch {
        throw xmlError(field, `the XML is not valid UTF-8 (near byte ${offset}); only UTF-8 XML is read.`);
      }
      parser.write(text);
      await slicer.done(sliceLength);
    }
  }
  parser.close();
}

function tagOf(tag: SaxesTagNS): XmlTag {
  const attributes: Record<string, XmlAttribute> = {};
  for (const [name, attribute] of Object.entries(tag.attributes as Record<string, SaxesAttributeNS>)) {
    attributes[name] = { name, prefix: attribute.prefix, local: attribute.local, uri: attribute.uri, value: attribute.value };
  }
  return { name: tag.name, prefix: tag.prefix, local: tag.local, uri: tag.uri, attributes };
}

/** The document's root element with everything under it, read within the limits. */
/**
 * Scan handlers that build an element tree as the scan goes (adjacent texts joined); `root()` is the first
 * element opened. The one tree builder over the one reader: `readXml` and the Office reader use it.
 */
export function treeBuilder<N extends { children: (N | string)[] }, A extends unknown[]>(make: (...args: A) => N) {
  let root: N | undefined;
  const open: N[] = [];
  return {
    open(...args: A): void {
      const node = make(...args);
      const parent = open[open.length - 1];
      if (parent) parent.children.push(node);
      else root = node;
      open.push(node);
    },
    close(): void {
      open.pop();
    },
    text(text: string): void {
      const parent = open[open.length - 1];
      if (!parent) return;
      const last = parent.children.length - 1;
      if (typeof parent.children[last] === "string") parent.children[last] += text;
      else parent.children.push(text);
    },
    root: (): N | undefined => root,
  };
}

export async function readXml(input: string | Uint8Array, options: XmlReadOptions): Promise<XmlElement> {
  const tree = treeBuilder((tag: XmlTag, at: XmlPosition): XmlElement => ({ ...tag, children: [], ...at }));
  await scanXml(input, tree, options);
  const root = tree.root();
  if (!root) throw xmlError(options.field, "the XML has no root element.");
  return root;
}

/** The child elements of `element`, only those named `local` when given. */
export function childElements(element: XmlElement, local?: string): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== "string" && (local === undefined || child.local === local));
}

/** All the text under `element`, in document order. */
export function textContent(element: XmlElement): string {
  return element.children.map((child) => (typeof child === "string" ? child : textContent(child))).join("");
}
