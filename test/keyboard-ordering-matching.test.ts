/**
 * Ordering and matching by keyboard, per the WAI-ARIA drag-and-drop alternative: pick an item, choose its
 * place, confirm; the focus stays on the item throughout, and the keystrokes are counted as sorting's are.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";
import { launchBrowser, serveStatic, type StaticSite } from "./support/browser.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

setDefaultTimeout(60_000);

const steps = ["Plan", "Write", "Review", "Publish", "Measure"];
const pairs = [
  { left: "200", right: "OK" },
  { left: "404", right: "Not Found" },
  { left: "500", right: "Server Error" },
];

const course = {
  id: "crs_keys",
  title: "Keys",
  objectives: [],
  modules: [
    {
      id: "mod_a",
      title: "Only",
      lessons: [
        {
          id: "les_q",
          title: "Check",
          kind: "quiz",
          shuffleChoices: false,
          blocks: [
            { id: "blk_order", type: "ordering", prompt: "Put the steps in order.", points: 1, objectiveIds: [], items: steps.map((text) => ({ text })) },
            { id: "blk_match", type: "matching", prompt: "Match each code.", points: 1, objectiveIds: [], pairs },
          ],
        },
      ],
    },
  ],
} as unknown as RenderableCourse;

let browser: Browser;
let site: StaticSite;
beforeAll(async () => {
  browser = await launchBrowser();
  site = serveStatic({ "/": { body: renderCourseHtml(course, { mode: "package", assetUrl: (id) => id }), type: "text/html; charset=utf-8" } });
});
afterAll(async () => {
  await site?.stop();
  await browser?.close();
});

const list = `[data-${DataName.questionId}=blk_order] ol`;
const order = (page: Page): Promise<string[]> => page.locator(`${list} .${ClassName.orderingText}`).allTextContents();
const focusedItem = (page: Page): Promise<string> => page.evaluate(({ ClassName }) => (document.activeElement?.closest(`.${ClassName.orderingItem}`)?.querySelector(`.${ClassName.orderingText}`)?.textContent ?? ""), { ClassName });
const status = (page: Page): Promise<string> => page.locator(`[data-${DataName.questionId}=blk_order] [data-${DataName.orderingStatus}]`).innerText();

describe("ordering: pick, choose the place, confirm", () => {
  test("the focus stays on the picked item while arrows move it; Enter drops it, Escape puts it back; each item costs a Tab, the pick, its distance and the drop", async () => {
    const page = await browser.newPage();
    await page.goto(`${site.origin}/#lesson-les_q`);
    await page.locator("html.course-ready").waitFor({ state: "attached" });
    const shown = await order(page);
    expect([...shown].sort()).toEqual([...steps].sort());

    let keystrokes = 0;
    const press = async (key: string): Promise<void> => {
      keystrokes++;
      await page.keyboard.press(key);
    };
    // Escape first: picked, moved, then put back where it was.
    await page.locator(`${list} li:last-child [data-${DataName.pick}]`).focus();
    const last = shown.at(-1) ?? "";
    await page.keyboard.press("Enter");
    expect(await page.locator(`${list} li:last-child [data-${DataName.pick}]`).getAttribute("aria-pressed")).toBe("true");
    expect(await status(page)).toBe(`Picked “${last}”, position 5 of 5. Arrow keys choose its place, Enter drops it, Escape puts it back.`);
    await page.keyboard.press("ArrowUp");
    expect((await order(page)).indexOf(last)).toBe(3);
    await page.keyboard.press("Escape");
    expect(await order(page)).toEqual(shown);
    expect(await focusedItem(page)).toBe(last);
    expect(await status(page)).toBe(`“${last}” is back at position 5 of 5.`);

    // Then every step to its place, top down: Tab to the item (counted), Enter, ArrowUp per place, Enter.
    let budget = 0;
    for (const [position, wanted] of steps.entries()) {
      const from = (await order(page)).indexOf(wanted);
      if (from === position) continue;
      budget += 2 + (from - position);
      await page.locator(`${list} li:nth-child(${from + 1}) [data-${DataName.pick}]`).focus();
      keystrokes++;
      budget++;
      await press("Enter");
      for (let place = from; place > position; place--) {
        await press("ArrowUp");
        expect(await focusedItem(page)).toBe(wanted);
      }
      await press("Enter");
      expect(await focusedItem(page)).toBe(wanted);
      expect(await status(page)).toBe(`Dropped “${wanted}” at position ${position + 1} of 5.`);
    }
    expect(await order(page)).toEqual(steps);
    expect(keystrokes).toBe(budget);
    expect(await page.locator(`[data-${DataName.questionId}=blk_order]`).getAttribute(`data-${DataName.touched}`)).toBe("true");
    await page.close();
  });
});

describe("matching: the picker is the item", () => {
  test("arrows choose a match without moving the row or the focus; Tab confirms; N rows take at most 3N+2 keystrokes", async () => {
    const page = await browser.newPage();
    await page.goto(`${site.origin}/#lesson-les_q`);
    await page.locator("html.course-ready").waitFor({ state: "attached" });
    const rows = page.locator(`[data-${DataName.questionId}=blk_match] .${ClassName.matchingRow}`);
    const options = await rows.first().locator("option").allTextContents();
    let keystrokes = 1;
    await rows.first().locator("select").focus();
    for (const [index, pair] of pairs.entries()) {
      const focusedRow = () => page.evaluate(({ ClassName }) => document.activeElement?.closest(`.${ClassName.matchingRow}`)?.querySelector("label")?.textContent ?? "", { ClassName });
      expect(await focusedRow()).toBe(pair.left);
      // The options list the answers in a fixed order after the prompt option; arrows walk it.
      const target = options.indexOf(pair.right);
      for (let step = 0; step < target; step++) {
        keystrokes++;
        await page.keyboard.press("ArrowDown");
        expect(await focusedRow()).toBe(pair.left);
        expect(await rows.nth(index).locator("label").textContent()).toBe(pair.left);
      }
      keystrokes++;
      await page.keyboard.press("Tab");
    }
    const chosen = await rows.evaluateAll((found) => found.map((row) => { const select = row.querySelector("select"); return select?.selectedOptions[0]?.textContent ?? ""; }));
    expect(chosen).toEqual(pairs.map((pair) => pair.right));
    expect(keystrokes).toBeLessThanOrEqual(3 * pairs.length + 2);
    await page.close();
  });
});
