/**
 * The designed finish under axe-core (WCAG 2.2 AA rules and best practices) at 390 px, with the default
 * light look and a dark course theme: a quiz shown one question at a time, its results screen, and the
 * course's completion screen, in a SCORM 1.2 package with scorm-again. Each is also screenshotted at
 * 1280 and 390 px into `.tmp/` to be looked at.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, Frame, Page } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import type { ExportCourse } from "../src/formats/package/types.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { runAxe, type AxeViolation } from "./support/browser.ts";
import { memoryAssets, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { answerKeyOf, nextUntil, scoFrame, submitQuiz, waitForCourse } from "./support/export-player.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./support/lms-harness.ts";
import { DataName } from "../src/page-contract/markup-names.ts";

setDefaultTimeout(90_000);

const questions = Array.from({ length: 4 }, (_, index) => ({
  id: `blk_q${index}`,
  type: "single_choice",
  prompt: `Which answer fits case ${index + 1}?`,
  points: 1,
  explanation: "The lesson explains why.",
  objectiveIds: [],
  choices: [
    { text: "Alpha", correct: index % 2 === 0 },
    { text: "Beta", correct: index % 2 === 1 },
  ],
}));

const themes = {
  light: null,
  dark: { primaryColor: "#60a5fa", accentColor: "#fbbf24", backgroundColor: "#111827", textColor: "#f3f4f6" },
} as const;

function finishCourse(theme: (typeof themes)[keyof typeof themes]): ExportCourse {
  const base = sampleCourse();
  return {
    ...base,
    theme,
    modules: [
      {
        id: "mod_one",
        title: "Only module",
        objectiveIds: [],
        lessons: [
          { id: "les_read", title: "Read this", kind: "content", blocks: [{ id: "blk_t", type: "text", markdown: "Some reading before the check." }] },
          { id: "les_quiz", title: "Final check", kind: "quiz", passingScore: 75, maxAttempts: 3, oneQuestionAtATime: true, finalAssessment: true, shuffleChoices: false, blocks: questions },
        ],
      },
    ],
  } as unknown as ExportCourse;
}

let browser: Browser;
const servers: PackageServer[] = [];
beforeAll(async () => {
  mkdirSync(".tmp", { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  for (const server of servers) server.stop();
  await browser?.close();
});

async function frameOf(page: Page): Promise<Frame> {
  const frame = page.frames().find((candidate) => candidate.url().includes("/pkg/"));
  if (!frame) throw new Error("the SCO frame is not loaded");
  return frame;
}

/** Every violation axe reports, named, so a failure says what and where. */
const named = (violations: readonly AxeViolation[]): string[] => violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.targets.join(", ")}`);

async function checkAndShoot(page: Page, name: string): Promise<string[]> {
  const frame = await frameOf(page);
  const found = named(await runAxe(frame));
  await page.screenshot({ path: `.tmp/finish-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `.tmp/finish-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  return found;
}

describe("the finish passes axe at 390 px", () => {
  for (const [themeName, theme] of Object.entries(themes)) {
    test(`${themeName}: one question at a time, the results screen and the completion screen`, async () => {
      const course = finishCourse(theme);
      const built = await buildPackage(course, { format: "scorm12", assets: memoryAssets(), renderer: renderCourseHtml });
      const server = startPackageServer(await unpackToDirectory(built.stream, `finish-${themeName}`));
      servers.push(server);
      const page = await browser.newPage({ viewport: { width: 390, height: 844 }, bypassCSP: true });
      await page.goto(`${server.origin}/lms/scorm12.html`);
      await page.evaluate(() => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(null, "/pkg/index.html"));
      const sco = scoFrame(page);
      await waitForCourse(sco);
      await nextUntil(sco, "les_quiz");
      const quiz = sco.locator(`[data-${DataName.lessonId}=les_quiz]`);
      await quiz.locator(`[data-${DataName.question}] legend`).filter({ hasText: "Question 1 of 4 (1 point)" }).waitFor({ timeout: 10_000 });
      expect(await checkAndShoot(page, `${themeName}-question`)).toEqual([]);

      // Three of four right (75 %): passed, and the review lists each question.
      const key = answerKeyOf(course);
      for (const [index, question] of questions.entries()) {
        const right = key.choices.get(question.id)?.[0] ?? "0";
        await quiz.locator(`[data-${DataName.questionId}=${question.id}] input[value="${index === 3 ? String(1 - Number(right)) : right}"]`).check();
        if (index < questions.length - 1) await quiz.locator(`[data-${DataName.questionStep}="1"]`).click();
      }
      await submitQuiz(sco);
      expect(await quiz.locator(`[data-${DataName.quizResult}] li`).count()).toBe(4);
      expect(await checkAndShoot(page, `${themeName}-results`)).toEqual([]);

      await nextUntil(sco, "the end");
      const completion = sco.locator(`[data-${DataName.completionStatus}]`);
      await completion.filter({ hasText: /\S/ }).waitFor({ timeout: 10_000 });
      expect(await completion.textContent()).toContain("passed");
      expect(await checkAndShoot(page, `${themeName}-completion`)).toEqual([]);
      await page.close();
    });
  }
});
