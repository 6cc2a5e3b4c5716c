/**
 * Office XML parts as small element trees, read through the service's one bounded XML reader
 * (`codecs/xml-read.ts`: strict, no DTD at all, bounded in length, depth, elements and attributes, yielding to
 * the event loop). Element names are local names; attributes keep their local name, except the
 * relationship namespace's, which read `r:id`, `r:embed` whatever prefix the writer chose.
 */
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { readXml, type XmlElement } from "../../codecs/xml-read.ts";

export interface XmlNode {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: (XmlNode | string)[];
}

export const officeXmlLimits = { maxLength: 32 * 1024 * 1024, maxElements: 2_000_000, maxDepth: 200 } as const;

const relationshipNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

function simplified(element: XmlElement): XmlNode {
  const attributes: Record<string, string> = {};
  for (const attribute of Object.values(element.attributes)) {
    if (attribute.prefix === "xmlns" || attribute.name === "xmlns") continue;
    attributes[attribute.uri === relationshipNamespace ? `r:${attribute.local}` : attribute.local] = attribute.value;
  }
  return { name: element.local, attributes, children: element.children.map((child) => (typeof child === "string" ? child : simplified(child))) };
}

/** Parses one part of an Office package; any refusal names the file and the part. */
export async function readOfficeXml(bytes: Uint8Array, part: string, fileName: string): Promise<XmlNode> {
  try {
    return simplified(await readXml(bytes, { field: "assetId", limits: officeXmlLimits }));
  } catch (error) {
    if (!(error instanceof CourseAuthoringError)) throw error;
    const reason = error.message.replace(/^assetId: /, "").replace(/\.?$/, "");
    throw new CourseAuthoringError(error.code, `${fileName}: the part ${part}: ${reason}; nothing was imported.`, { ...error.details, field: "assetId", file: fileName, part });
  }
}

/** Element children, optionally only those with a local name. */
export function childElements(node: XmlNode, name?: string): XmlNode[] {
  return node.children.filter((child): child is XmlNode => typeof child !== "string" && (name === undefined || child.name === name));
}

export function firstChild(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((child): child is XmlNode => typeof child !== "string" && child.name === name);
}

/** Every descendant with the local name, in document order. */
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
