/**
 * Contextual escaping for the renderer. Every interpolation in an `html` template is HTML-escaped unless
 * it is already `SafeHtml`, so author text can only become markup by passing through the escaper or the
 * Markdown sanitiser. All templates quote attribute values with double quotes, which the escaper covers.
 */
import { utf8Bytes, utf8Text } from "../bytes.ts";

const brand: unique symbol = Symbol("SafeHtml");

/** Markup known to be safe: built by `html` templates, the Markdown sanitiser or `trustedHtml`. */
export interface SafeHtml {
  readonly [brand]: true;
  readonly markup: string;
}

export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character] ?? character);
}

/** Wraps markup produced by our own code (the Markdown sanitiser, the inline script). Never author text. */
export function trustedHtml(markup: string): SafeHtml {
  return { [brand]: true, markup };
}

function isSafeHtml(value: HtmlValue): value is SafeHtml {
  return typeof value === "object" && value !== null && brand in value;
}

function renderValue(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (isSafeHtml(value)) return value.markup;
  if (Array.isArray(value)) return value.map(renderValue).join("");
  return escapeHtml(String(value));
}

/** Tagged template: literal parts are markup, interpolations are escaped (arrays are concatenated). */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? "";
  values.forEach((value, index) => {
    markup += renderValue(value) + (strings[index + 1] ?? "");
  });
  return trustedHtml(markup);
}

/**
 * Turns an opaque ID into a value usable as an HTML `id` and URL fragment. IDs come from the domain and
 * are already safe, but the renderer takes structural input, so anything unexpected is dropped here.
 */
export function htmlId(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 80)}`;
}

/**
 * Makes a value safe to embed in an inline `<script>`: JSON, with `<` and every character past
 * Latin-1 (the JavaScript line separators among them) escaped, so it can never close the script
 * element or break the literal, and a page in a Latin-1 language stays one byte per character.
 */
export function scriptLiteral(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/[\u0100-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The same text as one flat string. Markdown-it and our templates build markup with `+=`, which the
 * engine keeps as a rope of thousands of small fragments; held (a preview keeps every block's markup
 * until the page is joined) a rope costs several times its text (bench/NOTES.md). The UTF-8 round trip
 * also stores Latin-1 text in one byte per character.
 */
export function flatString(text: string): string {
  return utf8Text(utf8Bytes(text));
}
