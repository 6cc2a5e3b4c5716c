/**
 * Every regular expression replaced for issue 39 (super-linear backtracking on user input) next to what
 * replaced it: a scanner or an unambiguous expression. For each, the old expression is kept here as the
 * reference: both give the same result on ordinary input and on a few thousand small random strings made
 * of the characters that matter, and the replacement gives the right result on the pathological input
 * that made the old one quadratic, cubic or exponential (sizes at which the old one ran for minutes).
 * Results only: how fast is what test/hardening-bank-imports.test.ts shows through the server.
 */
import { describe, expect, test } from "bun:test";
import { svgStart } from "../src/codecs/media-types.ts";
import { safeFileStem } from "../src/formats/asset-names.ts";
import { segmentMarkdown } from "../src/formats/xliff/inline-codes.ts";
import { markdownLines } from "../src/formats/review-copy/block-lines.ts";
import { linksAsWords, picturesAsWords, withoutSingleEmphasis } from "../src/formats/review-copy/markdown-scan.ts";
import { withoutLinkTargets } from "../src/export/runtime/question-facts.ts";
import { categoryLine } from "../src/formats/gift/gift-read.ts";
import { clozeParts } from "../src/formats/moodle-xml/moodle-read.ts";
import { firstImageTag, stripImageTags, stripTags, trailingWhitespace } from "../src/formats/question-bank/text-scan.ts";
import { idSuffix } from "../src/formats/markdown/markdown-outline.ts";
import { filterValue } from "../src/codecs/pdf-scan.ts";
import { urlScheme } from "../src/render/urls.ts";

/** A small deterministic generator (mulberry32), so a failure names a reproducible input. */
function randomStrings(seed: number, pieces: readonly string[], count: number, maxPieces: number): string[] {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * maxPieces) }, () => pieces[Math.floor(next() * pieces.length)]).join(""));
}

/** Asserts `actual(input)` equals `expected(input)` for every input, naming the first that differs. */
function sameOn<T>(inputs: readonly string[], actual: (input: string) => T, expected: (input: string) => T): void {
  for (const input of inputs) {
    const [got, want] = [actual(input), expected(input)];
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`differs on ${JSON.stringify(input)}: ${JSON.stringify(got)} instead of ${JSON.stringify(want)}`);
  }
}

