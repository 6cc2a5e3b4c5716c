/**
 * Every word a learner sees or hears comes from the course's language (issue 30): a course with every
 * block type, a quiz, a final assessment and an LMS adapter, rendered in French, German and Spanish,
 * shows none of the English pack's strings (on the page, in its attributes, in the player's and the
 * adapter's configuration); the packs are complete, and a language without one names what falls back.
 */
import { describe, expect, test } from "bun:test";
import { blockTypes } from "../src/authoring/schemas/blocks.ts";
import { scormAdapter } from "../src/export/runtime/adapters.ts";
import { renderCourseHtml, type RenderableCourse, type RenderableLesson } from "../src/render/index.ts";
import { englishPacks, fallbackStrings } from "../src/render/ui-text.ts";
import { interfaceTranslations, type InterfaceLanguage } from "../src/render/ui-text-translations.ts";
import { learnerFacingStrings } from "./support/learner-text.ts";
import { textBlocks } from "./support/xss-corpus.ts";

type Block = RenderableLesson["blocks"] extends readonly (infer B)[] | undefined ? B : never;
const words = "Lorem ipsum";

function teachingBlocks(id: (suffix: string) => string): Block[] {
  const question = { prompt: words, points: 1, explanation: words, objectiveIds: [] };
  return [
    { id: id("divider"), type: "divider" },
    { id: id("graphic"), type: "labeled_graphic", image: { assetId: "ast_image" }, alt: words, markers: [{ x: 20, y: 10, title: words, markdown: words }, { x: 60, y: 45, title: `${words} 2`, markdown: words }] },
    { id: id("process"), type: "process", steps: [{ title: words, markdown: words }, { title: `${words} 2`, markdown: words }, { title: `${words} 3`, markdown: words }] },
    { id: id("timeline"), type: "timeline", events: [{ date: "1999", title: words, markdown: words }, { date: "2000", title: words, markdown: words }] },
    { id: id("attachment"), type: "attachment", assetId: "ast_image", title: words, description: words },
    { id: id("continue"), type: "continue", requireCompletion: true },
    {
      id: id("scenario"), type: "scenario", title: words, markdown: words, character: { name: words }, startSceneId: "a", points: 2, objectiveIds: [],
      scenes: [
        { id: "a", markdown: words, choices: [{ text: words, feedback: words, next: "b" }, { text: `${words} 2`, next: "c" }] },
        { id: "b", markdown: words, ending: { outcome: "success" } },
        { id: "c", markdown: words, ending: { outcome: "failure" } },
      ],
    },
    {
      id: id("sorting"), type: "sorting", prompt: words, points: 2, explanation: words, objectiveIds: [],
      categories: [{ title: "Alpha" }, { title: "Beta" }],
      items: [{ text: words, category: "Alpha", feedback: words }, { text: `${words} 2`, category: "Beta" }],
    },
    { id: id("new0"), type: "numeric", ...question, value: 2.5, tolerance: 0.1, unit: words, correctFeedback: words, incorrectFeedback: words },
    { id: id("new1"), type: "hotspot", ...question, image: { url: "https://example.com/p.png", alt: words, width: 400, height: 300 }, regions: [{ shape: "rect", x: 10, y: 10, width: 50, height: 50, name: words, correct: true, feedback: words }, { shape: "circle", x: 200, y: 150, radius: 20, name: `${words} 2` }] },
    { id: id("new2"), type: "drag_onto_image", ...question, image: { url: "https://example.com/p.png", alt: words, width: 400, height: 300 }, zones: [{ shape: "rect", id: "a", x: 10, y: 10, width: 50, height: 50, name: words }, { shape: "rect", id: "b", x: 100, y: 10, width: 50, height: 50, name: `${words} 2` }], labels: [{ text: words, zone: "a", feedback: words }, { text: `${words} 2`, zone: "b" }] },
    { id: id("new3"), type: "inline_choice", ...question, text: `${words} {{1}} ${words}`, gaps: [{ choices: [{ text: words, correct: true }, { text: `${words} 2` }], feedback: words }] },
    { id: id("new4"), type: "open_response", ...question, modelAnswer: words, maxCharacters: 300, rubric: { criteria: [{ text: words, points: 1 }] } },
    { id: id("new5"), type: "likert", prompt: words, explanation: words, objectiveIds: [], statements: [{ text: words }, { text: `${words} 2` }], scale: [words, `${words} 2`, `${words} 3`] },
  ] as unknown as Block[];
}

