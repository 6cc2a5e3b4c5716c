/**
 * The course preview as an MCP App, end to end: the real service and SDK client supply preview_course's
 * result and the ui:// view; a host page in a real browser (Chromium) frames the view on its own origin
 * under the spec's default CSP, answers `ui/initialize`, sends the tool result and proxies
 * `resources/read` to the service. The view must show the rendered course with its runtime running and
 * report its size; a host that cannot read resources gets the outline instead; a host that relays
 * `resources/subscribe` and its notifications sees the open preview follow the course as it changes.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { ResourceUpdatedNotificationSchema, type CallToolResult, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { coursePreviewViewUri } from "../src/mcp/apps/course-preview-view.ts";
import { launchBrowser } from "./support/browser.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { cleanOutline, type Course } from "./support/review-courses.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";
import { connectModernAgent } from "./support/modern-client.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

/** What SEP-1865 says a host must apply when the view declares no CSP domains. */
const hostDefaultCsp =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'";

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).toString("base64");

let service: TestService;
let agent: Agent;
let browser: Browser;
let viewHtml: string;
let viewServer: ReturnType<typeof Bun.serve>;
let hostServer: ReturnType<typeof Bun.serve>;
let toolResult: CallToolResult;
let course: Course;

/** The host side of the MCP Apps protocol, in the host page; `resources/read` goes to `readResource`. */
function hostPage(viewUrl: string): string {
  return `<!doctype html><html><body><iframe id="view" sandbox="allow-scripts allow-same-origin" src="${viewUrl}" style="width:800px;height:300px"></iframe>
<script>
  window.hostLog = [];
  const frame = document.getElementById("view");
  const reply = (id, body) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: "2.0", id }, body), "*");
  const notify = (method, params) => frame.contentWindow.postMessage({ jsonrpc: "2.0", method, params }, "*");
  window.forwardToView = (message) => frame.contentWindow.postMessage(message, "*");
  window.addEventListener("message", async (event) => {
    if (event.source !== frame.contentWindow || !event.data || event.data.jsonrpc !== "2.0") return;
    const message = event.data;
    window.hostLog.push({ method: message.method, params: message.params });
    if (message.method === "ui/initialize") {
      reply(message.id, { result: { protocolVersion: message.params.protocolVersion, hostInfo: { name: "test-host", version: "1" }, hostCapabilities: { serverResources: {} }, hostContext: { theme: "light", displayMode: "inline" } } });
    } else if (message.method === "ui/notifications/initialized") {
      notify("ui/notifications/tool-input", { arguments: await window.toolArguments() });
      notify("ui/notifications/tool-result", await window.toolResult());
    } else if (message.method === "resources/subscribe") {
      try {
        reply(message.id, { result: await window.subscribeResource(message.params.uri) });
      } catch (error) {
        reply(message.id, { error: { code: -32601, message: String(error) } });
      }
    } else if (message.method === "resources/read") {
      try {
        reply(message.id, { result: await window.readResource(message.params.uri) });
      } catch (error) {
        reply(message.id, { error: { code: -32000, message: String(error) } });
      }
    }
  });
</script></body></html>`;
}

beforeAll(async () => {
  // The course's page carries the grading (and here teaching-block) scripts and styles, over the default
  // 60 KB cap for a whole-course preview; the cap is set explicitly so the preview reads in one answer.
  service = await startTestService({ MCP_RESULT_MAX_BYTES: String(128 * 1024) });
  agent = await connectAgent(service, await devAccessToken(service, "alice"), "apps-host");
  const outline = cleanOutline();
  course = (await agent.call("create_course", outline)) as Course;
  const imageId = ((await agent.call("upload_asset", { courseId: course.id, filename: "exit.png", dataBase64: png })).asset as { id: string }).id;
  await agent.call("add_blocks", { courseId: course.id, lessonId: course.modules[0]!.lessons[0]!.id, blocks: [{ type: "image", assetId: imageId, alt: "Exit sign over the stair door" }] });
  toolResult = (await agent.callRaw("preview_course", { courseId: course.id })) as CallToolResult;

  const view = (await agent.client.readResource({ uri: coursePreviewViewUri })).contents[0] as { text: string; mimeType: string };
  expect(view.mimeType).toBe("text/html;profile=mcp-app");
  viewHtml = view.text;
  viewServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response(view.text, { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": hostDefaultCsp } }),
  });
  hostServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response(hostPage(`http://127.0.0.1:${viewServer.port}/view.html`), { headers: { "content-type": "text/html; charset=utf-8" } }),
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await viewServer?.stop(true);
  await hostServer?.stop(true);
  await agent?.close();
  await service?.dispose();
});

