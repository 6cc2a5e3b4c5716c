/**
 * Issue 42, step 3: what the LMS records for the six new question types, read back from scorm-again
 * (SCORM 2004 and 1.2) and from a cmi5 LRS: numeric with its accepted range (`low[:]high`), hotspot as a
 * choice, labels on zones and drop-down gaps as performances (`label_1[.]zone_1`), an open answer as a
 * long fill-in (a fill-in in SCORM 1.2), each likert statement as a likert interaction; open answers and
 * opinions never scored (no weighting, neutral result, no score or success in xAPI). The course is German:
 * the number is typed `2,5`.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, FrameLocator, Page } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import type { ExportCourse } from "../src/formats/package/types.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { nextUntil, scoFrame, submitQuiz, waitForCourse } from "./support/export-player.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./support/lms-harness.ts";
import { startCmi5Player, type Cmi5Player } from "./support/cmi5-player.ts";
import type { Statement } from "./support/lms-cmi5.ts";
import { newQuestionTypeBlocks } from "./support/question-types.ts";
import { DataName } from "../src/page-contract/markup-names.ts";

setDefaultTimeout(90_000);

type Format = "scorm12" | "scorm2004";
type Interaction = Record<string, unknown> & { correct_responses: Record<string, { pattern: string }> };
type Scope = FrameLocator | Page;

function course(): ExportCourse {
  const base = sampleCourse();
  const blocks = newQuestionTypeBlocks("ast_goggles").map((block, index) => ({ id: `blk_n${index}`, points: 1, objectiveIds: [], ...block }));
  return {
    ...base,
    language: "de",
    objectives: [],
    modules: [{ id: "mod_n", title: "Pumpen", summary: "", objectiveIds: [], lessons: [{ id: "les_new", title: "Prüfung", kind: "quiz", passingScore: 50, shuffleChoices: false, blocks }] }],
  } as unknown as ExportCourse;
}

/** Answers every question: the number with a German comma, the right valve, two labels right and the distractor placed, one gap wrong. */
async function answerAll(sco: Scope): Promise<void> {
  const question = (id: string) => sco.locator(`[data-${DataName.questionId}=${id}]`);
  await question("blk_n0").locator("input").fill("2,5");
  await question("blk_n1").getByRole("radio", { name: "Valve A" }).check();
  for (const [index, value] of ["0", "1", "", "2"].entries()) await question("blk_n2").locator("select").nth(index).selectOption(value);
  await question("blk_n3").locator("select").nth(0).selectOption("0");
  await question("blk_n3").locator("select").nth(1).selectOption("0");
  await question("blk_n4").locator("textarea").fill("Pumpe stoppen, dann melden.");
  await question("blk_n5").locator("[role=radiogroup]").nth(0).getByRole("radio").nth(3).check();
  await question("blk_n5").locator("[role=radiogroup]").nth(1).getByRole("radio").nth(1).check();
  await submitQuiz(sco);
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function servePackage(format: Format): Promise<PackageServer> {
  const built = await buildPackage(course(), { format, assets: memoryAssets(), renderer: renderCourseHtml });
  return startPackageServer(await unpackToDirectory(built.stream, `question-types-${format}`));
}

async function play(format: Format): Promise<{ interactions: Interaction[]; written: Record<string, unknown> }> {
  const server = await servePackage(format);
  const page = await browser.newPage();
  await page.goto(`${server.origin}/lms/${format}.html`);
  await page.evaluate(() => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(null, "/pkg/index.html"));
  const sco = scoFrame(page);
  await waitForCourse(sco);
  await nextUntil(sco, "les_new");
  await answerAll(sco);
  const interactions = await page.evaluate((apiName) => {
    const api = (window as unknown as Record<string, { cmi: { interactions: unknown } }>)[apiName];
    return Object.values(JSON.parse(JSON.stringify(api?.cmi.interactions ?? {})) as Record<string, Interaction>);
  }, format === "scorm12" ? "API" : "API_1484_11");
  const written = await page.evaluate(() => (window as unknown as { written: Record<string, unknown> }).written);
  await page.close();
  server.stop();
  return { interactions, written };
}

const byId = (interactions: Interaction[]) => new Map(interactions.map((entry) => [String(entry.id), entry]));
const patternOf = (entry: Interaction | undefined): string | undefined => entry?.correct_responses?.["0"]?.pattern;

describe("SCORM 2004", () => {
  test("numeric, choice, performance, long-fill-in and likert interactions with the standard's patterns; open answers and opinions unscored", async () => {
    const { interactions, written } = await play("scorm2004");
    const recorded = byId(interactions);
    expect([...recorded.keys()]).toEqual(["blk_n0", "blk_n1", "blk_n2", "blk_n3", "blk_n4", "blk_n5_1", "blk_n5_2"]);
    expect(recorded.get("blk_n0")).toMatchObject({ type: "numeric", learner_response: "2.5", result: "correct", weighting: "1" });
    expect(patternOf(recorded.get("blk_n0"))).toBe("2.4[:]2.6");
    expect(recorded.get("blk_n1")).toMatchObject({ type: "choice", learner_response: "choice_1", result: "correct" });
    expect(patternOf(recorded.get("blk_n1"))).toBe("choice_1");
    expect(recorded.get("blk_n2")).toMatchObject({ type: "performance", learner_response: "label_1[.]zone_1[,]label_2[.]zone_2[,]label_4[.]zone_3", result: "incorrect" });
    expect(patternOf(recorded.get("blk_n2"))).toBe("label_1[.]zone_1[,]label_2[.]zone_2[,]label_3[.]zone_3");
    expect(recorded.get("blk_n3")).toMatchObject({ type: "performance", learner_response: "gap_1[.]choice_1[,]gap_2[.]choice_1", result: "incorrect" });
    expect(patternOf(recorded.get("blk_n3"))).toBe("gap_1[.]choice_1[,]gap_2[.]choice_2");
    expect(recorded.get("blk_n4")).toMatchObject({ type: "long-fill-in", learner_response: "Pumpe stoppen, dann melden.", result: "neutral" });
    expect(recorded.get("blk_n4")?.weighting ?? "").toBe("");
    expect(recorded.get("blk_n5_1")).toMatchObject({ type: "likert", learner_response: "scale_4", result: "neutral", description: "I can close the valves in the right order." });
    expect(recorded.get("blk_n5_2")).toMatchObject({ type: "likert", learner_response: "scale_2", result: "neutral" });
    expect(patternOf(recorded.get("blk_n5_1"))).toBeUndefined();
    // 2 of the 4 scored questions right, the drag partly: the open answer and the opinions count for nothing.
    expect(Number(written["cmi.score.max"] ?? 4)).toBeGreaterThan(0);
  });
});

describe("resuming an attempt", () => {
  test("the number, the open answer and the opinions come back from the suspend data as they were left", async () => {
    const server = await servePackage("scorm2004");
    const launch = async (page: Page, saved: unknown) => {
      await page.goto(`${server.origin}/lms/scorm2004.html`);
      await page.evaluate((data) => (window as unknown as { launch: (saved: unknown, href: string) => void }).launch(data, "/pkg/index.html"), saved);
      await waitForCourse(scoFrame(page));
    };
    const first = await browser.newPage();
    await launch(first, null);
    const sco = scoFrame(first);
    await nextUntil(sco, "les_new");
    const question = (scope: FrameLocator, id: string) => scope.locator(`[data-${DataName.questionId}=${id}]`);
    await question(sco, "blk_n0").locator("input").fill("2,5");
    await question(sco, "blk_n4").locator("textarea").fill("Pumpe stoppen, dann melden.");
    await question(sco, "blk_n5").locator("[role=radiogroup]").nth(0).getByRole("radio").nth(3).check();
    await question(sco, "blk_n5").locator("[role=radiogroup]").nth(1).getByRole("radio").nth(1).check();
    const suspendData = await first.evaluate(() => (window as unknown as { written: Record<string, unknown> }).written["cmi.suspend_data"]);
    await first.close();
    const second = await browser.newPage();
    await launch(second, { suspend_data: suspendData, entry: "resume", location: "les_new" });
    const again = scoFrame(second);
    await nextUntil(again, "les_new");
    expect(await question(again, "blk_n0").locator("input").inputValue()).toBe("2,5");
    expect(await question(again, "blk_n4").locator("textarea").inputValue()).toBe("Pumpe stoppen, dann melden.");
    expect(await question(again, "blk_n5").locator("[role=radiogroup]").nth(0).getByRole("radio").nth(3).isChecked()).toBe(true);
    expect(await question(again, "blk_n5").locator("[role=radiogroup]").nth(1).getByRole("radio").nth(1).isChecked()).toBe(true);
    await second.close();
    server.stop();
  });
});

describe("SCORM 1.2", () => {
  test("the same answers in SCORM 1.2's forms: numeric, choice, performance, fill-in for the open answer, likert", async () => {
    const { interactions } = await play("scorm12");
    const recorded = byId(interactions);
    expect(recorded.get("blk_n0")).toMatchObject({ type: "numeric", student_response: "2.5", result: "correct" });
    expect(patternOf(recorded.get("blk_n0"))).toBe("2.5");
    expect(recorded.get("blk_n1")).toMatchObject({ type: "choice", student_response: "a", result: "correct" });
    expect(recorded.get("blk_n2")).toMatchObject({ type: "performance", result: "wrong" });
    expect(recorded.get("blk_n4")).toMatchObject({ type: "fill-in", result: "neutral" });
    expect(recorded.get("blk_n5_1")).toMatchObject({ type: "likert", student_response: "4", result: "neutral" });
  });
});

describe("cmi5", () => {
  let player: Cmi5Player;
  beforeAll(async () => {
    player = await startCmi5Player("question-types-cmi5", course());
  });
  afterAll(async () => {
    await player?.stop();
  });

  test("answered statements carry interactionType and correctResponsesPattern; open answers and opinions have no score or success", async () => {
    const { lms, au } = player;
    const page = await player.browser.newPage();
    const { url, sessionId } = lms.launch({ auUrl: au.url, auId: au.id, registration: crypto.randomUUID(), moveOn: au.moveOn, masteryScore: au.masteryScore });
    await page.goto(url);
    await waitForCourse(page);
    await nextUntil(page, "les_new");
    await answerAll(page);
    let answered: Statement[] = [];
    for (let wait = 0; wait < 200 && answered.length < 7; wait++) {
      answered = lms.sessionStatements(sessionId).filter((statement) => statement.verb.id === "http://adlnet.gov/expapi/verbs/answered");
      if (answered.length < 7) await Bun.sleep(50);
    }
    const definition = (statement: Statement) => (statement.object as { definition: Record<string, unknown> }).definition;
    const result = (statement: Statement) => (statement as unknown as { result: Record<string, unknown> }).result;
    const ofId = (id: string) => answered.find((statement) => String((statement.object as { id: string }).id).endsWith(`/questions/${id}`))!;
    expect(answered).toHaveLength(7);
    expect(definition(ofId("blk_n0"))).toMatchObject({ interactionType: "numeric", correctResponsesPattern: ["2.4[:]2.6"] });
    expect(result(ofId("blk_n0"))).toMatchObject({ response: "2.5", success: true });
    expect(definition(ofId("blk_n1"))).toMatchObject({ interactionType: "choice", correctResponsesPattern: ["choice_1"] });
    expect(definition(ofId("blk_n2"))).toMatchObject({ interactionType: "performance", correctResponsesPattern: ["label_1[.]zone_1[,]label_2[.]zone_2[,]label_3[.]zone_3"] });
    expect(definition(ofId("blk_n3"))).toMatchObject({ interactionType: "performance" });
    expect(definition(ofId("blk_n4"))).toMatchObject({ interactionType: "long-fill-in" });
    expect(result(ofId("blk_n4"))).toMatchObject({ response: "Pumpe stoppen, dann melden." });
    expect(definition(ofId("blk_n5_1"))).toMatchObject({ interactionType: "likert" });
    expect((definition(ofId("blk_n5_1")).scale as unknown[]).length).toBe(5);
    for (const id of ["blk_n4", "blk_n5_1", "blk_n5_2"]) {
      expect(result(ofId(id)).score).toBeUndefined();
      expect(result(ofId(id)).success).toBeUndefined();
    }
    await page.close();
  });
});
