/**
 * SCORM 2004, one SCO per module, played through scorm-again's sequencing engine: the test reads the
 * package's manifest as an LMS does (activity tree, rollup and delivery controls, launch pages), lets
 * scorm-again deliver the modules' SCOs one after the other in Chromium, plays each like a learner, and
 * reads the course's (root activity's) success and completion after rollup.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, quizLessonId, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { answerQuiz, closeSco, nextUntil, scoFrame, waitForCourse } from "./support/export-player.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./support/lms-harness.ts";
import { activityTree, leafItems, type ItemSequencing } from "./support/scorm-sequencing.ts";

setDefaultTimeout(60_000);

let browser: Browser;
let server: PackageServer;
let items: ItemSequencing[];
let organizationId: string;

beforeAll(async () => {
  browser = await launchChromium();
  const built = await buildPackage(sampleCourse(), { format: "scorm2004", scoMode: "module", assets: memoryAssets(), renderer: renderCourseHtml });
  const directory = await unpackToDirectory(built.stream, "sequenced");
  const manifest = await Bun.file(join(directory, "imsmanifest.xml")).text();
  items = leafItems(manifest);
  organizationId = /<organization identifier="([^"]+)"/.exec(manifest)?.[1] ?? "";
  server = startPackageServer(directory);
});
afterAll(async () => {
  await browser?.close();
  server?.stop();
});

interface RootStatus {
  success: string;
  completion: string;
  measure: number;
  children: { id: string; success: string; completion: string }[];
}

const terminated = (): boolean => (window as unknown as { API_1484_11: { isTerminated(): boolean } }).API_1484_11.isTerminated();

/** Plays the course: the ungraded module's lessons, then the graded module's quiz (passed or failed). */
async function playCourse(page: Page, tree: Record<string, unknown>, passQuiz: boolean): Promise<RootStatus> {
  const hrefs = Object.fromEntries(items.map((item) => [item.identifier, `/pkg/${item.href}`]));
  await page.goto(`${server.origin}/lms/scorm2004-sequenced.html`);
  await page.evaluate(([activities, launchPages]) => (window as unknown as { launchSequenced: (tree: unknown, hrefs: unknown) => void }).launchSequenced(activities, launchPages), [tree, hrefs] as const);
  await waitForCourse(scoFrame(page));
  expect(await nextUntil(scoFrame(page), "les_ppe")).toEqual(["les_welcome", "les_ppe"]);
  await closeSco(page, terminated);
  expect(await page.evaluate(() => (window as unknown as { continueCourse: () => boolean }).continueCourse())).toBe(true);
  await waitForCourse(scoFrame(page));
  await nextUntil(scoFrame(page), quizLessonId);
  await answerQuiz(scoFrame(page), passQuiz);
  await closeSco(page, terminated);
  expect(await page.evaluate(() => (window as unknown as { delivered: string[] }).delivered)).toEqual(items.map((item) => item.identifier));
  return page.evaluate(() => (window as unknown as { rootStatus: () => RootStatus }).rootStatus());
}

describe("SCORM 2004 per-module package sequenced by scorm-again", () => {
  test("completing the ungraded module and passing the graded one makes the course completed and passed", async () => {
    const page = await browser.newPage();
    const root = await playCourse(page, activityTree(organizationId, items), true);
    expect(root.children).toEqual([
      { id: items[0]?.identifier ?? "", success: "unknown", completion: "completed" },
      { id: items[1]?.identifier ?? "", success: "passed", completion: "completed" },
    ]);
    expect(root).toMatchObject({ success: "passed", completion: "completed", measure: 1 });
    await page.close();
  });

  test("failing the graded module leaves the course completed but failed", async () => {
    const page = await browser.newPage();
    const root = await playCourse(page, activityTree(organizationId, items), false);
    expect(root).toMatchObject({ success: "failed", completion: "completed" });
    await page.close();
  });

  test("without the manifest's rollup controls (every module counting for success) the same learner could never pass", async () => {
    const page = await browser.newPage();
    const everyItemCounts = items.map((item) => ({ ...item, rollupObjectiveSatisfied: true, objectiveMeasureWeight: 1 }));
    const root = await playCourse(page, activityTree(organizationId, everyItemCounts), true);
    expect(root.success).not.toBe("passed");
    await page.close();
  });
});
