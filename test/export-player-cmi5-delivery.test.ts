/**
 * The cmi5 AU against an LRS that misbehaves: transient failures (503, dropped connections) on the
 * statement resource are retried until every statement arrives once and in cmi5's order; what the State
 * document says was reported changes only after the LRS accepted it; a 401 (expired token) stops the AU
 * sending and tells the learner; a corrupted State document restarts the course cleanly. Also the
 * cmi5-allowed `answered` statements, one per graded question.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { quizLessonId } from "./support/export-course.ts";
import { answerQuiz, currentLessonId, nextUntil, waitForCourse } from "./support/export-player.ts";
import { sessionIdExtension, type Cmi5Lms, type Statement } from "./support/lms-cmi5.ts";
import { waitFor } from "./support/wait.ts";
import { startCmi5Player, type Cmi5Au, type Cmi5Player } from "./support/cmi5-player.ts";

setDefaultTimeout(30_000);

const verb = (name: string): string => `http://adlnet.gov/expapi/verbs/${name}`;
const cmi5Category = "https://w3id.org/xapi/cmi5/context/categories/cmi5";
const progressStateId = "course-authoring-progress";

let player: Cmi5Player;
let browser: Browser;
let lms: Cmi5Lms;
let au: Cmi5Au;

beforeAll(async () => {
  player = await startCmi5Player("player-cmi5-delivery");
  ({ browser, lms, au } = player);
});
afterAll(async () => {
  await player?.stop();
});

/** Waits (up to 20 s) until `ready` holds, then returns its value; fails naming what it waited for. */
async function until<T>(what: string, probe: () => T | Promise<T>, ready: (value: T) => boolean): Promise<T> {
  let last: T | undefined;
  for (let wait = 0; wait < 400; wait++) {
    last = await probe();
    if (ready(last)) return last;
    await Bun.sleep(50);
  }
  throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last)}`);
}

const verbsOf = (statements: Statement[]): string[] => statements.map((statement) => statement.verb.id.split("/").pop() ?? "");

async function openAu(page: Page, registration: string): Promise<string> {
  const { url, sessionId } = lms.launch({ auUrl: au.url, auId: au.id, registration, moveOn: au.moveOn, masteryScore: au.masteryScore });
  await page.goto(url);
  await waitForCourse(page);
  await until("initialized", () => verbsOf(lms.sessionStatements(sessionId)), (sent) => sent.includes("initialized"));
  return sessionId;
}

function reportedFlags(registration: string): { completed?: boolean; passed?: boolean } {
  const document = lms.stateDocument(registration, au.id, progressStateId);
  return document ? ((JSON.parse(document) as { reported?: { completed?: boolean; passed?: boolean } }).reported ?? {}) : {};
}

describe("cmi5 AU with an unreliable LRS", () => {
  test("statements refused with 503 are sent again until accepted: each arrives once, in cmi5's order", async () => {
    const page = await browser.newPage();
    const registration = crypto.randomUUID();
    const sessionId = await openAu(page, registration);
    await nextUntil(page, quizLessonId);
    await until("completed", () => verbsOf(lms.sessionStatements(sessionId)), (sent) => sent.includes("completed"));
    const postsBefore = lms.statementPosts;
    lms.failNextStatementPosts(503, 503, 503);
    await answerQuiz(page, true);
    const sent = await until("passed after three 503s", () => lms.sessionStatements(sessionId), (statements) => verbsOf(statements).includes("passed"));
    expect(lms.statementPosts - postsBefore).toBeGreaterThanOrEqual(4);
    await page.goto("about:blank");
    const all = await until("terminated", () => lms.sessionStatements(sessionId), (statements) => verbsOf(statements).includes("terminated"));
    expect(sent.length).toBeLessThanOrEqual(all.length);
    const definedVerbs = verbsOf(all).filter((name) => name !== "answered" && name !== "experienced");
    expect(definedVerbs).toEqual(["initialized", "completed", "passed", "terminated"]);
    expect(verbsOf(all).at(0)).toBe("initialized");
    expect(verbsOf(all).at(-1)).toBe("terminated");
    expect(new Set(all.map((statement) => statement.id)).size).toBe(all.length);
    expect(resentIds(all)).toEqual({});
    const times = all.map((statement) => Date.parse(statement.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  test("dropped connections are retried, and passed is written to the State document only once the LRS accepted it", async () => {
    const context = await browser.newContext();
    let dropping = true;
    let dropped = 0;
    await context.route(`${lms.origin}/xapi/statements`, async (route) => {
      if (dropping && route.request().method() === "POST") {
        dropped += 1;
        return route.abort("connectionreset");
      }
      return route.continue();
    });
    const page = await context.newPage();
    const registration = crypto.randomUUID();
    const { url, sessionId } = lms.launch({ auUrl: au.url, auId: au.id, registration, moveOn: au.moveOn, masteryScore: au.masteryScore });
    await page.goto(url);
    await waitForCourse(page);
    await nextUntil(page, quizLessonId);
    await answerQuiz(page, true);
    // The quiz result is saved, but nothing has reached the LRS, so nothing is marked as reported.
    await until("the State document with the passed quiz", () => lms.stateDocument(registration, au.id, progressStateId) ?? "", (document) => document.includes('"reported"'));
    await until("two dropped sends", () => dropped, (count) => count >= 2);
    expect(lms.sessionStatements(sessionId)).toEqual([]);
    expect(reportedFlags(registration)).toEqual({ completed: false, passed: false });
    dropping = false;
    const sent = await until("passed", () => lms.sessionStatements(sessionId), (statements) => verbsOf(statements).includes("passed"));
    expect(verbsOf(sent).filter((name) => name !== "answered" && name !== "experienced")).toEqual(["initialized", "completed", "passed"]);
    expect(await until("reported flags", () => reportedFlags(registration), (flags) => flags.passed === true)).toEqual({ completed: true, passed: true });
    await context.close();
  });

  test("a 401 from the LRS stops the AU sending and tells the learner their progress is no longer saved", async () => {
    const page = await browser.newPage();
    const registration = crypto.randomUUID();
    const sessionId = await openAu(page, registration);
    lms.failStatementPostsWith(401);
    try {
      await nextUntil(page, quizLessonId);
      const notice = page.locator("[data-lms-notice]");
      await notice.waitFor();
      expect(await notice.getAttribute("role")).toBe("status");
      expect(await notice.textContent()).toContain("session with the learning platform has expired");
      const postsAfterRefusal = lms.statementPosts;
      await answerQuiz(page, true);
      await page.goto("about:blank");
      // Neither the quiz nor leaving (which sends terminated) made another attempt with the refused token.
      expect(lms.statementPosts).toBe(postsAfterRefusal);
      expect(verbsOf(lms.sessionStatements(sessionId))).toEqual(["initialized"]);
    } finally {
      lms.failStatementPostsWith(null);
    }
    await page.close();
  });

  // One test per document, so each launch has the whole time-out to itself on a loaded machine.
  test.each(["{not json", '{"progress":"{\\"v\\":1,\\"q\\":[[\\"x\\"]],\\"s\\":42}","reported":7}', "[1,2,3]", '"text"'])(
    "a corrupted State document (%s) restarts the course cleanly at the introduction",
    async (corrupted) => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      const registration = crypto.randomUUID();
      lms.putStateDocument(registration, au.id, progressStateId, corrupted);
      await openAu(page, registration);
      expect(await currentLessonId(page)).toBeNull();
      expect(await nextUntil(page, "les_ppe")).toEqual(["les_welcome", "les_ppe"]);
      const saved = await until("a fresh State document", () => lms.stateDocument(registration, au.id, progressStateId) ?? "", (document) => document !== corrupted);
      expect(JSON.parse(saved)).toMatchObject({ reported: { completed: false, passed: false } });
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});

/** Statement ids whose receipts break "sent once, re-sent only after a failure": not exactly one acceptance, or a send after it. */
function resentIds(statements: readonly Statement[]): Record<string, number[]> {
  const broken: Record<string, number[]> = {};
  for (const { id } of statements) {
    const receipts = lms.receipts(id);
    const accepted = receipts.filter((status) => status >= 200 && status < 300).length;
    if (accepted !== 1 || !(receipts.at(-1)! >= 200 && receipts.at(-1)! < 300)) broken[id] = receipts;
  }
  return broken;
}

describe("cmi5 statements are sent once", () => {
  test("a learner who takes the quiz and leaves sends every statement exactly once", async () => {
    const page = await browser.newPage();
    const registration = crypto.randomUUID();
    const sessionId = await openAu(page, registration);
    await nextUntil(page, quizLessonId);
    await answerQuiz(page, true);
    await page.goto("about:blank");
    const all = await until("terminated", () => lms.sessionStatements(sessionId), (statements) => verbsOf(statements).includes("terminated"));
    expect(verbsOf(all).filter((name) => name !== "answered" && name !== "experienced")).toEqual(["initialized", "completed", "passed", "terminated"]);
    expect(resentIds(all)).toEqual({});
    for (const { id } of all) expect(lms.receipts(id)).toEqual([200]);
  });

  test("leaving while a batch is still in flight does not send that batch again", async () => {
    const page = await browser.newPage();
    const registration = crypto.randomUUID();
    const sessionId = await openAu(page, registration);
    await nextUntil(page, quizLessonId);
    await until("completed", () => verbsOf(lms.sessionStatements(sessionId)), (sent) => sent.includes("completed"));
    const held = lms.holdNextStatementPost();
    await answerQuiz(page, true);
    await waitFor(held.arrived, 20_000, "the first statement POST after the quiz");
    await page.goto("about:blank");
    await until("terminated", () => lms.sessionStatements(sessionId), (statements) => verbsOf(statements).includes("terminated"));
    held.release();
    const all = await until("passed and four answered", () => lms.sessionStatements(sessionId), (statements) => verbsOf(statements).filter((name) => name === "answered" || name === "passed").length === 5);
    expect(resentIds(all)).toEqual({});
    for (const { id } of all) expect(lms.receipts(id)).toEqual([200]);
  });
});

describe("cmi5 resume on a slow LRS", () => {
  test("a learner who moves on before the saved progress arrives stays on their page", async () => {
    const registration = crypto.randomUUID();
    const first = await browser.newPage();
    await openAu(first, registration);
    await nextUntil(first, "les_ppe");
    await first.goto("about:blank");
    await until("a State document at les_ppe", () => lms.stateDocument(registration, au.id, progressStateId) ?? "", (document) => document.includes('\\"c\\":1'));
    const context = await browser.newContext();
    let releaseState = (): void => undefined;
    const stateHeld = new Promise<void>((resolve) => (releaseState = resolve));
    let stateAsked = (): void => undefined;
    const stateRequested = new Promise<void>((resolve) => (stateAsked = resolve));
    await context.route(/activities\/state\?.*stateId=course-authoring-progress/, async (route) => {
      if (route.request().method() !== "GET") return route.continue();
      stateAsked();
      await stateHeld;
      return route.continue();
    });
    const page = await context.newPage();
    const { url, sessionId } = lms.launch({ auUrl: au.url, auId: au.id, registration, moveOn: au.moveOn, masteryScore: au.masteryScore });
    await page.goto(url);
    await waitForCourse(page);
    await waitFor(stateRequested, 20_000, "the AU asking for its State document");
    expect(await nextUntil(page, "les_welcome")).toEqual(["les_welcome"]);
    releaseState();
    await until("initialized", () => verbsOf(lms.sessionStatements(sessionId)), (sent) => sent.includes("initialized"));
    // initialized is queued in the same task that restores the saved progress, so the restore has run.
    expect(await currentLessonId(page)).toBe("les_welcome");
    expect(await page.evaluate(() => window.CourseRuntime?.getState().visitedLessonIds)).toEqual(["les_welcome", "les_ppe"]);
    await context.close();
  });
});

describe("cmi5 answered statements", () => {
  test("each graded question sends one cmi5-allowed answered statement with the response and the correct pattern", async () => {
    const page = await browser.newPage();
    const registration = crypto.randomUUID();
    const sessionId = await openAu(page, registration);
    await nextUntil(page, quizLessonId);
    await answerQuiz(page, true);
    await page.goto("about:blank");
    const all = await until("terminated", () => lms.sessionStatements(sessionId), (statements) => verbsOf(statements).includes("terminated"));
    const answered = all.filter((statement) => statement.verb.id === verb("answered"));
    // Under the course's IRI, not the AU's: the same ids in every package (cmi5 per course or per module, xAPI) and version.
    const courseIri = au.id.replace(/\/au\/[^/]+$/, "");
    expect(answered.map((statement) => statement.object.id)).toEqual(["blk_q1", "blk_q2", "blk_q3", "blk_q4"].map((id) => `${courseIri}/questions/${id}`));
    // The quiz attempt is in each answer's context; each lesson opened sent one experienced statement about it.
    for (const statement of answered) expect((statement.context as { extensions?: Record<string, unknown> }).extensions?.["http://id.tincanapi.com/extension/attempt-id"]).toBe(1);
    const experienced = all.filter((statement) => statement.verb.id === verb("experienced"));
    expect(experienced.length).toBeGreaterThan(0);
    for (const statement of experienced) expect(statement.object.id.startsWith(`${courseIri}/lessons/`)).toBe(true);
    const order = verbsOf(all);
    expect(order.indexOf("answered")).toBeGreaterThan(order.indexOf("initialized"));
    expect(order.lastIndexOf("answered")).toBeLessThan(order.indexOf("terminated"));
    for (const statement of answered) {
      // cmi5 9.6.1: allowed statements carry the launch's context template but not the cmi5 category.
      expect((statement.context.contextActivities.category ?? []).map((activity) => activity.id)).not.toContain(cmi5Category);
      expect(statement.context.registration).toBe(registration);
      expect(statement.context.extensions[sessionIdExtension]).toBe(sessionId);
      expect(statement.context.contextActivities.grouping?.map((activity) => activity.id)).toContain(au.id);
      expect(statement.context.contextActivities.parent?.map((activity) => activity.id)).toEqual([au.id]);
      expect(statement.object.definition?.type).toBe("http://adlnet.gov/expapi/activities/cmi.interaction");
      expect(statement.result).toMatchObject({ success: true, score: { scaled: 1 }, duration: expect.stringMatching(/^PT/) });
    }
    const [choice, trueFalse, multiple, blank] = answered;
    expect(choice?.object.definition).toMatchObject({ interactionType: "choice", correctResponsesPattern: ["choice_1"], description: { "en-US": "What do you do first when you see a spill?" } });
    expect(choice?.result?.response).toBe("choice_1");
    expect(trueFalse?.object.definition).toMatchObject({ interactionType: "true-false", correctResponsesPattern: ["false"] });
    expect(trueFalse?.result?.response).toBe("false");
    expect(multiple?.object.definition).toMatchObject({ interactionType: "choice", correctResponsesPattern: ["choice_1[,]choice_2"] });
    expect(multiple?.result?.response).toBe("choice_1[,]choice_2");
    expect(blank?.object.definition).toMatchObject({ interactionType: "fill-in", correctResponsesPattern: ["{case_matters=false}contain"] });
    expect(blank?.result?.response).toBe("contain");
  });
});