function courseIn(language: string): RenderableCourse {
  const id = (lesson: string) => (suffix: string) => `blk_${lesson}_${suffix}`;
  const blocks = (lesson: string) => [...(textBlocks(words, id(lesson)) as Block[]), ...teachingBlocks(id(lesson))];
  return {
    id: "crs_lang", title: words, description: words, language, audience: words, level: "beginner", targetMinutes: 20,
    objectives: [{ id: "obj_1", text: words }],
    modules: [
      { id: "mod_1", title: words, summary: words, objectiveIds: [], lessons: [{ id: "les_content", title: words, kind: "content", blocks: blocks("c") }] },
      { id: "mod_2", title: words, summary: words, objectiveIds: [], lessons: [{ id: "les_quiz", title: words, kind: "quiz", passingScore: 70, maxAttempts: 2, blocks: blocks("q") }] },
      { id: "mod_3", title: words, summary: words, objectiveIds: [], lessons: [{ id: "les_final", title: words, kind: "quiz", passingScore: 80, maxAttempts: null, finalAssessment: true, blocks: blocks("f") } as RenderableLesson] },
    ],
  } as RenderableCourse;
}

/** The literal words of a pack value: a string, a template's text between `{placeholders}`, or a function's text between its arguments. */
function fragments(value: unknown): string[] {
  if (typeof value === "string") return value.split(/\{\w+\}/);
  if (typeof value === "function") {
    const marker = "\u0001";
    const calls = [value(2, 3), value(1, 1), value(marker, marker), value("draft", 2), value("published", 2)].filter((text): text is string => typeof text === "string");
    return calls.flatMap((text) => text.split(/\u0001|\d+/));
  }
  if (value && typeof value === "object") return Object.values(value).flatMap(fragments);
  return [];
}

/** English words the page must not show in `language`: each pack string's fragments, less those the language's pack also uses. */
function englishWordsFor(language: InterfaceLanguage): Map<string, string> {
  const words = new Map<string, string>();
  const pack = interfaceTranslations[language] as Record<string, Record<string, unknown>>;
  // A word both languages have ("Note", "Question", "Information") is not English when the pack uses it too.
  const translated = Object.values(pack).flatMap((section) => fragments(section)).join("\u0002");
  for (const [section, english] of Object.entries(englishPacks)) {
    for (const [key, value] of Object.entries(english)) {
      for (const fragment of fragments(value).map((text) => text.trim())) {
        if (fragment.length >= 4 && /[A-Za-z]{3}/.test(fragment) && !translated.includes(fragment)) words.set(fragment, `${section}.${key}`);
      }
    }
  }
  return words;
}

/** The English fragments found as words in what the learner gets, each with the pack key it comes from. */
function englishFound(language: InterfaceLanguage, page: string): string[] {
  const strings = learnerFacingStrings(page);
  return [...englishWordsFor(language)]
    .filter(([fragment]) => {
      const word = new RegExp(`(^|[^\\p{L}])${fragment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}])`, "u");
      return strings.some((text) => word.test(text));
    })
    .map(([fragment, key]) => `${key}: “${fragment}”`);
}

describe("language packs", () => {
  test("the fixture uses every block type", () => {
    const used = new Set(courseIn("fr").modules.flatMap((module) => module.lessons.flatMap((lesson) => (lesson.blocks ?? []).map((block) => block.type))));
    expect(blockTypes.filter((type) => !used.has(type))).toEqual([]);
  });

  test("fr, de and es are complete: nothing falls back to English", () => {
    for (const language of ["en", "fr", "de", "es", "fr-CA", "de-AT"]) expect(fallbackStrings(language)).toEqual([]);
  });

  test("a language without a pack names every string that shows in English", () => {
    const fallback = fallbackStrings("it");
    expect(fallback).toContain("interaction.previousStep");
    expect(fallback).toContain("adapter.noLmsFound");
    expect(fallback.length).toBe(Object.values(englishPacks).reduce((count, section) => count + Object.keys(section).length, 0));
  });

  for (const language of ["fr", "de", "es"] as const) {
    test(`a ${language} course shows no English string, in the page, its attributes or the player's and adapter's words`, () => {
      const course = courseIn(language);
      const page = renderCourseHtml(course, { mode: "package", assetUrl: (assetId) => `assets/${assetId}.png`, lmsAdapter: scormAdapter("2004", course) });
      expect(page).toContain(`lang="${language}"`);
      expect(englishFound(language, page)).toEqual([]);
    });
  }

  test("the English page does show those strings, so the check can see them", () => {
    const course = courseIn("en");
    const page = renderCourseHtml(course, { mode: "package", assetUrl: (assetId) => `assets/${assetId}.png`, lmsAdapter: scormAdapter("2004", course) });
    const seen = englishFound("de", page);
    expect(seen.length).toBeGreaterThan(40);
    for (const key of ["interaction.previousStep", "interaction.chooseCategory", "interactionRuntime.playAgain", "adapter.exitCourse", "adapter.noLmsFound"]) {
      expect(seen.some((entry) => entry.startsWith(`${key}:`))).toBe(true);
    }
  });
});
