/**
 * What a SCORM package tells the LMS beyond status and score, read back from scorm-again: every answered
 * question as an interaction (id, type, objectives, learner response, correct pattern, result, latency,
 * weighting) in the format each SCORM version requires, `exit` (suspend until the learner is done, then
 * normal), a notice when no LMS API is found, and a clean restart from corrupted suspend data.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import type { ExportCourse } from "../src/formats/package/types.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, quizLessonId, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { shuffledIndices } from "../src/render/shuffle.ts";
import { answerKeyOf, answerQuiz, submitQuiz, closeSco, currentLessonId, nextUntil, retryQuiz, scoFrame, waitForCourse } from "./support/export-player.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./support/lms-harness.ts";
import { DataName } from "../src/page-contract/markup-names.ts";

setDefaultTimeout(30_000);

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

type Format = "scorm12" | "scorm2004";
type Interaction = Record<string, unknown> & { objectives: Record<string, { id: string }>; correct_responses: Record<string, { pattern: string }> };

async function servePackage(format: Format, course: ExportCourse = sampleCourse()): Promise<PackageServer> {
  const built = await buildPackage(course, { format, assets: memoryAssets(), renderer: renderCourseHtml });
  return startPackageServer(await unpackToDirectory(built.stream, `reporting-${format}`));
}

async function launch(page: Page, server: PackageServer, format: Format, saved: unknown = null): Promise<void> {
  await page.goto(`${server.origin}/lms/${format}.html`);
  await page.evaluate((data) => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(data, "/pkg/index.html"), saved);
  await waitForCourse(scoFrame(page));
}

/** The interactions scorm-again stored, in order (its own model, so only values it accepted are there). */
function interactions(page: Page, format: Format): Promise<Interaction[]> {
  return page.evaluate((apiName) => {
    const api = (window as unknown as Record<string, { cmi: { interactions: unknown } }>)[apiName];
    return Object.values(JSON.parse(JSON.stringify(api?.cmi.interactions ?? {})) as Record<string, Interaction>);
  }, format === "scorm12" ? "API" : "API_1484_11");
}

const written = (page: Page, element: string): Promise<unknown> => page.evaluate((name) => (window as unknown as { written: Record<string, unknown> }).written[name], element);

