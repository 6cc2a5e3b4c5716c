/**
 * What the LMS hears from the graded teaching blocks, played in Chromium with the keyboard only: a
 * scenario is a `performance` interaction whose steps are the scene ids the learner went through, a
 * sorting is a `matching` interaction of item → category pairs, in SCORM 1.2 and SCORM 2004 (read back
 * from scorm-again's own model) and as cmi5 `answered` statements at a test LRS. A fill-in reports every
 * accepted answer as a correct response pattern, and a scenario played for practice in a content lesson
 * is reported as ungraded: `neutral`, no weighting, no correct pattern (xAPI: no success, no score).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import type { ExportCourse } from "../src/formats/package/types.ts";
import { memoryAssets, quizLessonId, unpackToDirectory } from "./support/export-course.ts";
import { answerKeyOf, answerQuiz, nextUntil, scoFrame, waitForCourse, type CourseScope } from "./support/export-player.ts";
import { startCmi5Lms, type Statement } from "./support/lms-cmi5.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./support/lms-harness.ts";
import { courseWithTeachingQuiz, phishingScenario, sortingCategoryOf, teachingQuizLessonId } from "./support/teaching-blocks.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

setDefaultTimeout(60_000);

const lessonId = teachingQuizLessonId;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Focuses a control the way Tab would land on it and presses a key, inside the SCO frame or AU page. */
async function press(page: Page, scope: CourseScope, selector: string, key: string): Promise<void> {
  await scope.locator(selector).first().focus();
  await page.keyboard.press(key);
}

/** Plays the scenario to the failure ending, sorts every item rightly with its picker, and submits. */
async function playLesson(page: Page, scope: CourseScope): Promise<void> {
  const lesson = `[data-${DataName.lessonId}="${lessonId}"]`;
  await press(page, scope, `${lesson} [data-${DataName.scenario}] button[data-${DataName.next}="checked"]`, "Enter");
  await press(page, scope, `${lesson} [data-${DataName.scenario}] button[data-${DataName.next}="reported"]`, "Enter");
  await scope.locator(`${lesson} [data-${DataName.scenarioStatus}]`).filter({ hasText: "Scenario ended" }).waitFor();
  const pickers = await scope.locator(`${lesson} [data-${DataName.sortItem}]`).evaluateAll((items) => items.map((item) => [item.querySelector("select")?.id ?? "", item.querySelector("label")?.textContent ?? ""]));
  for (const [id, answer] of pickers.map(([id, text]) => [id, sortingCategoryOf(text ?? "")])) {
    await scope.locator(`select[id="${id}"]`).focus();
    await page.keyboard.type(answer === "0" ? "Phish" : "Not");
  }
  await press(page, scope, `${lesson} .${ClassName.choice} input[value="1"]`, "Space");
  await press(page, scope, `${lesson} [data-${DataName.submitQuiz}]`, "Enter");
  await scope.locator(`${lesson} [data-${DataName.quizResult}]`).filter({ hasText: /\S/ }).waitFor();
}

async function itemOrder(scope: CourseScope): Promise<string[]> {
  return scope.locator(`[data-${DataName.lessonId}="${lessonId}"] [data-${DataName.sortItem}] label`).allInnerTexts();
}

type Interaction = Record<string, unknown> & { correct_responses: Record<string, { pattern: string }> };

