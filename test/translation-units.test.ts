/**
 * The parts of translation units that are pure functions: every block type declares its text fields,
 * and Markdown splits into text and inline codes that join back to exactly the same Markdown, with a
 * target's codes checked against its source's.
 */
import { describe, expect, test } from "bun:test";
import { blockTypes } from "../src/authoring/schemas/blocks.ts";
import { blockTextFields, blockTexts } from "../src/authoring/schemas/text-fields.ts";
import * as v from "valibot";
import { blockSchema } from "../src/authoring/schemas/blocks.ts";
import { translatedBlock } from "../src/authoring/translation/mirror.ts";
import { codeMismatch, joinSegments, rebuildMarkdown, segmentMarkdown, tokensOf, type TargetToken } from "../src/formats/xliff/inline-codes.ts";

describe("every block type declares its text fields", () => {
  test("each type of the block union is listed, and nothing else", () => {
    expect(Object.keys(blockTextFields).sort()).toEqual([...blockTypes].sort());
  });

  test("a question's prompt, choices, feedback and explanation are found with concrete paths", () => {
    const texts = blockTexts("single_choice", {
      prompt: "Pick one",
      explanation: "Because.",
      choices: [{ text: "A", correct: true, feedback: "Yes" }, { text: "B" }],
    });
    expect(texts.map((text) => text.path)).toEqual(["prompt", "explanation", "choices/0/text", "choices/1/text", "choices/0/feedback"]);
  });
});

describe("sorting category titles are units", () => {
  const row = {
    id: "blk_sort",
    courseId: "crs_src",
    lessonId: "les_src",
    position: 0,
    type: "sorting",
    body: {
      prompt: "Sort the e-mails",
      categories: [{ title: "Phish" }, { title: "Not phish" }],
      items: [
        { text: "Your parcel is waiting, pay 1 €", category: "Phish" },
        { text: "Minutes of Monday's meeting", category: "Not phish" },
        { text: "Reset your password here", category: "Phish" },
      ],
    },
  };

  test("each category title is a unit; an item's category is not", () => {
    const paths = blockTexts("sorting", row.body).map((text) => text.path);
    expect(paths).toContain("categories/0/title");
    expect(paths).toContain("categories/1/title");
    expect(paths.some((path) => path.endsWith("/category"))).toBe(false);
  });

  test("items follow the translation of the category title they name, so the block stays valid", () => {
    const targets: Record<string, string> = { "blk_sort/categories/0/title": "Hameçonnage", "blk_sort/categories/1/title": "Légitime", "blk_sort/items/0/text": "Votre colis attend" };
    const translated = translatedBlock(row, "crs_fr", (id) => `${id}_fr`, new Map(), (unitId, text) => targets[unitId] ?? text);
    expect(translated.body.categories).toEqual([{ title: "Hameçonnage" }, { title: "Légitime" }]);
    expect((translated.body.items as { category: string }[]).map((item) => item.category)).toEqual(["Hameçonnage", "Légitime", "Hameçonnage"]);
    expect(v.safeParse(blockSchema, { type: "sorting", ...translated.body }).success).toBe(true);
    // The source block is untouched.
    expect(row.body.items[0]!.category).toBe("Phish");
  });

  test("an untranslated category keeps its title in the category and its items", () => {
    const translated = translatedBlock(row, "crs_fr", (id) => id, new Map(), (unitId, text) => (unitId === "blk_sort/categories/0/title" ? "Hameçonnage" : text));
    expect((translated.body.items as { category: string }[]).map((item) => item.category)).toEqual(["Hameçonnage", "Not phish", "Hameçonnage"]);
  });

  test("two categories translated to the same title are refused, naming the unit", () => {
    const same = (unitId: string, text: string) => (unitId.includes("/categories/") ? "Pareil" : text);
    expect(() => translatedBlock(row, "crs_fr", (id) => id, new Map(), same)).toThrow(/unit blk_sort\/categories\/1\/title/);
  });
});

const samples = [
  "Hello **bold**, *italic*, `code` and [a **link**](https://example.com/a_(b)).",
  "## Title\n\n- one\n- two  \nthree\\\nfour\n\n1. first\n2. second",
  "Fill in {{1}} and {{2}}.",
  "snake_case_names stay text, and 2 * 3 too.",
  "An ![image](pic.png), <https://example.com> and \\*escaped\\*.",
];

describe("Markdown inline syntax as inline codes", () => {
  for (const sample of samples) {
    test(`joins back unchanged: ${JSON.stringify(sample.slice(0, 40))}`, () => {
      const segments = segmentMarkdown(sample);
      expect(joinSegments(segments)).toBe(sample);
      expect(codeMismatch(segments, tokensOf(segments))).toBeNull();
      expect(rebuildMarkdown(segments, tokensOf(segments))).toBe(sample);
    });
  }

  test("a target may translate and reorder text but must keep each code once", () => {
    const source = segmentMarkdown("Read **this** [page](https://example.com).");
    const reordered: TargetToken[] = [
      { kind: "text", text: "Lisez la " },
      { kind: "open", id: "2" },
      { kind: "text", text: "page" },
      { kind: "close", id: "2" },
      { kind: "text", text: " " },
      { kind: "open", id: "1" },
      { kind: "text", text: "ceci" },
      { kind: "close", id: "1" },
      { kind: "text", text: "." },
    ];
    expect(codeMismatch(source, reordered)).toBeNull();
    expect(rebuildMarkdown(source, reordered)).toBe("Lisez la [page](https://example.com) **ceci**.");
    expect(codeMismatch(source, reordered.slice(0, 4))).toMatch(/inline code 2 .* unbalanced|inline code 1 .*missing/);
    expect(codeMismatch(source, [...reordered, { kind: "ph", id: "7" }])).toMatch(/inline code 7 is not in the source/);
  });
});

describe("reading targets the way CAT tools write them", () => {
  test("XLIFF 1.2 bpt/ept and x, and 2.0 sc/ec and mrk, read as the same codes", async () => {
    const { readXliff } = await import("../src/formats/xliff/xliff-read.ts");
    const source = segmentMarkdown("Read **this** first.{{1}}");
    const v12 = await readXliff(
      `<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file original="x" source-language="en" target-language="fr" datatype="plaintext"><body>` +
        `<trans-unit id="blk_a/text"><source>ignored</source><target>Lisez <bpt id="1">**</bpt>ceci<ept id="1">**</ept> <mrk mtype="x-term">d’abord</mrk>.<x id="2"/></target></trans-unit></body></file></xliff>`,
    );
    const v20 = await readXliff(
      `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr"><file id="f"><unit id="blk_a:text"><segment><source>ignored</source>` +
        `<target>Lisez <sc id="1"/>ceci<ec startRef="1"/> <mrk id="m1" translate="yes">d’abord</mrk>.<ph id="2"/></target></segment></unit></file></xliff>`,
    );
    for (const file of [v12, v20]) {
      const tokens = file.targets.get("blk_a/text")!;
      expect(codeMismatch(source, tokens)).toBeNull();
      expect(rebuildMarkdown(source, tokens)).toBe("Lisez **ceci** d’abord.{{1}}");
    }
    expect(v20).toMatchObject({ format: "xliff20", srcLang: "en", trgLang: "fr" });
    expect(v12).toMatchObject({ format: "xliff12", srcLang: "en", trgLang: "fr" });
  });
});
