/**
 * Feedback modes in the rendered page (issue 21 item 3): a graded quiz shows "Check answer" only in
 * `immediate` mode, `none` leaves explanations and answer feedback out of the page, content-lesson
 * questions stay immediate checks; and the HTML export opened from `file://` grades with WebCrypto,
 * revealing the verdicts only after submitting. A German quiz shown one question at a time has one
 * heading per question ("Frage 1 von 2 (1,5 Punkte)"), "Submit" on its last question only, and writes
 * points as German does (issue 41).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import type { ExportCourse } from "../src/formats/package/types.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { submitQuiz, waitForCourse } from "./support/export-player.ts";
import { launchChromium } from "./support/lms-harness.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

setDefaultTimeout(60_000);

const question = (id: string) => ({
  id,
  type: "single_choice",
  prompt: "Pick A.",
  points: 1,
  objectiveIds: [],
  explanation: "A is the first letter.",
  choices: [{ text: "A", correct: true, feedback: "Well picked." }, { text: "B" }],
});

function courseWithModes(): ExportCourse {
  const lesson = (id: string, kind: "content" | "quiz", feedbackMode?: string) => ({ id, title: id, kind, passingScore: kind === "quiz" ? 50 : null, feedbackMode, blocks: [question(`blk_${id}`)] });
  return {
    ...sampleCourse(),
    modules: [{ id: "mod_m", title: "Modes", objectiveIds: [], lessons: [lesson("les_content", "content"), lesson("les_after", "quiz"), lesson("les_now", "quiz", "immediate"), lesson("les_none", "quiz", "none")] }],
  } as unknown as ExportCourse;
}

const html = renderCourseHtml(courseWithModes(), { mode: "package", assetUrl: (id) => id });
const lessonMarkup = (id: string): string => {
  const start = html.indexOf(`data-${DataName.lessonId}="${id}"`);
  return html.slice(start, html.indexOf("</article>", start));
};

describe("feedback modes in the markup", () => {
  test("Check answer appears in content lessons and immediate quizzes only", () => {
    expect(lessonMarkup("les_content")).toContain(`data-${DataName.checkAnswer}`);
    expect(lessonMarkup("les_now")).toContain(`data-${DataName.checkAnswer}`);
    expect(lessonMarkup("les_after")).not.toContain(`data-${DataName.checkAnswer}`);
    expect(lessonMarkup("les_none")).not.toContain(`data-${DataName.checkAnswer}`);
  });

  test("none leaves explanations and answer feedback out of the page; after_submit keeps them hidden until submitting", () => {
    expect(lessonMarkup("les_none")).not.toContain("A is the first letter.");
    expect(lessonMarkup("les_none")).not.toContain("Well picked.");
    expect(lessonMarkup("les_after")).toContain(`data-${DataName.explanation} hidden`);
  });
});

describe("the HTML export from file://", () => {
  let browser: Browser;
  let directory: string;
  beforeAll(async () => {
    browser = await launchChromium();
    const built = await buildPackage(courseWithModes(), { format: "html", assets: memoryAssets(), renderer: renderCourseHtml });
    directory = await unpackToDirectory(built.stream, "quiz-modes-html");
  });
  afterAll(async () => {
    await browser?.close();
  });

  test("grades with WebCrypto and shows verdicts only after submitting (after_submit)", async () => {
    const page = await browser.newPage();
    await page.goto(`file://${join(directory, "index.html")}#lesson-les_after`);
    await waitForCourse(page);
    expect(await page.locator("html").getAttribute(`data-${DataName.answerCheck}`)).toBe("webcrypto");
    await page.locator(`[data-${DataName.lessonId}=les_after] input[value="0"]`).check();
    expect(await page.locator(`[data-${DataName.lessonId}=les_after] [data-${DataName.verdict}]`).textContent()).toBe("");
    expect(await page.locator(`[data-${DataName.lessonId}=les_after] [data-${DataName.explanation}]`).isHidden()).toBe(true);
    await submitQuiz(page);
    expect(await page.locator(`[data-${DataName.lessonId}=les_after] [data-${DataName.verdict}]`).textContent()).toBe("Correct. Points: 1 of 1.");
    expect(await page.locator(`[data-${DataName.lessonId}=les_after] [data-${DataName.explanation}]`).isVisible()).toBe(true);
    expect(await page.locator(`[data-${DataName.lessonId}=les_after] .${ClassName.choice}[data-${DataName.result}=correct]`).count()).toBe(1);
    await page.close();
  });

  test("none: after submitting, the verdict without marks or explanations", async () => {
    const page = await browser.newPage();
    await page.goto(`file://${join(directory, "index.html")}#lesson-les_none`);
    await waitForCourse(page);
    await page.locator(`[data-${DataName.lessonId}=les_none] input[value="1"]`).check();
    await submitQuiz(page);
    expect(await page.locator(`[data-${DataName.lessonId}=les_none] [data-${DataName.verdict}]`).textContent()).toBe("Not quite. Points: 0 of 1.");
    expect(await page.locator(`[data-${DataName.lessonId}=les_none] [data-${DataName.result}]`).count()).toBe(0);
    await page.close();
  });
});

describe("a German quiz one question at a time, from file://", () => {
  let browser: Browser;
  let directory: string;
  const pointed = (id: string, right: string) => ({ id, type: "single_choice", prompt: `Welche ist richtig (${id})?`, points: 1.5, objectiveIds: [], choices: [{ text: "Erste", correct: right === "0" }, { text: "Zweite", correct: right === "1" }] });
  beforeAll(async () => {
    browser = await launchChromium();
    const course = {
      ...sampleCourse(),
      language: "de",
      modules: [{ id: "mod_m", title: "Prüfung", objectiveIds: [], lessons: [{ id: "les_paged", title: "Prüfung", kind: "quiz", passingScore: 50, oneQuestionAtATime: true, shuffleChoices: false, blocks: [pointed("blk_a", "0"), pointed("blk_b", "1")] }] }],
    } as unknown as ExportCourse;
    const built = await buildPackage(course, { format: "html", assets: memoryAssets(), renderer: renderCourseHtml });
    directory = await unpackToDirectory(built.stream, "quiz-paged-de-html");
  });
  afterAll(async () => {
    await browser?.close();
  });

  test("one heading per question, Submit only on the last, points in German digits", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`file://${join(directory, "index.html")}#lesson-les_paged`);
    await waitForCourse(page);
    const lesson = page.locator(`[data-${DataName.lessonId}=les_paged]`);
    const heading = lesson.locator(`[data-${DataName.question}]:visible legend`);
    const submit = lesson.locator(`[data-${DataName.submitQuiz}]`);
    await heading.filter({ hasText: "Frage 1 von 2 (1,5 Punkte)" }).waitFor({ timeout: 10_000 });
    expect(await lesson.locator(":visible").filter({ hasText: /^Frage \d von \d$/ }).count()).toBe(0);
    expect(await submit.isVisible()).toBe(false);
    expect(await lesson.locator(`.${ClassName.quizPanel}`).isVisible()).toBe(false);
    expect(await lesson.locator(`[data-${DataName.questionStep}="1"]`).isVisible()).toBe(true);
    await page.screenshot({ path: ".tmp/quiz-paged-de-first.png", fullPage: true });
    await lesson.locator(`[data-${DataName.questionId}=blk_a] input[value="0"]`).check();
    await lesson.locator(`[data-${DataName.questionStep}="1"]`).click();
    await heading.filter({ hasText: "Frage 2 von 2 (1,5 Punkte)" }).waitFor({ timeout: 10_000 });
    expect(await submit.isVisible()).toBe(true);
    expect(await lesson.locator(`[data-${DataName.questionStep}="1"]`).isVisible()).toBe(false);
    await page.screenshot({ path: ".tmp/quiz-paged-de-last.png", fullPage: true });
    await lesson.locator(`[data-${DataName.questionId}=blk_b] input[value="0"]`).check();
    await submitQuiz(page);
    expect(await lesson.locator(`[data-${DataName.questionId}=blk_a] [data-${DataName.verdict}]`).textContent()).toBe("Richtig. Punkte: 1,5 von 1,5.");
    expect(await lesson.locator(`[data-${DataName.quizResult}]`).textContent()).toContain("(1,5 von 3 Punkten)");
    expect(await lesson.locator(`[data-${DataName.question}] legend`).allTextContents()).toEqual(["Frage 1 (1,5 Punkte)", "Frage 2 (1,5 Punkte)"]);
    await page.close();
  });
});