describe("GIFT and Moodle XML text scanners", () => {
  test("stripTags is /<[^>]*>/g removed, and leaves 1 M unclosed '<' as they are", () => {
    const old = (text: string) => text.replace(/<[^>]*>/g, "");
    expect(stripTags("<p>Pick <b>one</b></p> a<b")).toBe("Pick one a<b");
    sameOn(randomStrings(1, ["<", ">", "a", " ", "<b>", "</p>"], 3000, 12), stripTags, old);
    expect(stripTags("<".repeat(1_000_000))).toBe("<".repeat(1_000_000));
    expect(stripTags(`${"<".repeat(500_000)}>x`)).toBe("x");
  });

  test("stripImageTags is /<img[^>]*>/gi removed, and leaves 200,000 unclosed <img as they are", () => {
    const old = (text: string) => text.replace(/<img[^>]*>/gi, "");
    expect(stripImageTags('<p>See <IMG src="a.png" alt="A"> here</p>')).toBe("<p>See  here</p>");
    sameOn(randomStrings(2, ["<img", "<IMG", "<iMg ", ">", "a", " ", "<", "img"], 3000, 10), stripImageTags, old);
    expect(stripImageTags("<img".repeat(200_000))).toBe("<img".repeat(200_000));
  });

  test("firstImageTag finds what /<img\\b[^>]*\\bsrc=\"([^\"]*)\"[^>]*>/i found, and nothing in the red team's cubic shape", () => {
    const old = (html: string) => {
      const match = /<img\b[^>]*\bsrc="([^"]*)"[^>]*>/i.exec(html);
      return match ? { tag: match[0], src: match[1] } : null;
    };
    expect(firstImageTag('<p>x</p><img alt="A" src="@@PLUGINFILE@@/a%20b.png" width="2"> and <img src="b.png">')).toEqual({ tag: '<img alt="A" src="@@PLUGINFILE@@/a%20b.png" width="2">', src: "@@PLUGINFILE@@/a%20b.png" });
    sameOn(randomStrings(3, ["<img", "<IMG", "<imgs", " ", 'src="', 'SRC="', 'data-src="', '"', ">", "a", 'alt="x"', "<"], 5000, 10), firstImageTag, old);
    const count = 100_000;
    expect(firstImageTag(`0${'<img"G'.repeat(count)}<${'src=""'.repeat(count)}`)).toBeNull();
    expect(firstImageTag(`${"<img ".repeat(count)}src="x.png">`)).toEqual({ tag: `${"<img ".repeat(count)}src="x.png">`, src: "x.png" });
  });

  test("trailingWhitespace is /\\s*$/'s match, and reads 1 M spaces inside a line as none at its end", () => {
    const old = (text: string) => /\s*$/.exec(text)?.[0] ?? "";
    sameOn(randomStrings(4, [" ", "\t", "\n", "a", "\u00a0", "\u2003", "."], 3000, 10), trailingWhitespace, old);
    expect(trailingWhitespace(`a${" ".repeat(1_000_000)}b`)).toBe("");
    expect(trailingWhitespace(`a${" ".repeat(1_000_000)}`)).toBe(" ".repeat(1_000_000));
  });

  test("categoryLine reads what /^\\s*\\$CATEGORY:[ \\t]*(.*)(?:\\n|$)/ matched, and refuses 1 M tabs before a \\r", () => {
    const old = (text: string) => {
      const match = /^\s*\$CATEGORY:[ \t]*(.*)(?:\n|$)/.exec(text);
      return match ? { path: match[1], length: match[0].length } : null;
    };
    expect(categoryLine("$CATEGORY: $course$/Unit 1\n::Q:: ?{T}")).toEqual({ path: "$course$/Unit 1", length: 27 });
    sameOn(randomStrings(5, ["$CATEGORY:", " ", "\t", "\n", "\r", "a", "/", "\u2028", "$"], 3000, 8), categoryLine, old);
    expect(categoryLine(`$CATEGORY:${"\t".repeat(1_000_000)}\r$CATEGORY:`)).toBeNull();
  });

  test("clozeParts finds what the cloze expression found, and reads 100,000 unclosed {:A:\\ blanks in one pass", () => {
    const old = (text: string) =>
      [...text.matchAll(/\{(\d*):(SHORTANSWER(?:_C)?|SA|MW|SAC|MWC|[A-Z_]+):((?:\\.|[^\\}])*)\}/g)].map((match) => ({ start: match.index, end: match.index + match[0].length, kind: match[2], body: match[3] }));
    expect(clozeParts("Paris is the {1:SHORTANSWER:=capital#Yes~*#No} of {:SA:France\\}}.")).toEqual([
      { start: 13, end: 46, kind: "SHORTANSWER", body: "=capital#Yes~*#No" },
      { start: 50, end: 64, kind: "SA", body: "France\\}" },
    ]);
    sameOn(randomStrings(6, ["{", "}", "1", ":", "SA", "SAC", "A_", "\\", "\n", "\r", "=", "a", "~", "#"], 5000, 12), clozeParts, old);
    expect(clozeParts(`${"{:A:\\".repeat(100_000)}S\\\n{:E:}`)).toEqual([{ start: 500_003, end: 500_008, kind: "E", body: "" }]);
  });
});

