/**
 * Issue 42, step 2: the six new question types on the learner's page, in Chromium: a German course
 * (decimal comma) with each type in a content lesson (checked one by one) and in a quiz (submitted), by
 * keyboard and by pointer: numbers read as the language writes them, hotspot regions chosen on the
 * picture or from their named inputs, labels put on zones by picker and by dragging, drop-downs in a
 * text, an open answer cut to its guide with a visible count and the model answer shown, opinions
 * recorded; open answers and opinions never scored. axe at 390 px; the new bundle only on pages that
 * need it; screenshots to look at.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";
import { launchBrowser, runAxe, seriousOrCritical, serveStatic, type StaticSite } from "./support/browser.ts";
import { newQuestionTypeBlocks } from "./support/question-types.ts";
import { DataName } from "../src/page-contract/markup-names.ts";
import { questionTypesBundle } from "../src/render/player-bundles.ts";

setDefaultTimeout(90_000);

const pumpSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" width="400" height="300"><rect width="400" height="300" fill="#f1f5f9"/><rect x="20" y="140" width="360" height="20" fill="#94a3b8"/><circle cx="60" cy="150" r="26" fill="#0f766e"/><rect x="170" y="120" width="60" height="60" fill="#b45309"/><polygon points="300,120 360,120 330,180" fill="#7c3aed"/><rect x="160" y="40" width="80" height="40" fill="#334155"/></svg>`;

function courseIn(language: string): RenderableCourse {
  const withIds = (prefix: string) => newQuestionTypeBlocks("ast_pump").map((block, index) => ({ id: `blk_${prefix}${index}`, points: 1, objectiveIds: [], ...block }));
  return {
    id: "crs_types",
    title: "Pumpen",
    language,
    objectives: [],
    modules: [
      {
        id: "mod_a",
        title: "Pumpen",
        lessons: [
          { id: "les_try", title: "Üben", kind: "content", blocks: withIds("t") },
          { id: "les_quiz", title: "Prüfung", kind: "quiz", shuffleChoices: false, passingScore: 50, blocks: withIds("q") },
        ],
      },
    ],
  } as unknown as RenderableCourse;
}

let browser: Browser;
let site: StaticSite;
const shots = "/tmp/question-types-shots";

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  browser = await launchBrowser();
  const page = (language: string) => ({ body: renderCourseHtml(courseIn(language), { mode: "package", assetUrl: (id) => `/${id}.svg` }), type: "text/html; charset=utf-8" });
  site = serveStatic({
    "/de.html": page("de"),
    "/en.html": page("en"),
    "/ast_pump.svg": { body: pumpSvg, type: "image/svg+xml" },
  });
});
afterAll(async () => {
  await site?.stop();
  await browser?.close();
});

async function open(language: "de" | "en", lesson: string, width = 1000): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, bypassCSP: true });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(`${site.origin}/${language}.html#lesson-${lesson}`);
  await page.locator("html.course-ready").waitFor({ state: "attached" });
  (page as unknown as { errors: string[] }).errors = errors;
  return page;
}

const question = (page: Page, id: string) => page.locator(`[data-${DataName.questionId}=${id}]`);
const verdict = (page: Page, id: string) => question(page, id).locator(`[data-${DataName.verdict}]`);
const check = (page: Page, id: string) => question(page, id).locator(`[data-${DataName.checkAnswer}]`).click();

describe("checked one by one in a content lesson (German)", () => {
  test("numeric reads 2,5 as two and a half; a wrong number is wrong; a word is named as not a number", async () => {
    const page = await open("de", "les_try");
    const input = question(page, "blk_t0").locator("input");
    await input.fill("abc");
    await check(page, "blk_t0");
    await expect(verdict(page, "blk_t0").textContent()).resolves.toBe("Geben Sie eine Zahl ein, zum Beispiel 2,5.");
    await input.fill("2,9");
    await check(page, "blk_t0");
    await expect(verdict(page, "blk_t0").textContent()).resolves.toContain("Nicht ganz");
    await input.fill("2,55");
    await check(page, "blk_t0");
    await expect(verdict(page, "blk_t0").textContent()).resolves.toContain("Richtig");
    expect(await question(page, "blk_t0").getByText("Right: 2.5 ml.").isVisible()).toBe(true);
    expect(await question(page, "blk_t0").getByText("ml", { exact: true }).isVisible()).toBe(true);
    expect((page as unknown as { errors: string[] }).errors).toEqual([]);
    await page.close();
  });

  test("hotspot: a click on the picture chooses the region's named input; the keyboard reaches the same inputs", async () => {
    const page = await open("de", "les_try");
    const hotspot = question(page, "blk_t1");
    const box = (await hotspot.locator("svg").boundingBox())!;
    // Valve B (wrong) at picture (200, 150): the click lands in picture coordinates at any width.
    await page.mouse.click(box.x + (200 / 400) * box.width, box.y + (150 / 300) * box.height);
    expect(await hotspot.getByRole("radio", { name: "Valve B" }).isChecked()).toBe(true);
    await check(page, "blk_t1");
    await expect(verdict(page, "blk_t1").textContent()).resolves.toContain("Nicht ganz");
    expect(await hotspot.getByText("Valve B is closed last.").isVisible()).toBe(true);
    // By keyboard: the radios carry the regions' names, none of which tells the answer.
    await hotspot.getByRole("radio", { name: "Valve B" }).focus();
    await page.keyboard.press("ArrowUp");
    expect(await hotspot.getByRole("radio", { name: "Valve A" }).isChecked()).toBe(true);
    expect(await hotspot.locator(`[data-${DataName.region}="0"]`).getAttribute("class")).toContain("xv");
    await check(page, "blk_t1");
    await expect(verdict(page, "blk_t1").textContent()).resolves.toContain("Richtig");
    await page.close();
  });

  test("drag_onto_image: zone pickers by keyboard (at most 3N+2 keys) and drag by pointer; the picture shows the labels", async () => {
    const page = await open("de", "les_try");
    const drag = question(page, "blk_t2");
    const selects = drag.locator("select");
    let keys = 1;
    await selects.first().focus();
    for (const target of [1, 2, 3]) {
      for (let step = 0; step < target; step++) {
        keys++;
        await page.keyboard.press("ArrowDown");
      }
      if (target < 3) {
        keys++;
        await page.keyboard.press("Tab");
      }
    }
    expect(keys).toBeLessThanOrEqual(3 * 3 + 2);
    expect(await selects.evaluateAll((all) => all.map((select) => (select as HTMLSelectElement).value))).toEqual(["0", "1", "2", ""]);
    expect((await drag.locator(`[data-${DataName.zone}="0"] text`).textContent())?.trim()).toBe("Inlet");
    // A pointer drags "Exhaust" onto the outlet zone: now two labels share it, and the answer is partly right.
    const zoneBox = (await drag.locator(`[data-${DataName.zone}="2"] circle`).boundingBox())!;
    // Playwright emulates the HTML drag with mouse events; on a loaded machine Chromium has once missed
    // the drag's start, so a drag that moved nothing is made again (up to three times) before judging.
    for (let attempt = 0; attempt < 3 && (await selects.nth(3).inputValue()) !== "2"; attempt++) {
      await drag.locator("li").nth(3).dragTo(drag.locator(`[data-${DataName.zone}="2"] circle`), { targetPosition: { x: zoneBox.width / 2, y: zoneBox.height / 2 } });
    }
    expect(await selects.nth(3).inputValue()).toBe("2");
    expect((await drag.locator(`[data-${DataName.zone}="2"] text`).textContent())?.trim()).toBe("Outlet, Exhaust");
    await check(page, "blk_t2");
    await expect(verdict(page, "blk_t2").textContent()).resolves.toContain("Teilweise richtig");
    await page.close();
  });

  test("inline_choice: a native drop-down in each gap, named by its number", async () => {
    const page = await open("de", "les_try");
    const inline = question(page, "blk_t3");
    await inline.getByRole("combobox", { name: "Lücke 1" }).selectOption({ label: "switch off" });
    await inline.getByRole("combobox", { name: "Lücke 2" }).selectOption({ label: "open" });
    await check(page, "blk_t3");
    await expect(verdict(page, "blk_t3").textContent()).resolves.toContain("Teilweise richtig");
    expect(await inline.getByText("An open inlet floods the pump.").isVisible()).toBe(true);
    await page.close();
  });

  test("open_response: a paste over the guide is cut with a visible count and a note; the model answer shows; never scored", async () => {
    const page = await open("de", "les_try");
    const open_ = question(page, "blk_t4");
    const area = open_.locator("textarea");
    await area.fill("x".repeat(250));
    expect((await area.inputValue()).length).toBe(200);
    expect((await open_.locator(`[data-${DataName.characterCount}]`).textContent())?.trim()).toBe("200 von 200 Zeichen");
    expect((await open_.locator(`[data-${DataName.cutNote}]`).textContent())?.trim()).toBe("Ihre Antwort wurde auf 200 Zeichen gekürzt, mehr nimmt diese Frage nicht an.");
    await area.fill("Pumpe stoppen, Ventil schließen.");
    await check(page, "blk_t4");
    expect((await verdict(page, "blk_t4").textContent())?.trim()).toBe("Ihre Antwort ist erfasst. Sie wird nicht bewertet.");
    expect(await open_.getByText("Stop the pump at the main switch", { exact: false }).isVisible()).toBe(true);
    expect((await open_.locator("legend").textContent())?.trim()).toBe("Frage 5 (nicht bewertet)");
    await page.close();
  });

  test("likert: one radio group per statement, recorded and never scored", async () => {
    const page = await open("de", "les_try");
    const likert = question(page, "blk_t5");
    await likert.getByRole("radiogroup", { name: "I can close the valves in the right order." }).getByRole("radio", { name: "Agree", exact: true }).check();
    await likert.getByRole("radiogroup", { name: "The training was relevant to my job." }).getByRole("radio", { name: "Strongly agree" }).check();
    await check(page, "blk_t5");
    expect((await verdict(page, "blk_t5").textContent())?.trim()).toBe("Ihre Antwort ist erfasst. Sie wird nicht bewertet.");
    expect(await likert.getAttribute(`data-${DataName.response}`)).toBe("3 4");
    await page.close();
  });
});

describe("a quiz with every new type", () => {
  test("submitted: the scored types make the score, open answers and opinions are recorded, not scored; the review says so", async () => {
    const page = await open("de", "les_quiz");
    await question(page, "blk_q0").locator("input").fill("2,5");
    await question(page, "blk_q1").getByRole("radio", { name: "Valve A" }).check();
    for (const [index, value] of ["0", "1", "2", ""].entries()) await question(page, "blk_q2").locator("select").nth(index).selectOption(value);
    await question(page, "blk_q3").getByRole("combobox", { name: "Lücke 1" }).selectOption({ label: "switch off" });
    await question(page, "blk_q3").getByRole("combobox", { name: "Lücke 2" }).selectOption({ label: "close" });
    await question(page, "blk_q4").locator("textarea").fill("Pumpe stoppen.");
    await question(page, "blk_q5").getByRole("radio", { name: "Neutral" }).first().check();
    await question(page, "blk_q5").getByRole("radio", { name: "Agree", exact: true }).last().check();
    await page.locator(`[data-${DataName.lessonId}=les_quiz] [data-${DataName.submitQuiz}]`).click();
    const result = page.locator(`[data-${DataName.lessonId}=les_quiz] [data-${DataName.quizResult}]`);
    expect(await result.textContent()).toContain("4 von 4 Punkten");
    expect(await result.textContent()).toContain("Frage 5: Antwort erfasst (nicht bewertet).");
    expect(await result.textContent()).toContain("Frage 6: Antwort erfasst (nicht bewertet).");
    await page.screenshot({ path: `${shots}/quiz-submitted.png`, fullPage: true });
    await page.close();
  });
});

describe("the page", () => {
  test("axe finds nothing serious at 390 px; the regions hold on the picture at that width; screenshots to look at", async () => {
    const page = await open("en", "les_try", 390);
    await question(page, "blk_t0").locator("input").fill("2.5");
    await question(page, "blk_t4").locator("textarea").fill("x".repeat(230));
    expect(seriousOrCritical(await runAxe(page))).toEqual([]);
    const frame = (await question(page, "blk_t1").locator("img").boundingBox())!;
    const overlay = (await question(page, "blk_t1").locator("svg").boundingBox())!;
    expect(Math.abs(frame.width - overlay.width)).toBeLessThan(1);
    expect(Math.abs(frame.height - overlay.height)).toBeLessThan(1);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${shots}/lesson-390.png`, fullPage: true });
    await page.close();
  });

  test("the question-types bundle ships only with courses that ask one of these types", () => {
    const plain = { id: "crs_p", title: "P", language: "en", objectives: [], modules: [{ id: "mod", title: "M", lessons: [{ id: "les", title: "L", kind: "quiz", blocks: [{ id: "blk_s", type: "single_choice", prompt: "?", points: 1, objectiveIds: [], choices: [{ text: "a", correct: true }, { text: "b" }] }] }] }] } as unknown as RenderableCourse;
    const marker = questionTypesBundle.slice(0, 200);
    expect(renderCourseHtml(plain, { mode: "package", assetUrl: (id) => id }).includes(marker)).toBe(false);
    expect(renderCourseHtml(courseIn("en"), { mode: "package", assetUrl: (id) => id }).includes(marker)).toBe(true);
  });
});
