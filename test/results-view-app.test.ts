/**
 * The results view as an MCP App (issue 43, item 6), end to end: 30 scripted learners' statements go in
 * through import_results on the real service, get_course_results (over the SDK client) gives the result
 * and links the ui:// view, and a host page in Chromium frames the view on its own origin under the
 * spec's default CSP and hands it that result. The view must show the very numbers of structuredContent
 * (facts, score bands, each question's facility and discrimination for first and all attempts, each
 * lesson's drop-off), draw each chart as SVG named by its title and described by its desc, say
 * "withheld: fewer than N learners" for small groups instead of drawing them, switch statistics by
 * keyboard, speak the host's locale, and pass axe at 390 px and on a desktop, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Frame, Page } from "playwright-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";
import { resultsViewUri } from "../src/mcp/apps/results-view.ts";
import { startAppsHost, type AppsHost, type HostOptions } from "./support/apps-host.ts";
import { launchBrowser, runAxe } from "./support/browser.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { learnerActor, quizCourse, scriptedStatements } from "./support/results-statements.ts";

type Json = Record<string, unknown>;
type Course = Json & { id: string; version: number; modules: (Json & { id: string; lessons: (Json & { id: string; blocks: (Json & { id: string })[] })[] })[] };
interface Figures { attempts: number; facilityIndex: number; discriminationIndex: number | null }
interface Results {
  courseId: string;
  minGroup: number;
  statements: number;
  withheld?: string;
  course?: { learners: number; quizAttempts: number; completionRate: number; passRate: number | null; scoreDistribution: { from: number; to: number; learners: number }[] };
  lessons: { title: string; withheld?: string; reached?: number; stoppedHere?: number; dropOffRate?: number }[];
  questions: { title: string; withheld?: string; firstAttempts?: Figures; allAttempts?: Figures }[];
  diagnoses: { kind: string }[];
}

let service: TestService;
let alice: Agent;
let browser: Browser;
let apps: AppsHost;
let course: Course;
let fetched: CallToolResult;
let results: Results;

const screenshots = process.env.RESULTS_VIEW_SCREENSHOTS;

/** A course with the scripted statements of the learners `keep` picks, and its get_course_results answer. */
async function courseWithResults(keep: (learner: number) => boolean = () => true): Promise<{ course: Course; result: CallToolResult }> {
  const made = (await alice.call("create_course", quizCourse)) as Course;
  const wanted = new Set(Array.from({ length: 30 }, (_, learner) => learner).filter(keep).map((learner) => String(learnerActor(learner).mbox)));
  const statements = scriptedStatements(made).filter((statement) => wanted.has(String((statement.actor as Json).mbox)));
  const imported = await alice.call("import_results", { courseId: made.id, content: JSON.stringify(statements) });
  expect(imported.added).toBe(statements.length);
  const result = (await alice.callRaw("get_course_results", { courseId: made.id })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return { course: made, result };
}

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"), "apps-host");
  ({ course, result: fetched } = await courseWithResults());
  results = fetched.structuredContent as unknown as Results;
  const view = (await alice.client.readResource({ uri: resultsViewUri })).contents[0] as { text: string; mimeType: string };
  expect(view.mimeType).toBe("text/html;profile=mcp-app");
  apps = await startAppsHost(view.text);
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await apps?.stop();
  await alice?.close();
  await service?.dispose();
});

/** The view in the hand-written host with `result`, ready once it shows results or a problem. */
function openView(options: Partial<HostOptions> = {}): Promise<{ page: Page; frame: Frame }> {
  return apps.open(browser, {
    arguments: { courseId: course.id },
    result: fetched,
    readResource: (uri) => alice.client.readResource({ uri }),
    ready: (frame) => frame.waitForFunction(() => !document.getElementById("results")?.hidden || document.getElementById("problem")?.textContent, undefined, { timeout: 15_000 }),
    ...options,
  });
}

/** With RESULTS_VIEW_SCREENSHOTS set: the whole view, its frame as tall as its page, to look at. */
async function screenshot(page: Page, frame: Frame, width: number, name: string): Promise<void> {
  const height = await frame.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height: Math.min(4000, height + 20) });
  await page.evaluate((tall) => {
    (document.querySelector("iframe") as HTMLIFrameElement).style.height = `${tall}px`;
  }, height + 10);
  await page.screenshot({ path: `${screenshots}/results-view-${name}.png`, fullPage: true });
}

