/**
 * Previews carry the course's pictures (issue 41): a lesson's image block and labelled graphic arrive as
 * data: URLs that load in a browser, with the graphic's markers placed on the picture; pictures past the
 * result cap are named in omittedAssetIds and shown as their alt text, the answer staying within the cap;
 * the cover of a lesson preview states the course's length and the module's number in the whole course.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deflateSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { launchBrowser, serveStatic } from "./support/browser.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { redPng } from "./support/office-documents.ts";
import type { Course } from "./support/review-courses.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

const defaultCap = 60 * 1024;
const screenshotPath = "/tmp/review-preview-pictures.png";

let service: TestService;
let agent: Agent;
let browser: Browser;

interface PreviewContent {
  text: string;
  _meta: { omittedAssetIds: string[]; playerUri?: string };
}

async function upload(courseId: string, filename: string, bytes: Uint8Array): Promise<string> {
  const answer = await agent.call("upload_asset", { courseId, filename, dataBase64: Buffer.from(bytes).toString("base64") });
  return (answer.asset as { id: string }).id;
}

async function readPreview(uri: string): Promise<{ content: PreviewContent; bytes: number }> {
  const read = await agent.client.readResource({ uri });
  return { content: read.contents[0] as unknown as PreviewContent, bytes: JSON.stringify(read).length };
}

/** A real `width`×`height` PNG in two colours (left half, right half), so markers show against a picture. */
function twoColourPng(width: number, height: number): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => (bytes.reduce((c, byte) => crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8), 0xffffffff) ^ 0xffffffff) >>> 0;
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = [0, ...Array.from({ length: width }, (_, x) => (x < width / 2 ? [14, 116, 144] : [250, 204, 21])).flat()];
  const pixels = Buffer.from(Array.from({ length: height }, () => row).flat());
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(pixels)), chunk("IEND", Buffer.alloc(0))]);
}

/** A PNG signature and header followed by `size` distinct bytes: recognised as a PNG, too large to share a page with others. */
function largePng(size: number, seed: number): Uint8Array {
  const header = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
  return Uint8Array.from([...header, ...Array.from({ length: size }, (_, index) => (index * 31 + seed * 17) % 251)]);
}

beforeAll(async () => {
  service = await startTestService();
  agent = await connectAgent(service, await devAccessToken(service, "alice"), "preview-pictures");
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await agent?.close();
  await service?.dispose();
});

