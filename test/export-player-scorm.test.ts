/**
 * The packaged player against a real SCORM runtime: each package is unpacked, served on 127.0.0.1 and
 * launched in headless Chromium inside an LMS page whose API is scorm-again. The test plays it like a
 * learner (every lesson, the quiz failed then passed) and checks what scorm-again recorded: status,
 * score, bookmark, and that a relaunch with the saved data resumes at the right lesson.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, quizLessonId, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { answerQuiz, closeSco, currentLessonId, nextUntil, retryQuiz, scoFrame, waitForCourse, watchForeignRequests } from "./support/export-player.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./support/lms-harness.ts";
import { DataName } from "../src/page-contract/markup-names.ts";

// A browser session plays a whole course; give it more than the default five seconds.
setDefaultTimeout(30_000);

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

type Cmi = Record<string, unknown>;
const allLessons = ["les_welcome", "les_ppe", "les_spill", quizLessonId];

async function servePackage(format: "scorm12" | "scorm2004"): Promise<PackageServer> {
  const built = await buildPackage(sampleCourse(), { format, assets: memoryAssets(), renderer: renderCourseHtml });
  return startPackageServer(await unpackToDirectory(built.stream, `player-${format}`));
}

async function launch(page: Page, server: PackageServer, lmsPage: string, saved: Cmi | null): Promise<void> {
  await page.goto(`${server.origin}/lms/${lmsPage}`);
  await page.evaluate((data) => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(data, "/pkg/index.html"), saved);
  await waitForCourse(scoFrame(page));
}

describe("SCORM 1.2 player with scorm-again as the LMS", () => {
  let server: PackageServer;
  beforeAll(async () => {
    server = await servePackage("scorm12");
  });
  afterAll(() => server?.stop());

  const read = (page: Page): Promise<Cmi> =>
    page.evaluate(() => {
      const lms = window as unknown as { API: { cmi: { core: Cmi & { score: Cmi }; suspend_data: string } }; written: Cmi };
      const core = lms.API.cmi.core;
      return { status: core.lesson_status, raw: core.score.raw, location: core.lesson_location, suspendData: lms.API.cmi.suspend_data, exit: lms.written["cmi.core.exit"] };
    });

  test("visiting every lesson and failing then passing the quiz is recorded as failed, then passed with score 100", async () => {
    const page = await browser.newPage();
    const foreign = watchForeignRequests(page, server.origin);
    await launch(page, server, "scorm12.html", null);
    const sco = scoFrame(page);
    expect(await nextUntil(sco, quizLessonId)).toEqual(allLessons);
    expect((await read(page)).location).toBe(quizLessonId);
    expect((await read(page)).status).toBe("incomplete");

    await answerQuiz(sco, false);
    expect(await read(page)).toMatchObject({ status: "failed", raw: "0" });
    await retryQuiz(sco);
    await answerQuiz(sco, true);
    // Done (every lesson seen, quiz passed): a normal exit, which SCORM 1.2 writes as "".
    expect(await read(page)).toMatchObject({ status: "passed", raw: "100", exit: "" });

    await closeSco(page, () => (window as unknown as { API: { isTerminated(): boolean } }).API.isTerminated());
    expect(foreign).toEqual([]);
    await page.close();
  });

  test("a relaunch with the saved bookmark and suspend data resumes at the lesson the learner left", async () => {
    const page = await browser.newPage();
    await launch(page, server, "scorm12.html", null);
    const sco = scoFrame(page);
    await nextUntil(sco, "les_ppe");
    await closeSco(page, () => (window as unknown as { API: { isTerminated(): boolean } }).API.isTerminated());
    const saved = await read(page);
    expect(saved.location).toBe("les_ppe");

    await launch(page, server, "scorm12.html", { core: { lesson_location: saved.location, lesson_status: saved.status, entry: "resume" }, suspend_data: saved.suspendData });
    expect(await currentLessonId(scoFrame(page))).toBe("les_ppe");
    const visited = await scoFrame(page).locator("body").evaluate(() => window.CourseRuntime?.getState().visitedLessonIds);
    expect(visited).toEqual(["les_welcome", "les_ppe"]);
    await page.close();
  });
});

describe("SCORM 2004 4th Edition player with scorm-again as the LMS", () => {
  let server: PackageServer;
  beforeAll(async () => {
    server = await servePackage("scorm2004");
  });
  afterAll(() => server?.stop());

  const read = (page: Page): Promise<Cmi> =>
    page.evaluate(() => {
      const lms = window as unknown as { API_1484_11: { cmi: Cmi & { score: Cmi } }; written: Cmi };
      const cmi = lms.API_1484_11.cmi;
      return {
        completion: cmi.completion_status,
        success: cmi.success_status,
        scaled: cmi.score.scaled,
        raw: cmi.score.raw,
        location: cmi.location,
        suspendData: cmi.suspend_data,
        exit: lms.written["cmi.exit"],
      };
    });

  test("completion, success and scaled score follow the learner: failed, then passed and completed", async () => {
    const page = await browser.newPage();
    const foreign = watchForeignRequests(page, server.origin);
    await launch(page, server, "scorm2004.html", null);
    const sco = scoFrame(page);
    await nextUntil(sco, "les_ppe");
    expect(await read(page)).toMatchObject({ completion: "incomplete", success: "unknown", location: "les_ppe" });
    expect(await nextUntil(sco, quizLessonId)).toEqual(["les_ppe", "les_spill", quizLessonId]);
    expect((await read(page)).completion).toBe("completed");

    await answerQuiz(sco, false);
    expect(await read(page)).toMatchObject({ success: "failed", scaled: "0", raw: "0", exit: "suspend" });
    await retryQuiz(sco);
    await answerQuiz(sco, true);
    expect(await read(page)).toMatchObject({ completion: "completed", success: "passed", scaled: "1", raw: "100", exit: "normal" });

    await closeSco(page, () => (window as unknown as { API_1484_11: { isTerminated(): boolean } }).API_1484_11.isTerminated());
    expect(foreign).toEqual([]);
    await page.close();
  });

  test("a relaunch resumes at the bookmarked lesson with quiz attempts restored", async () => {
    const page = await browser.newPage();
    await launch(page, server, "scorm2004.html", null);
    const sco = scoFrame(page);
    await nextUntil(sco, quizLessonId);
    await answerQuiz(sco, false);
    await sco.locator(`a[data-${DataName.contentsLink}]`).nth(2).click();
    // The lesson is shown (and reported) on hashchange, which follows the click; wait for it before leaving.
    await sco.locator(`[data-${DataName.page}][data-${DataName.lessonId}="les_ppe"]:not([hidden])`).waitFor();
    await closeSco(page, () => (window as unknown as { API_1484_11: { isTerminated(): boolean } }).API_1484_11.isTerminated());
    const saved = await read(page);
    expect(saved.location).toBe("les_ppe");

    await launch(page, server, "scorm2004.html", { location: saved.location, suspend_data: saved.suspendData, entry: "resume" });
    const resumed = scoFrame(page);
    expect(await currentLessonId(resumed)).toBe("les_ppe");
    const quiz = await resumed.locator("body").evaluate((_, lessonId) => window.CourseRuntime?.getState().quizzes[lessonId], quizLessonId);
    expect(quiz).toMatchObject({ attempts: 1, passed: false });
    await page.close();
  });
});
