/**
 * The service's one XML writer: every XML document it writes (package manifests, XLIFF, question
 * banks) escapes through `xmlText` / `xmlAttribute`, which drop what XML 1.0 forbids (control
 * characters but tab, LF, CR; U+FFFE, U+FFFF; lone surrogates) and escape the rest, so author text can
 * never make a document ill-formed. `el` and `xmlDocument` build small documents as plain data
 * (serialised indented for people reading the package); a writer that streams (XLIFF) builds its
 * markup itself and passes every text and attribute value through the two escapers.
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

/** `text` without the characters XML 1.0 forbids (what a reader of our documents gets back). */
export function xmlChars(text: string): string {
  return text.replace(invalidXmlCharacters, "");
}

/** Element content: forbidden characters dropped, `&` `<` `>` escaped, CR kept as `&#13;` (a parser turns a raw CR into LF). */
export function xmlText(text: string): string {
  return xmlChars(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

/** An attribute value inside double quotes: as xmlText, plus `"` and the whitespace a parser would normalise to spaces. */
export function xmlAttribute(value: string): string {
  return xmlText(value).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;");
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
