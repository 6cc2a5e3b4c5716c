/**
 * The two QTI dialects the bank is written in. Items and tests are built once in QTI 2.1's element and
 * attribute names; QTI 3.0 renames them (`assessmentItem` → `qti-assessment-item`, `baseType` →
 * `base-type`) and keeps HTML content (`p`, `div`, `img`) as it is. Modal feedback holds its content in a
 * `qti-content-body` in 3.0 and directly in 2.1. Serialisation keeps mixed content (a sentence with its
 * text entries) on one line, so no whitespace is added to the author's text; escaping is `xml.ts`'s.
 */
import { xmlAttribute, xmlId, xmlText, type XmlElement, type XmlNode } from "../../codecs/xml-write.ts";

export type QtiVersion = "qti21" | "qti3";

export interface QtiDialect {
  readonly version: QtiVersion;
  readonly namespace: string;
  readonly schemaLocation: string;
  readonly manifestNamespace: string;
  readonly manifestSchemaLocation: string;
  readonly itemResourceType: string;
  readonly testResourceType: string;
  readonly schemaVersion: string;
  /** The name of an element of the 2.1 vocabulary in this dialect. */
  element(name: string): string;
  attribute(name: string): string;
}

const htmlElements = new Set(["p", "div", "img", "span", "br", "object"]);
const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

export const qtiDialects: Record<QtiVersion, QtiDialect> = {
  qti21: {
    version: "qti21",
    namespace: "http://www.imsglobal.org/xsd/imsqti_v2p1",
    schemaLocation: "http://www.imsglobal.org/xsd/imsqti_v2p1 http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd",
    manifestNamespace: "http://www.imsglobal.org/xsd/imscp_v1p1",
    manifestSchemaLocation: "http://www.imsglobal.org/xsd/imscp_v1p1 http://www.imsglobal.org/xsd/qti/qtiv2p1/qtiv2p1_imscpv1p2_v1p0.xsd",
    itemResourceType: "imsqti_item_xmlv2p1",
    testResourceType: "imsqti_test_xmlv2p1",
    schemaVersion: "2.1",
    element: (name) => name,
    attribute: (name) => name,
  },
  qti3: {
    version: "qti3",
    namespace: "http://www.imsglobal.org/xsd/imsqtiasi_v3p0",
    schemaLocation: "http://www.imsglobal.org/xsd/imsqtiasi_v3p0 https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd",
    manifestNamespace: "http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1",
    manifestSchemaLocation: "http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1 https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd",
    itemResourceType: "imsqti_item_xmlv3p0",
    testResourceType: "imsqti_test_xmlv3p0",
    schemaVersion: "3.0.0",
    element: (name) => (htmlElements.has(name) ? name : `qti-${kebab(name)}`),
    attribute: (name) => (name.includes(":") ? name : kebab(name)),
  },
};

/** The 2.1 name of a 3.0 element or attribute (the reader's side of the renaming). */
export function qti21Name(name: string): string {
  return name.replace(/^qti-/, "").replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

export function itemIdentifier(blockId: string): string {
  return xmlId("Q", blockId);
}

/** `depth` null: inline, without indentation or line breaks (inside mixed content). */
function serialise(node: XmlNode, dialect: QtiDialect, depth: number | null, out: string[]): void {
  if (typeof node === "string") {
    out.push(xmlText(node));
    return;
  }
  // 2.1's modal feedback holds its paragraphs directly.
  if (node.name === "contentBody" && dialect.version === "qti21") {
    for (const child of node.children) serialise(child, dialect, depth, out);
    return;
  }
  const name = dialect.element(node.name);
  const indent = depth === null ? "" : "  ".repeat(depth);
  const newline = depth === null ? "" : "\n";
  const attributes = Object.entries(node.attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key.startsWith("xmlns") || key.startsWith("xsi:") ? key : dialect.attribute(key)}="${xmlAttribute(String(value))}"`)
    .join("");
  if (node.children.length === 0) {
    out.push(`${indent}<${name}${attributes}/>${newline}`);
    return;
  }
  // Mixed content stays on one line: the text is exactly the author's.
  const inline = depth === null || node.children.some((child) => typeof child === "string");
  out.push(`${indent}<${name}${attributes}>${inline ? "" : "\n"}`);
  for (const child of node.children) serialise(child, dialect, inline ? null : (depth as number) + 1, out);
  out.push(`${inline ? "" : indent}</${name}>${newline}`);
}

export function qtiDocument(root: XmlElement, dialect: QtiDialect): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  serialise(root, dialect, 0, out);
  return out.join("");
}
