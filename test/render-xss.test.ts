/**
 * The renderer against an XSS corpus in a real browser: every payload sits in every text-bearing field
 * of a course (and in URLs, IDs and asset URLs the schemas would refuse), the page is rendered in both
 * modes and served over HTTP to Chromium, and a learner's every move is replayed (hover, focus and click
 * every control, check and submit every quiz, retry, navigate every lesson, resume hostile saved
 * state). Nothing may run, under the page's CSP and with the CSP bypassed (escaping alone must hold).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { validatedBlock } from "../src/render/blocks.ts";
import { renderCourseHtml, type CourseState, type RenderOptions } from "../src/render/index.ts";
import { launchBrowser, serveStatic, type StaticSite } from "./support/browser.ts";
import { hostileAssetUrls, xssCourse, xssPayloads, type XssCourse } from "./support/xss-corpus.ts";
import { exercisePages, scanForInjectedMarkup } from "./support/xss-probes.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

const pixel = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const previewAssets: Record<string, string> = { ast_image: pixel, ast_video: "data:video/webm;base64,", ast_audio: "data:audio/wav;base64,", ast_captions: "data:text/vtt,WEBVTT" };

let site: StaticSite;
let browser: Browser;
let corpus: XssCourse;
/** Filled once the server's origin is known (the corpus needs it); the server reads it per request. */
const pages: Record<string, { body: string; type: string }> = {};

function renderFor(mode: RenderOptions["mode"]): string {
  const assetUrl = (assetId: string): string => hostileAssetUrls[assetId] ?? (mode === "preview" ? (previewAssets[assetId] ?? "") : `assets/${assetId}`);
  return renderCourseHtml(corpus.course, { mode, assetUrl });
}

beforeAll(async () => {
  site = serveStatic(pages);
  corpus = xssCourse(site.origin);
  for (const mode of ["package", "preview"] as const) pages[`/${mode}.html`] = { body: renderFor(mode), type: "text/html; charset=utf-8" };
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

/** Text as the DOM keeps it: the HTML parser drops or replaces NUL characters. */
const asParsed = (text: string): string => text.replace(/[\u0000\uFFFD]/g, "");

const textBlockCount = 17;

describe("renderer XSS corpus", () => {
  test("the corpus has 30+ payloads, and every block carrying one in a text field passes the block schema, so it is really rendered", () => {
    expect(xssPayloads.length).toBeGreaterThanOrEqual(30);
    for (const module of corpus.course.modules.slice(0, xssPayloads.length)) {
      const blocks = module.lessons[0]?.blocks ?? [];
      const refused = blocks.filter((block) => validatedBlock(block) === null).map((block) => block.id.replace(/^blk_\d+_/, ""));
      expect(refused).toEqual(["imageurl", "videourl", "audiourl", "codelanguage"]);
      expect(blocks.length - refused.length).toBe(textBlockCount);
    }
  });

  test("script-capable asset URLs from the caller never reach an attribute; a quote in one stays inside it", () => {
    const markup = pages["/package.html"]?.body ?? "";
    const urls = [...markup.matchAll(/\s(?:href|src|poster)="([^"]*)"/g)].map((match) => match[1] ?? "");
    expect(urls.length).toBeGreaterThan(xssPayloads.length);
    expect(urls.filter((url) => /^(?:java\s*script|vbscript|data:(?!image\/))/i.test(url))).toEqual([]);
    expect(markup).toContain('src="assets/x.png&quot; onerror=&quot;__xss()"');
  });

  test("a course level named like an Object member is shown as itself, not as the member", () => {
    for (const level of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const markup = renderCourseHtml({ id: "crs_1", title: "t", level, objectives: [], modules: [] }, { mode: "package", assetUrl: () => "" });
      expect(markup).toContain(`<dd>${level}</dd>`);
    }
  });

  // Real input runs under the CSP; leaving links are followed with it bypassed, where a script URL would run.
  const runs = [
    { mode: "package", bypassCSP: false, realInput: true, followLinks: false },
    { mode: "preview", bypassCSP: true, realInput: false, followLinks: true },
  ] as const;
  for (const { mode, bypassCSP, realInput, followLinks } of runs) {
    test(`${mode} page${bypassCSP ? " with its CSP bypassed" : " under its CSP"}: no payload runs while a learner uses every control`, async () => {
      const { context, page, fired, dialogs, foreignRequests } = await openTrapped(mode, bypassCSP);
      if (realInput) await useControlsForReal(page);
      const hostileLessonPage = await page.locator(`[data-${DataName.lessonTitle}="Hostile asset URLs and IDs"]`).getAttribute("id");
      const pageIds = ["course-introduction", ...corpus.lessonIds.map((lessonId) => `lesson-${lessonId}`), hostileLessonPage ?? ""];
      await showPage(page, "course-introduction");
      const leavingLinks = new Map<string, string>();
      for (const { pageId, hrefs } of await page.evaluate(exercisePages, { pageIds, names: DataName })) for (const href of hrefs) leavingLinks.set(href, pageId);
      await restoreHostileState(page);

      expect(await page.evaluate(scanForInjectedMarkup)).toEqual([]);
      await expectPayloadsShownAsText(page, mode === "preview" ? textBlockCount + 4 : textBlockCount);
      expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __xssFired?: boolean }).__xssFired ?? false)).toBe(false);

      // Links that leave the page (relative ones, left by obfuscated schemes) are followed last.
      expect(leavingLinks.size).toBeGreaterThan(0);
      for (const [href, pageId] of followLinks ? leavingLinks : []) {
        await page.goto(`${site.origin}/${mode}.html#${pageId}`);
        await page.locator(`#${pageId} a[href="${href.replace(/["\\]/g, "\\$&")}"]`).first().click();
        await page.waitForLoadState();
        expect(new URL(page.url()).origin).toBe(site.origin);
      }
      expect(fired).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(foreignRequests).toEqual([]);
      await context.close();
    }, 60_000);
  }
});

