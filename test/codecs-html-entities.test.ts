/**
 * The one HTML character-reference decoder imported banks use (src/codecs/html-entities.ts): named and
 * numeric references in one pass (so `&amp;lt;` stays `&lt;`), unknown or malformed ones kept as written,
 * and linear on hostile text.
 */
import { expect, test } from "bun:test";
import { decodeHtmlEntities } from "../src/codecs/html-entities.ts";

test("named and numeric references decode, apostrophes in every spelling included", () => {
  expect(decodeHtmlEntities("a &lt;b&gt; &quot;c&quot; &amp; d&#39;s &#039; &#x27; &apos; x&nbsp;y")).toBe(`a <b> "c" & d's ' ' ' x y`);
  expect(decodeHtmlEntities("&#233;t&#xE9; &#x1F600;")).toBe("été 😀");
});

test("one pass: an escaped reference stays a reference, as the author wrote it", () => {
  expect(decodeHtmlEntities("&amp;lt;b&amp;gt;")).toBe("&lt;b&gt;");
});

test("unknown, malformed and out-of-range references are kept as written", () => {
  for (const text of ["&unknown;", "&;", "& lt;", "&#;", "&#x;", "&#0;", "&#xD800;", "&#1114112;", "fish & chips", "&ltno-semicolon", "&#12a;"]) {
    expect(decodeHtmlEntities(text)).toBe(text);
  }
});

test("a megabyte of ampersands and one far semicolon decodes to itself", () => {
  const hostile = `${"&".repeat(1_000_000)};`;
  expect(decodeHtmlEntities(hostile)).toBe(hostile);
  const spaced = `${"&a".repeat(500_000)};`;
  expect(decodeHtmlEntities(spaced)).toBe(spaced);
});
