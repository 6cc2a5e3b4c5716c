/**
 * The cmi5 AU launched the way an LMS launches it: the test reads cmi5.xml like an LMS importing the
 * package, writes LMS.LaunchData, and opens the AU URL with endpoint, fetch, actor, registration and
 * activityId. A small LRS on another origin collects the statements, which are checked against the cmi5
 * rules: order, verbs, result fields, categories, registration and session consistency.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, quizLessonId, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { answerQuiz, currentLessonId, nextUntil, retryQuiz, waitForCourse } from "./support/export-player.ts";
import { sessionIdExtension, type Cmi5Lms, type Statement } from "./support/lms-cmi5.ts";
import { startCmi5Player, type Cmi5Au, type Cmi5Player } from "./support/cmi5-player.ts";
import { startPackageServer, type PackageServer } from "./support/lms-harness.ts";
import { DataName } from "../src/page-contract/markup-names.ts";

const verbs = {
  initialized: "http://adlnet.gov/expapi/verbs/initialized",
  completed: "http://adlnet.gov/expapi/verbs/completed",
  passed: "http://adlnet.gov/expapi/verbs/passed",
  failed: "http://adlnet.gov/expapi/verbs/failed",
  terminated: "http://adlnet.gov/expapi/verbs/terminated",
  answered: "http://adlnet.gov/expapi/verbs/answered",
};
const cmi5Category = "https://w3id.org/xapi/cmi5/context/categories/cmi5";
const moveOnCategory = "https://w3id.org/xapi/cmi5/context/categories/moveon";
const masteryExtension = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore";

// A browser session plays a whole course; give it more than the default five seconds.
setDefaultTimeout(30_000);

let player: Cmi5Player;
let browser: Browser;
let lms: Cmi5Lms;
let au: Cmi5Au;

beforeAll(async () => {
  player = await startCmi5Player("player-cmi5");
  ({ browser, lms, au } = player);
});
afterAll(async () => {
  await player?.stop();
});

async function openAu(page: Page, registration: string): Promise<string> {
  const { url, sessionId } = lms.launch({ auUrl: au.url, auId: au.id, registration, moveOn: au.moveOn, masteryScore: au.masteryScore });
  await page.goto(url);
  await waitForCourse(page);
  await waitForStatements(sessionId, (sent) => sent.some((statement) => statement.verb.id === verbs.initialized));
  return sessionId;
}

async function leaveAu(page: Page, sessionId: string): Promise<Statement[]> {
  await page.goto("about:blank");
  return waitForStatements(sessionId, (sent) => sent.some((statement) => statement.verb.id === verbs.terminated));
}

async function waitForStatements(sessionId: string, done: (sent: Statement[]) => boolean): Promise<Statement[]> {
  for (let wait = 0; wait < 100; wait++) {
    const sent = lms.sessionStatements(sessionId);
    if (done(sent)) return sent;
    await Bun.sleep(50);
  }
  throw new Error(`statements not received: ${JSON.stringify(lms.sessionStatements(sessionId).map((statement) => statement.verb.id))}`);
}

/** The cmi5 defined statements of a session (cmi5-allowed ones, answered and experienced, left out). */
function defined(statements: Statement[]): Statement[] {
  return statements.filter((statement) => statement.verb.id !== verbs.answered && statement.verb.id !== "http://adlnet.gov/expapi/verbs/experienced");
}

function categoryIds(statement: Statement): string[] {
  return (statement.context.contextActivities.category ?? []).map((activity) => activity.id);
}