/**
 * A page with the trap set: `__xss()` flags the window and reports to the test (which survives a
 * navigation), dialogs and CSP violations are recorded, and so is every request off the test server.
 */
async function openTrapped(mode: RenderOptions["mode"], bypassCSP: boolean) {
  const context = await browser.newContext({ bypassCSP, reducedMotion: "reduce", viewport: { width: 1280, height: 900 } });
  const fired: string[] = [];
  const dialogs: string[] = [];
  const foreignRequests: string[] = [];
  await context.exposeFunction("__xssReport", (where: string) => void fired.push(where));
  await context.addInitScript(() => {
    const trap = window as unknown as Record<string, unknown>;
    trap.__xss = () => {
      trap.__xssFired = true;
      void (trap.__xssReport as ((where: string) => Promise<void>) | undefined)?.(location.href);
    };
    trap.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => (trap.__cspViolations as string[]).push(`${event.violatedDirective} ${event.blockedURI}`), true);
  });
  context.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(`${site.origin}/`) && !url.startsWith("data:")) foreignRequests.push(url);
  });
  const page = await context.newPage();
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`${site.origin}/${mode}.html`);
  await page.waitForFunction(() => document.documentElement.classList.contains("course-ready"));
  return { context, page, fired, dialogs, foreignRequests };
}

async function showPage(page: Page, pageId: string): Promise<void> {
  await page.evaluate((id) => {
    window.location.hash = id;
  }, pageId);
  await page.waitForFunction((id) => document.getElementById(id)?.hidden === false, pageId);
}

/** Real mouse, keyboard and clicks on the lessons whose payloads aim at hover, focus and toggle handlers. */
async function useControlsForReal(page: Page): Promise<void> {
  const aimed = ['" onmouseover=__xss() x="', "' autofocus onfocus=__xss() x='", "<details open ontoggle=__xss()>"];
  for (const payload of aimed) {
    const pageId = `lesson-${corpus.lessonIds[xssPayloads.indexOf(payload)]}`;
    await showPage(page, pageId);
    for (const selector of ["h1", ".image img", `.${ClassName.choice} label`, `.${ClassName.accordionItem} summary`, "[role=tab]:not([aria-selected=true])", `:is([data-${DataName.checkAnswer}], [data-${DataName.submitQuiz}])`]) {
      const control = page.locator(`#${pageId} ${selector}`).first();
      await control.hover({ timeout: 2_000 });
      await control.click({ timeout: 2_000 });
    }
    for (let press = 0; press < 10; press++) await page.keyboard.press("Tab");
  }
}

/** Saved state comes from an LMS, so it is untrusted too: restoring hostile values must stay inert. */
async function restoreHostileState(page: Page): Promise<void> {
  const payload = "<img src=x onerror=__xss()>";
  await page.evaluate(
    ([hostile, quizLesson]) => {
      const record = { attempts: hostile, lastScorePercent: hostile, bestScorePercent: hostile, passed: true };
      const state = { currentLessonId: `"]${hostile}`, visitedLessonIds: [hostile, quizLesson], quizzes: { [quizLesson]: record, [hostile]: record } };
      window.CourseRuntime?.setState(state as unknown as Partial<CourseState>);
    },
    [payload, corpus.lessonIds[1] ?? ""] as const,
  );
  // A record whose numbers are markup is not a record the quiz shows; nothing of it becomes an element.
  await page.waitForFunction((selector) => document.querySelectorAll(selector).length > 0, `[data-${DataName.lessonKind}=quiz] [data-${DataName.question}]:not([hidden])`);
  expect(await page.locator(`#lesson-${corpus.lessonIds[1]} [data-${DataName.quizResult}] img`).count()).toBe(0);
  expect(await page.locator(`#lesson-${corpus.lessonIds[1]}`).innerHTML()).not.toContain(payload);
}

/** Each payload reaches the page as the text the author typed, in titles and in block fields alike. */
async function expectPayloadsShownAsText(page: Page, blocksPerLesson: number): Promise<void> {
  const shown = await page.evaluate(([lessonIds, { ClassName, DataName }]) => {
    const text = (root: ParentNode, selector: string): string | null => root.querySelector(selector)?.textContent ?? null;
    return {
      title: document.querySelector("title")?.textContent ?? "",
      lessons: lessonIds.map((lessonId) => {
        const lesson = document.querySelector(`[data-${DataName.lessonId}="${lessonId}"]`) ?? document;
        const fields = ["h1", ".block-heading", ".image figcaption", `.${ClassName.codeBlock} code`, `.${ClassName.choice}:has(input[value="0"]) label`, `.${ClassName.matchingRow} label`, `.${ClassName.flashcardFront} p`, `.${ClassName.accordionItem} summary`, `.${ClassName.tab}`];
        const alt = lesson.querySelector(".image img")?.getAttribute("alt") ?? null;
        return { fields: [...fields.map((selector) => text(lesson, selector)), alt], blocks: lesson.querySelectorAll(`.${ClassName.block}`).length };
      }),
    };
  }, [corpus.lessonIds, { ClassName, DataName }] as const);
  expect(asParsed(shown.title)).toBe(asParsed(corpus.course.title));
  shown.lessons.forEach((lesson, index) => {
    const payload = asParsed(xssPayloads[index] ?? "");
    expect(lesson.fields.map((field) => asParsed(field ?? ""))).toEqual(lesson.fields.map(() => payload));
    expect(lesson.blocks).toBe(blocksPerLesson);
  });
}
