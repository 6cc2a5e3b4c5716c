/**
 * Issue 30's quiz settings played in SCORM 1.2 packages with scorm-again as the LMS: a quiz shown one
 * question at a time ("Question 2 of 3", previous/next) answered and submitted by keyboard alone, and
 * which attempt counts after a retake (`attemptScoring`), the same on the page and in what the LMS is told.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, Frame, Page } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import type { ExportCourse } from "../src/formats/package/types.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { answerKeyOf, answerQuiz, nextUntil, retryQuiz, scoFrame, waitForCourse } from "./support/export-player.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./support/lms-harness.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

setDefaultTimeout(60_000);

const questions = Array.from({ length: 3 }, (_, index) => ({
  id: `blk_q${index}`,
  type: "single_choice",
  prompt: `Question text ${index}?`,
  points: 1,
  objectiveIds: [],
  choices: [
    { text: "Alpha", correct: index === 0 },
    { text: "Beta", correct: index === 1 },
    { text: "Gamma", correct: index === 2 },
  ],
}));

function quizCourse(settings: Record<string, unknown>): ExportCourse {
  const base = sampleCourse();
  return {
    ...base,
    modules: [
      {
        id: "mod_one",
        title: "Only module",
        objectiveIds: [],
        lessons: [
          { id: "les_read", title: "Read this", kind: "content", blocks: [{ id: "blk_t", type: "text", markdown: "Some reading." }] },
          { id: "les_quiz", title: "Check", kind: "quiz", passingScore: 100, shuffleChoices: false, ...settings, blocks: questions },
        ],
      },
    ],
  } as unknown as ExportCourse;
}

let browser: Browser;
const servers: PackageServer[] = [];
async function serve(name: string, settings: Record<string, unknown>): Promise<PackageServer> {
  const built = await buildPackage(quizCourse(settings), { format: "scorm12", assets: memoryAssets(), renderer: renderCourseHtml });
  const server = startPackageServer(await unpackToDirectory(built.stream, name));
  servers.push(server);
  return server;
}
beforeAll(async () => {
  mkdirSync(".tmp", { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  for (const server of servers) server.stop();
  await browser?.close();
});

async function launch(page: Page, server: PackageServer): Promise<void> {
  await page.goto(`${server.origin}/lms/scorm12.html`);
  await page.evaluate(() => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(null, "/pkg/index.html"));
  await waitForCourse(scoFrame(page));
}

async function frameOf(page: Page): Promise<Frame> {
  const frame = page.frames().find((candidate) => candidate.url().includes("/pkg/"));
  if (!frame) throw new Error("the SCO frame is not loaded");
  return frame;
}

/** What has focus in the course: the question it is in and the pager button it is, if any. */
const focused = (frame: Frame): Promise<{ question: string | null; step: string | null; submit: boolean }> =>
  frame.evaluate(({ DataName }) => {
    const active = document.activeElement as HTMLElement | null;
    return { question: active?.closest<HTMLElement>(`[data-${DataName.question}]`)?.dataset[DataName.questionId] ?? null, step: active?.dataset[DataName.questionStep] ?? null, submit: active?.hasAttribute(`data-${DataName.submitQuiz}`) ?? false };
  }, { DataName });

/** Presses Tab until `reached` holds, at most `limit` times; returns the presses. */
async function tabUntil(page: Page, frame: Frame, reached: (state: Awaited<ReturnType<typeof focused>>) => boolean, limit = 8): Promise<number> {
  for (let presses = 1; presses <= limit; presses++) {
    await page.keyboard.press("Tab");
    if (reached(await focused(frame))) return presses;
  }
  throw new Error(`focus did not reach the wanted control within ${limit} Tab presses (at ${JSON.stringify(await focused(frame))})`);
}

const quiz = `[data-${DataName.lessonId}=les_quiz]`;
const shownQuestions = (frame: Frame): Promise<string[]> =>
  frame.locator(`${quiz} [data-${DataName.question}]:visible`).evaluateAll((found, { DataName }) => found.map((question) => (question as HTMLElement).dataset[DataName.questionId] ?? ""), { DataName });

