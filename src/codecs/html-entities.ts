/**
 * The one decoder of HTML character references in imported text (GIFT's `[html]` questions, Moodle XML's
 * HTML fields): named references a bank writer uses and every numeric one, decimal or hexadecimal, in a
 * single left-to-right pass, so `&amp;lt;` stays `&lt;` as written and no input costs more than its length.
 * An unknown or malformed reference is kept as written.
 */

const named: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The longest reference decoded: `&#x10FFFF;` and the longest name fit. */
const longestReference = 10;

function codePointOf(body: string): string | undefined {
  const hex = body[1] === "x" || body[1] === "X";
  const digits = body.slice(hex ? 2 : 1);
  if (digits === "" || !(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
  const value = Number.parseInt(digits, hex ? 16 : 10);
  if (value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return undefined;
  return String.fromCodePoint(value);
}

export function decodeHtmlEntities(text: string): string {
  let out = "";
  let from = 0;
  let at = text.indexOf("&");
  // The next ";" is found again only once passed, so a text of many "&" and one far ";" stays linear.
  let end = -1;
  while (at !== -1) {
    if (end <= at) end = text.indexOf(";", at + 1);
    if (end === -1) break;
    if (end - at > longestReference) {
      at = text.indexOf("&", at + 1);
      continue;
    }
    const body = text.slice(at + 1, end);
    const decoded = body.startsWith("#") ? codePointOf(body) : named[body];
    if (decoded !== undefined) {
      out += text.slice(from, at) + decoded;
      from = end + 1;
    }
    at = text.indexOf("&", decoded !== undefined ? end + 1 : at + 1);
  }
  return out + text.slice(from);
}
