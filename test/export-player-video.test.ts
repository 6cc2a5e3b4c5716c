/**
 * A video's statements from the player (issue 43: the "video nobody finishes" finding needs them): the
 * xAPI (Tin Can) and cmi5 packages of a course with a video block, played in Chromium against an LRS, send
 * `played` (xAPI Video Profile) when the learner starts the video and `completed` when it plays to its
 * end, once each, the video named under the course's IRI by its block's stable id, the AU its parent.
 * The video is a real WebM the same browser records from a canvas. The statements read back with the
 * service's reader as this course's video facts.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { lrsAuth, startTestLrs, type TestLrs } from "./support/test-lrs.ts";
import { waitForValue } from "./support/wait.ts";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildPackage } from "../src/export/build-package.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import { memoryAssets, pixelPng, sampleCourse, unpackToDirectory } from "./support/export-course.ts";
import { nextUntil, waitForCourse } from "./support/export-player.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./support/lms-harness.ts";
import { startCmi5Player, type Cmi5Player } from "./support/cmi5-player.ts";
import type { AssetSource, ExportCourse } from "../src/formats/package/types.ts";

setDefaultTimeout(120_000);

type Json = Record<string, unknown>;
const courseIri = "urn:course-authoring-service:course:crs_sample1";
const auth = lrsAuth;

let browser: Browser;
let packageServer: PackageServer;
let lrs: TestLrs;
let statements: Record<string, unknown>[] = [];
let manifest = "";
let course: ExportCourse;
let assets: AssetSource;

/** About a second of 64×48 WebM video, recorded by Chromium's MediaRecorder from a canvas it draws on. */
async function recordedWebm(): Promise<Uint8Array> {
  const page = await browser.newPage();
  try {
    const base64 = await page.evaluate(async () => {
      const canvas = document.createElement("canvas");
      [canvas.width, canvas.height] = [64, 48];
      document.body.append(canvas);
      const drawing = canvas.getContext("2d")!;
      const recorder = new MediaRecorder(canvas.captureStream(20), { mimeType: "video/webm" });
      const parts: Blob[] = [];
      recorder.ondataavailable = (event) => parts.push(event.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      for (let frame = 0; frame < 20; frame++) {
        drawing.fillStyle = `hsl(${frame * 18}, 70%, 50%)`;
        drawing.fillRect(0, 0, 64, 48);
        // Frames at the recorder's pace: the clip's length is real time.
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)));
      }
      recorder.stop();
      await stopped;
      const bytes = new Uint8Array(await new Blob(parts, { type: "video/webm" }).arrayBuffer());
      let binary = "";
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    });
    return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
  } finally {
    await page.close();
  }
}

beforeAll(async () => {
  lrs = startTestLrs();
  statements = lrs.statements;
  browser = await launchChromium();
  const webm = await recordedWebm();
  const withVideo = sampleCourse() as ReturnType<typeof sampleCourse> & { modules: { lessons: unknown[] }[] };
  withVideo.modules[0]!.lessons.push({
    id: "les_video",
    title: "Watch the drill",
    kind: "content",
    passingScore: null,
    maxAttempts: null,
    estimatedMinutes: 1,
    blocks: [{ id: "blk_v1", type: "video", assetId: "ast_drill", title: "Spill drill", transcript: "A colour fades from red to blue." }],
  });
  course = withVideo;
  assets = memoryAssets({ ast_goggles: { bytes: pixelPng, info: { mimeType: "image/png", fileName: "goggles.png" } }, ast_drill: { bytes: webm, info: { mimeType: "video/webm", fileName: "drill.webm" } } });
  const built = await buildPackage(course, { format: "xapi", assets, renderer: renderCourseHtml, lrsOrigins: [`http://127.0.0.1:${lrs.port}`] });
  const directory = await unpackToDirectory(built.stream, "xapi-video-package");
  packageServer = startPackageServer(directory);
  manifest = await Bun.file(join(directory, "tincan.xml")).text();
});

afterAll(async () => {
  await browser?.close();
  packageServer?.stop();
  lrs?.stop();
});

const verbId = (statement: Json): string => String((statement.verb as Json).id);
const played = "https://w3id.org/xapi/video/verbs/played";
const completed = "http://adlnet.gov/expapi/verbs/completed";
const videoIri = `${courseIri}/videos/blk_v1`;
const aboutVideo = (statement: Json): boolean => (statement.object as Json).id === videoIri;


/** The learner opens the video's lesson, plays the video to its end, then once more from the start. */
async function watchTwice(page: Page, sent: () => Json[]): Promise<void> {
  await nextUntil(page, "les_video");
  const video = page.locator("video:visible");
  expect(await video.getAttribute("aria-label")).toBe("Spill drill");
  // The learner presses play (muted: no autoplay policy stands in the way of a scripted learner).
  await video.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
    return element.play();
  });
  await waitForValue("the video's completed statement", () => sent().filter(aboutVideo).map(verbId), (verbs) => verbs.includes(completed));
  // Played again from the start: nothing more is sent in this session.
  await video.evaluate((element: HTMLVideoElement) => {
    element.currentTime = 0;
    return element.play();
  });
  await video.evaluate((element: HTMLVideoElement) => new Promise((resolve) => (element.ended ? resolve(null) : element.addEventListener("ended", resolve, { once: true }))));
}

