/**
 * Issue 21 played in real packages, with scorm-again as the LMS: no answer key in the page before
 * submitting, questions drawn per attempt (spread across objectives, a fixed choice kept last) and a new
 * draw on "Try again", unanswered questions named before submitting, the attempt resumed from SCORM 1.2
 * `suspend_data` (measured for a fully answered 100-question pool), a damaged attempt restarted cleanly,
 * and a final assessment that alone decides success; plus the manifests that tell SCORM 2004 and cmi5.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import type { ExportCourse } from "../src/formats/package/types.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { runAxe, seriousOrCritical } from "./support/browser.ts";
import { memoryAssets, sampleCourse, unpackToDirectory, unzipPackage } from "./support/export-course.ts";
import { answerKeyOf, closeSco, nextUntil, scoFrame, submitQuiz, waitForCourse } from "./support/export-player.ts";
import { startCmi5Player } from "./support/cmi5-player.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./support/lms-harness.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

setDefaultTimeout(60_000);

const objectives = ["obj_a", "obj_b", "obj_c", "obj_d"];
const pool = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => ({
    id: `blk_${prefix}${index}`,
    type: "single_choice",
    prompt: `${prefix} question ${index}?`,
    points: 1,
    explanation: "See the lesson.",
    objectiveIds: [objectives[index % 4]],
    choices: [
      { text: "Alpha", correct: index % 3 === 0 },
      { text: "Beta", correct: index % 3 === 1 },
      { text: "Gamma", correct: index % 3 === 2 },
      { text: "None of the above", fixed: true },
    ],
  }));

function assessmentCourse(): ExportCourse {
  const base = sampleCourse();
  return {
    ...base,
    objectives: objectives.map((id) => ({ id, text: `Objective ${id}` })),
    modules: [
      {
        id: "mod_one",
        title: "Warm-up",
        objectiveIds: [],
        lessons: [
          { id: "les_read", title: "Read this", kind: "content", blocks: [{ id: "blk_t", type: "text", markdown: "Some reading." }] },
          {
            id: "les_check",
            title: "Module check",
            kind: "quiz",
            passingScore: 100,
            blocks: [{ id: "blk_fill", type: "fill_in_blank", prompt: "Name the god.", points: 1, objectiveIds: [], text: "The feathered serpent is {{1}}.", blanks: [{ answers: ["Quetzalcoatl"], caseSensitive: false }] }],
          },
          { id: "les_big", title: "Big pool", kind: "quiz", passingScore: 50, blocks: pool("big", 100) },
        ],
      },
      {
        id: "mod_final",
        title: "Wrap-up",
        objectiveIds: [],
        lessons: [{ id: "les_final", title: "Certification quiz", kind: "quiz", passingScore: 80, maxAttempts: 3, drawCount: 8, drawByObjective: true, finalAssessment: true, blocks: pool("final", 100) }],
      },
    ],
  } as unknown as ExportCourse;
}

type Cmi = Record<string, unknown>;
let browser: Browser;
let server: PackageServer;
let packageFiles: Record<string, Uint8Array>;
beforeAll(async () => {
  mkdirSync(".tmp", { recursive: true });
  browser = await launchChromium();
  const built = await buildPackage(assessmentCourse(), { format: "scorm12", assets: memoryAssets(), renderer: renderCourseHtml });
  server = startPackageServer(await unpackToDirectory(built.stream, "assessment-scorm12"));
  packageFiles = await unzipPackage((await buildPackage(assessmentCourse(), { format: "scorm12", assets: memoryAssets(), renderer: renderCourseHtml })).stream);
});
afterAll(async () => {
  server?.stop();
  await browser?.close();
});

async function launch(page: Page, saved: Cmi | null): Promise<void> {
  await page.goto(`${server.origin}/lms/scorm12.html`);
  await page.evaluate((data) => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(data, "/pkg/index.html"), saved);
  await waitForCourse(scoFrame(page));
}

const lms = (page: Page): Promise<{ status: string; raw: string; suspendData: string; location: string }> =>
  page.evaluate(() => {
    const api = (window as unknown as { API: { cmi: { core: { lesson_status: string; lesson_location: string; score: { raw: string } }; suspend_data: string } } }).API;
    return { status: api.cmi.core.lesson_status, raw: api.cmi.core.score.raw, suspendData: api.cmi.suspend_data, location: api.cmi.core.lesson_location };
  });

const finalLesson = `[data-${DataName.lessonId}=les_final]`;
const drawnIds = (page: Page): Promise<string[]> =>
  scoFrame(page).locator(`${finalLesson} [data-${DataName.question}]:not([hidden])`).evaluateAll((questions, { DataName }) => questions.map((question) => (question as HTMLElement).dataset[DataName.questionId] ?? ""), { DataName });
const choiceOrders = (page: Page): Promise<string[]> =>
  scoFrame(page).locator(`${finalLesson} [data-${DataName.question}]:not([hidden])`).evaluateAll((questions) => questions.map((question) => Array.from(question.querySelectorAll("input")).map((input) => input.value).join("")));

describe("no answer key in the page", () => {
  test("the package page carries no data-correct, accepted answers, right order or right answers in readable form", () => {
    const page = new TextDecoder().decode(packageFiles["index.html"]);
    for (const leak of ["data-correct", "data-answers", "data-answer=", "data-position", "Quetzalcoatl", "quetzalcoatl", '"correct":true', '"correct":[']) expect(page.includes(leak)).toBe(false);
    expect(page).toContain("data-key=");
    expect(page).toContain("data-sealed=");
  });

  test("nor does the live DOM before submitting; WebCrypto checks answers in the packaged player", async () => {
    const page = await browser.newPage();
    await launch(page, null);
    const sco = scoFrame(page);
    const dom = await sco.locator("html").evaluate((root) => root.outerHTML);
    expect(dom).not.toContain("data-correct");
    expect(dom.toLowerCase()).not.toContain("quetzalcoatl");
    expect(await sco.locator("html").getAttribute(`data-${DataName.answerCheck}`)).toBe("webcrypto");
    await page.close();
  });
});

describe("a final assessment drawn from a pool", () => {
  test("each attempt draws 8 of 100 spread across the objectives, keeps the fixed choice last, names unanswered questions, and draws again on Try again", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    await launch(page, null);
    const sco = scoFrame(page);
    await nextUntil(sco, "les_final");
    const first = await drawnIds(page);
    expect(first).toHaveLength(8);
    const byObjective = first.map((id) => objectives[Number(id.replace("blk_final", "")) % 4]);
    for (const objective of objectives) expect(byObjective.filter((found) => found === objective)).toHaveLength(2);
    for (const order of await choiceOrders(page)) expect(order.endsWith("3")).toBe(true);
    expect(await sco.locator(`${finalLesson} [data-${DataName.checkAnswer}]`).count()).toBe(0);
    expect(await sco.locator(`${finalLesson} [data-${DataName.question}]:not([hidden]) legend`).first().textContent()).toBe("Question 1 (1 point)");

    await sco.locator(`${finalLesson} [data-${DataName.question}]:not([hidden]) input`).first().check();
    await sco.locator(`${finalLesson} [data-${DataName.submitQuiz}]`).click();
    const dialog = sco.locator(`${finalLesson} dialog[open]`);
    await dialog.waitFor();
    expect(await dialog.locator("h2").textContent()).toBe("7 of 8 questions are not answered");
    expect(await dialog.locator("li").allTextContents()).toEqual(["Question 2", "Question 3", "Question 4", "Question 5", "Question 6", "Question 7", "Question 8"]);
    expect(await dialog.getAttribute("aria-labelledby")).toBeTruthy();
    expect(seriousOrCritical(await runAxe(await frameOf(page)))).toEqual([]);
    await page.screenshot({ path: ".tmp/assessment-submit-dialog-390.png" });
    await dialog.locator(`[data-${DataName.dialogBack}]`).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await sco.locator(`${finalLesson} [data-${DataName.question}]:not([hidden]) input:checked`).count()).toBe(1);
    expect(await sco.locator(`${finalLesson} [data-${DataName.verdict}]`).allTextContents()).toEqual(Array(100).fill(""));

    await submitQuiz(sco);
    const summary = await sco.locator(`${finalLesson} [data-${DataName.quizResult}] p`).textContent();
    expect(summary).toMatch(/^Your score: \d+% \(\d of 8 points\)\. You did not pass yet\. The pass mark is 80%\. Attempts left: 2\.$/);
    expect(await sco.locator(`${finalLesson} [data-${DataName.quizResult}] li`).count()).toBe(8);
    expect(seriousOrCritical(await runAxe(await frameOf(page)))).toEqual([]);
    await sco.locator(`${finalLesson} .${ClassName.quizPanel}`).screenshot({ path: ".tmp/assessment-results-390.png" });
    await sco.locator(`${finalLesson} [data-${DataName.retryQuiz}]`).click();
    const second = await drawnIds(page);
    expect(second).toHaveLength(8);
    expect(second).not.toEqual(first);
    await page.close();
  });

  test("a resumed attempt keeps its draw, choice order and answers; a full 100-question attempt fits SCORM 1.2's 4,096 characters", async () => {
    const page = await browser.newPage();
    await launch(page, null);
    const sco = scoFrame(page);
    await nextUntil(sco, "les_big");
    // Every question of the 100-question pool answered: the largest attempt this course can save.
    await sco.locator(`[data-${DataName.lessonId}=les_big] [data-${DataName.question}]`).evaluateAll((questions) => {
      for (const question of questions) question.querySelector<HTMLInputElement>("input")?.click();
    });
    await nextUntil(sco, "les_final");
    const drawn = await drawnIds(page);
    const orders = await choiceOrders(page);
    await sco.locator(`${finalLesson} [data-${DataName.question}]:not([hidden]) input`).nth(1).check();
    await sco.locator(`${finalLesson} [data-${DataName.question}]:not([hidden])`).nth(3).locator("input").nth(2).check();
    const answered = await sco.locator(`${finalLesson} input:checked`).evaluateAll((inputs, { DataName }) => inputs.map((input) => `${input.closest(`[data-${DataName.question}]`)?.getAttribute(`data-${DataName.questionId}`)}:${(input as HTMLInputElement).value}`), { DataName });
    await closeSco(page, () => (window as unknown as { API: { isTerminated(): boolean } }).API.isTerminated());
    const saved = await lms(page);
    console.log(`suspend_data with a fully answered 100-question attempt and an 8-question draw: ${saved.suspendData.length} characters`);
    expect(saved.suspendData.length).toBeLessThanOrEqual(4096);
    expect((JSON.parse(saved.suspendData) as { a: unknown[] }).a).toHaveLength(3);

    await launch(page, { core: { lesson_location: saved.location, lesson_status: saved.status, entry: "resume" }, suspend_data: saved.suspendData });
    await sco.locator(`${finalLesson}:not([hidden])`).waitFor();
    // The LMS restores the attempt once the adapter has read suspend_data: wait for that draw to show.
    await (await frameOf(page)).waitForFunction(
      ([ids, { DataName }]) => Array.from(document.querySelectorAll<HTMLElement>(`[data-${DataName.lessonId}=les_final] [data-${DataName.question}]:not([hidden])`), (question) => question.dataset[DataName.questionId]).join() === ids.join(),
      [drawn, { DataName }] as const,
      { timeout: 10_000 },
    );
    expect(await choiceOrders(page)).toEqual(orders);
    const restored = await sco.locator(`${finalLesson} input:checked`).evaluateAll((inputs, { DataName }) => inputs.map((input) => `${input.closest(`[data-${DataName.question}]`)?.getAttribute(`data-${DataName.questionId}`)}:${(input as HTMLInputElement).value}`), { DataName });
    expect(restored).toEqual(answered);
    expect(await sco.locator(`[data-${DataName.lessonId}=les_big] input:checked`).count()).toBe(100);
    await page.close();
  });

  test("text typed into a blank and not yet committed is saved when the learner leaves", async () => {
    const page = await browser.newPage();
    await launch(page, null);
    const sco = scoFrame(page);
    await nextUntil(sco, "les_check");
    await sco.locator(`[data-${DataName.lessonId}=les_check] input.${ClassName.blank}`).fill("Quetz");
    await closeSco(page, () => (window as unknown as { API: { isTerminated(): boolean } }).API.isTerminated());
    const saved = await lms(page);
    await launch(page, { core: { lesson_location: saved.location, lesson_status: saved.status, entry: "resume" }, suspend_data: saved.suspendData });
    await (await frameOf(page)).waitForFunction(({ ClassName, DataName }) => document.querySelector<HTMLInputElement>(`[data-${DataName.lessonId}=les_check] input.${ClassName.blank}`)?.value === "Quetz", { ClassName, DataName }, { timeout: 10_000 });
    await page.close();
  });

  test("a hand-edited attempt in suspend_data restarts that quiz cleanly, revealing nothing", async () => {
    const page = await browser.newPage();
    await launch(page, null);
    await nextUntil(scoFrame(page), "les_final");
    await closeSco(page, () => (window as unknown as { API: { isTerminated(): boolean } }).API.isTerminated());
    const saved = await lms(page);
    const data = JSON.parse(saved.suspendData) as { a: [number, unknown][] };
    data.a = data.a.map(([index]) => [index, [1, [[999, "zz", "x"], "junk"]]]);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await launch(page, { core: { lesson_location: saved.location, lesson_status: saved.status, entry: "resume" }, suspend_data: JSON.stringify(data) });
    const sco = scoFrame(page);
    await (await frameOf(page)).waitForFunction(({ DataName }) => document.querySelectorAll(`[data-${DataName.lessonId}=les_final] [data-${DataName.question}]:not([hidden])`).length === 8, { DataName }, { timeout: 10_000 });
    expect(await sco.locator(`${finalLesson} [data-${DataName.submitQuiz}]`).isVisible()).toBe(true);
    expect(await sco.locator(`${finalLesson} [data-${DataName.result}], ${finalLesson} [data-${DataName.explanation}]:not([hidden])`).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  test("the final assessment alone decides success and score: a failed module quiz does not fail the course", async () => {
    const page = await browser.newPage();
    await launch(page, null);
    const sco = scoFrame(page);
    await nextUntil(sco, "les_check");
    await sco.locator(`[data-${DataName.lessonId}=les_check] input.${ClassName.blank}`).fill("wrong");
    await submitQuiz(sco);
    await nextUntil(sco, "les_final");
    const key = answerKeyOf(assessmentCourse());
    for (const id of await drawnIds(page)) {
      const right = key.choices.get(id)?.[0] ?? "";
      await sco.locator(`${finalLesson} [data-${DataName.questionId}=${id}] input[value="${right}"]`).check();
    }
    await submitQuiz(sco);
    expect(await sco.locator(`${finalLesson} [data-${DataName.quizResult}] p`).textContent()).toStartWith("Your score: 100% (8 of 8 points). You passed.");
    const state = await lms(page);
    expect(state.status).toBe("passed");
    expect(state.raw).toBe("100");
    await page.close();
  });
});

describe("SCORM 2004", () => {
  test("success_status and score.scaled come from the final assessment alone", async () => {
    const built = await buildPackage(assessmentCourse(), { format: "scorm2004", assets: memoryAssets(), renderer: renderCourseHtml });
    const server2004 = startPackageServer(await unpackToDirectory(built.stream, "assessment-scorm2004"));
    const page = await browser.newPage();
    await page.goto(`${server2004.origin}/lms/scorm2004.html`);
    await page.evaluate(() => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(null, "/pkg/index.html"));
    const sco = scoFrame(page);
    await waitForCourse(sco);
    const read = () =>
      page.evaluate(() => {
        const cmi = (window as unknown as { API_1484_11: { cmi: { success_status: string; score: { scaled: string } } } }).API_1484_11.cmi;
        return { success: cmi.success_status, scaled: cmi.score.scaled };
      });
    await nextUntil(sco, "les_check");
    await sco.locator(`[data-${DataName.lessonId}=les_check] input.${ClassName.blank}`).fill("Quetzalcoatl");
    await submitQuiz(sco);
    // The module check passed, but only the final assessment decides: success stays unknown.
    expect((await read()).success).toBe("unknown");
    await nextUntil(sco, "les_final");
    await submitQuiz(sco);
    expect(await read()).toEqual({ success: "failed", scaled: "0" });
    await page.close();
    server2004.stop();
  });

  test("per-module packages give the final assessment its own item, the only one in satisfaction rollup", async () => {
    const files = await unzipPackage((await buildPackage(assessmentCourse(), { format: "scorm2004", assets: memoryAssets(), renderer: renderCourseHtml, scoMode: "module" } as never)).stream);
    const manifest = new TextDecoder().decode(files["imsmanifest.xml"]);
    expect(Object.keys(files)).toContain("final-assessment.html");
    const items = [...manifest.matchAll(/<item identifier="([^"]+)"[\s\S]*?<\/item>/g)].map((match) => ({ id: match[1], satisfied: /rollupObjectiveSatisfied="true"/.test(match[0]) }));
    expect(items.filter((item) => item.satisfied).map((item) => item.id)).toEqual(["ITEM_SCO_les_final"]);
    const finalPage = new TextDecoder().decode(files["final-assessment.html"]);
    expect(finalPage).toContain(`<p class="${ClassName.eyebrow}">Final assessment</p>`);
  });
});

describe("cmi5", () => {
  test("a failed module quiz and a passed final assessment send passed, measured against masteryScore 0.8", async () => {
    const player = await startCmi5Player("assessment-cmi5", assessmentCourse());
    try {
      expect(player.au.masteryScore).toBe(0.8);
      const page = await player.browser.newPage();
      const registration = crypto.randomUUID();
      const { url, sessionId } = player.lms.launch({ auUrl: player.au.url, auId: player.au.id, registration, moveOn: player.au.moveOn, masteryScore: player.au.masteryScore });
      await page.goto(url);
      await waitForCourse(page);
      await nextUntil(page, "les_check");
      await page.locator(`[data-${DataName.lessonId}=les_check] input.${ClassName.blank}`).fill("wrong");
      await submitQuiz(page);
      await nextUntil(page, "les_final");
      const key = answerKeyOf(assessmentCourse());
      const drawn = await page.locator(`${finalLesson} [data-${DataName.question}]:not([hidden])`).evaluateAll((questions, { DataName }) => questions.map((question) => (question as HTMLElement).dataset[DataName.questionId] ?? ""), { DataName });
      for (const id of drawn) await page.locator(`${finalLesson} [data-${DataName.questionId}=${id}] input[value="${key.choices.get(id)?.[0] ?? ""}"]`).check();
      await submitQuiz(page);
      await page.goto("about:blank");
      const verbs = await waitFor(() => player.lms.sessionStatements(sessionId).map((statement) => statement.verb.id), (ids) => ids.some((id) => id.endsWith("/terminated")));
      expect(verbs.some((id) => id.endsWith("/failed"))).toBe(false);
      const passed = player.lms.sessionStatements(sessionId).find((statement) => statement.verb.id.endsWith("/passed"));
      expect(passed?.result).toMatchObject({ success: true, score: { scaled: 1 } });
      await page.close();
    } finally {
      await player.stop();
    }
  });
});

describe("one verdict", () => {
  test("cmi5: the LMS's masteryScore (0.9) is the pass mark the page states and grades by: 88% fails on the page and in the LRS", async () => {
    const player = await startCmi5Player("assessment-cmi5-mastery", assessmentCourse());
    try {
      const page = await player.browser.newPage();
      const registration = crypto.randomUUID();
      const { url, sessionId } = player.lms.launch({ auUrl: player.au.url, auId: player.au.id, registration, moveOn: player.au.moveOn, masteryScore: 0.9 });
      await page.goto(url);
      await waitForCourse(page);
      await nextUntil(page, "les_final");
      // The page states the LMS's mark, not the course's 80%, once the launch data is read.
      await page.locator(`${finalLesson} [data-${DataName.passMark}]`).filter({ hasText: "90%" }).waitFor();
      const key = answerKeyOf(assessmentCourse());
      const drawn = await page.locator(`${finalLesson} [data-${DataName.question}]:not([hidden])`).evaluateAll((questions, { DataName }) => questions.map((question) => (question as HTMLElement).dataset[DataName.questionId] ?? ""), { DataName });
      expect(drawn).toHaveLength(8);
      // Seven of eight right: 88%, over the course's 80% and under the LMS's 90%.
      for (const [index, id] of drawn.entries()) await page.locator(`${finalLesson} [data-${DataName.questionId}=${id}] input[value="${index === 0 ? "3" : (key.choices.get(id)?.[0] ?? "")}"]`).check();
      await submitQuiz(page);
      const result = page.locator(`${finalLesson} [data-${DataName.quizResult}]`);
      await result.filter({ hasText: "88%" }).waitFor();
      expect(await result.innerText()).toContain("You did not pass yet. The pass mark is 90%.");
      expect(await result.getAttribute(`data-${DataName.outcome}`)).toBe("failed");
      await page.goto("about:blank");
      const statements = await waitFor(() => player.lms.sessionStatements(sessionId), (all) => all.some((statement) => statement.verb.id.endsWith("/terminated")));
      expect(statements.some((statement) => statement.verb.id.endsWith("/passed"))).toBe(false);
      const failed = statements.find((statement) => statement.verb.id.endsWith("/failed"));
      expect(failed?.result).toMatchObject({ success: false, score: { scaled: 0.88 } });
      await page.close();
    } finally {
      await player.stop();
    }
  });

  test("SCORM 1.2: a pass, then a worse retake, still reads as passed on the page, beside the best attempt that counts", async () => {
    const page = await browser.newPage();
    await launch(page, null);
    const frame = scoFrame(page);
    await nextUntil(frame, "les_final");
    expect(await frame.locator(`${finalLesson} .${ClassName.lessonMeta}`).innerText()).toContain("Your best attempt counts");
    const key = answerKeyOf(assessmentCourse());
    const answer = async (wrong: number) => {
      const drawn = await frame.locator(`${finalLesson} [data-${DataName.question}]:not([hidden])`).evaluateAll((questions, { DataName }) => questions.map((question) => (question as HTMLElement).dataset[DataName.questionId] ?? ""), { DataName });
      for (const [index, id] of drawn.entries()) await frame.locator(`${finalLesson} [data-${DataName.questionId}=${id}] input[value="${index < wrong ? "3" : (key.choices.get(id)?.[0] ?? "")}"]`).check();
      await submitQuiz(frame);
    };
    await answer(0);
    const result = frame.locator(`${finalLesson} [data-${DataName.quizResult}]`);
    await result.filter({ hasText: "100%" }).waitFor();
    await frame.locator(`${finalLesson} [data-${DataName.retryQuiz}]`).click();
    await answer(4);
    await result.filter({ hasText: "50%" }).waitFor();
    expect(await result.innerText()).toContain("Your best score, 100%, counts: you passed. The pass mark is 80%.");
    expect(await result.getAttribute(`data-${DataName.outcome}`)).toBe("passed");
    expect((await lms(page)).status).toBe("passed");
    // The completion screen after the last lesson words the same verdict, with the score that counts.
    await frame.locator(`${finalLesson} a[rel=next]`).click();
    const completion = frame.locator(`#course-complete:not([hidden]) [data-${DataName.completionStatus}]`);
    await completion.filter({ hasText: /\S/ }).waitFor();
    expect(await completion.innerText()).toBe("You have completed the course and passed, with a score of 100%.");
    await page.close();
  });
});

describe("manifests", () => {
  test("cmi5: only the final assessment's AU moves on when passed, with masteryScore = its pass mark / 100", async () => {
    const files = await unzipPackage((await buildPackage(assessmentCourse(), { format: "cmi5", assets: memoryAssets(), renderer: renderCourseHtml, scoMode: "module" } as never)).stream);
    const xml = new TextDecoder().decode(files["cmi5.xml"]);
    const aus = [...xml.matchAll(/<au [^>]*>/g)].map((match) => match[0]);
    const graded = aus.filter((au) => au.includes('moveOn="CompletedAndPassed"'));
    expect(graded).toHaveLength(1);
    expect(graded[0]).toContain('masteryScore="0.8"');
  });
});

async function frameOf(page: Page) {
  const frame = page.frames().find((candidate) => candidate.url().includes("/pkg/"));
  if (!frame) throw new Error("the SCO frame is not loaded");
  return frame as unknown as Page;
}

/** Polls the LRS fake until `done` holds, as export-player-cmi5 does: the statements arrive over HTTP. */
async function waitFor<T>(read: () => T, done: (value: T) => boolean): Promise<T> {
  for (let tries = 0; tries < 200; tries++) {
    const value = read();
    if (done(value)) return value;
    await Bun.sleep(50);
  }
  throw new Error("the LRS never received the terminated statement");
}
