/**
 * Pages forbid remote pictures unless the course declares the host: in Chromium, the exported HTML site
 * and the preview of a course load the picture of an image block from its (declared) host, while a
 * Markdown picture from any other host is never requested (a "remote" server on another loopback port
 * counts what it receives), because the page's Content-Security-Policy `img-src` names only `'self'`,
 * `data:`, `blob:` and the declared origins, and the renderer shows such a picture's alt text instead.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unzipSync, strFromU8 } from "fflate";
import type { Browser } from "playwright-core";
import { launchBrowser, serveStatic, type StaticSite } from "./support/browser.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { readExport } from "./support/transfer.ts";
import { renderCourseHtml, type RenderableCourse } from "../src/render/index.ts";

describe("the img-src of a page", () => {
  const course = (blocks: unknown[]): RenderableCourse =>
    ({ id: "crs_1", title: "C", objectives: [], modules: [{ id: "mod_1", title: "M", lessons: [{ id: "les_1", title: "L", kind: "content", blocks }] }] }) as unknown as RenderableCourse;
  const imgSrc = (html: string) => /img-src ([^;"]*)/.exec(html.replaceAll("&#39;", "'"))?.[1];

  test("names only the origins of the course's URL fields, never a Markdown picture's host", () => {
    const html = renderCourseHtml(
      course([
        { id: "blk_1", type: "image", url: "https://cdn.example.com/a.png", alt: "A" },
        { id: "blk_2", type: "image", url: "https://CDN.example.com:443/b.png", alt: "B" },
        { id: "blk_3", type: "text", markdown: "![](https://tracker.example/p.gif)" },
      ]),
      { mode: "package", assetUrl: (id) => `assets/${id}` },
    );
    expect(imgSrc(html)).toBe("'self' data: blob: https://cdn.example.com");
  });

  test("a course without URL fields allows no remote host; an absolute <base href> adds its own origin", () => {
    const blocks = [{ id: "blk_3", type: "text", markdown: "![](https://tracker.example/p.gif)" }];
    expect(imgSrc(renderCourseHtml(course(blocks), { mode: "package", assetUrl: (id) => id }))).toBe("'self' data: blob:");
    expect(imgSrc(renderCourseHtml(course(blocks), { mode: "package", assetUrl: (id) => id, baseHref: "https://lms.example/course/" }))).toBe("'self' data: blob: https://lms.example");
  });
});

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

describe("remote pictures in course pages", () => {
  let service: TestService;
  let agent: Agent;
  let browser: Browser;
  let declared: ReturnType<typeof pictureHost>;
  let tracker: ReturnType<typeof pictureHost>;
  let site: StaticSite;
  const files: Record<string, { body: string | Uint8Array; type: string }> = {};
  let courseId: string;

  beforeAll(async () => {
    declared = pictureHost();
    tracker = pictureHost();
    site = serveStatic(files);
    service = await startTestService();
    agent = await connectAgent(service, await devAccessToken(service, "alice"));
    const course = await agent.call("create_course", {
      title: "Pictures",
      modules: [
        {
          title: "M",
          lessons: [
            {
              title: "Look",
              blocks: [
                { type: "image", url: `${declared.origin}/diagram.gif`, alt: "A diagram" },
                { type: "text", markdown: `Welcome! ![](${tracker.origin}/pixel.gif?user=learner)` },
                // Declares the tracker's host when the text is written; removed below, so the text is like
                // content stored before pictures in text were checked: its host declared by nothing.
                { type: "image", url: `${tracker.origin}/once.gif`, alt: "Once" },
              ],
            },
          ],
        },
      ],
    });
    courseId = course.id as string;
    const stored = (await agent.call("get_course", { courseId })) as { modules: { lessons: { blocks: { id: string; type: string }[] }[] }[] };
    const once = stored.modules[0]!.lessons[0]!.blocks[2]!;
    expect(once.type).toBe("image");
    await agent.call("edit_course", { courseId, operations: [{ op: "remove_block", blockId: once.id }] });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await agent?.close();
    await service?.dispose();
    await site?.stop();
    declared?.stop();
    tracker?.stop();
  });

  async function openAndWait(path: string): Promise<{ policy: string | null; diagramLoaded: boolean }> {
    const page = await browser.newPage();
    try {
      await page.goto(`${site.origin}${path}`, { waitUntil: "load" });
      // Lessons are shown one at a time: open the lesson from the contents, as a learner would.
      await page.getByRole("link", { name: "Look" }).first().click();
      await page.locator('img[alt="A diagram"]').scrollIntoViewIfNeeded();
      // The declared picture is the control: once it has loaded, the page has asked for what it will ask for.
      await page.waitForFunction(() => {
        const image = document.querySelector<HTMLImageElement>('img[alt="A diagram"]');
        return image !== null && image.complete && image.naturalWidth > 0;
      }, undefined, { timeout: 20_000 });
      await page.locator("text=Welcome!").scrollIntoViewIfNeeded();
      await page.waitForFunction(() => [...document.images].every((image) => image.complete), undefined, { timeout: 20_000 });
      const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
      return { policy, diagramLoaded: true };
    } finally {
      await page.close();
    }
  }

  test("the exported HTML site loads the declared host's picture and never requests the undeclared one", async () => {
    const result = await agent.callRaw("export_course", { courseId, format: "html" });
    expect(result.isError).toBeFalsy();
    const link = result.content.find((item) => item.type === "resource_link") as { uri: string };
    const entries = unzipSync((await readExport(agent, link.uri)).bytes);
    for (const [name, bytes] of Object.entries(entries)) files[`/export/${name}`] = { body: name.endsWith(".html") ? strFromU8(bytes) : bytes, type: name.endsWith(".html") ? "text/html" : "application/octet-stream" };
    // The renderer leaves the undeclared picture out (its alt text stays); the policy would block it anyway.
    expect(strFromU8(entries["index.html"]!)).not.toContain(`${tracker.origin}/pixel.gif`);
    expect(strFromU8(entries["index.html"]!)).toContain("Welcome!");

    const { policy, diagramLoaded } = await openAndWait("/export/index.html");
    expect(diagramLoaded).toBe(true);
    expect(policy).toContain(`img-src 'self' data: blob: ${declared.origin}`);
    expect(policy).not.toContain(tracker.origin);
    expect(declared.requests).toContain("/diagram.gif");
    expect(tracker.requests).toEqual([]);
  }, 60_000);

  test("the preview does the same", async () => {
    declared.requests.length = 0;
    const read = await agent.client.readResource({ uri: `course://${courseId}/preview` });
    files["/preview.html"] = { body: (read.contents[0] as { text: string }).text, type: "text/html" };
    await openAndWait("/preview.html");
    expect(declared.requests).toContain("/diagram.gif");
    expect(tracker.requests).toEqual([]);
  }, 60_000);
});
