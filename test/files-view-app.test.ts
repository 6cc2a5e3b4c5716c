/**
 * The files view in Chromium, framed by an MCP Apps host page on another origin that passes the view's
 * tools/call to a real MCP client: files chosen with the file picker and dropped on the drop zone are
 * sent in chunks and become assets, the model is told their IDs, names, types, sizes, pixel sizes and a
 * thumbnail per picture through ui/update-model-context, and Cancel stops an upload leaving nothing.
 * Keyboard only, at 1280 and 390 px, in the host's light and dark themes: the chooser opens from the
 * file button with Space, Cancel works with Enter and leaves focus on the picker, and axe finds nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Frame, Page } from "playwright-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { hostDefaultCsp } from "./support/apps-host.ts";
import { launchBrowser, runAxe } from "./support/browser.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { redPng } from "./support/office-documents.ts";
import { startTestService, type TestService } from "./support/service.ts";

type Json = Record<string, any>;

let service: TestService;
let alice: Agent;
let browser: Browser;
let courseId: string;
let servers: { stop(force: boolean): unknown }[] = [];
let hostUrl: string;

/** A host page that frames the view, forwards its tools/call to `window.callTool`, and logs what it tells the model. */
const hostPage = (viewUrl: string) => `<!doctype html><html lang="en"><head><title>Files host</title><style>body{margin:0} iframe{border:0;width:100%;height:700px}</style></head><body>
<iframe id="view" title="Upload files" sandbox="allow-scripts allow-same-origin" src="${viewUrl}"></iframe>
<script>
  window.modelContext = [];
  window.toolCalls = [];
  window.holdChunks = false;
  window.held = [];
  const frame = document.getElementById("view");
  const reply = (id, body) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: "2.0", id }, body), "*");
  const notify = (method, params) => frame.contentWindow.postMessage({ jsonrpc: "2.0", method, params }, "*");
  window.releaseChunks = () => { window.holdChunks = false; for (const go of window.held.splice(0)) go(); };
  window.addEventListener("message", async (event) => {
    if (event.source !== frame.contentWindow || !event.data || event.data.jsonrpc !== "2.0") return;
    const message = event.data;
    if (message.method === "ui/initialize") {
      reply(message.id, { result: { protocolVersion: message.params.protocolVersion, hostInfo: { name: "files-host", version: "1" }, hostCapabilities: { serverTools: {}, updateModelContext: { image: {}, text: {} } }, hostContext: { theme: new URLSearchParams(location.search).get("theme") || "light", displayMode: "inline" } } });
    } else if (message.method === "ui/notifications/initialized") {
      notify("ui/notifications/tool-input", { arguments: await window.toolArguments() });
      notify("ui/notifications/tool-result", await window.toolResult());
    } else if (message.method === "tools/call") {
      window.toolCalls.push(message.params.name);
      if (message.params.name === "upload_chunk" && window.holdChunks) await new Promise((go) => window.held.push(go));
      reply(message.id, { result: await window.callTool(message.params.name, message.params.arguments) });
    } else if (message.method === "ui/update-model-context") {
      window.modelContext.push(message.params);
      reply(message.id, { result: {} });
    }
  });
</script></body></html>`;

async function openView(options: { theme?: "light" | "dark"; width?: number; library?: boolean } = {}): Promise<{ page: Page; frame: Frame }> {
  // bypassCSP lets axe-core be injected into the view; the view's own CSP is tested by the other cases.
  const page = await (await browser.newContext(options.width ? { bypassCSP: true, viewport: { width: options.width, height: 800 } } : {})).newPage();
  // A listener turns on Playwright's file chooser interception, which takes a round trip: on before the
  // page loads, so a chooser opened with the keyboard later is never missed.
  page.on("filechooser", () => undefined);
  const target = options.library ? {} : { courseId };
  const opened = (await alice.client.callTool({ name: "list_assets", arguments: target })) as CallToolResult;
  await page.exposeFunction("toolArguments", () => target);
  await page.exposeFunction("toolResult", () => opened);
  await page.exposeFunction("callTool", async (name: string, args: Record<string, unknown>) => alice.client.callTool({ name, arguments: args }));
  await page.goto(`${hostUrl}?theme=${options.theme ?? "light"}`);
  const frame = await (await page.waitForSelector("iframe[src]")).contentFrame();
  if (!frame) throw new Error("the view frame is missing");
  await frame.waitForFunction(() => !(document.getElementById("choose") as HTMLInputElement).disabled, undefined, { timeout: 15_000 });
  return { page, frame };
}

async function assets(): Promise<Json[]> {
  return (await alice.call("list_assets", { courseId })).assets as Json[];
}

const rowStates = (frame: Frame) => frame.evaluate(() => [...document.querySelectorAll(".file")].map((row) => [row.querySelector(".name")?.textContent, (row as HTMLElement).dataset.state ?? "", row.querySelector(".state")?.textContent]));

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  courseId = (await alice.call("create_course", { title: "Safety pictures" })).id as string;
  const viewHtml = String(((await alice.client.readResource({ uri: "ui://course-authoring/files.html" })).contents[0] as Json).text);
  const view = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(viewHtml, { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": hostDefaultCsp } }) });
  const host = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(hostPage(`http://127.0.0.1:${view.port}/view.html`), { headers: { "content-type": "text/html; charset=utf-8" } }) });
  servers = [view, host];
  hostUrl = `http://127.0.0.1:${host.port}/host.html`;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) await server.stop(true);
  await alice?.close();
  await service?.dispose();
});