/** A percentage as shown (one decimal at most) is the figure handed over, rounded. */
function expectShown(text: string, figure: number): void {
  expect(Math.abs(numberIn(text) - figure)).toBeLessThanOrEqual(0.05 + 1e-9);
}

/** Presses Tab in the host page until the element `id` in the view has the focus. */
async function tabInFrame(page: Page, frame: Frame, id: string): Promise<void> {
  for (let presses = 0; presses < 30; presses++) {
    if (await frame.evaluate((wanted) => document.activeElement?.id === wanted, id)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached #${id}`);
}

/** "85.19%", "−12.5%", "30" → 85.19, -12.5, 30 (English formatting). */
const numberIn = (text: string): number => Number(text.replace(/[−–]/g, "-").replace(/[^\d.-]/g, ""));

/** Each body row's cells (row header included) of the table in the section with `heading`. */
async function tableRows(frame: Frame, heading: string): Promise<string[][]> {
  const rows = await frame.evaluate((name) => {
    const section = [...document.querySelectorAll("section")].find((box) => box.querySelector("h2")?.textContent === name);
    return [...(section?.querySelectorAll("tbody tr") ?? [])].map((row) => [...row.children].map((cell) => (cell as HTMLElement).innerText.trim()));
  }, heading);
  return rows.map((row) => row.map(spaced));
}

/** Intl's no-break spaces (German and French put one before %) as plain spaces. */
const spaced = (text: string): string => text.replace(/[\u00a0\u202f]/g, " ");

/** Each SVG chart's accessible name and description as the page resolves them from aria-labelledby. */
async function chartTexts(frame: Frame): Promise<{ id: string; role: string | null; name: string; desc: string; title: string }[]> {
  return frame.evaluate(() =>
    [...document.querySelectorAll("svg.chart")].map((svg) => {
      const [titleId, descId] = (svg.getAttribute("aria-labelledby") ?? "").split(" ");
      return {
        id: svg.id,
        role: svg.getAttribute("role"),
        name: document.getElementById(titleId ?? "")?.textContent ?? "",
        desc: document.getElementById(descId ?? "")?.textContent ?? "",
        title: svg.querySelector("title")?.textContent ?? "",
      };
    }),
  );
}

describe("get_course_results and its view over MCP", () => {
  test("the tool links the view; the view is one self-contained page asking for no origins", async () => {
    const { tools } = await alice.client.listTools();
    const tool = tools.find((candidate) => candidate.name === "get_course_results")!;
    expect(tool._meta).toEqual({ ui: { resourceUri: resultsViewUri } });
    expect(getToolUiResourceUri(tool as Parameters<typeof getToolUiResourceUri>[0])).toBe(resultsViewUri);
    const read = (await alice.client.readResource({ uri: resultsViewUri })).contents[0] as { text: string; _meta?: unknown };
    expect(read._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });
    expect(read.text).not.toMatch(/(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
  });
});

describe("in an MCP Apps host", () => {
  test("the numbers shown are structuredContent's: facts, score bands, per-question statistics (first and all attempts, switched by keyboard), lesson drop-off", async () => {
    const { page, frame } = await openView();
    const course = results.course!;
    expect(await frame.locator("h1").innerText()).toBe("Course results");
    expect(await frame.evaluate(() => document.documentElement.lang)).toBe("en");
    const facts = await frame.locator(".facts").innerText();
    expect(facts).toContain(`Learners\n${course.learners}`);
    expect(facts).toContain(`Quiz attempts\n${course.quizAttempts}`);
    expect(facts).toContain(`Completion rate\n${Math.round(course.completionRate * 100)}%`);
    expect(facts).toContain(`Pass rate\n${Math.round(course.passRate! * 100)}%`);
    expect(await frame.locator(".summary").innerText()).toContain(`from ${results.statements} statements`);

    // Score distribution: a row per band, and a labelled bar for each band with learners.
    const bands = await tableRows(frame, "Score distribution");
    expect(bands.map((row) => numberIn(row[1]!))).toEqual(course.scoreDistribution.map((band) => band.learners));
    expect(bands.map((row) => row[0])).toEqual(course.scoreDistribution.map((band) => `${band.from}–${band.to}%`));
    const barLabels = await frame.locator("#score-chart text.value").allTextContents();
    expect(barLabels.map(Number)).toEqual(course.scoreDistribution.filter((band) => band.learners > 0).map((band) => band.learners));
    const heights = await frame.evaluate(() => [...document.querySelectorAll("#score-chart rect.bar")].map((bar) => Number(bar.getAttribute("height"))));
    expect(heights).toHaveLength(2);
    // The 9 weak learners' and the 9 strong learners' bands are drawn equally tall.
    expect(heights[0]).toBeCloseTo(heights[1]!, 5);

    // Questions, first attempts: facility and discrimination as Moodle's percentages, attempts as counts.
    const checkQuestions = async (basis: "firstAttempts" | "allAttempts"): Promise<void> => {
      const rows = await tableRows(frame, "Facility against discrimination, per question");
      expect(rows).toHaveLength(results.questions.length);
      results.questions.forEach((question, at) => {
        const figures = question[basis]!;
        const [title, facility, discrimination, attempts] = rows[at]!;
        expect(title).toBe(`${at + 1}. ${question.title}`);
        expectShown(facility!, figures.facilityIndex * 100);
        if (figures.discriminationIndex === null) expect(discrimination).toBe("not computed (all marks equal)");
        else expectShown(discrimination!, figures.discriminationIndex);
        expect(numberIn(attempts!)).toBe(figures.attempts);
      });
      // One point per question with both indexes; a higher discrimination sits higher, a higher facility further right.
      const drawn = results.questions.flatMap((question, at) => (question[basis]!.discriminationIndex === null ? [] : [{ number: at + 1, ...question[basis]! }]));
      const points = await frame.evaluate(() => [...document.querySelectorAll("#item-chart .point")].map((point) => ({ number: Number(point.getAttribute("data-question")), cx: Number(point.querySelector("circle")!.getAttribute("cx")), cy: Number(point.querySelector("circle")!.getAttribute("cy")) })));
      expect(points.map((point) => point.number)).toEqual(drawn.map((question) => question.number));
      // Every drawn question's number is written beside its point (points on one spot share a label).
      const labels = (await frame.locator("#item-chart text.point-label").allTextContents()).flatMap((label) => label.split(", ").map(Number));
      expect(labels.sort()).toEqual(drawn.map((question) => question.number).sort());
      for (const a of drawn) {
        for (const b of drawn) {
          const [pa, pb] = [points.find((point) => point.number === a.number)!, points.find((point) => point.number === b.number)!];
          if (a.facilityIndex > b.facilityIndex) expect(pa.cx).toBeGreaterThan(pb.cx);
          if (a.discriminationIndex! > b.discriminationIndex!) expect(pa.cy).toBeLessThan(pb.cy);
        }
      }
    };
    expect(await frame.locator("#basis-first").isChecked()).toBe(true);
    await checkQuestions("firstAttempts");
    // Keyboard: Tab reaches the choice, an arrow key switches to all attempts.
    await tabInFrame(page, frame, "basis-first");
    expect(await frame.evaluate(() => document.activeElement?.id)).toBe("basis-first");
    await page.keyboard.press("ArrowRight");
    await frame.waitForFunction(() => (document.getElementById("basis-all") as HTMLInputElement).checked);
    expect(await frame.evaluate(() => document.activeElement?.id)).toBe("basis-all");
    expect(await chartTexts(frame).then((charts) => charts.find((chart) => chart.id === "item-chart")?.name)).toContain("All attempts");
    await checkQuestions("allAttempts");

    // Lessons: reached, stopped and drop-off as handed over; the chart's row for each says the same.
    const lessons = await tableRows(frame, "Drop-off per lesson");
    expect(lessons).toHaveLength(results.lessons.length);
    results.lessons.forEach((lesson, at) => {
      const [title, reached, stopped, rate] = lessons[at]!;
      expect(title).toBe(`${at + 1}. ${lesson.title}`);
      expect(numberIn(reached!)).toBe(lesson.reached!);
      expect(numberIn(stopped!)).toBe(lesson.stoppedHere!);
      expectShown(rate!, lesson.dropOffRate! * 100);
    });
    const lessonLabels = await frame.locator("#lesson-chart .lesson-row text.value").allTextContents();
    expect(lessonLabels).toEqual(results.lessons.map((lesson) => `${lesson.reached} reached, ${lesson.stoppedHere} stopped (${Math.round(lesson.dropOffRate! * 1000) / 10}%)`));
    expect(await frame.locator(".findings > li").count()).toBe(results.diagnoses.length);
    expect(await frame.locator(".findings").innerText()).toContain("Key probably wrong");
    await page.context().close();
  }, 60_000);

  test("each chart is an SVG image named by its title and described by its desc, with a table of its figures in a keyboard-reachable box", async () => {
    const { frame } = await openView();
    const charts = await chartTexts(frame);
    expect(charts.map((chart) => chart.id)).toEqual(["score-chart", "item-chart", "lesson-chart"]);
    for (const chart of charts) {
      expect(chart.role).toBe("img");
      expect(chart.name).toBe(chart.title);
      expect(chart.name.length).toBeGreaterThan(10);
      expect(chart.desc).toContain("The table below lists every");
    }
    expect(charts[0]!.desc).toContain(`best scores of ${results.course!.scoreDistribution.reduce((sum, band) => sum + band.learners, 0)} learners`);
    expect(charts[0]!.desc).toContain("the most learners, 9, scored 20–30%, 70–80%");
    expect(charts[1]!.desc).toContain(`Scatter chart of ${results.questions.filter((question) => question.firstAttempts?.discriminationIndex !== null).length} questions`);
    const worst = results.lessons.map((lesson, at) => ({ ...lesson, number: at + 1 })).sort((a, b) => b.dropOffRate! - a.dropOffRate!)[0]!;
    expect(charts[2]!.desc).toContain(`the most stop at “${worst.number}. ${worst.title}” (${Math.round(worst.dropOffRate! * 100)}%)`);
    // What draws the chart is hidden from assistive technology: the name, the description and the table speak for it.
    expect(await frame.evaluate(() => [...document.querySelectorAll("svg.chart > g")].every((group) => group.getAttribute("aria-hidden") === "true"))).toBe(true);
    const boxes = await frame.evaluate(() => [...document.querySelectorAll(".table-box")].map((box) => ({ role: box.getAttribute("role"), tabIndex: (box as HTMLElement).tabIndex, name: document.getElementById(box.getAttribute("aria-labelledby") ?? "")?.textContent })));
    expect(boxes).toEqual([
      { role: "region", tabIndex: 0, name: "Score distribution" },
      { role: "region", tabIndex: 0, name: "Facility against discrimination, per question" },
      { role: "region", tabIndex: 0, name: "Drop-off per lesson" },
    ]);
    await frame.page().context().close();
  }, 60_000);

  test("small groups are withheld: the view says 'withheld: fewer than 5 learners' and draws nothing for them", async () => {
    // Three learners in all: the whole course is withheld.
    const tiny = await courseWithResults((learner) => [0, 1, 10].includes(learner));
    const all = await openView({ result: tiny.result, arguments: { courseId: tiny.course.id } });
    expect((tiny.result.structuredContent as unknown as Results).withheld).toContain("fewer than 5");
    expect(await all.frame.locator(".withheld-all").innerText()).toContain("withheld: fewer than 5 learners");
    expect(await all.frame.locator("svg").count()).toBe(0);
    expect(await all.frame.locator(".facts").count()).toBe(0);
    await all.page.context().close();

    // Twelve learners, four of whom take the quiz: the quiz lesson, its questions and the scores are withheld.
    const few = await courseWithResults((learner) => [0, 1, 9, 10].includes(learner) || learner >= 18);
    const figures = few.result.structuredContent as unknown as Results;
    expect(figures.course?.learners).toBe(16);
    expect(figures.questions.every((question) => question.withheld)).toBe(true);
    expect(figures.lessons[2]!.withheld).toContain("fewer than 5");
    // Four learners passed or failed: their pass rate and scores are withheld too, by the service and in the view.
    expect(figures.course).toMatchObject({ passRate: null, scoreDistribution: [], scoresWithheld: "pass rate and scores: fewer than 5 learners: figures withheld" });
    const { frame, page } = await openView({ result: few.result, arguments: { courseId: few.course.id } });
    expect(await frame.locator("#score-chart").count()).toBe(0);
    expect(await frame.locator(".facts").innerText()).toContain("Pass rate\nwithheld: fewer than 5 learners");
    expect(await frame.locator("#scores-section").innerText()).toContain("withheld: fewer than 5 learners");
    expect(await frame.locator("#item-chart").count()).toBe(0);
    expect(await frame.locator(".withheld-note").allInnerTexts()).toContain("#1, #2, #3, #4, #5 not drawn: withheld: fewer than 5 learners.");
    for (const row of await tableRows(frame, "Facility against discrimination, per question")) expect(row[1]).toBe("withheld: fewer than 5 learners");
    const lessonRows = await tableRows(frame, "Drop-off per lesson");
    expect(lessonRows[2]![1]).toBe("withheld: fewer than 5 learners");
    expect(numberIn(lessonRows[0]![1]!)).toBe(16);
    // The withheld lesson has no bar, only the words.
    expect(await frame.locator("#lesson-chart .lesson-row[data-lesson='3'] rect.bar").count()).toBe(0);
    expect(await frame.locator("#lesson-chart .lesson-row[data-lesson='3'] text.withheld-label").textContent()).toBe("withheld: fewer than 5 learners");
    expect(await frame.locator("#lesson-chart .lesson-row[data-lesson='1'] rect.bar").count()).toBe(1);
    if (screenshots) await screenshot(page, frame, 390, "withheld");
    await page.context().close();
  }, 90_000);

  test("videos: played and watched to the end per video as handed over, a small group withheld, and the video nobody finishes among the findings", async () => {
    const made = (await alice.call("create_course", {
      title: "Videos",
      modules: [{ title: "Only", lessons: [{ title: "Watch", blocks: [
        { type: "video", url: "https://media.example.org/drill.mp4", title: "Spill drill", transcript: "Stop, warn, contain." },
        { type: "video", url: "https://media.example.org/gloves.mp4", title: "Gloves", transcript: "Nitrile for solvents." },
        { type: "video", url: "https://media.example.org/exit.mp4", title: "Exits", transcript: "Green signs." },
      ] }] }],
    })) as Course;
    const lesson = made.modules[0]!.lessons[0]!;
    const iri = `urn:course-authoring-service:course:${made.id}`;
    let clock = Date.parse("2026-10-01T08:00:00Z");
    const statement = (learner: number, verb: string, object: string): Json => ({
      id: crypto.randomUUID(), actor: learnerActor(learner), verb: { id: verb }, object: { objectType: "Activity", id: object }, timestamp: new Date((clock += 1000)).toISOString(),
    });
    const [drill, gloves, exits] = lesson.blocks.map((block) => `${iri}/videos/${block.id}`) as [string, string, string];
    const statements: Json[] = [];
    for (let learner = 0; learner < 7; learner++) {
      statements.push(statement(learner, "http://adlnet.gov/expapi/verbs/experienced", `${iri}/lessons/${lesson.id}`), statement(learner, "https://w3id.org/xapi/video/verbs/played", drill));
      if (learner < 2) statements.push(statement(learner, "http://adlnet.gov/expapi/verbs/completed", drill));
      if (learner < 6) statements.push(statement(learner, "https://w3id.org/xapi/video/verbs/played", gloves));
      if (learner < 3) statements.push(statement(learner, "https://w3id.org/xapi/video/verbs/played", exits));
    }
    expect((await alice.call("import_results", { courseId: made.id, content: JSON.stringify(statements) })).added).toBe(statements.length);
    const result = (await alice.callRaw("get_course_results", { courseId: made.id })) as CallToolResult;
    const videos = (result.structuredContent as { videos: Json[] }).videos;
    expect(videos).toMatchObject([{ title: "Spill drill", played: 7, finished: 2 }, { title: "Gloves", played: 6, finished: 0 }, { title: "Exits", withheld: "fewer than 5 learners: figures withheld" }]);
    const { frame, page } = await openView({ result, arguments: { courseId: made.id } });
    expect(await tableRows(frame, "Videos: played and watched to the end")).toEqual([
      ["Spill drill (Lesson “Watch”)", "7", "2"],
      ["Gloves (Lesson “Watch”)", "6", "0"],
      ["Exits (Lesson “Watch”)", "withheld: fewer than 5 learners"],
    ]);
    expect(await frame.locator(".findings").innerText()).toContain("A video nobody finishes");
    expect(await runAxe(frame)).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("the host's locale picks the words and the number format (German, French, Spanish), and a tool error is shown as such", async () => {
    const german = await openView({ locale: "de-DE" });
    expect(await german.frame.evaluate(() => document.documentElement.lang)).toBe("de");
    expect(await german.frame.locator("h1").innerText()).toBe("Kursergebnisse");
    expect(spaced(await german.frame.locator(".facts").innerText())).toContain(`Abschlussquote\n${Math.round(results.course!.completionRate * 100)} %`);
    expect((await chartTexts(german.frame)).map((chart) => chart.name)).toEqual(["Verteilung der Punktzahlen", "Leichtigkeitsindex gegen Trennschärfe, je Frage (Ersten Versuchen)", "Abbrüche je Lektion"]);
    const germanRows = await tableRows(german.frame, "Abbrüche je Lektion");
    expect(germanRows[1]![3]).toBe("40 %");
    await german.page.context().close();
    for (const [locale, title] of [["fr-CA", "Résultats du cours"], ["es", "Resultados del curso"], ["ja-JP", "Course results"]] as const) {
      const { frame, page } = await openView({ locale });
      expect(await frame.locator("h1").innerText()).toBe(title);
      await page.context().close();
    }
    const failed = (await alice.callRaw("get_course_results", { courseId: "crs_0000000000000000000000" })) as CallToolResult;
    expect(failed.isError).toBe(true);
    const { frame, page } = await openView({ result: failed });
    expect(await frame.locator("#problem").innerText()).toContain("The results could not be read.");
    expect(await frame.locator("#problem").innerText()).toContain("not_found");
    expect(await frame.locator("#results").isHidden()).toBe(true);
    await page.context().close();
  }, 90_000);

  test("axe finds nothing at 390 px and on a desktop, light and dark; nothing overflows; the reference AppBridge host shows the same", async () => {
    for (const [width, theme] of [[390, "light"], [390, "dark"], [1024, "light"], [1024, "dark"]] as const) {
      const { page, frame } = await openView({ theme, context: { bypassCSP: true, viewport: { width, height: 900 } } });
      const violations = await runAxe(frame);
      expect(violations.map((violation) => `${width} px, ${theme}: ${violation.id}: ${violation.help} (${violation.targets.join(", ")})`)).toEqual([]);
      expect(await frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      // The charts are drawn for the width they have.
      const svgWidths = await frame.evaluate(() => [...document.querySelectorAll("svg.chart")].map((svg) => svg.getBoundingClientRect().width));
      for (const svgWidth of svgWidths) expect(svgWidth).toBeLessThanOrEqual(width);
      expect(await frame.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      if (screenshots) {
        await screenshot(page, frame, width, `${width}-${theme}`);
        for (const part of ["scores", "items", "lessons"]) await frame.locator(`#${part}-section`).screenshot({ path: `${screenshots}/results-view-${width}-${theme}-${part}.png` });
      }
      await page.context().close();
    }
    // The reference host announces no theme: the view follows the system's (dark here), and still passes axe.
    const reference = await openView({ host: "reference", context: { bypassCSP: true, colorScheme: "dark", viewport: { width: 390, height: 900 } } });
    expect((await chartTexts(reference.frame)).map((chart) => chart.id)).toEqual(["score-chart", "item-chart", "lesson-chart"]);
    expect(await reference.frame.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    expect(await reference.frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(30, 30, 30)");
    expect(await runAxe(reference.frame)).toEqual([]);
    await reference.page.context().close();
  }, 120_000);
});
