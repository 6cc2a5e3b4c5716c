/**
 * A page carries only the style sheets of what it shows: the question and quiz sheet only with a
 * question or a quiz lesson (a scenario keeps the card, fieldset and verdict rules it shares with
 * questions from the course sheet), and a theme's rules come after the question sheet, so a dark
 * theme's quiz panel is not overridden by the sheet's light default.
 */
import { describe, expect, test } from "bun:test";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";
import { builtStyles } from "../src/render/player-bundles.ts";
import { themeStyles } from "../src/render/theme.ts";
import { ClassName } from "../src/page-contract/markup-names.ts";

const course = (blocks: unknown[], kind: "content" | "quiz" = "content", theme?: unknown): RenderableCourse =>
  ({ id: "crs_1", title: "C", language: "en", theme, objectives: [], modules: [{ id: "mod_1", title: "M", lessons: [{ id: "les_1", title: "L", kind, blocks }] }] }) as unknown as RenderableCourse;
const render = (value: RenderableCourse) => renderCourseHtml(value, { mode: "package", assetUrl: (id) => `assets/${id}` });
const question = { id: "blk_q", type: "true_false", prompt: "Exits stay clear.", answer: true, points: 1, objectiveIds: [] };

describe("the question and quiz sheet", () => {
  test("is left out of a page without questions, and is in a page with one or with a quiz lesson", () => {
    expect(builtStyles.quiz).toContain(`.${ClassName.choiceList}`);
    expect(builtStyles.course).not.toContain(`.${ClassName.choiceList}`);
    expect(render(course([{ id: "blk_t", type: "text", markdown: "Hello" }]))).not.toContain(builtStyles.quiz);
    expect(render(course([question]))).toContain(builtStyles.quiz);
    expect(render(course([question], "quiz"))).toContain(builtStyles.quiz);
  });

  test("a scenario without questions keeps the rules it shares with them", () => {
    const scenario = {
      id: "blk_s", type: "scenario", title: "Fire", markdown: "A fire.", startSceneId: "a", points: 1, objectiveIds: [],
      scenes: [{ id: "a", markdown: "Go?", choices: [{ text: "Go", next: "b" }] }, { id: "b", markdown: "Out.", ending: { outcome: "success" } }],
    };
    const page = render(course([scenario]));
    expect(page).not.toContain(builtStyles.quiz);
    for (const rule of [`.${ClassName.question}{`, `.${ClassName.questionFieldset}{`, `.${ClassName.verdict}{`]) expect(builtStyles.course).toContain(rule);
  });

  test("a theme's rules follow the sheet, so they win over its defaults", () => {
    const page = render(course([question], "quiz", { backgroundColor: "#111827", textColor: "#f9fafb", primaryColor: "#60a5fa" }));
    const sheet = page.indexOf(builtStyles.quiz);
    expect(sheet).toBeGreaterThan(0);
    const after = page.slice(sheet + builtStyles.quiz.length, page.indexOf("</style>", sheet));
    expect(after).toContain(`.${ClassName.quizPanel}`);
  });
});

describe("custom properties under short names", () => {
  test("every property a shipped sheet or a theme uses is one the course sheet or that sheet defines, and no long name is left", () => {
    const theme = themeStyles({ backgroundColor: "#111827", textColor: "#f9fafb", primaryColor: "#60a5fa", accentColor: "#fbbf24", corners: "square" } as never);
    const own = [builtStyles.course, builtStyles.quiz, builtStyles.interactions, builtStyles.print, theme];
    const sheets = own.join("\n");
    const definedIn = (sheet: string) => new Set([...sheet.matchAll(/(--[a-z0-9-]+):/g)].map((match) => match[1]));
    const defined = definedIn(builtStyles.course);
    // A sheet may keep a property to itself (the quiz sheet's outcome colour); any other must come from the course sheet.
    const used = own.flatMap((sheet) => [...sheet.matchAll(/var\((--[a-z0-9-]+)[,)]/g)].map((match) => ({ name: match[1], sheet })));
    expect(new Set(used.map((use) => use.name)).size).toBeGreaterThan(10);
    for (const { name, sheet } of used) expect([name, defined.has(name) || definedIn(sheet).has(name)]).toEqual([name, true]);
    for (const name of [...new Set([...theme.matchAll(/(--[a-z0-9-]+):/g)].map((match) => match[1]))]) expect(defined.has(name)).toBe(true);
    expect(sheets).not.toMatch(/--(?:accent|background|surface|hairline|incorrect|radius)\b/);
  });
});
