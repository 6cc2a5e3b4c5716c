/**
 * A tiny XML builder for manifests: elements are plain data (`el(name, attributes, ...children)`),
 * text and attribute values are always escaped, and characters XML 1.0 forbids are dropped, so author
 * text can never break a manifest. Serialisation indents for people reading the package.
 */

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string | number | undefined>>;
  readonly children: readonly XmlNode[];
}

export type XmlNode = XmlElement | string;
export type XmlChild = XmlNode | null | undefined | false | readonly XmlChild[];

/** Characters outside the XML 1.0 `Char` production (control characters, lone surrogates, U+FFFE/F). */
const invalidXmlCharacters = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(text: string): string {
  return text.replace(invalidXmlCharacters, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function xmlAttribute(value: string): string {
  return xmlText(value).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
}

function flatten(children: readonly XmlChild[]): XmlNode[] {
  const nodes: XmlNode[] = [];
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) nodes.push(...flatten(child));
    else nodes.push(child as XmlNode);
  }
  return nodes;
}

export function el(name: string, attributes: Readonly<Record<string, string | number | undefined>> = {}, ...children: readonly XmlChild[]): XmlElement {
  return { name, attributes, children: flatten(children) };
}

function serialise(node: XmlNode, depth: number, out: string[]): void {
  if (typeof node === "string") {
    out.push(xmlText(node));
    return;
  }
  const indent = "  ".repeat(depth);
  const attributes = Object.entries(node.attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${xmlAttribute(String(value))}"`)
    .join("");
  if (node.children.length === 0) {
    out.push(`${indent}<${node.name}${attributes}/>\n`);
    return;
  }
  if (node.children.every((child) => typeof child === "string")) {
    out.push(`${indent}<${node.name}${attributes}>`);
    for (const child of node.children) serialise(child, 0, out);
    out.push(`</${node.name}>\n`);
    return;
  }
  out.push(`${indent}<${node.name}${attributes}>\n`);
  for (const child of node.children) {
    if (typeof child === "string") out.push(`${indent}  ${xmlText(child)}\n`);
    else serialise(child, depth + 1, out);
  }
  out.push(`${indent}</${node.name}>\n`);
}

/** A whole document with its XML declaration. */
export function xmlDocument(root: XmlElement): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  serialise(root, 0, out);
  return out.join("");
}

/** Turns an opaque ID into an `xs:ID` / `xs:NCName` (letters, digits, `_`, `-`, `.`; starting with a letter). */
export function xmlId(prefix: string, id: string): string {
  return `${prefix}_${id.replace(/[^A-Za-z0-9_.-]/g, "_")}`;
}
