/**
 * The contents tell a learner's lesson states apart, in Chromium: a content lesson opened is completed,
 * a quiz opened but not submitted is visited, and a submitted quiz is passed or failed. Each state has
 * its own icon (with a visible key) and its own words for screen readers; reached with the keyboard only,
 * at 390 px wide, axe clean.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import type { Block } from "../src/authoring/schemas/blocks.ts";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";
import { launchBrowser, runAxe, seriousOrCritical, serveStatic, tabTo, type StaticSite } from "./support/browser.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

const question = { id: "blk_q", type: "single_choice", prompt: "Which status code means **Not Found**?", points: 1, objectiveIds: [], choices: [{ text: "200 OK", correct: false }, { text: "404 Not Found", correct: true }] } as Block;
const course: RenderableCourse = {
  id: "crs_states",
  title: "States in the contents",
  objectives: [],
  modules: [
    {
      id: "mod_a",
      title: "Basics",
      lessons: [
        { id: "les_read", title: "Reading", kind: "content", blocks: [{ id: "blk_t", type: "text", markdown: "Read this." } as Block] },
        { id: "les_quiz", title: "Check", kind: "quiz", passingScore: 100, maxAttempts: 3, shuffleChoices: false, blocks: [question] },
      ],
    },
  ],
};

let site: StaticSite;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(".tmp", { recursive: true });
  site = serveStatic({ "/course.html": { body: renderCourseHtml(course, { mode: "package", assetUrl: () => "" }), type: "text/html; charset=utf-8" } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

const link = (lessonId: string): string => `a[data-${DataName.contentsLink}="lesson-${lessonId}"]`;

async function stateOf(page: Page, lessonId: string): Promise<{ state: string | null; spoken: string }> {
  const anchor = page.locator(link(lessonId));
  // The link's text is its accessible name: the title, the quiz badge and the state note (visually hidden).
  const spoken = (await anchor.textContent()) ?? "";
  return { state: await anchor.getAttribute(`data-${DataName.state}`), spoken: spoken.replace(/\s+/g, " ").trim() };
}

/** Answers the quiz with the keyboard: the right or the wrong choice, then Submit. */
async function submitQuiz(page: Page, correctly: boolean): Promise<void> {
  await tabTo(page, '#lesson-les_quiz input[value="0"]');
  if (correctly) await page.keyboard.press("ArrowDown");
  else await page.keyboard.press("Space");
  await tabTo(page, `#lesson-les_quiz [data-${DataName.submitQuiz}]`);
  await page.keyboard.press("Enter");
  await page.locator(`#lesson-les_quiz [data-${DataName.quizResult}]`).filter({ hasText: /\S/ }).waitFor();
}

describe("contents states", () => {
  test("visited, completed, passed and failed each have their own icon and screen-reader words", async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${site.origin}/course.html`);
    await page.locator("html.course-ready").waitFor({ state: "attached" });
    expect((await stateOf(page, "les_read")).state).toBeNull();

    await tabTo(page, "#course-introduction a[rel=next]");
    await page.keyboard.press("Enter");
    await page.locator("#lesson-les_read:not([hidden])").waitFor();
    expect(await stateOf(page, "les_read")).toEqual({ state: "completed", spoken: "Reading (completed)" });

    await tabTo(page, "#lesson-les_read a[rel=next]");
    await page.keyboard.press("Enter");
    await page.locator("#lesson-les_quiz:not([hidden])").waitFor();
    expect(await stateOf(page, "les_quiz")).toEqual({ state: "visited", spoken: "Check Quiz (visited)" });

    await submitQuiz(page, false);
    expect(await stateOf(page, "les_quiz")).toEqual({ state: "failed", spoken: "Check Quiz (failed)" });
    await tabTo(page, `#lesson-les_quiz [data-${DataName.retryQuiz}]`);
    await page.keyboard.press("Enter");
    await submitQuiz(page, true);
    expect(await stateOf(page, "les_quiz")).toEqual({ state: "passed", spoken: "Check Quiz (passed)" });

    // Four different icons, drawn by CSS with an empty alternative, so the words above are all a screen reader hears.
    const icons = await page.evaluate(({ ClassName, DataName }) =>
      Array.from(document.querySelectorAll(`.${ClassName.contentsKey} [data-${DataName.state}]`)).map((item) => [item.getAttribute(`data-${DataName.state}`), getComputedStyle(item, "::before").content]), { ClassName, DataName },
    );
    expect(new Set(icons.map(([, content]) => content)).size).toBe(4);
    expect(icons.every(([, content]) => content !== "none" && (content ?? "").endsWith('/ ""'))).toBe(true);
    expect(await page.locator(`.${ClassName.contentsKey}`).getAttribute("aria-hidden")).toBe("true");

    await page.locator(`[data-${DataName.contents}] > summary`).press("Enter");
    const name = await page.getByRole("link", { name: /^Check/ }).evaluate((element) => element.textContent?.replace(/\s+/g, " ").trim());
    expect(name).toBe("Check Quiz (passed)");
    await page.screenshot({ path: ".tmp/contents-states-390.png", fullPage: true });
    expect(seriousOrCritical(await runAxe(page))).toEqual([]);
    await context.close();
  }, 60_000);

  test("a restored quiz result shows as passed or failed in the contents", async () => {
    const page = await browser.newPage();
    await page.goto(`${site.origin}/course.html`);
    await page.locator("html.course-ready").waitFor({ state: "attached" });
    await page.evaluate(() => window.CourseRuntime?.setState({ visitedLessonIds: ["les_read", "les_quiz"], quizzes: { les_quiz: { attempts: 1, lastScorePercent: 0, bestScorePercent: 0, passed: false } } }));
    expect((await stateOf(page, "les_read")).state).toBe("completed");
    expect(await stateOf(page, "les_quiz")).toEqual({ state: "failed", spoken: "Check Quiz (failed)" });
    await page.close();
  });
});