describe("question-level reporting in scorm-again", () => {
  test("SCORM 2004: each answer is an interaction with id, type, objectives, response, correct pattern, result and latency", async () => {
    const server = await servePackage("scorm2004");
    const page = await browser.newPage();
    await launch(page, server, "scorm2004");
    const sco = scoFrame(page);
    await nextUntil(sco, quizLessonId);
    await answerQuiz(sco, false);
    await retryQuiz(sco);
    await answerQuiz(sco, true);
    const recorded = await interactions(page, "scorm2004");
    expect(recorded.map((entry) => entry.id)).toEqual(["blk_q1", "blk_q2", "blk_q3", "blk_q4", "blk_q1", "blk_q2", "blk_q3", "blk_q4"]);
    expect(recorded.map((entry) => entry.result)).toEqual(["incorrect", "incorrect", "incorrect", "incorrect", "correct", "correct", "correct", "correct"]);
    const [wrongChoice, wrongTrueFalse, , wrongBlank, rightChoice, , rightMultiple, rightBlank] = recorded;
    expect(wrongChoice).toMatchObject({ type: "choice", learner_response: "choice_2", weighting: "1", description: "What do you do first when you see a spill?" });
    expect(wrongChoice?.correct_responses["0"]?.pattern).toBe("choice_1");
    expect(wrongChoice?.objectives["0"]?.id).toBe("obj_spill");
    expect(wrongTrueFalse).toMatchObject({ type: "true-false", learner_response: "true" });
    expect(wrongTrueFalse?.correct_responses["0"]?.pattern).toBe("false");
    expect(wrongBlank).toMatchObject({ type: "fill-in", learner_response: "definitely wrong" });
    expect(rightChoice?.learner_response).toBe("choice_1");
    expect(rightMultiple).toMatchObject({ type: "choice", learner_response: "choice_1[,]choice_2" });
    expect(rightBlank?.correct_responses["0"]?.pattern).toBe("{case_matters=false}contain");
    for (const entry of recorded) {
      expect(String(entry.latency)).toMatch(/^PT\d+(\.\d{1,2})?S$/);
      expect(Number.isNaN(Date.parse(String(entry.timestamp)))).toBe(false);
    }
    await page.close();
    server.stop();
  });

  test("SCORM 1.2: interactions use 1.2's formats (single-letter choices, t/f, wrong, CMITimespan latency)", async () => {
    const server = await servePackage("scorm12");
    const page = await browser.newPage();
    await launch(page, server, "scorm12");
    const sco = scoFrame(page);
    await nextUntil(sco, quizLessonId);
    await answerQuiz(sco, false);
    const recorded = await interactions(page, "scorm12");
    expect(recorded.map((entry) => [entry.id, entry.type, entry.student_response, entry.result, entry.correct_responses["0"]?.pattern])).toEqual([
      ["blk_q1", "choice", "b", "wrong", "a"],
      ["blk_q2", "true-false", "t", "wrong", "f"],
      ["blk_q3", "choice", "c", "wrong", "a,b"],
      ["blk_q4", "fill-in", "definitely wrong", "wrong", "contain"],
    ]);
    expect(recorded[1]?.objectives["0"]?.id).toBe("obj_ppe");
    expect(await written(page, "cmi.interactions.0.latency")).toMatch(/^\d{4}:\d{2}:\d{2}\.\d{2}$/);
    expect(recorded[0]?.time).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    await page.close();
    server.stop();
  });

  test("SCORM 2004: matching and ordering questions are matching and sequencing interactions", async () => {
    const course = sampleCourse();
    const quizModule = course.modules[1];
    if (!quizModule) throw new Error("fixture has no second module");
    const matching = { id: "blk_match", type: "matching", prompt: "Match the sign.", points: 2, pairs: [{ left: "Flame", right: "Flammable" }, { left: "Skull", right: "Toxic" }], objectiveIds: [] };
    const ordering = { id: "blk_order", type: "ordering", prompt: "Order the steps.", points: 1, items: [{ text: "Stop" }, { text: "Warn" }, { text: "Contain" }], objectiveIds: [] };
    const quiz = { id: "les_more", title: "More questions", kind: "quiz" as const, passingScore: 50, maxAttempts: null, blocks: [matching, ordering] };
    const withMore = { ...course, modules: [course.modules[0], { ...quizModule, lessons: [...quizModule.lessons, quiz] }] } as ExportCourse;
    const server = await servePackage("scorm2004", withMore);
    const page = await browser.newPage();
    await launch(page, server, "scorm2004");
    const sco = scoFrame(page);
    await nextUntil(sco, "les_more");
    const lesson = sco.locator(`[data-${DataName.page}]:not([hidden])`);
    const selects = lesson.locator(`select[data-${DataName.part}]`);
    const rights = answerKeyOf(withMore).matches.get("blk_match") ?? [];
    for (let index = 0; index < 2; index++) await selects.nth(index).selectOption(rights[index] ?? "");
    const order = await lesson.locator(`[data-${DataName.orderingList}] [data-${DataName.part}]`).evaluateAll((items, { DataName }) => items.map((item) => `item_${Number((item as HTMLElement).dataset[DataName.item]) + 1}`), { DataName });
    await submitQuiz(sco);
    const [match, sequence] = await interactions(page, "scorm2004");
    expect(match).toMatchObject({ id: "blk_match", type: "matching", result: "correct", weighting: "2", learner_response: "item_1[.]target_1[,]item_2[.]target_2" });
    expect(match?.correct_responses["0"]?.pattern).toBe("item_1[.]target_1[,]item_2[.]target_2");
    expect(sequence).toMatchObject({ id: "blk_order", type: "sequencing", learner_response: order.join("[,]") });
    // Items are named by the place they were first shown at, so the right order does not read as item_1, item_2…
    const shown = shuffledIndices(3, "blk_order");
    expect(sequence?.correct_responses["0"]?.pattern).toBe([0, 1, 2].map((position) => `item_${shown.indexOf(position) + 1}`).join("[,]"));
    await page.close();
    server.stop();
  });
});

describe("exit, notices and bad suspend data", () => {
  test("exit stays suspend while the course is unfinished and becomes normal once completed and passed", async () => {
    const server = await servePackage("scorm2004");
    const page = await browser.newPage();
    await launch(page, server, "scorm2004");
    const sco = scoFrame(page);
    await nextUntil(sco, "les_spill");
    expect(await written(page, "cmi.exit")).toBe("suspend");
    await nextUntil(sco, quizLessonId);
    await answerQuiz(sco, false);
    expect(await written(page, "cmi.exit")).toBe("suspend");
    await retryQuiz(sco);
    await answerQuiz(sco, true);
    expect(await written(page, "cmi.exit")).toBe("normal");
    await closeSco(page, () => (window as unknown as { API_1484_11: { isTerminated(): boolean } }).API_1484_11.isTerminated());
    expect(await written(page, "cmi.exit")).toBe("normal");
    await page.close();
    server.stop();
  });

  test("opened without an LMS, the player tells the learner that progress is not being saved", async () => {
    const server = await servePackage("scorm12");
    const page = await browser.newPage();
    await page.goto(`${server.origin}/pkg/index.html`);
    await waitForCourse(page);
    const notice = page.locator("[data-lms-notice]");
    expect(await notice.getAttribute("role")).toBe("status");
    expect(await notice.textContent()).toContain("Your progress is not being saved");
    expect(await notice.isVisible()).toBe(true);
    await page.close();
    server.stop();
  });

  test("corrupted suspend data restarts the course cleanly instead of breaking the player", async () => {
    const server = await servePackage("scorm2004");
    for (const suspendData of ["{broken", "null", '{"v":1,"c":"x","s":123,"q":[["a"],null,[99,1,2,3,1]]}', "[]"]) {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await launch(page, server, "scorm2004", { suspend_data: suspendData, entry: "resume" });
      const sco = scoFrame(page);
      expect(await currentLessonId(sco)).toBeNull();
      expect(await nextUntil(sco, "les_ppe")).toEqual(["les_welcome", "les_ppe"]);
      expect(await written(page, "cmi.suspend_data")).toContain('"v":1');
      expect(errors).toEqual([]);
      await page.close();
    }
    server.stop();
  });
});
