/**
 * The organisation's look, through the real service over MCP: update_course { theme } sets colours, a
 * bundled font, a logo and cover image and corners; colour pairs are checked against WCAG 2.2 AA on
 * write (refused with the measured ratio and the nearest passing colour); `from` copies a readable
 * course's theme; every package carries the theme (font embedded, logo inside), and Chromium shows it:
 * colours and font measured from the page, contrast computed, axe clean, keyboard reachable, 390 px wide.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { unzipSync } from "fflate";
import type { Browser } from "playwright-core";
import { contrastRatio } from "../src/authoring/theme-contrast.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { AgentToolError, connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { createRichCourse, exportPackage, pngBase64, readExport } from "./support/transfer.ts";
import { launchBrowser, runAxe, seriousOrCritical, serveStatic, tabTo, type StaticSite } from "./support/browser.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

let service: TestService;
let alice: Agent;
let mallory: Agent;
let courseId: string;
let logoId: string;

const theme = {
  primaryColor: "#7C2D12",
  accentColor: "#c2410c",
  backgroundColor: "#fffbf5",
  textColor: "#1c1917",
  font: "atkinson-hyperlegible",
  corners: "square",
};

async function refusal(agent: Agent, args: Record<string, unknown>): Promise<AgentToolError> {
  try {
    await agent.call("update_course", args);
  } catch (error) {
    if (error instanceof AgentToolError) return error;
    throw error;
  }
  throw new Error("update_course was expected to be refused");
}

async function upload(filename: string, dataBase64: string, target = courseId): Promise<string> {
  return ((await alice.call("upload_asset", { courseId: target, filename, dataBase64 })).asset as { id: string }).id;
}

beforeAll(async () => {
  mkdirSync(".tmp", { recursive: true });
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  mallory = await connectAgent(service, await devAccessToken(service, "mallory"));
  courseId = await createRichCourse(alice);
  logoId = await upload("acme-logo.png", pngBase64);
  await alice.call("update_course", { courseId, theme: { ...theme, logo: { assetId: logoId, alt: "Acme Safety" }, coverImage: { assetId: logoId, alt: "A teaching lab" } } });
});

afterAll(async () => {
  await alice?.close();
  await mallory?.close();
  await service?.dispose();
});

describe("update_course { theme }", () => {
  test("the theme is stored as given (colours lower-cased) and get_course returns it", async () => {
    const course = await alice.call("get_course", { courseId, includeBlocks: false });
    expect(course.theme).toEqual({ ...theme, primaryColor: "#7c2d12", logo: { assetId: logoId, alt: "Acme Safety" }, coverImage: { assetId: logoId, alt: "A teaching lab" } });
  });

  test("a failing contrast pair is refused with the field, the measured ratio and the nearest passing colour; nothing is written", async () => {
    const before = (await alice.call("get_course", { courseId, includeBlocks: false })).version;
    const error = await refusal(alice, { courseId, theme: { ...theme, primaryColor: "#93c5fd" } });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("theme.primaryColor");
    const ratio = Math.floor(contrastRatio("#93c5fd", "#fffbf5") * 100) / 100;
    expect(error.message).toContain(`contrast ${ratio}:1`);
    expect(error.message).toContain("4.5:1");
    const suggestion = /nearest passing colour is (#[0-9a-f]{6})/.exec(error.message)?.[1] ?? "";
    expect(contrastRatio(suggestion, "#fffbf5")).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(suggestion, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    const accentError = await refusal(alice, { courseId, theme: { ...theme, accentColor: "#fde68a" } });
    expect(accentError.message).toContain("theme.accentColor");
    expect(accentError.message).toContain("3:1");
    expect((await alice.call("get_course", { courseId, includeBlocks: false })).version).toBe(before);
  });

  test.each([
    [{ primaryColor: "#12345" }, "theme.primaryColor", "#rrggbb"],
    [{ textColor: "navy" }, "theme.textColor", "#rrggbb"],
    [{ font: "comic-sans" }, "theme.font", "atkinson-hyperlegible"],
    [{ corners: "round" }, "theme.corners", "rounded or square"],
  ])("bad input %p is refused naming the field and what is allowed", async (bad, field, allowed) => {
    const error = await refusal(alice, { courseId, theme: { ...theme, ...bad } });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain(field);
    expect(error.message).toContain(allowed);
  });

  test("a logo that is not an image asset of this course is refused", async () => {
    const captions = await upload("captions.vtt", btoa("WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n"));
    expect((await refusal(alice, { courseId, theme: { logo: { assetId: captions, alt: "Logo" } } })).message).toContain("not an image");
    // Another person's picture (issue 41: her own from another course would serve this one too).
    const otherCourse = await createRichCourse(mallory, "Other");
    const foreign = ((await mallory.call("upload_asset", { courseId: otherCourse, filename: "other.png", dataBase64: pngBase64 })).asset as { id: string }).id;
    expect((await refusal(alice, { courseId, theme: { logo: { assetId: foreign, alt: "Logo" } } })).message).toContain("theme.logo.assetId");
  });

  test("from copies the theme of a course the caller can read; another user's course is refused", async () => {
    const copy = await createRichCourse(alice, "Copy");
    await alice.call("update_course", { courseId: copy, theme: { from: courseId, corners: "rounded" } });
    const copied = (await alice.call("get_course", { courseId: copy, includeBlocks: false })).theme;
    expect(copied).toEqual({ ...theme, primaryColor: "#7c2d12", corners: "rounded" });
    const mine = await createRichCourse(mallory, "Mallory's");
    const error = await refusal(mallory, { courseId: mine, theme: { from: courseId } });
    expect(error.message).toContain("theme.from");
  });
});

test("duplicate_course keeps the theme, its logo and cover image pointing at the copy's own assets", async () => {
  const copy = (await alice.call("duplicate_course", { courseId })) as { id: string; theme: { logo: { assetId: string }; coverImage: { assetId: string }; primaryColor: string } };
  const assets = ((await alice.call("list_assets", { courseId: copy.id })).assets as { id: string }[]).map((asset) => asset.id);
  expect(copy.theme.primaryColor).toBe("#7c2d12");
  expect(copy.theme.logo.assetId).not.toBe(logoId);
  expect(assets).toContain(copy.theme.logo.assetId);
  expect(assets).toContain(copy.theme.coverImage.assetId);
});

describe("the theme in every package", () => {
  const formats = ["scorm12", "scorm2004", "cmi5", "imscc", "html"] as const;
  const pages: Record<string, Record<string, Uint8Array>> = {};

  beforeAll(async () => {
    for (const format of formats) pages[format] = unzipSync((await readExport(alice, (await exportPackage(alice, { courseId, format })).structured.uri)).bytes);
  });

  test.each(formats)("%s carries the colours, the embedded font, the logo file, the progress bar and the cover's Start button", (format) => {
    const files = pages[format]!;
    const htmlName = Object.keys(files).find((name) => name.endsWith("index.html") || (format === "imscc" && name.endsWith(".html") && new TextDecoder().decode(files[name]).includes(`class="${ClassName.siteHeader}"`)));
    const page = new TextDecoder().decode(files[htmlName!]);
    // The page's styles are compacted, so compare without white space.
    expect(page.replace(/\s+/g, "")).toContain(`.${ClassName.siteHeader}{background:#7c2d12;`);
    expect(page).toContain("data:font/woff2;base64,");
    // Every player opens with the cover's Start button and shows the progress bar.
    expect(page).toContain(`data-${DataName.progressBar}`);
    if (format !== "imscc") expect(page).toContain(`data-${DataName.startCourse}`);
    const logo = /<img class="course-logo" src="([^"]+)" alt="Acme Safety">/.exec(page)?.[1] ?? "";
    const logoPath = decodeURIComponent(new URL(logo, `http://package/${htmlName}`).pathname.slice(1));
    expect(Object.keys(files)).toContain(logoPath);
  });

  test("in Chromium at 390 px: colours, font and logo measured from the page, contrast holds, axe is clean, the keyboard reaches Next", async () => {
    const files = pages.html!;
    const served: Record<string, { body: Uint8Array; type: string }> = {};
    for (const [name, bytes] of Object.entries(files)) served[`/${name}`] = { body: bytes, type: name.endsWith(".html") ? "text/html; charset=utf-8" : name.endsWith(".png") ? "image/png" : "application/octet-stream" };
    const site: StaticSite = serveStatic(served);
    const browser: Browser = await launchBrowser();
    try {
      const context = await browser.newContext({ bypassCSP: true, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(`${site.origin}/index.html`);
      await page.locator("html.course-ready").waitFor({ state: "attached" });
      await page.evaluate(() => document.fonts.ready);
      const measured = await page.evaluate(({ ClassName }) => {
        const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
        const logo = document.querySelector<HTMLImageElement>(".course-logo")!;
        return {
          header: style(`.${ClassName.siteHeader}`).backgroundColor,
          body: style("body").backgroundColor,
          text: style("body").color,
          font: style("body").fontFamily,
          fontLoaded: document.fonts.check('16px "Atkinson Hyperlegible"'),
          logoLoaded: logo.complete && logo.naturalWidth > 0,
          radius: style(`.${ClassName.button}`).borderTopLeftRadius,
        };
      }, { ClassName });
      expect(measured).toMatchObject({ header: "rgb(124, 45, 18)", body: "rgb(255, 251, 245)", text: "rgb(28, 25, 23)", fontLoaded: true, logoLoaded: true, radius: "0px" });
      expect(measured.font).toStartWith('"Atkinson Hyperlegible"');
      expect(contrastRatio("#1c1917", "#fffbf5")).toBeGreaterThanOrEqual(4.5);
      await page.screenshot({ path: ".tmp/theme-390.png", fullPage: true });
      expect(seriousOrCritical(await runAxe(page))).toEqual([]);
      await tabTo(page, "#course-introduction a[rel=next]");
      await page.keyboard.press("Enter");
      await page.locator(`[data-${DataName.page}][data-${DataName.lessonId}]:not([hidden])`).waitFor();
      expect(seriousOrCritical(await runAxe(page))).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
      await site.stop();
    }
  }, 60_000);
});
