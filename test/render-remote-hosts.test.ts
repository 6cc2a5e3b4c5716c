/**
 * Issue 39: remote pictures only from declared hosts. A picture written into Markdown text on a host no
 * picture field of the course declares (an image block, banner, poster or other picture; a video's or
 * audio's URL declares nothing) is refused on write, naming the URL and the rule. Content stored before
 * that check still renders, without the picture: the renderer shows its alt text and the page's
 * Content-Security-Policy `img-src` lists only declared picture hosts, so in Chromium the exported HTML
 * package makes no request to the undeclared host even when the picture's markup is put back.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { strFromU8, unzipSync } from "fflate";
import type { Browser } from "playwright-core";
import { launchBrowser, serveStatic, type StaticSite } from "./support/browser.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { readExport } from "./support/transfer.ts";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";

const gif = Uint8Array.from(atob("R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw=="), (char) => char.charCodeAt(0));

/** A host that answers any path with a 1×1 GIF and remembers every path asked for. */
function pictureHost(): { origin: string; requests: string[]; stop(): void } {
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      requests.push(new URL(request.url).pathname);
      return new Response(gif, { headers: { "content-type": "image/gif" } });
    },
  });
  return { origin: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}

let service: TestService;
let alice: Agent;
let declared: ReturnType<typeof pictureHost>;
let tracker: ReturnType<typeof pictureHost>;
let media: ReturnType<typeof pictureHost>;

beforeAll(async () => {
  declared = pictureHost();
  tracker = pictureHost();
  media = pictureHost();
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
  for (const host of [declared, tracker, media]) host?.stop();
});

type Outline = { id: string; version: number; modules: { lessons: { id: string; blocks: { id: string; type: string }[] }[] }[] };

async function courseWith(blocks: unknown[]): Promise<Outline> {
  const created = (await alice.call("create_course", { title: "Hosts", modules: [{ title: "M", lessons: [{ title: "Look", blocks }] }] })) as { id: string };
  return (await alice.call("get_course", { courseId: created.id })) as Outline;
}

describe("a Markdown picture on an undeclared host is refused on write", () => {
  test("add_blocks names the field, the URL and the rule, and writes nothing", async () => {
    const course = await courseWith([{ type: "image", url: `${declared.origin}/a.gif`, alt: "A" }]);
    const lessonId = course.modules[0]!.lessons[0]!.id;
    const pixel = `${tracker.origin}/pixel.gif?user=learner`;
    const error = await alice.fail("edit_course", { courseId: course.id, operations: [{ op: "add_blocks", lessonId, blocks: [{ type: "text", markdown: `Hello ![](${pixel})` }] }] });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("blocks[0].markdown");
    expect(error.message).toContain(`"${pixel}"`);
    expect(error.message).toContain("which no picture field of this course declares");
    expect(error.message).toContain("upload_asset");
    expect(JSON.stringify(error.details)).toContain("remote_picture_host");
    expect(((await alice.call("get_course", { courseId: course.id })) as Outline).version).toBe(course.version);
  });

  test("a flashcard back, a reference-style picture and a picture on a video's host are refused by their own paths", async () => {
    const course = await courseWith([{ type: "video", url: `${media.origin}/clip.mp4`, transcript: "Words." }]);
    const lessonId = course.modules[0]!.lessons[0]!.id;
    const add = (block: unknown) => alice.fail("edit_course", { courseId: course.id, operations: [{ op: "add_blocks", lessonId, blocks: [block] }] });
    const back = await add({ type: "flashcards", cards: [{ front: "A", back: "ok" }, { front: "B", back: `![b](${tracker.origin}/b.gif)` }] });
    expect(back.message).toContain("blocks[0].cards[1].back");
    const reference = await add({ type: "text", markdown: `See ![plan][p]\n\n[p]: ${tracker.origin}/plan.gif` });
    expect(reference.message).toContain(`${tracker.origin}/plan.gif`);
    const onVideoHost = await add({ type: "callout", variant: "info", markdown: `![still](${media.origin}/still.gif)` });
    expect(onVideoHost.message).toContain(`${media.origin}/still.gif`);
    const schemeless = await add({ type: "text", markdown: `![x](//tracker.example/x.gif)` });
    expect(schemeless.message).toContain("no declared host");
  });

  test("declared hosts, relative paths and data: pictures pass, the declaring image block in the same call before or after the text", async () => {
    const course = await courseWith([{ type: "image", url: `${declared.origin}/a.gif`, alt: "A" }]);
    const lessonId = course.modules[0]!.lessons[0]!.id;
    await alice.call("edit_course", {
      courseId: course.id,
      operations: [
        {
          op: "add_blocks",
          lessonId,
          blocks: [
            { type: "text", markdown: `![a](${declared.origin}/b.gif) ![r](images/local.gif) ![d](data:image/gif;base64,R0lGODlhAQABAAAAACw=) ![t](${tracker.origin}/t.gif)` },
            { type: "image", url: `${tracker.origin}/declared-here.gif`, alt: "T" },
          ],
        },
      ],
    });
    const blocks = ((await alice.call("get_course", { courseId: course.id })) as Outline).modules[0]!.lessons[0]!.blocks;
    expect(blocks.map((block) => block.type)).toEqual(["image", "text", "image"]);
    const changed = await alice.fail("edit_course", { courseId: course.id, operations: [{ op: "update_block", blockId: blocks[1]!.id, changes: { markdown: `Now ![m](${media.origin}/m.gif)` } }] });
    expect(changed.message).toContain("changes.markdown");
    expect(changed.message).toContain(`${media.origin}/m.gif`);
  });
});