describe("files view", () => {
  test("chosen files travel in chunks and become assets; the model gets their facts and a thumbnail per picture", async () => {
    const { page, frame } = await openView();
    await frame.setInputFiles("#choose", [
      { name: "exit-sign.png", mimeType: "image/png", buffer: Buffer.from(redPng) },
      { name: "checklist.txt", mimeType: "text/plain", buffer: Buffer.from("Check the exits.\n") },
    ]);
    await frame.waitForFunction(() => document.querySelectorAll('.file[data-state="done"]').length === 2, undefined, { timeout: 20_000 });
    const stored = await assets();
    // Both files travel at once, so either may be stored first.
    expect(stored.map((asset) => [asset.filename, asset.mediaType]).sort()).toEqual([["checklist.txt", "text/plain"], ["exit-sign.png", "image/png"]]);
    const told = (await page.evaluate(() => (window as unknown as { modelContext: Json[] }).modelContext)).at(-1) as Json;
    const facts = told.structuredContent.uploads as Json[];
    const picture = facts.find((fact) => fact.filename === "exit-sign.png") as Json;
    expect(picture).toEqual({ assetId: stored.find((asset) => asset.filename === "exit-sign.png")?.id, filename: "exit-sign.png", mediaType: "image/png", byteSize: redPng.length, width: 40, height: 30 });
    expect(facts.find((fact) => fact.filename === "checklist.txt")).toMatchObject({ mediaType: "text/plain" });
    const images = (told.content as Json[]).filter((item) => item.type === "image");
    expect(images).toHaveLength(1);
    expect(Buffer.from(images[0]?.data, "base64").subarray(1, 4).toString()).toBe("PNG");
    // The course's version now, so the agent's next write does not conflict (issue 41).
    const version = ((await alice.call("get_course", { courseId, includeBlocks: false })) as Json).version;
    expect(told.structuredContent.version).toBe(version);
    expect((told.content as Json[])[0]?.text).toContain(`now at version ${version}`);
    await page.screenshot({ path: ".tmp/files-view-chosen.png" });
    await page.context().close();
  }, 60_000);

  test("opened without a course, the view uploads to the person's own library (issue 41)", async () => {
    const { page, frame } = await openView({ library: true });
    expect(await frame.evaluate(() => document.querySelector("h1")?.textContent)).toBe("Your library");
    const version = ((await alice.call("get_course", { courseId, includeBlocks: false })) as Json).version;
    await frame.setInputFiles("#choose", [{ name: "policy-poster.png", mimeType: "image/png", buffer: Buffer.from(redPng) }]);
    await frame.waitForFunction(() => document.querySelectorAll('.file[data-state="done"]').length === 1, undefined, { timeout: 20_000 });
    const library = (await alice.call("list_assets", {})).assets as Json[];
    expect(library.map((asset) => asset.filename)).toContain("policy-poster.png");
    expect(((await alice.call("get_course", { courseId, includeBlocks: false })) as Json).version).toBe(version);
    const told = (await page.evaluate(() => (window as unknown as { modelContext: Json[] }).modelContext)).at(-1) as Json;
    expect(told.structuredContent.courseId).toBeNull();
    expect(told.structuredContent.version).toBeUndefined();
    expect((told.content as Json[])[0]?.text).toContain("own library");
    await page.screenshot({ path: ".tmp/files-view-library.png" });
    await page.context().close();
  }, 60_000);

  test("a dropped file is uploaded; a file that lies about its type is refused and leaves nothing", async () => {
    const { page, frame } = await openView();
    const before = (await assets()).length;
    await frame.evaluate(async () => {
      const zone = document.getElementById("drop") as HTMLElement;
      const transfer = new DataTransfer();
      transfer.items.add(new File(["Dropped notes."], "dropped.txt", { type: "text/plain" }));
      transfer.items.add(new File(["%PDF-1.4\n%%EOF\n"], "fake.png", { type: "image/png" }));
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    await frame.waitForFunction(() => document.querySelectorAll(".file[data-state]").length === 2, undefined, { timeout: 20_000 });
    const states = await rowStates(frame);
    expect(states.find((row) => row[0] === "dropped.txt")?.[1]).toBe("done");
    const refused = states.find((row) => row[0] === "fake.png") as string[];
    expect(refused[1]).toBe("refused");
    expect(refused[2]).toContain("fake.png: mediaType: says image/png but the content is application/pdf");
    expect(refused[2]).toContain("The upload was deleted.");
    expect((await assets()).map((asset) => asset.filename)).toContain("dropped.txt");
    expect((await assets()).length).toBe(before + 1);
    await page.context().close();
  }, 60_000);

  test("Cancel stops an upload between chunks and nothing of it is kept", async () => {
    const { page, frame } = await openView();
    const before = await assets();
    await page.evaluate(() => {
      (window as unknown as { holdChunks: boolean }).holdChunks = true;
    });
    await frame.setInputFiles("#choose", [{ name: "big.txt", mimeType: "text/plain", buffer: Buffer.alloc(700 * 1024, "a") }]);
    await page.waitForFunction(() => (window as unknown as { held: unknown[] }).held.length === 1, undefined, { timeout: 15_000 });
    await frame.getByRole("button", { name: "Cancel big.txt" }).click();
    await page.evaluate(() => (window as unknown as { releaseChunks: () => void }).releaseChunks());
    await frame.waitForFunction(() => document.querySelector(".file")?.getAttribute("data-state") === "cancelled", undefined, { timeout: 15_000 });
    expect((await rowStates(frame))[0]?.[2]).toBe("Cancelled; nothing was kept.");
    const calls = await page.evaluate(() => (window as unknown as { toolCalls: string[] }).toolCalls);
    expect(calls).toEqual(["begin_upload", "upload_chunk", "finish_upload"]);
    expect(await assets()).toEqual(before);
    await page.screenshot({ path: ".tmp/files-view-cancelled.png" });
    await page.context().close();
  }, 60_000);

  /** Presses Tab on the host page until the view's focused element matches `selector`. */
  async function tabInView(page: Page, frame: Frame, selector: string): Promise<void> {
    for (let presses = 0; presses < 30; presses++) {
      if (await frame.evaluate((wanted) => document.hasFocus() && (document.activeElement?.matches(wanted) ?? false), selector)) return;
      await page.keyboard.press("Tab");
    }
    throw new Error(`focus never reached ${selector} in the view`);
  }

  /** Focus on the file input, Space opens the chooser, and these files are chosen in it. */
  async function chooseWithKeyboard(page: Page, frame: Frame, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
    await tabInView(page, frame, "#choose");
    const [chooser] = await Promise.all([page.waitForEvent("filechooser", { timeout: 15_000 }), page.keyboard.press("Space")]);
    expect(chooser.isMultiple()).toBe(true);
    await chooser.setFiles(files);
  }

  async function axeClean(frame: Frame, where: string): Promise<void> {
    const violations = await runAxe(frame);
    expect(violations.map((violation) => `${where}: ${violation.id}: ${violation.help} (${violation.targets.join(", ")})`)).toEqual([]);
    expect(await frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  }

  for (const theme of ["light", "dark"] as const) {
    test(`keyboard only, ${theme}, at 1280 and 390 px: choose with the button, cancel with the keyboard; axe finds nothing`, async () => {
      for (const width of [1280, 390]) {
        const { page, frame } = await openView({ theme, width });
        expect(await frame.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        await axeClean(frame, `${width} px ${theme}, ready`);
        // The file button is large enough to hit (WCAG 2.2 target size).
        expect((await frame.locator("#choose").boundingBox())!.height).toBeGreaterThanOrEqual(24);
        const before = await assets();
        await page.evaluate(() => {
          (window as unknown as { holdChunks: boolean }).holdChunks = true;
        });
        await chooseWithKeyboard(page, frame, [{ name: "big.txt", mimeType: "text/plain", buffer: Buffer.alloc(700 * 1024, "a") }]);
        await page.waitForFunction(() => (window as unknown as { held: unknown[] }).held.length === 1, undefined, { timeout: 15_000 });
        await axeClean(frame, `${width} px ${theme}, uploading`);
        await tabInView(page, frame, 'button[aria-label="Cancel big.txt"]');
        await page.keyboard.press("Enter");
        // The pressed button keeps focus while the upload stops (aria-disabled, not disabled).
        expect(await frame.evaluate(() => document.activeElement?.getAttribute("aria-disabled"))).toBe("true");
        await page.evaluate(() => (window as unknown as { releaseChunks: () => void }).releaseChunks());
        await frame.waitForFunction(() => document.querySelector(".file")?.getAttribute("data-state") === "cancelled", undefined, { timeout: 15_000 });
        // The Cancel button is gone; focus went back to the file picker, not to the page.
        expect(await frame.evaluate(() => document.activeElement?.id)).toBe("choose");
        expect(await assets()).toEqual(before);
        await axeClean(frame, `${width} px ${theme}, cancelled`);

        // Focus is on the file button already: Space opens the chooser again.
        await chooseWithKeyboard(page, frame, [
          { name: `sign-${theme}-${width}.png`, mimeType: "image/png", buffer: Buffer.from(redPng) },
          { name: "lies.png", mimeType: "image/png", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") },
        ]);
        await frame.waitForFunction(() => document.querySelectorAll(".file[data-state]").length === 3, undefined, { timeout: 20_000 });
        await axeClean(frame, `${width} px ${theme}, uploaded and refused`);
        // The person reads the rule and the file, not the agent's error code.
        expect((await rowStates(frame)).find((row) => row[0] === "lies.png")?.[2]).toStartWith("Not uploaded: lies.png: ");
        await page.screenshot({ path: `.tmp/files-view-${width}-${theme}.png`, fullPage: true });
        await page.context().close();
      }
    }, 90_000);
  }
});