describe("graded teaching blocks report to the LMS", () => {
  for (const format of ["scorm2004", "scorm12"] as const) {
    test(`${format}: the scenario is a performance interaction of scene ids and the sorting a matching one`, async () => {
      const built = await buildPackage(courseWithTeachingQuiz(), { format, assets: memoryAssets(), renderer: renderCourseHtml });
      const server: PackageServer = startPackageServer(await unpackToDirectory(built.stream, `teaching-${format}`));
      const page = await browser.newPage();
      await page.goto(`${server.origin}/lms/${format}.html`);
      await page.evaluate(() => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(null, "/pkg/index.html"));
      const sco = scoFrame(page);
      await waitForCourse(sco);
      await nextUntil(sco, lessonId);
      await playLesson(page, sco);
      const items = await itemOrder(sco);
      const recorded = await page.evaluate((apiName) => {
        const api = (window as unknown as Record<string, { cmi: { interactions: unknown } }>)[apiName];
        return Object.values(JSON.parse(JSON.stringify(api?.cmi.interactions ?? {})) as Record<string, Interaction>);
      }, format === "scorm12" ? "API" : "API_1484_11");
      const scenario = recorded.find((entry) => entry.id === "blk_t0");
      const sorting = recorded.find((entry) => entry.id === "blk_t1");
      const response = format === "scorm12" ? "student_response" : "learner_response";
      expect(scenario).toMatchObject({ type: "performance", result: "correct", weighting: "2" });
      expect(sorting).toMatchObject({ type: "matching", result: "correct", weighting: "3" });
      // The items show shuffled; the pairs follow the authored order of items and categories.
      const authored = ["Your mailbox is full, log in here within 1 hour", "Team lunch moved to Thursday", "Invoice attached: open the .zip to pay"];
      expect([...items].sort()).toEqual([...authored].sort());
      if (format === "scorm2004") {
        expect(scenario?.[response]).toBe("step_1[.]inbox[,]step_2[.]checked[,]step_3[.]reported");
        expect(scenario?.correct_responses["0"]?.pattern).toBe("step_1[.]inbox[,]step_2[.]checked[,]step_3[.]reported");
        expect(sorting?.[response]).toBe("item_1[.]target_1[,]item_2[.]target_2[,]item_3[.]target_1");
        expect(scenario?.description).toBe("An urgent email from the CEO");
      } else {
        expect(scenario?.[response]).toBe("inbox,checked,reported");
        expect(sorting?.[response]).toBe("a.a,b.b,c.a");
      }
      await page.close();
      server.stop();
    });
  }

  test("cmi5: answered statements carry the scene path and the item → category pairs", async () => {
    const lms = startCmi5Lms();
    const built = await buildPackage(courseWithTeachingQuiz(), { format: "cmi5", assets: memoryAssets(), renderer: renderCourseHtml, lrsOrigins: [lms.origin] });
    const directory = await unpackToDirectory(built.stream, "teaching-cmi5");
    const server = startPackageServer(directory);
    const structure = await Bun.file(join(directory, "cmi5.xml")).text();
    const auElement = /<au ([^>]*)>[\s\S]*?<url>([^<]+)<\/url>/.exec(structure);
    const attribute = (name: string): string => new RegExp(`${name}="([^"]*)"`).exec(auElement?.[1] ?? "")?.[1] ?? "";
    const { url, sessionId } = lms.launch({ auUrl: `${server.origin}/pkg/${auElement?.[2] ?? ""}`, auId: attribute("id"), registration: crypto.randomUUID(), moveOn: attribute("moveOn"), masteryScore: Number(attribute("masteryScore")) });
    const page = await browser.newPage();
    await page.goto(url);
    await waitForCourse(page);
    await nextUntil(page, lessonId);
    await playLesson(page, page);
    const answered = (): Statement[] => lms.sessionStatements(sessionId).filter((statement) => statement.verb.id === "http://adlnet.gov/expapi/verbs/answered");
    await page.waitForFunction(() => true);
    for (let wait = 0; wait < 200 && answered().filter((statement) => /blk_t[01]$/.test(String(statement.object.id))).length < 2; wait++) await Bun.sleep(50);
    const byQuestion = (id: string) => answered().find((statement) => String(statement.object.id).endsWith(`/questions/${id}`)) as unknown as { object: { definition: Record<string, unknown> }; result: Record<string, unknown> } | undefined;
    const scenario = byQuestion("blk_t0");
    const sorting = byQuestion("blk_t1");
    expect(scenario?.object.definition).toMatchObject({ interactionType: "performance", correctResponsesPattern: ["step_1[.]inbox[,]step_2[.]checked[,]step_3[.]reported"] });
    expect(scenario?.result).toMatchObject({ response: "step_1[.]inbox[,]step_2[.]checked[,]step_3[.]reported", success: true });
    expect(sorting?.object.definition).toMatchObject({ interactionType: "matching", target: [{ id: "target_1", description: { "en-US": "Phish" } }, { id: "target_2", description: { "en-US": "Not phish" } }] });
    expect(sorting?.result).toMatchObject({ response: "item_1[.]target_1[,]item_2[.]target_2[,]item_3[.]target_1", success: true });
    await page.close();
    server.stop();
    lms.stop();
  });
});

