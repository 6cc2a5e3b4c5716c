/**
 * What the renderer adds around author text: instructions a prompt already gives are not printed
 * twice, and a preview names the variant and version it shows.
 */
import { describe, expect, test } from "bun:test";
import type { Block } from "../src/authoring/schemas/blocks.ts";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";
import { ClassName } from "../src/page-contract/markup-names.ts";

function courseWithQuestion(prompt: string): RenderableCourse {
  const question = { id: "blk_q", type: "multiple_choice", prompt, points: 1, objectiveIds: [], choices: [{ text: "GET", correct: true }, { text: "HEAD", correct: true }, { text: "POST", correct: false }] } as Block;
  return {
    id: "crs_hint",
    title: "Hints",
    objectives: [],
    modules: [{ id: "mod_a", title: "A", lessons: [{ id: "les_q", title: "Quiz", kind: "quiz", blocks: [question] }] }],
  };
}

const hints = (markup: string): number => markup.split("Select all that apply.").length - 1;

describe("the multiple-choice hint", () => {
  test.each([
    "Which methods are safe? Select all that apply.",
    "Which methods are safe? (select all that apply)",
    "Choose all the safe methods.",
    "Which of these apply to GET? Tick every one that does... Check all that apply",
    "Which methods are safe? There is more than one answer.",
  ])("is left out when the prompt already says it: %p", (prompt) => {
    const markup = renderCourseHtml(courseWithQuestion(prompt), { mode: "package", assetUrl: () => "" });
    expect(markup).not.toContain(`class="${ClassName.questionHint}"`);
  });

  test("is shown once when the prompt does not say it", () => {
    const markup = renderCourseHtml(courseWithQuestion("Which methods are *safe*?"), { mode: "package", assetUrl: () => "" });
    expect(hints(markup)).toBe(1);
  });
});

describe("the preview badge", () => {
  const course = courseWithQuestion("Which?");
  test.each([
    ["draft", 8, "Preview: draft, version 8"],
    ["published", 7, "Preview: published, version 7"],
  ] as const)("a %s preview says so with its version", (variant, version, label) => {
    const markup = renderCourseHtml(course, { mode: "preview", previewOf: { variant, version }, assetUrl: () => "" });
    expect(markup).toContain(`data-preview-of="${variant}">${label}</p>`);
  });

  test("packages carry no preview badge", () => {
    expect(renderCourseHtml(course, { mode: "package", assetUrl: () => "" })).not.toContain(`class="${ClassName.previewBadge}"`);
  });
});
