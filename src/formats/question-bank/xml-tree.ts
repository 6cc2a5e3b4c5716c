/**
 * The one place question-bank imports read XML: the service's bounded reader (`codecs/xml-read.ts`: no DTD,
 * bounded length, depth, elements and attributes, read in slices with yields) with the limits a bank
 * needs, turned into a small tree by local name, so QTI (2.1 or 3.0 namespaces) and Moodle XML are
 * read the same way. Errors name the file (`imsmanifest.xml`, `items/Q1.xml`, the Moodle XML file).
 */
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { readXml, type XmlElement, type XmlLimits } from "../../codecs/xml-read.ts";

import { yieldToEventLoop } from "../../codecs/event-loop.ts";

export { yieldToEventLoop };

export interface XmlTree {
  readonly name: string;
  readonly namespace: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlTree[];
  /** Text and elements in document order. */
  readonly content: (XmlTree | string)[];
}

/** A question, a manifest or a test never nests deeper than this; a bank is a few MB. */
export const bankXmlLimits: Partial<XmlLimits> = { maxLength: 16 * 1024 * 1024, maxDepth: 64, maxElements: 400_000 };

function treeOf(element: XmlElement): XmlTree {
  const attributes: Record<string, string> = {};
  for (const attribute of Object.values(element.attributes)) {
    if (attribute.prefix === "xmlns" || attribute.name === "xmlns") continue;
    attributes[attribute.prefix === "xml" ? `xml:${attribute.local}` : attribute.local] = attribute.value;
  }
  const children: XmlTree[] = [];
  const content = element.children.map((child) => {
    if (typeof child === "string") return child;
    const tree = treeOf(child);
    children.push(tree);
    return tree;
  });
  return { name: element.local, namespace: element.uri, attributes, children, content };
}

/** Reads `text` as XML; `what` names the file in errors. */
export async function readXmlTree(text: string, what: string, limits: Partial<XmlLimits> = bankXmlLimits): Promise<XmlTree> {
  try {
    const element = await readXml(text, { field: "content", limits });
    // Building the tree of a large part is work of its own: not in the same turn as the parser's last slice.
    await yieldToEventLoop();
    return treeOf(element);
  } catch (error) {
    if (!(error instanceof CourseAuthoringError)) throw error;
    throw new CourseAuthoringError(error.code, `${error.message.replace(/^content: /, `content: ${what}: `)} Nothing was imported.`, { ...error.details, file: what });
  }
}

export function childElement(node: XmlTree | undefined, name: string): XmlTree | undefined {
  return node?.children.find((child) => child.name === name);
}

export function childElements(node: XmlTree | undefined, name: string): XmlTree[] {
  return node?.children.filter((child) => child.name === name) ?? [];
}

/** All text inside the node, in order. */
export function textContent(node: XmlTree | undefined): string {
  if (!node) return "";
  return node.content.map((part) => (typeof part === "string" ? part : textContent(part))).join("");
}

/** Every descendant element of that name, depth first. */
export function descendants(node: XmlTree, name: string, found: XmlTree[] = []): XmlTree[] {
  for (const child of node.children) {
    if (child.name === name) found.push(child);
    descendants(child, name, found);
  }
  return found;
}
