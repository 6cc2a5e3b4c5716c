/**
 * Drives a packaged course in the browser the way a learner does: follows "Next" through every lesson,
 * answers a quiz lesson wrongly or rightly, submits and retries. Selectors are the renderer's
 * learner-facing controls (pager links, choice inputs, blanks, the submit and retry buttons).
 */
import type { FrameLocator, Locator, Page } from "playwright-core";
import type { RenderableCourse } from "../../src/render/types.ts";
import { sampleCourse } from "./export-course.ts";
import { DataName } from "../../src/page-contract/markup-names.ts";

/** The right answers, by question id: what the page must not tell, so the test reads it from the course. */
export interface AnswerKey {
  /** Choice questions: the authored indices of the right choices. */
  readonly choices: ReadonlyMap<string, readonly string[]>;
  /** Fill-in questions: the first accepted answer of each blank. */
  readonly blanks: ReadonlyMap<string, readonly string[]>;
  /** Matching questions: the index of each row's right-hand text among the distinct ones. */
  readonly matches: ReadonlyMap<string, readonly string[]>;
}

type Loose = Record<string, unknown>;

export function answerKeyOf(course: RenderableCourse): AnswerKey {
  const choices = new Map<string, string[]>();
  const blanks = new Map<string, string[]>();
  const matches = new Map<string, string[]>();
  for (const lesson of course.modules.flatMap((module) => module.lessons)) {
    for (const block of (lesson.blocks ?? []) as unknown as readonly Loose[]) {
      const id = String(block.id);
      if (block.type === "true_false") choices.set(id, [block.answer === true ? "0" : "1"]);
      if (Array.isArray(block.choices)) choices.set(id, (block.choices as Loose[]).flatMap((choice, index) => (choice.correct === true ? [String(index)] : [])));
      if (Array.isArray(block.blanks)) blanks.set(id, (block.blanks as Loose[]).map((blank) => String((blank.answers as string[])[0] ?? "")));
      if (Array.isArray(block.pairs)) {
        const pairs = block.pairs as Loose[];
        const rights = [...new Set(pairs.map((pair) => String(pair.right)))];
        matches.set(id, pairs.map((pair) => String(rights.indexOf(String(pair.right)))));
      }
    }
  }
  return { choices, blanks, matches };
}

/** Where the course is: the SCO frame inside an LMS page, or the page itself (a cmi5 AU in its own window). */
export interface CourseScope {
  locator(selector: string): Locator;
}

export function scoFrame(page: Page): FrameLocator {
  return page.frameLocator("#sco");
}

const visiblePage = `[data-${DataName.page}]:not([hidden])`;

/** The lesson ID of the page on screen, or null on the introduction. */
export async function currentLessonId(sco: CourseScope): Promise<string | null> {
  return sco.locator(visiblePage).getAttribute(`data-${DataName.lessonId}`);
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
    await sco.locator(`[data-${DataName.page}][id="${target}"]:not([hidden])`).waitFor();
  }
  return visited;
}

/**
 * Answers every drawn question of the visible quiz lesson, all right or all wrong, and submits it,
 * submitting anyway when the page names questions left unanswered (matching and ordering).
 */
export async function answerQuiz(sco: CourseScope, correctly: boolean, key: AnswerKey = answerKeyOf(sampleCourse())): Promise<void> {
  const lesson = sco.locator(`${visiblePage}[data-${DataName.lessonKind}=quiz]`);
  const questions = lesson.locator(`[data-${DataName.question}]:not([hidden])`);
  const count = await questions.count();
  for (let index = 0; index < count; index++) {
    const question = questions.nth(index);
    const grading = await question.getAttribute(`data-${DataName.grading}`);
    const questionId = (await question.getAttribute(`data-${DataName.questionId}`)) ?? "";
    if (grading === "choice") {
      const inputs = question.locator(`input[data-${DataName.part}]`);
      const inputCount = await inputs.count();
      let checkedWrong = false;
      for (let inputIndex = 0; inputIndex < inputCount; inputIndex++) {
        const input = inputs.nth(inputIndex);
        const isCorrect = (key.choices.get(questionId) ?? []).includes((await input.getAttribute("value")) ?? "");
        if (correctly && isCorrect) await input.check();
        if (!correctly && !isCorrect && !checkedWrong) {
          await input.check();
          checkedWrong = true;
        }
      }
    } else if (grading === "blanks") {
      const blanks = question.locator(`input[data-${DataName.part}]`);
      for (let blankIndex = 0; blankIndex < (await blanks.count()); blankIndex++) {
        const blank = blanks.nth(blankIndex);
        await blank.fill(correctly ? (key.blanks.get(questionId)?.[blankIndex] ?? "") : "definitely wrong");
      }
    }
  }
  await submitQuiz(sco);
}

/** Submits the visible quiz, choosing "Submit anyway" if the page asks about unanswered questions. */
export async function submitQuiz(sco: CourseScope): Promise<void> {
  const lesson = sco.locator(`${visiblePage}[data-${DataName.lessonKind}=quiz]`);
  await lesson.locator(`[data-${DataName.submitQuiz}]`).click();
  const result = lesson.locator(`[data-${DataName.quizResult}]`).filter({ hasText: /\S/ });
  const dialog = lesson.locator(`dialog[data-${DataName.submitDialog}][open]`);
  await result.or(dialog).first().waitFor();
  if (await dialog.isVisible()) await dialog.locator(`[data-${DataName.dialogSubmit}]`).click();
  await result.waitFor();
}

export async function retryQuiz(sco: CourseScope): Promise<void> {
  await sco.locator(`${visiblePage} [data-${DataName.retryQuiz}]`).click();
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
