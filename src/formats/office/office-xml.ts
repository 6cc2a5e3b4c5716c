/**
 * Office XML parts as small element trees, read through the service's one bounded XML reader
 * (`codecs/xml-read.ts`: strict, no DTD at all, bounded in length, depth, elements and attributes, yielding to
 * the event loop). Element names are local names; attributes keep their local name, except the
 * relationship namespace's, which read `r:id`, `r:embed` whatever prefix the writer chose.
 */
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { scanXml, treeBuilder, type XmlTag } from "../../codecs/xml-read.ts";

export interface XmlNode {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: (XmlNode | string)[];
}

export const officeXmlLimits = { maxLength: 32 * 1024 * 1024, maxElements: 2_000_000, maxDepth: 200 } as const;

/** Told each element's local name as it opens; throws to stop the read (the package's element caps). */
export type ElementCounter = (name: string) => void;

export interface OfficeXmlHandlers {
  open?(name: string, attributes: Readonly<Record<string, string>>): void;
  close?(name: string): void;
  /** Character data, possibly in several pieces. */
  text?(text: string): void;
}

const relationshipNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

function simplifiedAttributes(tag: XmlTag): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const attribute of Object.values(tag.attributes)) {
    if (attribute.prefix === "xmlns" || attribute.name === "xmlns") continue;
    attributes[attribute.uri === relationshipNamespace ? `r:${attribute.local}` : attribute.local] = attribute.value;
  }
  return attributes;
}

/**
 * Streams one part of an Office package through handlers (local names, simplified attributes), in slices
 * with yields; any refusal names the file and the part. Errors thrown by a handler pass through as they are.
 */
export async function scanOfficeXml(bytes: Uint8Array, part: string, fileName: string, handlers: OfficeXmlHandlers, count?: ElementCounter): Promise<void> {
  try {
    await scanXml(
      bytes,
      {
        open(tag) {
          count?.(tag.local);
          handlers.open?.(tag.local, simplifiedAttributes(tag));
        },
        close(tag) {
          handlers.close?.(tag.local);
        },
        ...(handlers.text ? { text: handlers.text } : {}),
      },
      { field: "assetId", limits: officeXmlLimits },
    );
  } catch (error) {
    // Only the XML reader's own refusals ("assetId: …") are reworded; a handler's or counter's error is already the file's.
    if (!(error instanceof CourseAuthoringError) || !error.message.startsWith("assetId: ")) throw error;
    const reason = error.message.replace(/^assetId: /, "").replace(/\.?$/, "");
    throw new CourseAuthoringError(error.code, `${fileName}: the part ${part}: ${reason}; nothing was imported.`, { ...error.details, field: "assetId", file: fileName, part });
  }
}

/**
 * Parses one part of an Office package into the small tree, built as the reader goes (inside its slices,
 * so no second pass over a large part holds the event loop).
 */
export async function readOfficeXml(bytes: Uint8Array, part: string, fileName: string, count?: ElementCounter): Promise<XmlNode> {
  const tree = treeBuilder((name: string, attributes: Readonly<Record<string, string>>): XmlNode => ({ name, attributes, children: [] }));
  await scanOfficeXml(bytes, part, fileName, tree, count);
  const root = tree.root();
  if (!root) throw new CourseAuthoringError("invalid_arguments", `${fileName}: the part ${part}: the XML has no root element; nothing was imported.`, { field: "assetId", file: fileName, part });
  return root;
}

/** Element children, optionally only those with a local name. */
export function childElements(node: XmlNode, name?: string): XmlNode[] {
  return node.children.filter((child): child is XmlNode => typeof child !== "string" && (name === undefined || child.name === name));
}

export function firstChild(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((child): child is XmlNode => typeof child !== "string" && child.name === name);
}

/** Every descendant with the local name, in document order. */
/**
 * A drawing's description (`docPr`/`cNvPr`): its `descr`, else its `title`, where LibreOffice writes
 * the alt text of a picture it saves as .docx.
 */
export function describedBy(properties: XmlNode | undefined): string {
  return properties?.attributes.descr || properties?.attributes.title || "";
}

export function descendants(node: XmlNode, name: string, found: XmlNode[] = []): XmlNode[] {
  for (const child of node.children) {
    if (typeof child === "string") continue;
    if (child.name === name) found.push(child);
    descendants(child, name, found);
  }
  return found;
}

/** All text of the descendants named `textElement` (w:t, a:t), concatenated. */
export function textOf(node: XmlNode, textElement: string): string {
  return descendants(node, textElement)
    .map((element) => element.children.filter((child): child is string => typeof child === "string").join(""))
    .join("");
}