const practiceLessonId = "les_practice";

/**
 * The sample course with a fill-in that accepts three answers, one with two blanks of two answers each,
 * and a content lesson (before the phishing quiz) holding the scenario for practice.
 */
function courseWithAlternativesAndPractice(): ExportCourse {
  const course = courseWithTeachingQuiz() as unknown as { modules: { id: string; lessons: { id: string; kind: string; blocks: Record<string, unknown>[] }[] }[] };
  const quiz = course.modules.flatMap((module) => module.lessons).find((lesson) => lesson.id === quizLessonId)!;
  quiz.blocks = quiz.blocks.map((block) => (block.id === "blk_q4" ? { ...block, blanks: [{ answers: ["contain", "isolate", "Contain it"], caseSensitive: false }] } : block));
  quiz.blocks.push({ id: "blk_q5", type: "fill_in_blank", prompt: "Two words.", points: 1, text: "{{1}}, then {{2}} others.", blanks: [{ answers: ["Stop", "Halt"], caseSensitive: false }, { answers: ["warn", "alert"], caseSensitive: false }], objectiveIds: [] });
  const phishing = course.modules.at(-1)!;
  phishing.lessons.unshift({ id: practiceLessonId, kind: "content", title: "Practice", blocks: [{ id: "blk_practice", ...phishingScenario() }] } as (typeof phishing.lessons)[number]);
  return course as unknown as ExportCourse;
}

/** Answers the sample quiz rightly, then plays the practice scenario to its success ending. */
async function answerAndPractise(page: Page, scope: CourseScope, course: ExportCourse): Promise<void> {
  await nextUntil(scope, quizLessonId);
  await answerQuiz(scope, true, answerKeyOf(course));
  await nextUntil(scope, practiceLessonId);
  const lesson = `[data-${DataName.lessonId}="${practiceLessonId}"]`;
  await press(page, scope, `${lesson} [data-${DataName.scenario}] button[data-${DataName.next}="checked"]`, "Enter");
  await press(page, scope, `${lesson} [data-${DataName.scenario}] button[data-${DataName.next}="reported"]`, "Enter");
  await scope.locator(`${lesson} [data-${DataName.scenarioStatus}]`).filter({ hasText: "Scenario ended" }).waitFor();
}

