/**
 * The one place question-bank imports read XML: strict XML through saxes with no DTD (a DOCTYPE is
 * refused, so neither external entities nor entity expansion can happen), bounded in characters, depth
 * and elements, into a small tree. Names lose their prefix (QTI and manifests are read by local name).
 * When the project's shared bounded XML reader lands, this function is the only one to switch.
 */
import { SaxesParser, type SaxesTagNS } from "saxes";
import { CourseAuthoringError } from "../../course-authoring-error.ts";

export interface XmlTree {
  readonly name: string;
  readonly namespace: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlTree[];
  /** Text and elements in document order. */
  readonly content: (XmlTree | string)[];
}

export interface XmlLimits {
  readonly maxCharacters: number;
  readonly maxDepth: number;
  readonly maxElements: number;
}

export const bankXmlLimits: XmlLimits = { maxCharacters: 16 * 1024 * 1024, maxDepth: 64, maxElements: 400_000 };

/** Characters parsed between two turns of the event loop, so a large file never holds up other requests. */
const sliceCharacters = 64 * 1024;

/** Lets other requests run between two slices of work. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Reads `text` as XML; `what` names the file in errors ("imsmanifest.xml", "the Moodle XML file"). */
export async function readXmlTree(text: string, what: string, limits: XmlLimits = bankXmlLimits): Promise<XmlTree> {
  const refuse = (message: string, code: "invalid_arguments" | "limit_exceeded" = "invalid_arguments"): never => {
    throw new CourseAuthoringError(code, `content: ${what} ${message}; nothing was imported.`, { field: "content", file: what });
  };
  if (text.length > limits.maxCharacters) refuse(`has ${text.length} characters, more than the ${limits.maxCharacters} one import reads`, "limit_exceeded");
  const parser = new SaxesParser({ xmlns: true, position: true });
  const root: XmlTree = { name: "#document", namespace: "", attributes: {}, children: [], content: [] };
  const stack: XmlTree[] = [root];
  let elements = 0;
  parser.on("error", (error) => refuse(`is not well-formed XML (line ${parser.line}, column ${parser.column + 1}: ${error.message.replace(/^[^:]*:\d+:\d+: /, "")})`));
  parser.on("doctype", () => refuse(`has a DOCTYPE (line ${parser.line}): DTDs and entity declarations are refused`));
  parser.on("opentag", (raw) => {
    const tag = raw as SaxesTagNS;
    elements += 1;
    if (elements > limits.maxElements) refuse(`has more than ${limits.maxElements} elements`, "limit_exceeded");
    if (stack.length > limits.maxDepth) refuse(`nests elements deeper than ${limits.maxDepth} levels (line ${parser.line})`, "limit_exceeded");
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.prefix === "xmlns" || attribute.name === "xmlns") continue;
      attributes[attribute.prefix === "xml" ? `xml:${attribute.local}` : attribute.local] = attribute.value;
    }
    const node: XmlTree = { name: tag.local, namespace: tag.uri, attributes, children: [], content: [] };
    const parent = stack.at(-1) as XmlTree;
    parent.children.push(node);
    parent.content.push(node);
    stack.push(node);
  });
  parser.on("closetag", () => void stack.pop());
  const addText = (value: string): void => void (stack.at(-1) as XmlTree).content.push(value);
  parser.on("text", addText);
  parser.on("cdata", addText);
  for (let at = 0; at < text.length; at += sliceCharacters) {
    parser.write(text.slice(at, at + sliceCharacters));
    if (at + sliceCharacters < text.length) await yieldToEventLoop();
  }
  parser.close();
  const [top] = root.children;
  if (!top) return refuse("has no root element");
  return top;
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