describe("other expressions applied to user input", () => {
  test("question facts: link and picture targets go as the old expressions took them, and 100,000 unclosed ![]( are left alone", () => {
    const old = (text: string) => text.replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const scanned = (text: string) => withoutLinkTargets(withoutLinkTargets(text, "!["), "[");
    expect(scanned("See ![a map](map.png) and [the guide](https://example.org/a_(b)).")).toBe("See a map and the guide).");
    sameOn(randomStrings(7, ["[", "]", "(", ")", "!", "a", " ", "]("], 5000, 12), scanned, old);
    expect(scanned("![](".repeat(100_000))).toBe("![](".repeat(100_000));
    expect(scanned("[".repeat(500_000))).toBe("[".repeat(500_000));
  });

  test("PDF /Filter value as the old expression read it, and none in 100,000 unclosed /Filter[", () => {
    const old = (text: string) => /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]]+)/.exec(text)?.[1] ?? "";
    expect(filterValue("<< /Type /ObjStm /N 3 /Filter /FlateDecode /Length 40 >>")).toBe("/FlateDecode");
    expect(filterValue("<< /Filter [ /ASCIIHexDecode /FlateDecode ] >>")).toBe("[ /ASCIIHexDecode /FlateDecode ]");
    sameOn(randomStrings(8, ["/Filter", "[", "]", "/", " ", "\n", "Flate", "<", ">"], 5000, 10), filterValue, old);
    expect(filterValue("/Filter[".repeat(100_000))).toBe("");
  });

  test("asset file stems lose their leading and trailing - and _ as before, a dash run of 1 M included", () => {
    const old = (name: string) => name.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[_-]+|[_-]+$/g, "").slice(0, 60) || "file";
    expect(safeFileStem("__My photo (1)--.png")).toBe("My_photo_1");
    sameOn(randomStrings(9, ["-", "_", "a", " ", ".", "é"], 3000, 10), safeFileStem, old);
    expect(safeFileStem(`${"-".repeat(1_000_000)}a${"-".repeat(1_000_000)}b`)).toBe(`a${"-".repeat(59)}`);
  });

  test("URL schemes are read past the same control characters, with 100,000 of them inside", () => {
    const old = (url: string) => /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url.replace(/[\t\n\r]/g, "").replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, ""))?.[1]?.toLowerCase() ?? null;
    sameOn(randomStrings(11, ["\u0000", " ", "\u0001", "java", "script:", "a", ":", "\n"], 3000, 8), urlScheme, old);
    expect(urlScheme(` JavaScript:${"\u0001".repeat(100_000)}x`)).toBe("javascript");
  });

  test("outline IDs after a title are found as before, and not inside 1 M spaces", () => {
    const old = /\s*\(`[a-z]{3}_[0-9a-z]+`\)\s*$/;
    const found = (title: string) => idSuffix.exec(title)?.[0] ?? null;
    expect(found("Basics  (`mod_01abc`) ")).toBe("  (`mod_01abc`) ");
    sameOn(randomStrings(12, [" ", "(`mod_1`)", "(`", "`)", "a", "\t"], 3000, 8), found, (title) => old.exec(title)?.[0] ?? null);
    expect(found(`Basics${" ".repeat(1_000_000)}x`)).toBeNull();
  });

  test("SVG is recognised after comments as before, and a run of comments that was exponential is read as no SVG", () => {
    const old = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i;
    expect(svgStart.test('<?xml version="1.0"?>\n<!-- made by hand -->\n<!DOCTYPE svg PUBLIC "x">\n<svg xmlns="http://www.w3.org/2000/svg">')).toBe(true);
    // Only where a comment would have to run past its first --> do the two differ: a browser ends it there.
    const inputs = randomStrings(13, ["<!--", "-->", "-", " ", "<svg ", "a", "<"], 3000, 8).filter((input) => !/-->[\s\S]*-->/.test(input));
    sameOn(inputs, (text) => svgStart.test(text), (text) => old.test(text));
    expect(svgStart.test(`<!---->${"\t<!---->\t<!---->".repeat(27)} `)).toBe(false);
    expect(svgStart.test(`${"<!---->".repeat(70)}<svg>`)).toBe(true);
  });

  test("translation segments keep a hard break's trailing spaces, and a line with 100,000 spaces inside loses none", () => {
    expect(segmentMarkdown("One  \nTwo")).toEqual([
      { kind: "text", text: "One" },
      { kind: "ph", id: "1", code: "  \n" },
      { kind: "text", text: "Two" },
    ]);
    const spaces = " ".repeat(100_000);
    expect(segmentMarkdown(`a${spaces}b\nc`)[0]).toEqual({ kind: "text", text: `a${spaces}b` });
  });

  test("translation autolinks and tags are placeholders as before, and 50,000 of <http:// with no > after are text", () => {
    // The old expression read an address again from every `<` of the run, to the first space or `>`.
    expect(segmentMarkdown('See <https://example.org/a> and <b class="x">bold</b>, <mailto:a@b.c> <http://no space>')).toEqual([
      { kind: "text", text: "See " },
      { kind: "ph", id: "1", code: "<https://example.org/a>" },
      { kind: "text", text: " and " },
      { kind: "ph", id: "2", code: '<b class="x">' },
      { kind: "text", text: "bold" },
      { kind: "ph", id: "3", code: "</b>" },
      { kind: "text", text: ", " },
      { kind: "ph", id: "4", code: "<mailto:a@b.c>" },
      { kind: "text", text: " <http://no space>" },
    ]);
    const links = `${"<http://".repeat(50_000)} x>`;
    expect(segmentMarkdown(links)).toEqual([{ kind: "text", text: links }]);
  });

  test("translation code spans close at the first run as long as what is left of the opening one, and 100,000 unclosed backticks are text", () => {
    // The old reader matched /^`+/ again at every backtick of a run, then searched the rest of the text.
    expect(segmentMarkdown("Use `code` and ```a`` b``")).toEqual([
      { kind: "text", text: "Use " },
      { kind: "ph", id: "1", code: "`code`" },
      { kind: "text", text: " and `" },
      { kind: "ph", id: "2", code: "``a``" },
      { kind: "text", text: " b``" },
    ]);
    const ticks = "`".repeat(100_000);
    expect(segmentMarkdown(`${ticks}${"a".repeat(100_000)}`)).toEqual([{ kind: "text", text: `${ticks}${"a".repeat(100_000)}` }]);
    expect(segmentMarkdown(`${ticks}a\`b`)).toEqual([
      { kind: "text", text: `${"`".repeat(99_999)}` },
      { kind: "ph", id: "1", code: "`a`" },
      { kind: "text", text: "b" },
    ]);
  });
});