/** Rules every cmi5 defined statement from the AU must meet (sections 9.1-9.7). */
function expectCmi5Defined(statements: Statement[], registration: string, sessionId: string): void {
  const ids = new Set<string>();
  expect(statements.length).toBeGreaterThan(0);
  for (const statement of statements) {
    expect(statement.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    ids.add(statement.id);
    expect(Number.isNaN(Date.parse(statement.timestamp))).toBe(false);
    expect(statement.actor).toEqual(lms.actor);
    expect(statement.object.id).toBe(au.id);
    expect(statement.context.registration).toBe(registration);
    expect(statement.context.extensions[sessionIdExtension]).toBe(sessionId);
    expect(statement.context.contextActivities.grouping?.map((activity) => activity.id)).toContain(au.id);
    expect(categoryIds(statement)).toContain(cmi5Category);
    const judged = statement.result?.success !== undefined || statement.result?.completion !== undefined;
    expect(categoryIds(statement).includes(moveOnCategory)).toBe(judged);
    if (statement.verb.id !== verbs.passed && statement.verb.id !== verbs.failed) expect(statement.result?.score).toBeUndefined();
  }
  expect(ids.size).toBe(statements.length);
  const timestamps = statements.map((statement) => Date.parse(statement.timestamp));
  expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
  expect(statements[0]?.verb.id).toBe(verbs.initialized);
  expect(statements.at(-1)?.verb.id).toBe(verbs.terminated);
  const verbIds = statements.map((statement) => statement.verb.id);
  expect(new Set(verbIds).size).toBe(verbIds.length);
  expect(verbIds.filter((verb) => verb === verbs.passed || verb === verbs.failed).length).toBeLessThanOrEqual(1);
}

describe("cmi5 AU launched by an LMS", () => {
  test("cmi5.xml gives the AU a moveOn of CompletedAndPassed and the quiz's mastery score", () => {
    expect(au.moveOn).toBe("CompletedAndPassed");
    expect(au.masteryScore).toBe(0.7);
  });

  test("failing then passing in one session sends initialized, completed, passed, terminated", async () => {
    const page = await browser.newPage();
    const registration = crypto.randomUUID();
    const sessionId = await openAu(page, registration);
    expect(await nextUntil(page, quizLessonId)).toContain(quizLessonId);
    await answerQuiz(page, false);
    await retryQuiz(page);
    await answerQuiz(page, true);
    const sent = defined(await leaveAu(page, sessionId));
    expect(sent.map((statement) => statement.verb.id)).toEqual([verbs.initialized, verbs.completed, verbs.passed, verbs.terminated]);
    expectCmi5Defined(sent, registration, sessionId);
    const [, completed, passed, terminated] = sent;
    expect(completed?.result).toMatchObject({ completion: true, duration: expect.stringMatching(/^PT/) });
    expect(completed?.result?.success).toBeUndefined();
    expect(passed?.result).toMatchObject({ success: true, score: { scaled: 1, raw: 100, min: 0, max: 100 }, duration: expect.stringMatching(/^PT/) });
    expect(passed?.context.extensions[masteryExtension]).toBe(0.7);
    expect(terminated?.result?.duration).toMatch(/^PT/);
    expect(terminated?.result?.completion).toBeUndefined();
    expect(lms.unauthorised).toBe(0);
    await page.close();
  });

  test("a failed session reports failed before terminated; the next launch resumes and passes without repeating completed", async () => {
    const page = await browser.newPage();
    const registration = crypto.randomUUID();
    const first = await openAu(page, registration);
    await nextUntil(page, quizLessonId);
    await answerQuiz(page, false);
    const firstSent = defined(await leaveAu(page, first));
    expect(firstSent.map((statement) => statement.verb.id)).toEqual([verbs.initialized, verbs.completed, verbs.failed, verbs.terminated]);
    expectCmi5Defined(firstSent, registration, first);
    const failed = firstSent[2];
    expect(failed?.result).toMatchObject({ success: false, score: { scaled: 0 } });
    expect(failed?.result?.score?.scaled ?? 1).toBeLessThan(au.masteryScore);

    const second = await openAu(page, registration);
    expect(await currentLessonId(page)).toBe(quizLessonId);
    expect(await page.evaluate((lessonId) => window.CourseRuntime?.getState().quizzes[lessonId]?.attempts, quizLessonId)).toBe(1);
    // The resumed quiz looks as the learner left it: the same questions graded, the last result, attempts left, and Try again.
    const quiz = page.locator(`#lesson-${quizLessonId}`);
    const summary = quiz.locator(`[data-${DataName.quizResult}] p`);
    await summary.filter({ hasText: "Your last score" }).waitFor();
    expect(await summary.textContent()).toBe("Your last score: 0% after 1 attempt(s). You did not pass yet. The pass mark is 70%. Attempts left: 2.");
    expect(await quiz.locator(`[data-${DataName.quizResult}] li`).first().textContent()).toBe("Question 1: not correct.");
    expect(await quiz.locator(`[data-${DataName.submitQuiz}]`).isHidden()).toBe(true);
    await retryQuiz(page);
    await answerQuiz(page, true);
    const secondSent = defined(await leaveAu(page, second));
    expect(secondSent.map((statement) => statement.verb.id)).toEqual([verbs.initialized, verbs.passed, verbs.terminated]);
    expectCmi5Defined(secondSent, registration, second);
    await page.close();
  });
});

describe("cmi5 package built with default options", () => {
  const lrsOrigin = "https://lrs.example.org";
  let defaultPackage: PackageServer;
  beforeAll(async () => {
    const built = await buildPackage(sampleCourse(), { format: "cmi5", assets: memoryAssets(), renderer: renderCourseHtml });
    defaultPackage = startPackageServer(await unpackToDirectory(built.stream, "player-cmi5-default"));
  });
  afterAll(() => defaultPackage?.stop());

  test("its CSP lets the AU talk to an LRS on any https origin, named only at launch", async () => {
    const context = await browser.newContext();
    // The LRS answers on an https origin the package never heard of; the browser forwards to our LMS.
    await context.route(`${lrsOrigin}/**`, async (route) => {
      const response = await route.fetch({ url: route.request().url().replace(lrsOrigin, lms.origin) });
      await route.fulfill({ response });
    });
    const page = await context.newPage();
    const registration = crypto.randomUUID();
    const { url, sessionId } = lms.launch({ auUrl: au.url.replace(player.packageServer.origin, defaultPackage.origin), auId: au.id, registration, moveOn: au.moveOn, masteryScore: au.masteryScore });
    const atLrs = url.replaceAll(encodeURIComponent(lms.origin), encodeURIComponent(lrsOrigin));
    expect(atLrs).toContain(`endpoint=${encodeURIComponent(`${lrsOrigin}/xapi/`)}`);
    await page.goto(atLrs);
    await waitForCourse(page);
    expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content")).toContain("connect-src https: http:");
    const sent = await waitForStatements(sessionId, (statements) => statements.some((statement) => statement.verb.id === verbs.initialized));
    expect(sent.map((statement) => statement.verb.id)).toEqual([verbs.initialized]);
    await context.close();
  });
});