describe("every accepted answer, and practice reported as ungraded", () => {
  for (const format of ["scorm2004", "scorm12"] as const) {
    test(`${format}: a fill-in lists each accepted answer as a correct pattern; the practice scenario is neutral, unweighted, with no pattern`, async () => {
      const course = courseWithAlternativesAndPractice();
      const built = await buildPackage(course, { format, assets: memoryAssets(), renderer: renderCourseHtml });
      const server: PackageServer = startPackageServer(await unpackToDirectory(built.stream, `accepted-${format}`));
      const page = await browser.newPage();
      await page.goto(`${server.origin}/lms/${format}.html`);
      await page.evaluate(() => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(null, "/pkg/index.html"));
      const sco = scoFrame(page);
      await waitForCourse(sco);
      await answerAndPractise(page, sco, course);
      const recorded = await page.evaluate((apiName) => {
        const api = (window as unknown as Record<string, { cmi: { interactions: unknown } }>)[apiName];
        return Object.values(JSON.parse(JSON.stringify(api?.cmi.interactions ?? {})) as Record<string, Interaction>);
      }, format === "scorm12" ? "API" : "API_1484_11");
      const patternsOf = (id: string): string[] => Object.values(recorded.find((entry) => entry.id === id)?.correct_responses ?? {}).map((response) => response.pattern);
      if (format === "scorm2004") {
        expect(patternsOf("blk_q4")).toEqual(["{case_matters=false}contain", "{case_matters=false}isolate", "{case_matters=false}Contain it"]);
        expect(patternsOf("blk_q5")).toEqual(["Stop[,]warn", "Stop[,]alert", "Halt[,]warn", "Halt[,]alert"].map((pair) => `{case_matters=false}{order_matters=true}${pair}`));
      } else {
        expect(patternsOf("blk_q4")).toEqual(["contain", "isolate", "Contain it"]);
        expect(patternsOf("blk_q5")).toEqual(["Stop warn", "Stop alert", "Halt warn", "Halt alert"]);
      }
      expect(recorded.find((entry) => entry.id === "blk_q4")).toMatchObject({ result: "correct", weighting: "1" });
      const practice = recorded.find((entry) => entry.id === "blk_practice");
      expect(practice).toMatchObject({ type: "performance", result: "neutral" });
      expect(practice?.[format === "scorm12" ? "student_response" : "learner_response"]).toBe(format === "scorm12" ? "inbox,checked,reported" : "step_1[.]inbox[,]step_2[.]checked[,]step_3[.]reported");
      expect(practice?.weighting ?? "").toBe("");
      expect(patternsOf("blk_practice")).toEqual([]);
      await page.close();
      server.stop();
    });
  }

  test("cmi5: correctResponsesPattern lists every accepted answer; the practice scenario's statement has no pattern, success or score", async () => {
    const course = courseWithAlternativesAndPractice();
    const lms = startCmi5Lms();
    const built = await buildPackage(course, { format: "cmi5", assets: memoryAssets(), renderer: renderCourseHtml, lrsOrigins: [lms.origin] });
    const directory = await unpackToDirectory(built.stream, "accepted-cmi5");
    const server = startPackageServer(directory);
    const structure = await Bun.file(join(directory, "cmi5.xml")).text();
    const auElement = /<au ([^>]*)>[\s\S]*?<url>([^<]+)<\/url>/.exec(structure);
    const attribute = (name: string): string => new RegExp(`${name}="([^"]*)"`).exec(auElement?.[1] ?? "")?.[1] ?? "";
    const { url, sessionId } = lms.launch({ auUrl: `${server.origin}/pkg/${auElement?.[2] ?? ""}`, auId: attribute("id"), registration: crypto.randomUUID(), moveOn: attribute("moveOn"), masteryScore: Number(attribute("masteryScore")) });
    const page = await browser.newPage();
    await page.goto(url);
    await waitForCourse(page);
    await answerAndPractise(page, page, course);
    const answered = (): Statement[] => lms.sessionStatements(sessionId).filter((statement) => statement.verb.id === "http://adlnet.gov/expapi/verbs/answered");
    const byQuestion = (id: string) => answered().find((statement) => String(statement.object.id).endsWith(`/questions/${id}`)) as unknown as { object: { definition: Record<string, unknown> }; result: Record<string, unknown> } | undefined;
    const deadline = Date.now() + 20_000;
    while (!byQuestion("blk_practice") || !byQuestion("blk_q5")) {
      if (Date.now() > deadline) throw new Error("the LRS never received the answered statements of blk_q5 and blk_practice");
      await Bun.sleep(50);
    }
    expect(byQuestion("blk_q4")?.object.definition.correctResponsesPattern).toEqual(["{case_matters=false}contain", "{case_matters=false}isolate", "{case_matters=false}Contain it"]);
    expect(byQuestion("blk_q5")?.object.definition.correctResponsesPattern).toEqual(["Stop[,]warn", "Stop[,]alert", "Halt[,]warn", "Halt[,]alert"].map((pair) => `{case_matters=false}{order_matters=true}${pair}`));
    expect(byQuestion("blk_q4")?.result).toMatchObject({ success: true, score: { scaled: 1, max: 1 } });
    const practice = byQuestion("blk_practice");
    expect(practice?.object.definition).toMatchObject({ interactionType: "performance" });
    expect(practice?.object.definition).not.toHaveProperty("correctResponsesPattern");
    expect(practice?.result).toMatchObject({ response: "step_1[.]inbox[,]step_2[.]checked[,]step_3[.]reported" });
    expect(practice?.result).not.toHaveProperty("success");
    expect(practice?.result).not.toHaveProperty("score");
    await page.close();
    server.stop();
    lms.stop();
  });
});
