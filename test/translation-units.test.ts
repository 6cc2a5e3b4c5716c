/**
 * The parts of translation units that are pure functions: every block type declares its text fields,
 * and Markdown splits into text and inline codes that join back to exactly the same Markdown, with a
 * target's codes checked against its source's.
 */
import { describe, expect, test } from "bun:test";
import { blockTypes } from "../src/authoring/schemas/blocks.ts";
import { blockTextFields, blockTexts } from "../src/authoring/schemas/text-fields.ts";
import { codeMismatch, joinSegments, rebuildMarkdown, segmentMarkdown, tokensOf, type TargetToken } from "../src/authoring/translation/inline-codes.ts";

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
