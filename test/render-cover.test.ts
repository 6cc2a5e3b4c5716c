/**
 * The cover page and the progress bar, in Chromium at 390 px with the keyboard only: the introduction
 * opens with the course's length, objectives and a Start button that becomes "Resume: <lesson>" once
 * the learner has been somewhere; the header's progress bar counts lessons completed (content lessons
 * opened, quizzes passed) of all, and restored progress fills it too. Axe finds nothing serious.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import type { Block } from "../src/authoring/schemas/blocks.ts";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";
import { launchBrowser, runAxe, seriousOrCritical, serveStatic, tabTo, type StaticSite } from "./support/browser.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

const question = { id: "blk_q", type: "true_false", prompt: "HTTP is stateless.", points: 1, objectiveIds: [], answer: true } as Block;
const course: RenderableCourse = {
  id: "crs_cover",
  title: "Phishing awareness",
  description: "Spot a phishing e-mail before it costs you.",
  objectives: [{ id: "obj_a", text: "Recognise a spoofed sender" }],
  modules: [
    {
      id: "mod_a",
      title: "Phishing e-mails",
      lessons: [
        { id: "les_read", title: "Reading the sender", kind: "content", estimatedMinutes: 6, blocks: [{ id: "blk_t", type: "text", markdown: "Check the address." } as Block] },
        { id: "les_more", title: "Links", kind: "content", estimatedMinutes: 4, blocks: [{ id: "blk_u", type: "text", markdown: "Hover first." } as Block] },
        { id: "les_quiz", title: "Check", kind: "quiz", passingScore: 100, estimatedMinutes: 2, blocks: [question] },
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

async function progress(page: Page): Promise<{ value: number; max: number; text: string }> {
  return page.evaluate(({ DataName }) => {
    const bar = document.querySelector<HTMLProgressElement>(`[data-${DataName.progressBar}]`)!;
    return { value: bar.value, max: bar.max, text: document.querySelector(`[data-${DataName.progressText}]`)?.textContent ?? "" };
  }, { DataName });
}

describe("cover page and progress bar", () => {
  test("Start opens the first lesson, the bar counts completed lessons, and Start becomes Resume", async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${site.origin}/course.html`);
    await page.locator("html.course-ready").waitFor({ state: "attached" });
    const cover = page.locator("#course-introduction");
    expect(await cover.locator("[data-course-length] dd").textContent()).toBe("About 12 min");
    expect(await cover.locator(`.${ClassName.objectives} li`).allTextContents()).toEqual(["Recognise a spoofed sender"]);
    expect(await progress(page)).toEqual({ value: 0, max: 3, text: "0 of 3 lessons completed" });
    expect(await page.getByRole("progressbar", { name: "Course progress" }).count()).toBe(1);
    await page.screenshot({ path: ".tmp/cover-390.png", fullPage: true });
    expect(seriousOrCritical(await runAxe(page))).toEqual([]);

    await tabTo(page, `[data-${DataName.startCourse}]`);
    expect(await page.locator(`[data-${DataName.startCourse}]`).textContent()).toBe("Start the course");
    await page.keyboard.press("Enter");
    await page.locator("#lesson-les_read:not([hidden])").waitFor();
    expect(await progress(page)).toMatchObject({ value: 1, text: "1 of 3 lessons completed" });

    await tabTo(page, "#lesson-les_read a[rel=prev]");
    await page.keyboard.press("Enter");
    await cover.and(page.locator(":not([hidden])")).waitFor();
    const start = page.locator(`[data-${DataName.startCourse}]`);
    expect(await start.textContent()).toBe("Resume: Reading the sender");
    await tabTo(page, `[data-${DataName.startCourse}]`);
    await page.keyboard.press("Enter");
    await page.locator("#lesson-les_read:not([hidden])").waitFor();
    await context.close();
  }, 60_000);

  test("restored progress fills the bar and points Resume at the lesson the learner left", async () => {
    const page = await browser.newPage();
    await page.goto(`${site.origin}/course.html`);
    await page.locator("html.course-ready").waitFor({ state: "attached" });
    await page.evaluate(() =>
      window.CourseRuntime?.setState({ visitedLessonIds: ["les_read", "les_more", "les_quiz"], quizzes: { les_quiz: { attempts: 1, lastScorePercent: 0, bestScorePercent: 0, passed: false } } }),
    );
    expect(await progress(page)).toMatchObject({ value: 2, text: "2 of 3 lessons completed" });
    expect(await page.locator(`[data-${DataName.startCourse}]`).textContent()).toBe("Resume: Reading the sender");
    await page.close();
  });
});