describe("pictures in previews", () => {
  test("an image block and a labelled graphic preview as data: URLs that load, with the markers placed on the picture", async () => {
    const course = (await agent.call("create_course", { title: "Hand hygiene", language: "en" })) as Course;
    const photo = await upload(course.id, "sink.png", redPng);
    const diagramPng = twoColourPng(400, 240);
    const diagram = await upload(course.id, "hands.png", diagramPng);
    await agent.call("edit_course", {
      courseId: course.id,
      operations: [
        { op: "add_module", title: "Moments", lessons: [{ title: "The five moments", blocks: [
          { type: "image", assetId: photo, alt: "A sink with soap beside it" },
          { type: "labeled_graphic", image: { assetId: diagram }, alt: "A ward with the five moments marked", markers: [
            { x: 25, y: 30, title: "Before touching", markdown: "Clean your hands." },
            { x: 75, y: 70, title: "After touching", markdown: "Clean them again." },
          ] },
        ] }] },
      ],
    });
    const outline = (await agent.call("get_course", { courseId: course.id, includeBlocks: false })) as Course;
    const lesson = outline.modules[0]!.lessons[0]!;
    const { content, bytes } = await readPreview(`course://${course.id}/lessons/${lesson.id}/preview`);
    expect(bytes).toBeLessThanOrEqual(defaultCap);
    expect(content._meta.omittedAssetIds).toEqual([]);
    for (const bytes of [redPng, diagramPng]) expect(content.text).toContain(`src="data:image/png;base64,${Buffer.from(bytes).toString("base64")}"`);
    expect(content.text).not.toContain(`src="data:,"`);
    expect(content._meta.playerUri).toBeUndefined();

    const site = serveStatic({ "/index.html": { body: content.text, type: "text/html" } });
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    try {
      await page.goto(`${site.origin}/index.html`);
      await page.click(`[data-${DataName.startCourse}]`);
      const widths = await page.$$eval("img", (images) => images.map((image) => (image as HTMLImageElement).naturalWidth));
      expect(widths).toEqual([40, 400]);
      const stage = await page.locator(`.${ClassName.graphicStage} img`).boundingBox();
      const markers = await page.locator(`[data-${DataName.marker}]`).evaluateAll((buttons) => buttons.map((button) => button.getBoundingClientRect().toJSON() as DOMRect));
      expect(stage).not.toBeNull();
      expect(markers).toHaveLength(2);
      for (const marker of markers) {
        const [x, y] = [marker.x + marker.width / 2, marker.y + marker.height / 2];
        expect(x).toBeGreaterThanOrEqual(stage!.x);
        expect(x).toBeLessThanOrEqual(stage!.x + stage!.width);
        expect(y).toBeGreaterThanOrEqual(stage!.y);
        expect(y).toBeLessThanOrEqual(stage!.y + stage!.height);
      }
      await page.screenshot({ path: screenshotPath, fullPage: true });
    } finally {
      await page.close();
      await site.stop();
    }
  }, 60_000);

  test("pictures past the cap are named in omittedAssetIds and shown as their alt text, the answer within the cap", async () => {
    const course = (await agent.call("create_course", { title: "Large pictures", language: "en" })) as Course;
    const ids: string[] = [];
    for (const [index, size] of [30_000, 24_000, 27_000].entries()) ids.push(await upload(course.id, `photo-${index}.png`, largePng(size, index)));
    await agent.call("edit_course", {
      courseId: course.id,
      operations: [
        { op: "add_module", title: "Photos", lessons: [{ title: "Three photos", blocks: ids.map((assetId, index) => ({ type: "image", assetId, alt: `Photo number ${index + 1}` })) }] },
      ],
    });
    const outline = (await agent.call("get_course", { courseId: course.id, includeBlocks: false })) as Course;
    const { content, bytes } = await readPreview(`course://${course.id}/lessons/${outline.modules[0]!.lessons[0]!.id}/preview`);
    expect(bytes).toBeLessThanOrEqual(defaultCap);
    // The smallest picture is inlined first; the two larger ones do not fit beside it.
    expect(content._meta.omittedAssetIds.toSorted()).toEqual([ids[0]!, ids[2]!].toSorted());
    expect(content.text).toContain(`src="data:image/png;base64,${Buffer.from(largePng(24_000, 1)).toString("base64")}"`);
    expect(content.text).toContain(">Photo number 1</span>");
    expect(content.text).toContain(">Photo number 3</span>");
    expect(content.text).not.toContain(ids[0]!);
  }, 60_000);
});

describe("the cover of a part's preview", () => {
  test("a lesson of module 3 is numbered Module 3 and the cover states the course's length and target", async () => {
    const course = (await agent.call("create_course", { title: "Hand hygiene course", language: "en", targetMinutes: 30 })) as Course;
    const module = (title: string, minutes: number) => ({ op: "add_module", title, lessons: [{ title: `${title} lesson`, estimatedMinutes: minutes, blocks: [{ type: "text", markdown: `About ${title}.` }] }] });
    await agent.call("edit_course", { courseId: course.id, operations: [module("Why", 5), module("When", 7), module("How", 2)] });
    const outline = (await agent.call("get_course", { courseId: course.id, includeBlocks: false })) as Course & { estimatedMinutes: number };
    expect(outline.estimatedMinutes).toBe(14);
    const lesson = outline.modules[2]!.lessons[0]!;
    const { content } = await readPreview(`course://${course.id}/lessons/${lesson.id}/preview`);
    expect(content.text).toContain("Module 3: How");
    expect(content.text).not.toContain("Module 1: How");
    expect(content.text).toContain("About 14 min (target 30 min)");
    expect(content.text).not.toContain("About 2 min (target 30 min)");
    const moduleRead = await readPreview(`course://${course.id}/modules/${outline.modules[1]!.id}/preview`);
    expect(moduleRead.content.text).toContain("Module 2: When");
  }, 60_000);
});