describe("review copy Markdown (src/export/formats/review-copy, a block of up to 100 KB)", () => {
  const pieces = ["!", "[", "]", "(", ")", "<", ">", "a", " ", "*", "_", "\t", "\r", "0", "]("];

  test("pictures become [picture: alt] as before, and 100,000 unclosed ![]( stay", () => {
    const old = (text: string) => text.replace(/!\[([^\]]*)\]\(([^)]*)\)/g, "[picture: $1]");
    expect(picturesAsWords("See ![the map](map.png).")).toBe("See [picture: the map].");
    sameOn(randomStrings(21, pieces, 5000, 12), picturesAsWords, old);
    expect(picturesAsWords("![](".repeat(100_000))).toBe("![](".repeat(100_000));
  });

  test("links become 'label (target)' as before, and 100,000 of [(]((( stay", () => {
    const old = (text: string) => text.replace(/\[([^\]]+)\]\(<?([^)>]*)>?\)/g, "$1 ($2)");
    expect(linksAsWords("Read [the guide](<https://example.org/a b>) and [this](x.html).")).toBe("Read the guide (https://example.org/a b) and this (x.html).");
    sameOn(randomStrings(22, pieces, 8000, 12), linksAsWords, old);
    expect(linksAsWords(`${"[(]((".repeat(100_000)}>`)).toBe(`${"[(]((".repeat(100_000)}>`);
  });

  test("single * and _ emphasis is dropped as before, and 100,000 of *0 with no closing mark stay", () => {
    const old = (text: string) => text.replace(/(^|\W)[*_](\S.*?)[*_](?=\W|$)/g, "$1$2");
    expect(withoutSingleEmphasis("An *important* and _quiet_ word, snake_case kept")).toBe("An important and quiet word, snake_case kept");
    sameOn(randomStrings(23, ["*", "_", " ", "\t", "a", "0", "\r", ".", "\u2028"], 8000, 10), withoutSingleEmphasis, old);
    const hostile = `*${"\t*0".repeat(100_000)}`;
    expect(withoutSingleEmphasis(hostile)).toBe(hostile);
  });

  test("list items are read as before, and a 100,000-space item with a carriage return is no item", () => {
    const old = /^\s*(?:[-+*]|\d+[.)])\s+(.*)$/;
    const replaced = /^\s*(?:[-+*]|\d+[.)])\s+(?!\s)(.*)$/;
    expect(markdownLines("- one\n2. two")).toEqual([
      { style: "ListBullet", runs: [{ text: "one" }] },
      { style: "ListBullet", marker: "2. ", runs: [{ text: "two" }] },
    ]);
    sameOn(randomStrings(24, ["-", "*", "1", ".", ")", " ", "\t", "\r", "a"], 5000, 8), (line) => replaced.exec(line)?.[1] ?? null, (line) => old.exec(line)?.[1] ?? null);
    expect(markdownLines(`*\t${"\t".repeat(100_000)}*\r`)).toEqual([{ runs: [{ text: `*\t${"\t".repeat(100_000)}*` }] }]);
  });
});