describe("one question at a time", () => {
  test("shows one question with its count, moves by keyboard with focus on the new question, keeps answers, and submits", async () => {
    const server = await serve("paged-quiz", { oneQuestionAtATime: true });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await launch(page, server);
    const sco = scoFrame(page);
    await nextUntil(sco, "les_quiz");
    const frame = await frameOf(page);
    // One heading says where the learner is and what the question is worth: the shown question's legend (issue 41).
    const count = frame.locator(`${quiz} [data-${DataName.question}]:visible legend`);
    const submit = frame.locator(`${quiz} [data-${DataName.submitQuiz}]`);
    expect(await shownQuestions(frame)).toEqual(["blk_q0"]);
    expect(await count.textContent()).toBe("Question 1 of 3 (1 point)");
    expect(await frame.locator(`${quiz} :visible`).filter({ hasText: /^Question \d of \d$/ }).count()).toBe(0);
    expect(await frame.locator(`${quiz} [data-${DataName.questionStep}="-1"]`).isVisible()).toBe(false);
    // "Next question" until the last question; "Submit quiz" on the last only.
    expect(await submit.isVisible()).toBe(false);

    // Question 1: into its choices, Space picks the first (right) one, then on to Next.
    await tabUntil(page, frame, (state) => state.question === "blk_q0");
    await page.keyboard.press("Space");
    await tabUntil(page, frame, (state) => state.step === "1");
    await page.keyboard.press("Enter");
    await frame.locator(`${quiz} [data-${DataName.questionId}=blk_q1]:visible`).waitFor({ timeout: 10_000 });
    expect(await count.textContent()).toBe("Question 2 of 3 (1 point)");
    expect(await submit.isVisible()).toBe(false);
    expect(await shownQuestions(frame)).toEqual(["blk_q1"]);
    expect((await focused(frame)).question).toBe("blk_q1");

    // Question 2: the arrow key picks the second choice; Next; then back with Previous and forward again.
    await page.keyboard.press("ArrowDown");
    await tabUntil(page, frame, (state) => state.step === "1");
    await page.keyboard.press("Enter");
    await frame.locator(`${quiz} [data-${DataName.questionId}=blk_q2]:visible`).waitFor({ timeout: 10_000 });
    expect(await count.textContent()).toBe("Question 3 of 3 (1 point)");
    expect(await frame.locator(`${quiz} [data-${DataName.questionStep}="1"]`).isVisible()).toBe(false);
    expect(await submit.isVisible()).toBe(true);
    await tabUntil(page, frame, (state) => state.step === "-1");
    await page.keyboard.press("Enter");
    await frame.locator(`${quiz} [data-${DataName.questionId}=blk_q1]:visible`).waitFor({ timeout: 10_000 });
    expect(await count.textContent()).toBe("Question 2 of 3 (1 point)");
    expect(await submit.isVisible()).toBe(false);
    expect(await frame.locator(`${quiz} [data-${DataName.questionId}=blk_q1] input:checked`).getAttribute("value")).toBe("1");
    await tabUntil(page, frame, (state) => state.step === "1");
    await page.keyboard.press("Enter");
    await frame.locator(`${quiz} [data-${DataName.questionId}=blk_q2]:visible`).waitFor({ timeout: 10_000 });

    // Question 3: the third choice, then Submit.
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await tabUntil(page, frame, (state) => state.submit);
    await page.keyboard.press("Enter");
    const result = frame.locator(`${quiz} [data-${DataName.quizResult}] p`).first();
    await result.waitFor({ timeout: 10_000 });
    expect(await result.textContent()).toContain("Your score: 100%");
    // The review shows every question again; the pager goes.
    expect(await shownQuestions(frame)).toEqual(["blk_q0", "blk_q1", "blk_q2"]);
    expect(await frame.locator(`${quiz} [data-${DataName.questionPager}]`).isVisible()).toBe(false);
    expect(await frame.locator(`${quiz} [data-${DataName.question}] legend`).allTextContents()).toEqual(["Question 1 (1 point)", "Question 2 (1 point)", "Question 3 (1 point)"]);
    await page.close();
  });
});

describe("which attempt counts after a retake", () => {
  type Lms = { status: string; raw: string };
  const lms = (page: Page): Promise<Lms> =>
    page.evaluate(() => {
      const api = (window as unknown as { API: { cmi: { core: { lesson_status: string; score: { raw: string } } } } }).API;
      return { status: api.cmi.core.lesson_status, raw: api.cmi.core.score.raw };
    });

  /** Passes the quiz, then retakes it and fails: returns the page's result sentence, its meta line and the LMS's record. */
  async function passThenFail(settings: Record<string, unknown>, name: string): Promise<{ summary: string; meta: string; first: Lms; second: Lms }> {
    const server = await serve(name, settings);
    const page = await browser.newPage();
    await launch(page, server);
    const sco = scoFrame(page);
    await nextUntil(sco, "les_quiz");
    const key = answerKeyOf(quizCourse(settings));
    await answerQuiz(sco, true, key);
    const first = await lms(page);
    await retryQuiz(sco);
    await answerQuiz(sco, false, key);
    const second = await lms(page);
    const summary = (await sco.locator(`${quiz} [data-${DataName.quizResult}] p`).first().textContent()) ?? "";
    const meta = (await sco.locator(`${quiz} .${ClassName.lessonMeta}`).textContent()) ?? "";
    await page.close();
    return { summary, meta, first, second };
  }

  test("best (the default): a worse retake keeps the pass, on the page and in the LMS", async () => {
    const played = await passThenFail({}, "scoring-best");
    expect(played.first).toEqual({ status: "passed", raw: "100" });
    expect(played.second).toEqual({ status: "passed", raw: "100" });
    expect(played.meta).toContain("Your best attempt counts");
    expect(played.summary).toContain("Your best score, 100%, counts: you passed.");
  });

  test("last: a worse retake takes the pass back, on the page and in the LMS", async () => {
    const played = await passThenFail({ attemptScoring: "last" }, "scoring-last");
    expect(played.first).toEqual({ status: "passed", raw: "100" });
    expect(played.second).toEqual({ status: "failed", raw: "0" });
    expect(played.meta).toContain("Your last attempt counts");
    expect(played.summary).toContain("Your score: 0%");
    expect(played.summary).toContain("You did not pass yet. The pass mark is 100%.");
    expect(played.summary).not.toContain("counts: you passed");
  });
});
