/**
 * Drives a packaged course in the browser the way a learner does: follows "Next" through every lesson,
 * answers a quiz lesson wrongly or rightly, submits and retries. Selectors are the renderer's
 * learner-facing controls (pager links, choice inputs, blanks, the submit and retry buttons).
 */
import type { FrameLocator, Locator, Page } from "playwright-core";

/** Where the course is: the SCO frame inside an LMS page, or the page itself (a cmi5 AU in its own window). */
export interface CourseScope {
  locator(selector: string): Locator;
}

export function scoFrame(page: Page): FrameLocator {
  return page.frameLocator("#sco");
}

const visiblePage = "[data-page]:not([hidden])";

/** The lesson ID of the page on screen, or null on the introduction. */
export async function currentLessonId(sco: CourseScope): Promise<string | null> {
  return sco.locator(visiblePage).getAttribute("data-lesson-id");
}

export async function waitForCourse(sco: CourseScope): Promise<void> {
  await sco.locator("html.course-ready").waitFor({ state: "attached" });
}

/** Clicks "Next" until the page with `lessonId` is shown (or there is no next page). */
export async function nextUntil(sco: CourseScope, lessonId: string): Promise<string[]> {
  const visited: string[] = [];
  for (let step = 0; step < 200; step++) {
    const current = await currentLessonId(sco);
    if (current) visited.push(current);
    if (current === lessonId) return visited;
    const next = sco.locator(`${visiblePage} a[rel=next]`);
    if ((await next.count()) === 0) return visited;
    const target = ((await next.getAttribute("href")) ?? "").slice(1);
    await next.click();
    // The page shows on the fragment change, a task after the click: wait for that page, not the old one.
    await sco.locator(`[data-page][id="${target}"]:not([hidden])`).waitFor();
  }
  return visited;
}

/** Answers every question of the visible quiz lesson, all right or all wrong, and submits it. */
export async function answerQuiz(sco: CourseScope, correctly: boolean): Promise<void> {
  const lesson = sco.locator(`${visiblePage}[data-lesson-kind=quiz]`);
  const questions = lesson.locator("[data-question]");
  const count = await questions.count();
  for (let index = 0; index < count; index++) {
    const question = questions.nth(index);
    const grading = await question.getAttribute("data-grading");
    if (grading === "choice") {
      const inputs = question.locator("input[data-part]");
      const inputCount = await inputs.count();
      let checkedWrong = false;
      for (let inputIndex = 0; inputIndex < inputCount; inputIndex++) {
        const input = inputs.nth(inputIndex);
        const isCorrect = (await input.getAttribute("data-correct")) === "true";
        if (correctly && isCorrect) await input.check();
        if (!correctly && !isCorrect && !checkedWrong) {
          await input.check();
          checkedWrong = true;
        }
      }
    } else if (grading === "blanks") {
      const blanks = question.locator("input[data-part]");
      for (let blankIndex = 0; blankIndex < (await blanks.count()); blankIndex++) {
        const blank = blanks.nth(blankIndex);
        const answers = JSON.parse((await blank.getAttribute("data-answers")) ?? "[]") as string[];
        await blank.fill(correctly ? (answers[0] ?? "") : "definitely wrong");
      }
    }
  }
  await lesson.locator("[data-submit-quiz]").click();
  await lesson.locator("[data-quiz-result]").filter({ hasText: /\S/ }).waitFor();
}

export async function retryQuiz(sco: CourseScope): Promise<void> {
  await sco.locator(`${visiblePage} [data-retry-quiz]`).click();
}

/** Requests the page made to anywhere but the test server (none are allowed: the package is self-contained). */
export function watchForeignRequests(page: Page, origin: string): string[] {
  const foreign: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("about:")) foreign.push(url);
  });
  return foreign;
}

/** Leaves the SCO the way an LMS closes it, and waits until the LMS has seen the session finish. */
export async function closeSco(page: Page, finishedCheck: () => boolean): Promise<void> {
  await page.evaluate(() => (window as unknown as { unload: () => void }).unload());
  await page.waitForFunction(finishedCheck);
}
