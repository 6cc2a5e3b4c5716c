/**
 * The print stylesheet, in Chromium with print media: every page of the course prints in order, tabs,
 * accordions and flashcards are laid open (tab panels under their titles, both card faces), answers
 * stay hidden even after the learner answered, and on-screen controls are left out.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import type { Block } from "../src/authoring/schemas/blocks.ts";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";
import { launchBrowser, serveStatic, type StaticSite } from "./support/browser.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

const blocks = [
  { id: "blk_tabs", type: "tabs", tabs: [{ title: "Sender", markdown: "Check the domain." }, { title: "Links", markdown: "Hover before clicking." }] },
  { id: "blk_acc", type: "accordion", items: [{ title: "What is spoofing?", markdown: "Faking the sender address." }] },
  { id: "blk_cards", type: "flashcards", cards: [{ front: "SPF", back: "Says which servers may send for a domain." }] },
  { id: "blk_q", type: "single_choice", prompt: "Which is safer?", points: 1, objectiveIds: [], explanation: "Typing the address yourself avoids the link.", choices: [{ text: "Clicking", correct: false, feedback: "Links can lie." }, { text: "Typing", correct: true }] },
] as Block[];

const course: RenderableCourse = {
  id: "crs_print",
  title: "Phishing handout",
  objectives: [],
  modules: [{ id: "mod_a", title: "Basics", lessons: [{ id: "les_a", title: "Spotting phishing", kind: "content", blocks }, { id: "les_b", title: "Second", kind: "content", blocks: [{ id: "blk_t", type: "text", markdown: "See [the guide](https://example.com/guide)." } as Block] }] }],
};

let site: StaticSite;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(".tmp", { recursive: true });
  site = serveStatic({ "/course.html": { body: renderCourseHtml(course, { mode: "preview", assetUrl: () => "" }), type: "text/html; charset=utf-8" } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe("print stylesheet", () => {
  test("a printed course is a handout: everything laid open, answers and controls hidden", async () => {
    const page = await browser.newPage();
    await page.goto(`${site.origin}/course.html#lesson-les_a`);
    await page.locator("html.course-ready").waitFor({ state: "attached" });
    // The learner answers wrongly on screen; the printout must still not show feedback or marks.
    await page.locator('#lesson-les_a input[value="0"]').check();
    await page.locator(`#lesson-les_a [data-${DataName.checkAnswer}]`).click();
    await page.locator(`#lesson-les_a [data-${DataName.verdict}]`).filter({ hasText: /\S/ }).waitFor();
    await page.emulateMedia({ media: "print" });
    const visible = async (selector: string) => page.locator(selector).first().isVisible();
    for (const shown of ["#course-introduction", "#lesson-les_a", "#lesson-les_b", `.${ClassName.tabPanel}[hidden]`, `.${ClassName.accordionBody}`, `.${ClassName.flashcardBack}`, "text=Hover before clicking.", "text=Faking the sender address.", "text=Says which servers may send for a domain."]) {
      expect({ shown, visible: await visible(shown) }).toEqual({ shown, visible: true });
    }
    for (const hidden of [`.${ClassName.siteHeader}`, `.${ClassName.pager}`, `.${ClassName.tabList}`, `.${ClassName.flashcard} button`, `[data-${DataName.checkAnswer}]`, `[data-${DataName.verdict}]`, `[data-${DataName.answerFeedback}]`, `[data-${DataName.explanation}]`, `.${ClassName.contentsDisclosure}`]) {
      expect({ hidden, visible: await visible(hidden) }).toEqual({ hidden, visible: false });
    }
    const titles = await page.evaluate(({ ClassName }) => Array.from(document.querySelectorAll(`.${ClassName.tabPanel}`)).map((panel) => getComputedStyle(panel, "::before").content), { ClassName });
    expect(titles).toEqual(['"Sender"', '"Links"']);
    const mark = await page.evaluate(({ DataName }) => getComputedStyle(document.querySelector(`[data-${DataName.result}] label`)!, "::after").content, { DataName });
    expect(mark).toBe("none");
    const link = await page.evaluate(() => getComputedStyle(document.querySelector('main a[href^="https"]')!, "::after").content);
    expect(link).toContain("https://example.com/guide");
    await page.pdf({ path: ".tmp/print.pdf" });
    await page.screenshot({ path: ".tmp/print.png", fullPage: true });
    await page.close();
  }, 60_000);
});
