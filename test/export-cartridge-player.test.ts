/**
 * The IMS Common Cartridge opened lesson by lesson, as an LMS does: the test reads the manifest's
 * organization, follows each lesson item to its web-content resource, opens that page in headless
 * Chromium, and checks that the page shows the lesson the item names (not the course introduction).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { currentLessonId, waitForCourse } from "./support/export-player.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./support/lms-harness.ts";
import { DataName } from "../src/page-contract/markup-names.ts";

setDefaultTimeout(30_000);

let browser: Browser;
let server: PackageServer;
let manifest: string;

beforeAll(async () => {
  browser = await launchChromium();
  const built = await buildPackage(sampleCourse(), { format: "imscc", assets: memoryAssets(), renderer: renderCourseHtml });
  const directory = await unpackToDirectory(built.stream, "imscc-player");
  manifest = await Bun.file(join(directory, "imsmanifest.xml")).text();
  server = startPackageServer(directory);
});
afterAll(async () => {
  await browser?.close();
  server?.stop();
});

interface LessonItem {
  readonly title: string;
  readonly href: string;
}

/** Lesson items (those pointing at a web-content resource with an href), in organization order. */
function webContentItems(): LessonItem[] {
  const hrefs = new Map<string, string>();
  for (const match of manifest.matchAll(/<resource identifier="([^"]+)" type="webcontent" href="([^"]+)"/g)) hrefs.set(match[1] ?? "", match[2] ?? "");
  const items: LessonItem[] = [];
  for (const match of manifest.matchAll(/<item identifier="[^"]+" identifierref="([^"]+)">\s*<title>([^<]*)<\/title>/g)) {
    const href = hrefs.get(match[1] ?? "");
    if (href) items.push({ title: (match[2] ?? "").replaceAll("&amp;", "&"), href });
  }
  return items;
}

describe("IMS Common Cartridge lessons in the browser", () => {
  test("each web-content item opens on its own lesson, not on the course introduction", async () => {
    const items = webContentItems();
    expect(items.map((item) => item.title)).toEqual(["Welcome to the lab", "Protective equipment", "Handling a spill"]);
    const page = await browser.newPage();
    for (const item of items) {
      await page.goto(`${server.origin}/pkg/${item.href}`);
      await waitForCourse(page);
      const shown = page.locator(`[data-${DataName.page}]:not([hidden])`);
      expect(await shown.getAttribute(`data-${DataName.lessonTitle}`)).toBe(item.title);
      expect(await currentLessonId(page)).not.toBeNull();
      expect(await page.locator(`[data-${DataName.page}]:not([hidden]) [data-${DataName.pageHeading}]`).textContent()).toContain(item.title);
    }
    await page.close();
  });

  test("a link to the introduction still shows the introduction", async () => {
    const [first] = webContentItems();
    const page = await browser.newPage();
    await page.goto(`${server.origin}/pkg/${first?.href}#course-introduction`);
    await waitForCourse(page);
    expect(await currentLessonId(page)).toBeNull();
    await page.close();
  });
});
