/**
 * The HTML export opened straight from disk (`file://`), as a learner does after unzipping it: the page
 * works without a server, and a video's WebVTT captions load and show their cues. Browsers do not let a
 * page from disk fetch a `<track>` file beside it, so the export carries the captions inside the page.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import type { ExportCourse } from "../src/formats/package/types.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, pixelPng, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { waitForCourse } from "./support/export-player.ts";
import { launchChromium } from "./support/lms-harness.ts";

setDefaultTimeout(30_000);

const captions = "WEBVTT\n\n00:00.000 --> 00:05.000\nPut your goggles on first.\n";

let browser: Browser;
let directory: string;

beforeAll(async () => {
  browser = await launchChromium();
  const course = sampleCourse();
  const [basics, ...rest] = course.modules;
  if (!basics) throw new Error("fixture has a first module");
  const video = { id: "blk_video", type: "video", assetId: "ast_clip", captions: { assetId: "ast_captions", language: "en" }, transcript: "Put your goggles on first.", title: "Goggles" };
  const withVideo = {
    ...course,
    modules: [{ ...basics, lessons: basics.lessons.map((lesson, index) => (index === 0 ? { ...lesson, blocks: [...(lesson.blocks ?? []), video] } : lesson)) }, ...rest],
  } as ExportCourse;
  const assets = memoryAssets({
    ast_goggles: { bytes: pixelPng, info: { mimeType: "image/png", fileName: "goggles.png" } },
    ast_clip: { bytes: new Uint8Array(64), info: { mimeType: "video/mp4", fileName: "clip.mp4" } },
    ast_captions: { bytes: new TextEncoder().encode(captions), info: { mimeType: "text/vtt", fileName: "clip.vtt" } },
  });
  const built = await buildPackage(withVideo, { format: "html", assets, renderer: renderCourseHtml });
  directory = await unpackToDirectory(built.stream, "html-file");
});
afterAll(async () => {
  await browser?.close();
});

describe("HTML export opened from disk", () => {
  test("a video's captions load from file:// and their cues are available to the player", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`file://${join(directory, "index.html")}`);
    await waitForCourse(page);
    const track = page.locator("video track[kind=captions]");
    expect(await track.getAttribute("src")).toStartWith("data:text/vtt;base64,");
    const cues = await track.evaluate(
      (element) =>
        new Promise<string[]>((resolve, reject) => {
          const trackElement = element as HTMLTrackElement;
          const read = (): void => resolve(Array.from(trackElement.track.cues ?? []).map((cue) => (cue as VTTCue).text));
          if (trackElement.readyState === HTMLTrackElement.LOADED) return read();
          trackElement.addEventListener("load", read);
          trackElement.addEventListener("error", () => reject(new Error("the captions track failed to load")));
          trackElement.track.mode = "showing";
        }),
    );
    expect(cues).toEqual(["Put your goggles on first."]);
    expect(errors).toEqual([]);
    // The captions file still ships beside the page, for players that want the file.
    expect(await Bun.file(join(directory, "assets", "ast_captions-clip.vtt")).text()).toBe(captions);
    await page.close();
  });
});