async function openHost(readResource: (uri: string) => Promise<ReadResourceResult>, result: CallToolResult = toolResult, subscribe?: (uri: string) => Promise<object>): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  if (subscribe) await page.exposeFunction("subscribeResource", subscribe);
  await page.exposeFunction("toolResult", () => result);
  await page.exposeFunction("toolArguments", () => ({ courseId: course.id }));
  await page.exposeFunction("readResource", readResource);
  await page.goto(`http://127.0.0.1:${hostServer.port}/host.html`);
  return page;
}

function viewFrame(page: Page) {
  const frame = page.frames().find((candidate) => candidate.url().includes(`:${viewServer.port}/`));
  if (!frame) throw new Error("the view frame is missing");
  return frame;
}

test("preview_course links the view; the result carries a text outline and a link to the HTML resource", () => {
  expect(toolResult.isError).toBeFalsy();
  const [summary, link] = toolResult.content;
  expect(summary).toMatchObject({ type: "text" });
  expect((summary as { text: string }).text).toContain("## Module 1: When the alarm sounds");
  expect(link).toMatchObject({ type: "resource_link", uri: `course://${course.id}/preview`, mimeType: "text/html" });
});

test("in an MCP Apps host the view shows the rendered course, running its runtime, and reports its size", async () => {
  const page = await openHost((uri) => agent.client.readResource({ uri }));
  const frame = viewFrame(page);
  await frame.waitForFunction(() => document.documentElement.classList.contains("course-ready"), undefined, { timeout: 15_000 });
  expect(await frame.locator(`.${ClassName.courseName}`).first().innerText()).toBe("Fire safety basics");
  expect(await frame.locator('img[alt="Exit sign over the stair door"]').getAttribute("src")).toStartWith("data:image/png;base64,");
  await page.waitForFunction(() =>
    (window as unknown as { hostLog: { method: string; params: { height?: number } }[] }).hostLog.some(
      (entry) => entry.method === "ui/notifications/size-changed" && (entry.params.height ?? 0) > 300,
    ),
  );
  const methods = await page.evaluate(() => (window as unknown as { hostLog: { method: string }[] }).hostLog.map((entry) => entry.method));
  expect(methods.slice(0, 2)).toEqual(["ui/initialize", "ui/notifications/initialized"]);
  expect(methods).toContain("resources/read");
  // No answer key in the preview either (issue 21), and its knowledge checks still grade.
  expect(await frame.locator("html").evaluate((root) => root.outerHTML.includes("data-correct"))).toBe(false);
  const lessonId = course.modules[1]!.lessons[0]!.id;
  await frame.evaluate((id) => {
    window.location.hash = `lesson-${id}`;
  }, lessonId);
  const check = frame.locator(`[data-${DataName.lessonId}="${lessonId}"] [data-${DataName.question}]`).first();
  await check.locator('input[value="0"]').check();
  await check.locator(`[data-${DataName.checkAnswer}]`).click();
  await check.locator(`[data-${DataName.verdict}]`).filter({ hasText: "Correct." }).waitFor();
  await page.context().close();
}, 30_000);

test("when the host cannot read resources, the view shows the course outline from the tool result", async () => {
  const page = await openHost(async () => {
    throw new Error("resources are not available in this host");
  });
  const frame = viewFrame(page);
  await frame.waitForSelector("#outline:not([hidden])");
  expect(await frame.locator("#outline").innerText()).toContain("Module 1: When the alarm sounds");
  expect(await frame.locator("#status").innerText()).toContain("outline");
  await page.context().close();
}, 30_000);

test("a course too large to preview at once shows its outline and says to preview one module or lesson", async () => {
  const large = (await agent.call("create_course", {
    title: "Long manual",
    modules: [{ title: "Everything", lessons: [{ title: "All of it", blocks: [1, 2, 3, 4, 5, 6, 7, 8].map((part) => ({ type: "text", markdown: `Part ${part}. ${"Keep the exits clear. ".repeat(1_200)}` })) }] }],
  })) as Course;
  const result = (await agent.callRaw("preview_course", { courseId: large.id })) as CallToolResult;
  const page = await openHost((uri) => agent.client.readResource({ uri }), result);
  const frame = viewFrame(page);
  await frame.waitForSelector("#outline:not([hidden])");
  expect(await frame.locator("#status").innerText()).toContain("too large to preview here at once");
  expect(await frame.locator("#outline").innerText()).toContain("All of it");
  await page.context().close();
}, 30_000);