describe("the page's img-src", () => {
  test("lists the hosts of picture fields only: not a video's, audio's or captions' host, not a Markdown picture's", () => {
    const course = {
      id: "crs_1",
      title: "C",
      objectives: [],
      modules: [
        {
          id: "mod_1",
          title: "M",
          lessons: [
            {
              id: "les_1",
              title: "L",
              kind: "content",
              banner: { url: "https://banner.example/b.png", alt: "B", decorative: false },
              blocks: [
                { id: "blk_1", type: "video", url: "https://video.example/v.mp4", transcript: "T", poster: { url: "https://poster.example/p.png" } },
                { id: "blk_2", type: "audio", url: "https://audio.example/a.mp3", transcript: "T" },
                { id: "blk_3", type: "text", markdown: "![x](https://video.example/x.png) ![y](https://poster.example/y.png)" },
              ],
            },
          ],
        },
      ],
    } as unknown as RenderableCourse;
    const html = renderCourseHtml(course, { mode: "package", assetUrl: (id) => id });
    const imgSrc = /img-src ([^;"]*)/.exec(html.replaceAll("&#39;", "'"))?.[1];
    expect(imgSrc).toBe("'self' data: blob: https://banner.example https://poster.example");
    // The picture on the video's host is its alt text; the one on the poster's host shows.
    expect(html).not.toContain("https://video.example/x.png");
    expect(html).toContain('<img src="https://poster.example/y.png" alt="y"');
  });
});

describe("stored content with a picture on an undeclared host, in Chromium", () => {
  let browser: Browser;
  let site: StaticSite;
  const files: Record<string, { body: string | Uint8Array; type: string }> = {};
  let page: string;

  beforeAll(async () => {
    site = serveStatic(files);
    // Written while temporary image blocks declared both hosts; removing them leaves the text as if stored
    // before the write check: its pictures' hosts declared by nothing.
    const course = await courseWith([
      { type: "image", url: `${declared.origin}/diagram.gif`, alt: "A diagram" },
      { type: "text", markdown: `Welcome! ![pixel](${tracker.origin}/pixel.gif?user=learner) ![still](${media.origin}/still.gif)` },
      { type: "video", url: `${media.origin}/clip.mp4`, transcript: "Words." },
      { type: "image", url: `${tracker.origin}/once.gif`, alt: "Once" },
      { type: "image", url: `${media.origin}/once.gif`, alt: "Once too" },
    ]);
    const [, , , once, onceToo] = course.modules[0]!.lessons[0]!.blocks;
    await alice.call("edit_course", { courseId: course.id, operations: [{ op: "remove_block", blockId: once!.id }, { op: "remove_block", blockId: onceToo!.id }] });
    const result = await alice.callRaw("export_course", { courseId: course.id, format: "html" });
    expect(result.isError).toBeFalsy();
    const link = result.content.find((item) => item.type === "resource_link") as { uri: string };
    const entries = unzipSync((await readExport(alice, link.uri)).bytes);
    for (const [name, bytes] of Object.entries(entries)) files[`/export/${name}`] = { body: name.endsWith(".html") ? strFromU8(bytes) : bytes, type: name.endsWith(".html") ? "text/html" : "application/octet-stream" };
    page = strFromU8(entries["index.html"]!);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await site?.stop();
  });

  /** Opens `path`, shows the lesson, waits for the declared picture, and returns every URL the page requested. */
  async function requestsOf(path: string): Promise<string[]> {
    const tab = await browser.newPage();
    const requested: string[] = [];
    tab.on("request", (request) => requested.push(request.url()));
    try {
      await tab.goto(`${site.origin}${path}`, { waitUntil: "load" });
      await tab.getByRole("link", { name: "Look" }).first().click();
      await tab.locator('img[alt="A diagram"]').scrollIntoViewIfNeeded();
      await tab.waitForFunction(() => {
        const image = document.querySelector<HTMLImageElement>('img[alt="A diagram"]');
        return image !== null && image.complete && image.naturalWidth > 0;
      }, undefined, { timeout: 20_000 });
      await tab.locator("text=Welcome!").scrollIntoViewIfNeeded();
      await tab.waitForFunction(() => [...document.images].every((image) => image.complete), undefined, { timeout: 20_000 });
      return requested;
    } finally {
      await tab.close();
    }
  }

  test("the exported package renders without the pictures (alt text) and requests nothing from their hosts", async () => {
    expect(page).toContain("Welcome! pixel still");
    expect(page).not.toContain("pixel.gif");
    expect(page).not.toContain("still.gif");
    const requested = await requestsOf("/export/index.html");
    expect(requested.some((url) => url.startsWith(`${declared.origin}/diagram.gif`))).toBe(true);
    expect(requested.filter((url) => url.startsWith(tracker.origin))).toEqual([]);
    expect(requested.filter((url) => url.includes("still.gif"))).toEqual([]);
    expect(tracker.requests).toEqual([]);
    expect(media.requests.filter((path) => path.endsWith(".gif"))).toEqual([]);
  }, 60_000);

  test("with the pictures' markup put back into the page, its policy still keeps Chromium from requesting them", async () => {
    const tampered = page.replace("Welcome! pixel still", `Welcome! <img src="${tracker.origin}/pixel.gif" alt="pixel"><img src="${media.origin}/still.gif" alt="still">`);
    expect(tampered).not.toBe(page);
    files["/export/tampered.html"] = { body: tampered, type: "text/html" };
    const requested = await requestsOf("/export/tampered.html");
    expect(requested.some((url) => url.startsWith(`${declared.origin}/diagram.gif`))).toBe(true);
    // Chromium may list a blocked request's URL; the hosts must never receive one.
    expect(tracker.requests).toEqual([]);
    expect(media.requests.filter((path) => path.endsWith(".gif"))).toEqual([]);
  }, 60_000);
});