test("a learner who starts the video and watches it to the end sends played, then completed, once each, about the video's stable id", async () => {
  const launch = /<launch lang="en">([^<]+)<\/launch>/.exec(manifest)?.[1] ?? "";
  const actor = { objectType: "Agent", name: "Video Learner", mbox: "mailto:video@learner.example" };
  const query = new URLSearchParams({ endpoint: `http://127.0.0.1:${lrs.port}/xapi/`, auth, actor: JSON.stringify(actor), registration: crypto.randomUUID() });
  const page = await browser.newPage();
  await page.goto(`${packageServer.origin}/pkg/${launch}?${query}`);
  await waitForCourse(page);
  await waitForValue("initialized", () => statements.map(verbId), (verbs) => verbs.some((verb) => verb.endsWith("/initialized")));
  await watchTwice(page, () => statements);
  await page.goto("about:blank");
  await waitForValue("terminated", () => statements.map(verbId), (verbs) => verbs.some((verb) => verb.endsWith("/terminated")));
  await page.close();

  const mine = statements.filter(aboutVideo);
  expect(mine.map(verbId)).toEqual([played, completed]);
  for (const statement of mine) {
    const object = statement.object as Json;
    expect(object.definition).toEqual({ type: "https://w3id.org/xapi/video/activity-type/video", name: { und: "Spill drill" } });
    const context = statement.context as Json;
    expect((context.contextActivities as Json).parent).toEqual([{ id: expect.stringMatching(/^\S+:/), objectType: "Activity" }]);
    expect((context.extensions as Json)["https://w3id.org/xapi/video/extensions/session-id"]).toEqual(expect.any(String));
    expect((context.extensions as Json)["urn:course-authoring-service:xapi:course-version"]).toBe(7);
    expect(statement.actor).toEqual(actor);
  }
  const [start, end] = mine as [Json, Json];
  expect(((start.result as Json).extensions as Json)["https://w3id.org/xapi/video/extensions/time"]).toBeLessThan(0.5);
  expect((end.result as Json).completion).toBe(true);
  expect(((end.result as Json).extensions as Json)["https://w3id.org/xapi/video/extensions/progress"]).toBe(1);
  expect(((end.result as Json).extensions as Json)["https://w3id.org/xapi/video/extensions/time"]).toBeGreaterThan(0.5);

  // The service's reader takes them as this course's facts about the video block.
  const { readStatements } = await import("../src/formats/xapi/statements-read.ts");
  const read = await readStatements({ text: JSON.stringify(mine), courseIris: [courseIri], salt: "test-salt", field: "content" });
  expect(read.skipped).toEqual([]);
  expect(read.facts.map((fact) => [fact.kind, fact.target, fact.verb])).toEqual([
    ["video", "blk_v1", "played"],
    ["video", "blk_v1", "completed"],
  ]);
});

test("the cmi5 package sends the same two statements as cmi5 allowed statements (no cmi5 category), in the launch's session and registration", async () => {
  const player: Cmi5Player = await startCmi5Player("cmi5-video-package", course, assets);
  try {
    const registration = crypto.randomUUID();
    const { url, sessionId } = player.lms.launch({ auUrl: player.au.url, auId: player.au.id, registration, moveOn: player.au.moveOn, masteryScore: player.au.masteryScore });
    const page = await player.browser.newPage();
    await page.goto(url);
    await waitForCourse(page);
    const sent = () => player.lms.sessionStatements(sessionId) as unknown as Json[];
    await waitForValue("initialized", () => sent().map(verbId), (verbs) => verbs.some((verb) => verb.endsWith("/initialized")));
    await watchTwice(page, sent);
    await page.goto("about:blank");
    await waitForValue("terminated", () => sent().map(verbId), (verbs) => verbs.some((verb) => verb.endsWith("/terminated")));
    const mine = sent().filter(aboutVideo);
    expect(mine.map(verbId)).toEqual([played, completed]);
    for (const statement of mine) {
      const context = statement.context as Json;
      expect(context.registration).toBe(registration);
      expect(JSON.stringify(context)).not.toContain("w3id.org/xapi/cmi5/context/categories");
      expect((context.extensions as Json)["https://w3id.org/xapi/cmi5/context/extensions/sessionid"]).toBe(sessionId);
      expect((context.extensions as Json)["https://w3id.org/xapi/video/extensions/session-id"]).toBe(sessionId);
      expect((context.contextActivities as Json).parent).toEqual([{ id: player.au.id, objectType: "Activity" }]);
    }
    const { readStatements } = await import("../src/formats/xapi/statements-read.ts");
    const read = await readStatements({ text: JSON.stringify(mine), courseIris: [courseIri], salt: "test-salt", field: "content" });
    expect(read.skipped).toEqual([]);
    expect(read.facts.map((fact) => [fact.kind, fact.target, fact.verb])).toEqual([
      ["video", "blk_v1", "played"],
      ["video", "blk_v1", "completed"],
    ]);
    await page.close();
  } finally {
    await player.stop();
  }
});
