/**
 * The teaching blocks of issue 20 as a learner meets them in Chromium: a labeled graphic's markers, a
 * process step by step, continue gates (one waiting for the scenario above it), a branching scenario
 * played and replayed, and a quiz lesson with a scenario, a sorting and a pictured choice, all with the
 * keyboard only; sorting also by dragging; without script and in print everything shows; axe finds no
 * serious violation at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Block } from "../src/authoring/schemas/blocks.ts";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";
import { launchBrowser, runAxe, seriousOrCritical, serveStatic, tabTo, type AxeViolation, type StaticSite } from "./support/browser.ts";
import { sortingCategoryOf, teachingContentBlocks, teachingQuizBlocks } from "./support/teaching-blocks.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

const emailSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><rect width="640" height="360" fill="#f8fafc" stroke="#0f172a"/><text x="40" y="50" font-family="sans-serif" font-size="20" fill="#0f172a">From: ceo@examp1e.com</text><text x="40" y="170" font-family="sans-serif" font-size="24" fill="#b91c1c">URGENT: buy gift cards now</text><rect x="380" y="280" width="220" height="50" fill="#1d4ed8"/><text x="490" y="312" font-family="sans-serif" font-size="18" fill="#fff" text-anchor="middle">Click here</text></svg>`;
const assets = { image: "ast_email", attachment: "ast_jobaid" };
const assetUrls: Record<string, string> = { ast_email: `data:image/svg+xml;base64,${btoa(emailSvg)}`, ast_jobaid: "assets/job-aid.pdf" };

const withIds = (blocks: Record<string, unknown>[], prefix: string): Block[] => blocks.map((block, index) => ({ id: `blk_${prefix}${index}`, ...block }) as unknown as Block);

const course: RenderableCourse = {
  id: "crs_phish",
  title: "Recognising phishing",
  language: "en",
  objectives: [],
  modules: [
    {
      id: "mod_phish",
      title: "Phishing",
      lessons: [
        { id: "les_learn", title: "Spotting phishing", kind: "content", blocks: withIds(teachingContentBlocks(assets), "learn") },
        { id: "les_check", title: "Phishing check", kind: "quiz", passingScore: 60, maxAttempts: null, shuffleChoices: false, blocks: withIds(teachingQuizBlocks(assets), "check") },
      ],
    },
  ],
};

const html = renderCourseHtml(course, { mode: "package", assetUrl: (assetId) => assetUrls[assetId] ?? "" });
let site: StaticSite;
let browser: Browser;
const learn = "#lesson-les_learn";
const check = "#lesson-les_check";

beforeAll(async () => {
  mkdirSync(".tmp", { recursive: true });
  site = serveStatic({ "/course.html": { body: html, type: "text/html; charset=utf-8" }, "/assets/job-aid.pdf": { body: "%PDF-1.4\n%%EOF\n", type: "application/pdf" } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

type Answer = { questionId: string; questionType: string; response: string[]; correct: boolean; scoreFraction: number };

async function openCourse(context: BrowserContext, fragment: string): Promise<Page> {
  await context.addInitScript(() => {
    const answers: unknown[] = [];
    Object.assign(window, { __answers: answers });
    document.addEventListener("course:question-answered", (event) => answers.push((event as CustomEvent).detail));
  });
  const page = await context.newPage();
  await page.goto(`${site.origin}/course.html${fragment}`);
  await page.waitForFunction(() => document.documentElement.classList.contains("course-ready"));
  return page;
}

const answers = (page: Page): Promise<Answer[]> => page.evaluate(() => (window as unknown as { __answers: Answer[] }).__answers);
const visible = (page: Page, selector: string): Promise<boolean> => page.locator(selector).first().isVisible();
const textOf = async (page: Page, selector: string): Promise<string> => (await page.locator(selector).first().innerText()).replace(/\s+/g, " ").trim();

describe("teaching blocks in the browser", () => {
  test("without script every marker text, step, scene and everything after a continue shows; in print too", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.origin}/course.html`);
    for (const text of ["The domain is misspelt.", "Hover to see where it really goes.", "Remove the message from your inbox.", "Now try a real situation.", "Well done: you finished the scenario.", "The codes are gone and the money with them."]) {
      expect(await page.getByText(text).first().isVisible()).toBe(true);
    }
    expect(await page.locator(`${learn} [data-${DataName.continue}]`).first().isVisible()).toBe(false);
    expect(await page.locator(`${learn} a.${ClassName.scenarioChoice}`).first().getAttribute("href")).toMatch(/^#scene-/);
    // Issue 21: which ending succeeds is part of the answer key, so the page source names no outcome before the learner plays.
    expect(html).toContain(`data-${DataName.sealedOutcome}=`);
    expect(html).not.toMatch(/<[^>]*\sdata-(ending|outcome)="(success|failure|neutral)"/);
    expect(await textOf(page, `${learn} [data-${DataName.scene}="reported"] .${ClassName.sceneEnding}`)).toBe("End of the scenario");
    // Scenes are numbered in the order a learner reaches them (breadth-first from the start), not as authored (issue 41).
    const labels = await page.locator(`${learn} [data-${DataName.scene}]`).evaluateAll((found, { DataName, ClassName }) => found.map((scene) => `${scene.getAttribute(`data-${DataName.scene}`)}=${scene.querySelector(`.${ClassName.sceneLabel}`)?.textContent ?? ""}`), { DataName, ClassName });
    expect(labels).toEqual(["inbox=Scene 1", "bought=Scene 2", "checked=Scene 3", "reported=Scene 4"]);
    expect(await page.locator(`${learn} .${ClassName.attachmentLink}`).getAttribute("download")).toBe("");
    await context.close();

    const printing = await browser.newContext();
    const printed = await openCourse(printing, "#lesson-les_learn");
    expect(await visible(printed, `${learn} [data-${DataName.step}]:nth-child(3)`)).toBe(false);
    await printed.emulateMedia({ media: "print" });
    for (const selector of [`${learn} [data-${DataName.step}]:nth-child(3)`, `${learn} [data-${DataName.markerItem}]:nth-child(2)`, `${learn} [data-${DataName.scene}="bought"]`]) expect(await visible(printed, selector)).toBe(true);
    expect(await printed.getByText("Well done: you finished the scenario.").isVisible()).toBe(true);
    await printing.close();
  }, 60_000);

  test("markers, steps, continue gates and the scenario work with the keyboard alone, and the scenario reports its path", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await openCourse(context, "#lesson-les_learn");

    expect(await visible(page, `${learn} [data-${DataName.markerItem}]`)).toBe(false);
    await tabTo(page, `${learn} [data-${DataName.marker}]:nth-child(1)`);
    await page.keyboard.press("Enter");
    expect(await page.locator(`${learn} [data-${DataName.marker}]`).first().getAttribute("aria-expanded")).toBe("true");
    expect(await textOf(page, `${learn} [data-${DataName.markerItem}]:not([hidden])`)).toBe("Sender The domain is misspelt.");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    expect(await textOf(page, `${learn} [data-${DataName.markerItem}]:not([hidden])`)).toContain("Urgent tone");
    // The open panel is numbered as its marker (an ordered list whose other items are hidden would say "1."), and the
    // marker's name says its number and title once (issue 41).
    expect(await page.locator(`${learn} [data-${DataName.markerItem}]:not([hidden])`).evaluate((item) => (item as HTMLLIElement).value)).toBe(2);
    expect(await textOf(page, `${learn} [data-${DataName.marker}]:nth-child(1) .${ClassName.visuallyHidden}`)).toBe("1: Sender (visited)");
    expect(await page.locator(`${learn} [data-${DataName.marker}]`).nth(1).getAttribute("aria-expanded")).toBe("true");
    expect(await page.locator(`${learn} [data-${DataName.marker}]`).nth(1).ariaSnapshot()).toContain('button "2: Urgent tone (visited)" [expanded]');

    expect(await textOf(page, `${learn} [data-${DataName.stepStatus}]`)).toBe("Step 1 of 3");
    await tabTo(page, `${learn} [data-${DataName.stepNext}]`);
    await page.keyboard.press("Enter");
    expect(await textOf(page, `${learn} [data-${DataName.stepStatus}]`)).toBe("Step 2 of 3");
    expect(await textOf(page, `${learn} [data-${DataName.step}]:not([hidden]) .${ClassName.stepTitle}`)).toBe("Report");
    expect(await page.evaluate(({ ClassName }) => document.activeElement?.classList.contains(ClassName.stepTitle), { ClassName })).toBe(true);

    expect(await page.getByText("Now try a real situation.").isVisible()).toBe(false);
    await tabTo(page, `${learn} [data-${DataName.continueButton}]`);
    expect(await textOf(page, `${learn} [data-${DataName.continueButton}]`)).toBe("I have read this");
    await page.keyboard.press("Enter");
    expect(await page.getByText("Now try a real situation.").isVisible()).toBe(true);

    const gate = `${learn} [data-${DataName.continue}][data-${DataName.requireCompletion}="true"] [data-${DataName.continueButton}]`;
    expect(await page.locator(gate).getAttribute("aria-disabled")).toBe("true");
    await page.locator(gate).press("Enter");
    expect(await page.getByText("Well done: you finished the scenario.").isVisible()).toBe(false);

    await tabTo(page, `${learn} [data-${DataName.scenario}] button[data-${DataName.next}="checked"]`);
    await page.keyboard.press("Enter");
    expect(await page.evaluate(({ DataName }) => document.activeElement?.getAttribute(`data-${DataName.scene}`), { DataName })).toBe("checked");
    await tabTo(page, `${learn} [data-${DataName.scenario}] button[data-${DataName.next}="reported"]`);
    await page.keyboard.press("Enter");
    expect(await textOf(page, `${learn} [data-${DataName.scenarioStatus}]`)).toContain("Scenario ended: Success.");
    expect(await page.locator(`${learn} [data-${DataName.scene}="reported"] .${ClassName.sceneEnding}`).getAttribute(`data-${DataName.ending}`)).toBe("success");
    expect(await answers(page)).toEqual([{ lessonId: "les_learn", questionId: "blk_learn6", questionType: "scenario", scoreFraction: 1, correct: true, response: ["inbox", "checked", "reported"], correctResponse: [], otherCorrectResponses: [], graded: false }] as unknown as Answer[]);

    await tabTo(page, `${learn} [data-${DataName.scenarioReplay}]`);
    await page.keyboard.press("Enter");
    expect(await page.evaluate(({ DataName }) => document.activeElement?.getAttribute(`data-${DataName.scene}`), { DataName })).toBe("inbox");
    await tabTo(page, `${learn} [data-${DataName.scenario}] button[data-${DataName.next}="bought"]`);
    await page.keyboard.press("Enter");
    expect(await textOf(page, `${learn} [data-${DataName.scenarioStatus}]`)).toContain("Urgency and gift cards are classic signs of fraud.");

    // Still closed: the graphic has a marker not yet opened and the process a step not yet shown.
    expect(await page.locator(gate).getAttribute("aria-disabled")).toBe("true");
    await tabTo(page, `${learn} [data-${DataName.marker}]:nth-child(3)`, { backwards: true });
    await page.keyboard.press("Enter");
    await tabTo(page, `${learn} [data-${DataName.stepNext}]`);
    await page.keyboard.press("Enter");
    expect(await page.locator(`${learn} [data-${DataName.stepNext}]`).isDisabled()).toBe(true);
    expect(await page.locator(gate).getAttribute("aria-disabled")).toBe("false");
    await tabTo(page, gate);
    await page.keyboard.press("Enter");
    expect(await page.getByText("Well done: you finished the scenario.").isVisible()).toBe(true);
    await context.close();
  }, 60_000);

  test("a quiz lesson grades the scenario by its ending and the sorting by its pickers, with the keyboard only", async () => {
    const context = await browser.newContext();
    const page = await openCourse(context, "#lesson-les_check");
    await tabTo(page, `${check} [data-${DataName.scenario}] button[data-${DataName.next}="bought"]`);
    await page.keyboard.press("Enter");
    // Read the pickers first: each one moves its item into a category box once its choice is confirmed.
    const pickers = await page.locator(`${check} [data-${DataName.sortItem}]`).evaluateAll((items) => items.map((item) => [item.querySelector("select")?.id ?? "", item.querySelector("label")?.textContent ?? ""]));
    for (const [id, answer] of pickers.map(([id, text]) => [id, sortingCategoryOf(text ?? "")])) {
      await tabTo(page, `${check} select[id="${id}"]`);
      await page.keyboard.type(answer === "0" ? "Phish" : "Not");
    }
    // The last choice is confirmed by moving on, as the others were.
    await page.keyboard.press("Tab");
    expect(await page.locator(`${check} [data-${DataName.sortCategory}="0"] [data-${DataName.sortItem}]`).count()).toBe(2);
    expect(await textOf(page, `${check} [data-${DataName.sortStatus}]`)).toMatch(/^Moved “.+” to (Phish|Not phish)\.$/);
    await tabTo(page, `${check} .${ClassName.choice} input[value="0"]`);
    await page.keyboard.press("Space");
    await tabTo(page, `${check} [data-${DataName.submitQuiz}]`);
    await page.keyboard.press("Enter");
    // Answers are checked against hashes with WebCrypto, so the result shows a moment after submitting.
    const result = page.locator(`${check} [data-${DataName.quizResult}]`).filter({ hasText: /\S/ });
    const dialog = page.locator(`${check} dialog[data-${DataName.submitDialog}][open]`);
    await result.or(dialog).first().waitFor();
    expect(await dialog.isVisible() ? await dialog.textContent() : "").toBe("");
    await result.waitFor();
    expect(await textOf(page, `${check} [data-${DataName.quizResult}]`)).toContain("Your score: 67% (4 of 6 points). You passed. The pass mark is 60%.");
    expect(await textOf(page, `${check} [data-${DataName.scenario}] [data-${DataName.verdict}]`)).toBe("Not quite. Points: 0 of 2.");
    const reported = await answers(page);
    expect(reported.find((answer) => answer.questionType === "scenario")).toMatchObject({ response: ["inbox", "bought"], correct: false });
    const sorting = reported.find((answer) => answer.questionType === "sorting");
    expect(sorting?.correct).toBe(true);
    expect(sorting?.response.length).toBe(3);
    expect(await page.locator(`${check} [data-${DataName.scenario}] button[data-${DataName.next}]`).first().isDisabled()).toBe(true);
    await context.close();
  }, 60_000);

  test("sorting by keyboard: choosing a place keeps the item and focus where they are; N items take at most 3N+2 keystrokes", async () => {
    const context = await browser.newContext();
    const page = await openCourse(context, "#lesson-les_check");
    const pool = `${check} .${ClassName.sortingPool} [data-${DataName.sortItem}]`;
    const items = await page.locator(pool).evaluateAll((found) => found.map((item) => item.querySelector("label")?.textContent ?? ""));
    let keystrokes = 0;
    const press = async (key: string) => {
      keystrokes++;
      await page.keyboard.press(key);
    };
    // One keystroke onto the first item's picker (the Tab that reaches it).
    await page.locator(`${pool} select`).first().focus();
    keystrokes++;
    for (const [index, text] of items.entries()) {
      const focused = () => page.evaluate(({ DataName }) => (document.activeElement?.closest(`[data-${DataName.sortItem}]`)?.querySelector("label")?.textContent ?? ""), { DataName });
      expect(await focused()).toBe(text);
      // Choose: each arrow press picks the next place; the item stays in the pool and keeps the focus.
      for (let step = 0; step <= Number(sortingCategoryOf(text)); step++) {
        await press("ArrowDown");
        expect(await focused()).toBe(text);
        expect(await page.locator(pool).count()).toBe(items.length - index);
      }
      // Confirm by moving on: the item goes to its category, the focus to the next item.
      await press("Tab");
      await page.waitForFunction(([selector, left]) => document.querySelectorAll(selector).length === left, [pool, items.length - index - 1] as const, { timeout: 15_000 });
    }
    expect(keystrokes).toBeLessThanOrEqual(3 * items.length + 2);
    // Once every item is in a category no empty "not sorted yet" box is left on the page (issue 41).
    expect(await page.locator(`${check} .${ClassName.sortingPool}`).isVisible()).toBe(false);
    for (const text of items) {
      const placed = page.locator(`${check} [data-${DataName.sortCategory}="${sortingCategoryOf(text)}"] [data-${DataName.sortItem}]`).filter({ hasText: text });
      expect(await placed.count()).toBe(1);
    }
    await context.close();
  }, 60_000);

  test("sorting by dragging items onto the categories sets the same pickers", async () => {
    const context = await browser.newContext();
    const page = await openCourse(context, "#lesson-les_check");
    const items = page.locator(`${check} [data-${DataName.sortItem}]`);
    const count = await items.count();
    const pool = page.locator(`${check} .${ClassName.sortingPool} [data-${DataName.sortItem}]`);
    for (let index = 0; index < count; index++) {
      const item = pool.first();
      const answer = sortingCategoryOf((await item.locator("label").textContent()) ?? "");
      // The drag's own events, in order, on one DataTransfer: what a pointer drag fires, without a pointer's timing.
      const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
      const zone = page.locator(`${check} [data-${DataName.sortCategory}="${answer}"]`);
      expect(await item.getAttribute("draggable")).toBe("true");
      await item.locator("label").dispatchEvent("dragstart", { dataTransfer });
      await zone.dispatchEvent("dragenter", { dataTransfer });
      await zone.dispatchEvent("dragover", { dataTransfer });
      await zone.dispatchEvent("drop", { dataTransfer });
      await page.locator(`${check} [data-${DataName.sortItem}].${ClassName.isDragging}`).dispatchEvent("dragend", { dataTransfer });
      // The drop moves the item out of the pool; the next drag waits for that instead of racing it.
      await page.waitForFunction(
        ([selector, left]) => document.querySelectorAll(selector).length === left,
        [`${check} .${ClassName.sortingPool} [data-${DataName.sortItem}]`, count - index - 1] as const,
        { timeout: 15_000 },
      );
    }
    expect(await page.locator(`${check} .${ClassName.sortingPool}`).isVisible()).toBe(false);
    const values = await page.locator(`${check} [data-${DataName.sortItem}]`).evaluateAll((items) => items.map((item) => [item.querySelector("select")?.value ?? "", item.querySelector("label")?.textContent ?? ""]));
    expect(values.length).toBe(3);
    for (const [value, text] of values) expect(value).toBe(sortingCategoryOf(text ?? ""));
    // A graded quiz reveals nothing before submitting (feedbackMode after_submit); the sorting is right once submitted.
    expect(await page.locator(`${check} [data-${DataName.questionType}="sorting"] [data-${DataName.checkAnswer}]`).count()).toBe(0);
    await page.locator(`${check} [data-${DataName.submitQuiz}]`).click();
    const dialog = page.locator(`${check} dialog[data-${DataName.submitDialog}][open]`);
    await page.locator(`${check} [data-${DataName.quizResult}]`).filter({ hasText: /\S/ }).or(dialog).first().waitFor();
    if (await dialog.isVisible()) await dialog.locator(`[data-${DataName.dialogSubmit}]`).click();
    await page.locator(`${check} [data-${DataName.questionType}="sorting"] [data-${DataName.verdict}]`).filter({ hasText: /\S/ }).waitFor();
    expect(await textOf(page, `${check} [data-${DataName.questionType}="sorting"] [data-${DataName.verdict}]`)).toBe("Correct. Points: 3 of 3.");
    await context.close();
  }, 60_000);

  test("axe finds no serious or critical violation at 1280 and 390 px, before and after playing", async () => {
    const all: Array<AxeViolation & { width: number; state: string }> = [];
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ bypassCSP: true, viewport: { width, height: 900 } });
      const page = await openCourse(context, "#lesson-les_learn");
      all.push(...(await runAxe(page)).map((violation) => ({ ...violation, width, state: "learn" })));
      await page.locator(`${learn} [data-${DataName.marker}]`).first().press("Enter");
      await page.locator(`${learn} [data-${DataName.continueButton}]`).first().press("Enter");
      await page.locator(`${learn} [data-${DataName.scenario}] button[data-${DataName.next}="checked"]`).press("Enter");
      all.push(...(await runAxe(page)).map((violation) => ({ ...violation, width, state: "learn played" })));
      if (width === 390) await page.screenshot({ path: ".tmp/teaching-narrow.png", fullPage: true });
      await page.evaluate(() => { window.location.hash = "lesson-les_check"; });
      await page.waitForFunction(() => !document.getElementById("lesson-les_check")?.hidden);
      await page.locator(`${check} [data-${DataName.submitQuiz}]`).press("Enter");
      all.push(...(await runAxe(page)).map((violation) => ({ ...violation, width, state: "check submitted" })));
      if (width === 390) await page.screenshot({ path: ".tmp/teaching-quiz-narrow.png", fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await context.close();
    }
    if (all.length > 0) console.info("axe violations (minor or moderate are reported, not failed):", JSON.stringify(all, null, 1));
    expect(seriousOrCritical(all)).toEqual([]);
  }, 120_000);
});

describe("a marker's name in the markup", () => {
  test("a title that carries the marker's number is said once; others get the number before the title", () => {
    const graphic = { id: "blk_moments", type: "labeled_graphic", image: { assetId: "ast_email" }, alt: "The five moments", markers: [
      { x: 10, y: 10, title: "Moment 1: before touching a patient", markdown: "Clean your hands." },
      { x: 30, y: 10, title: "Before a clean procedure", markdown: "Clean your hands again." },
      { x: 50, y: 10, title: "Moment 12", markdown: "Not the marker's own number." },
    ] } as unknown as Block;
    const page = renderCourseHtml({ ...course, modules: [{ id: "mod_m", title: "Moments", lessons: [{ id: "les_m", title: "Moments", kind: "content", blocks: [graphic] }] }] }, { mode: "package", assetUrl: (assetId) => assetUrls[assetId] ?? "" });
    const names = [...page.matchAll(new RegExp(`<span class="${ClassName.visuallyHidden}">([^<]*)</span></button>`, "g"))].map((match) => match[1]);
    expect(names).toEqual(["Moment 1: before touching a patient", "2: Before a clean procedure", "3: Moment 12"]);
    expect([...page.matchAll(/<li class="[^"]*" id="[^"]*" value="(\d)"/g)].map((match) => match[1])).toEqual(["1", "2", "3"]);
  });
});