test("a host that relays subscriptions sees the open preview render the course again when it changes", async () => {
  let subscribed!: () => void;
  const subscribedNow = new Promise<void>((resolve) => (subscribed = resolve));
  const page = await openHost(
    (uri) => agent.client.readResource({ uri }),
    toolResult,
    async (uri) => {
      await agent.client.subscribeResource({ uri });
      subscribed();
      return {};
    },
  );
  // The host relays the server's notifications to the view.
  agent.client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
    const message = { jsonrpc: "2.0", method: notification.method, params: notification.params };
    await page.evaluate((relayed) => (window as unknown as { forwardToView(message: unknown): void }).forwardToView(relayed), message).catch(() => undefined);
  });
  const frame = viewFrame(page);
  await frame.waitForFunction(() => document.documentElement.classList.contains("course-ready"), undefined, { timeout: 15_000 });
  await waitFor(subscribedNow, 15_000, "the view's resources/subscribe through the host");
  await agent.call("update_course", { courseId: course.id, title: "Fire safety, revised" });
  await frame.waitForFunction(({ ClassName }) => document.querySelector(`.${ClassName.courseName}`)?.textContent?.trim() === "Fire safety, revised", { ClassName }, { timeout: 20_000 });
  await agent.client.unsubscribeResource({ uri: `course://${course.id}/preview` });
  await page.context().close();
}, 40_000);

test("a course too large to preview at once shows its first module, saying how to see the others, with the player read once as its own resource", async () => {
  const module = (title: string) => ({
    title,
    lessons: [
      {
        title: `${title}: the manual`,
        blocks: [
          ...[1, 2, 3, 4].map((part) => ({ type: "text", markdown: `Part ${part}. ${"Keep the exits clear. ".repeat(1_000)}` })),
          { type: "true_false", prompt: "Exits must stay clear.", answer: true },
          { type: "sorting", prompt: "Sort them.", categories: [{ title: "Exit" }, { title: "Not an exit" }], items: [{ text: "Stair door", category: "Exit" }, { text: "Cupboard", category: "Not an exit" }] },
        ],
      },
    ],
  });
  const large = (await agent.call("create_course", { title: "Two long manuals", modules: [module("Building A"), module("Building B")] })) as Course;
  const result = (await agent.callRaw("preview_course", { courseId: large.id })) as CallToolResult;
  const reads: string[] = [];
  const page = await openHost((uri) => {
    reads.push(uri);
    return agent.client.readResource({ uri });
  }, result);
  const frame = viewFrame(page);
  await frame.waitForFunction(() => document.documentElement.classList.contains("course-ready"), undefined, { timeout: 15_000 });
  expect(await frame.locator("[role=note]").innerText()).toContain("module 1 of 2, Building A");
  expect(await frame.locator("[role=note]").innerText()).toContain("preview_course with its moduleId");
  expect(await frame.locator(`[data-${DataName.lessonTitle}]`).count()).toBe(1);
  expect(reads).toEqual([`course://${large.id}/preview`, `course://${large.id}/modules/${large.modules[0]!.id}/preview`, "ui://course-authoring/player/course-full.js"]);
  // The player came from the bundle resource and runs: the true/false check grades.
  const lessonId = large.modules[0]!.lessons[0]!.id;
  await frame.evaluate((id) => {
    window.location.hash = `lesson-${id}`;
  }, lessonId);
  const check = frame.locator(`[data-${DataName.lessonId}="${lessonId}"] [data-${DataName.question}]`).first();
  await check.locator('input[value="0"]').check();
  await check.locator(`[data-${DataName.checkAnswer}]`).click();
  await check.locator(`[data-${DataName.verdict}]`).filter({ hasText: "Correct." }).waitFor();
  await page.context().close();
}, 30_000);

test("in the 2026-07-28 era the same view renders the course from the pinned v2 client's tool result and reads", async () => {
  const modern = await connectModernAgent(service, await devAccessToken(service, "alice"), { name: "apps-host-modern" });
  try {
    const view = (await modern.client.readResource({ uri: coursePreviewViewUri })).contents[0] as { text: string };
    expect(view.text).toBe(viewHtml);
    const result = (await modern.callRaw("preview_course", { courseId: course.id })) as CallToolResult;
    const page = await openHost((uri) => modern.client.readResource({ uri }) as Promise<never>, result);
    const frame = viewFrame(page);
    await frame.waitForFunction(() => document.documentElement.classList.contains("course-ready"), undefined, { timeout: 15_000 });
    // The title as it is now (an earlier test edits it).
    const { title } = await modern.call("get_course", { courseId: course.id, includeBlocks: false });
    expect(await frame.locator(`.${ClassName.courseName}`).first().innerText()).toBe(title as string);
    expect(await frame.locator('img[alt="Exit sign over the stair door"]').getAttribute("src")).toStartWith("data:image/png;base64,");
    await page.screenshot({ path: join(tmpdir(), "preview-view-modern.png") });
    await page.context().close();
  } finally {
    await modern.close();
  }
}, 30_000);
