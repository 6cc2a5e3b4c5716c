/**
 * The one place Office XML parts are parsed, so a shared bounded reader can replace it in one edit.
 * Strict XML (saxes) with no DTD processing: a DOCTYPE is refused, so neither external entities nor
 * entity expansion can happen, and an undefined entity is an error. Bounded in characters, element
 * count and depth. Element names are local names; attributes keep their local name, except the
 * relationship namespace's, which read `r:id`, `r:embed` whatever prefix the writer chose.
 */
import { SaxesParser, type SaxesTagNS } from "saxes";
import { CourseAuthoringError } from "../../course-authoring-error.ts";

export interface XmlNode {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: (XmlNode | string)[];
}

export const officeXmlLimits = { characters: 32 * 1024 * 1024, elements: 2_000_000, depth: 200 } as const;

const relationshipNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

function officeXmlError(fileName: string, part: string, rule: string, code: "invalid_arguments" | "limit_exceeded" = "invalid_arguments"): CourseAuthoringError {
  return new CourseAuthoringError(code, `${fileName}: the part ${part} ${rule}; nothing was imported.`, { field: "assetId", file: fileName, part });
}

/** Parses one part of an Office package into a small element tree. */
export function readOfficeXml(bytes: Uint8Array, part: string, fileName: string): XmlNode {
  const text = new TextDecoder().decode(bytes);
  if (text.length > officeXmlLimits.characters) throw officeXmlError(fileName, part, `is more than ${officeXmlLimits.characters} characters`, "limit_exceeded");
  const root: XmlNode = { name: "#document", attributes: {}, children: [] };
  const stack: XmlNode[] = [root];
  let elements = 0;
  const parser = new SaxesParser({ xmlns: true, position: true });
  parser.on("error", (error) => {
    throw officeXmlError(fileName, part, `is not well-formed XML (line ${parser.line}: ${error.message.replace(/^[^:]*:\d+:\d+: /, "")})`);
  });
  parser.on("doctype", () => {
    throw officeXmlError(fileName, part, "declares a DOCTYPE; DTDs and entity declarations are refused in Office XML");
  });
  parser.on("opentag", (tag) => {
    const named = tag as SaxesTagNS;
    elements += 1;
    if (elements > officeXmlLimits.elements) throw officeXmlError(fileName, part, `has more than ${officeXmlLimits.elements} elements`, "limit_exceeded");
    if (stack.length > officeXmlLimits.depth) throw officeXmlError(fileName, part, `nests elements deeper than ${officeXmlLimits.depth}`, "limit_exceeded");
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(named.attributes)) {
      attributes[attribute.uri === relationshipNamespace ? `r:${attribute.local}` : attribute.local] = attribute.value;
    }
    const node: XmlNode = { name: named.local, attributes, children: [] };
    (stack[stack.length - 1] as XmlNode).children.push(node);
    stack.push(node);
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  parser.on("text", (chunk) => {
    if (stack.length > 1) (stack[stack.length - 1] as XmlNode).children.push(chunk);
  });
  parser.on("cdata", (chunk) => {
    if (stack.length > 1) (stack[stack.length - 1] as XmlNode).children.push(chunk);
  });
  parser.write(text).close();
  const document = root.children.find((child): child is XmlNode => typeof child !== "string");
  if (!document) throw officeXmlError(fileName, part, "has no root element");
  return document;
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
