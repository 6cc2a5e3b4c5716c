/**
 * The export view as an MCP App, end to end: the real service and SDK client supply export_course's
 * result and the ui:// view; a host page in a real browser (Chromium) frames the view on its own origin
 * under the spec's default CSP, answers `ui/initialize`, sends the tool result, proxies `resources/read`
 * to the service and implements `ui/download-file` by starting a real browser download. The person's
 * Download (mouse or keyboard) must save a file whose bytes are the package's, read independently; a
 * failed read, a refused download and a host without `ui/download-file` must each say what to do. The
 * same download also runs through the ext-apps reference host (`AppBridge`), bundled for the browser.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unzipSync } from "fflate";
import type { Browser, Frame, Page } from "playwright-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";
import { exportViewUri } from "../src/mcp/apps/export-view.ts";
import { hostLog, savedBytes, startAppsHost, statusOf, tabToDownload, type AppsHost, type HostOptions } from "./support/apps-host.ts";
import { launchBrowser, runAxe } from "./support/browser.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { pngBase64, readExport } from "./support/transfer.ts";
import { connectModernAgent } from "./support/modern-client.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";

let service: TestService;
let alice: Agent;
let mallory: Agent;
let browser: Browser;
let apps: AppsHost;
let courseId: string;
let exported: CallToolResult;
let facts: { uri: string; fileName: string; size: number; format: string; notices: string[]; exportId: string };
let viewHtml: string;

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"), "apps-host");
  mallory = await connectAgent(service, await devAccessToken(service, "mallory"), "apps-host");
  // Dutch: the player has no Dutch interface text, so the export carries a notice for the author.
  const course = (await alice.call("create_course", {
    title: "Brandveiligheid",
    language: "nl",
    modules: [
      { title: "Alarm", lessons: [{ title: "Wat te doen", blocks: [{ type: "text", markdown: "Loop naar de **nooduitgang**." }] }] },
      { title: "Blussers", lessons: [{ title: "Soorten", blocks: [{ type: "text", markdown: "Schuim, poeder en CO2." }] }] },
    ],
  })) as { id: string; modules: { lessons: { id: string }[] }[] };
  courseId = course.id;
  const asset = (await alice.call("upload_asset", { courseId, filename: "uitgang.png", dataBase64: pngBase64 })).asset as { id: string };
  await alice.call("add_blocks", { courseId, lessonId: course.modules[0]!.lessons[0]!.id, blocks: [{ type: "image", assetId: asset.id, alt: "Groen bord boven de nooduitgang" }] });
  exported = (await alice.callRaw("export_course", { courseId, format: "scorm2004" })) as CallToolResult;
  facts = exported.structuredContent as typeof facts;

  const view = (await alice.client.readResource({ uri: exportViewUri })).contents[0] as { text: string; mimeType: string };
  expect(view.mimeType).toBe("text/html;profile=mcp-app");
  viewHtml = view.text;
  apps = await startAppsHost(viewHtml);
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await apps?.stop();
  await alice?.close();
  await mallory?.close();
  await service?.dispose();
});

/** Alice's export in the hand-written host, reading through her SDK client, unless a test says otherwise. */
function openHost(options: Partial<HostOptions> = {}): Promise<{ page: Page; frame: Frame }> {
  return apps.open(browser, {
    arguments: { courseId, format: "scorm2004" },
    result: exported,
    readResource: (uri) => alice.client.readResource({ uri }),
    ...options,
  });
}

describe("export_course and its view over MCP", () => {
  test("export_course links the view; the result is the same link and summary as for hosts without Apps", async () => {
    const { tools } = await alice.client.listTools();
    const tool = tools.find((candidate) => candidate.name === "export_course")!;
    expect(tool._meta).toEqual({ ui: { resourceUri: exportViewUri } });
    expect(exported.isError).toBeFalsy();
    expect(exported.content.map((item) => item.type)).toEqual(["text", "resource_link"]);
    expect(exported.content[1]).toMatchObject({ type: "resource_link", uri: facts.uri, name: facts.fileName, mimeType: "application/zip", size: facts.size });
    expect(facts.notices.join(" ")).toContain("no nl interface text");
  });

  test("the view is one self-contained page: no external origin, no CSP domains asked for", async () => {
    const read = (await alice.client.readResource({ uri: exportViewUri })).contents[0]!;
    expect(read._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });
    expect(viewHtml).not.toMatch(/(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(viewHtml).not.toMatch(/https?:\/\//i);
  });

  test("course://…/exports/{id}/files lists the package's files, for those who may read the package only", async () => {
    const { bytes } = await readExport(alice, facts.uri);
    const inZip = Object.keys(unzipSync(bytes)).filter((path) => !path.endsWith("/"));
    const read = (await alice.client.readResource({ uri: `${facts.uri}/files` })).contents[0] as { text: string; mimeType: string };
    expect(read.mimeType).toBe("application/json");
    const listing = JSON.parse(read.text) as { uri: string; count: number; size: number; files: { path: string; size: number }[] };
    expect(listing).toMatchObject({ uri: facts.uri, size: facts.size, count: inZip.length });
    expect(listing.files.map((file) => file.path).sort()).toEqual(inZip.sort());
    const manifest = listing.files.find((file) => file.path === "imsmanifest.xml")!;
    expect(manifest.size).toBe(unzipSync(bytes)["imsmanifest.xml"]!.byteLength);
    await expect(mallory.client.readResource({ uri: `${facts.uri}/files` })).rejects.toThrow(/not_found/);
    for (const uri of [`course://${courseId}/exports/exp_0000000000000000000000/files`, `course://crs_nope/exports/${facts.exportId}/files`, `${facts.uri}/files/more`]) {
      await expect(alice.client.readResource({ uri })).rejects.toThrow(/not_found/);
    }
    const { resourceTemplates } = await alice.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain("course://{courseId}/exports/{exportId}/files");
  });
});

describe("in an MCP Apps host", () => {
  test("the view shows the format, size, notes and files, and Download by keyboard saves the package's exact bytes", async () => {
    const { page, frame } = await openHost();
    await frame.locator("#files-box").waitFor({ timeout: 15_000 });
    expect(await frame.locator("h1").innerText()).toBe("SCORM 2004 4th Edition package");
    const shown = await frame.locator("#facts").innerText();
    expect(shown).toContain(facts.fileName);
    expect(shown).toContain(`${(facts.size / 1024).toFixed(1)} KB`);
    expect(await frame.locator("#notices").innerText()).toContain("no nl interface text");
    const button = frame.getByRole("button", { name: `Download ${facts.fileName}` });
    expect(await button.isVisible()).toBe(true);

    await tabToDownload(page, frame);
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 15_000 }), page.keyboard.press("Enter")]);
    expect(download.suggestedFilename()).toBe(facts.fileName);
    const saved = await savedBytes(download);
    const { bytes } = await readExport(alice, facts.uri);
    expect(saved.byteLength).toBe(facts.size);
    expect(saved).toEqual(bytes);
    await frame.locator("#status", { hasText: "Downloaded" }).waitFor({ timeout: 15_000 });
    expect(await statusOf(frame)).toEqual({ status: expect.stringContaining(`Downloaded ${facts.fileName}`), problem: "" });

    // The host got an embedded blob resource named after the file; the package URI went only to resources/read.
    const log = await hostLog(page);
    const handed = log.find((entry) => entry.method === "ui/download-file")!.item!;
    expect(handed).toMatchObject({ type: "resource", uri: `file:///${facts.fileName}`, mimeType: "application/zip" });
    expect(log.filter((entry) => entry.method === "resources/read").map((entry) => entry.uri)).toEqual([`${facts.uri}/files`, facts.uri]);
    expect(log.slice(0, 2).map((entry) => entry.method)).toEqual(["ui/initialize", "ui/notifications/initialized"]);

    // Space works too, and a second download is the same file.
    const [again] = await Promise.all([page.waitForEvent("download", { timeout: 15_000 }), page.keyboard.press("Space")]);
    expect(await savedBytes(again)).toEqual(bytes);

    // A list this long starts folded; its summary opens it from the keyboard.
    expect(await frame.locator("#files-box").getAttribute("open")).toBeNull();
    await frame.locator("#files-summary").focus();
    await page.keyboard.press("Enter");
    await frame.locator("#files li").first().waitFor({ timeout: 15_000 });
    const files = await frame.locator("#files .path").allInnerTexts();
    expect(files).toContain("imsmanifest.xml");
    expect(files.some((path) => path.endsWith("uitgang.png"))).toBe(true);
    expect(await frame.locator("#files-summary").innerText()).toBe(`${files.length} files in the package`);
    await page.context().close();
  }, 60_000);

  test("through ext-apps' reference AppBridge as the host, the tool's link resolves and Download saves the package's bytes", async () => {
    const { tools } = await alice.client.listTools();
    expect(getToolUiResourceUri(tools.find((tool) => tool.name === "export_course") as Parameters<typeof getToolUiResourceUri>[0])).toBe(exportViewUri);
    const { page, frame } = await openHost({ host: "reference" });
    await frame.locator("#files-box").waitFor({ timeout: 15_000 });
    await tabToDownload(page, frame);
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 15_000 }), page.keyboard.press("Enter")]);
    expect(download.suggestedFilename()).toBe(facts.fileName);
    expect(await savedBytes(download)).toEqual((await readExport(alice, facts.uri)).bytes);
    await frame.locator("#status", { hasText: "Downloaded" }).waitFor({ timeout: 15_000 });
    expect((await statusOf(frame)).problem).toBe("");
    await page.context().close();
  }, 60_000);

  test("a small embedded package downloads from the result itself, without reading it again", async () => {
    const embedded = (await alice.callRaw("export_course", { courseId, format: "json", delivery: "embedded" })) as CallToolResult;
    const json = embedded.structuredContent as typeof facts;
    const { page, frame } = await openHost({ result: embedded });
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 15_000 }), frame.locator("#download").click()]);
    const saved = await savedBytes(download);
    expect(saved).toEqual((await readExport(alice, json.uri)).bytes);
    expect(JSON.parse(new TextDecoder().decode(saved)).course.title).toBe("Brandveiligheid");
    const reads = (await hostLog(page)).filter((entry) => entry.method === "resources/read").map((entry) => entry.uri);
    expect(reads).toEqual([`${json.uri}/files`]);
    expect(await frame.locator("#files .path").allInnerTexts()).toEqual([json.fileName]);
    await page.context().close();
  }, 60_000);

  test("a host that reads no resources for its views is handed a link to the package, fetches it itself and saves its exact bytes", async () => {
    const { page, frame } = await openHost({ mode: "link-only" });
    await frame.locator("#download").waitFor({ timeout: 15_000 });
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 15_000 }), frame.locator("#download").click()]);
    expect(download.suggestedFilename()).toBe(facts.fileName);
    expect(await savedBytes(download)).toEqual((await readExport(alice, facts.uri)).bytes);
    const saves = (await hostLog(page)).filter((entry) => entry.method === "ui/download-file").map((entry) => entry.item);
    expect(saves).toEqual([{ type: "resource_link", uri: facts.uri, name: facts.fileName, mimeType: "application/zip", size: facts.size }]);
    await frame.locator("#status", { hasText: "Downloaded" }).waitFor({ timeout: 15_000 });
    expect((await statusOf(frame)).problem).toBe("");
    await page.context().close();
  }, 60_000);

  test("a failed read says what to do, and Download again succeeds once the host can read", async () => {
    let failing = true;
    const { page, frame } = await openHost({
      readResource: async (uri) => {
        if (failing && !uri.endsWith("/files")) throw new Error("the connection to the server dropped");
        return alice.client.readResource({ uri });
      },
    });
    await frame.locator("#download").click();
    await frame.locator("#problem", { hasText: "could not fetch the package" }).waitFor({ timeout: 15_000 });
    expect((await statusOf(frame)).problem).toContain("Press Download to try again");
    expect(await frame.locator("#problem").getAttribute("role")).toBe("alert");
    failing = false;
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 15_000 }), frame.locator("#download").click()]);
    expect(await savedBytes(download)).toEqual((await readExport(alice, facts.uri)).bytes);
    await frame.locator("#status", { hasText: "Downloaded" }).waitFor({ timeout: 15_000 });
    expect((await statusOf(frame)).problem).toBe("");
    await page.context().close();
  }, 60_000);

  test("a package that no longer exists, or belongs to someone else, says to export again and downloads nothing", async () => {
    const gone = { ...facts, uri: `course://${courseId}/exports/exp_0000000000000000000000` };
    const result = { ...exported, structuredContent: gone } as CallToolResult;
    const cases: Partial<HostOptions>[] = [{ result }, { readResource: (uri) => mallory.client.readResource({ uri }) }];
    for (const options of cases) {
      const { page, frame } = await openHost(options);
      await frame.locator("#problem", { hasText: "no longer available" }).waitFor({ timeout: 15_000 });
      expect((await statusOf(frame)).problem).toContain("Ask the assistant to export the course again");
      let downloads = 0;
      page.on("download", () => downloads++);
      await frame.locator("#download").click();
      await frame.waitForFunction(() => document.getElementById("download")?.getAttribute("aria-disabled") === null);
      expect((await statusOf(frame)).problem).toContain("no longer available");
      expect((await hostLog(page)).some((entry) => entry.method === "ui/download-file")).toBe(false);
      expect(downloads).toBe(0);
      await page.context().close();
    }
  }, 60_000);

  test("a failed export shows its error and offers nothing to download", async () => {
    const failed = (await alice.callRaw("export_course", { courseId: "crs_0000000000000000000000", format: "scorm12" })) as CallToolResult;
    expect(failed.isError).toBe(true);
    const { page, frame } = await openHost({ result: failed });
    expect(await frame.locator("h1").innerText()).toBe("Export failed");
    expect((await statusOf(frame)).problem).toContain("not_found");
    expect(await frame.locator("#download").isVisible()).toBe(false);
    await page.context().close();
  }, 60_000);

  test("a download the person cancels in the host says it was not saved", async () => {
    const { page, frame } = await openHost({ mode: "cancel" });
    await frame.locator("#download").click();
    await frame.locator("#problem", { hasText: "not saved" }).waitFor({ timeout: 15_000 });
    expect((await statusOf(frame)).problem).toContain("cancelled or refused");
    await page.context().close();
  }, 60_000);

  for (const mode of ["unsupported", "silent"] as const) {
    test(`a host without ui/download-file (${mode === "silent" ? "no answer" : "method not found"}) is explained, with the way to get the package`, async () => {
      const { page, frame } = await openHost({ mode });
      await frame.locator("#download").click();
      await frame.locator("#problem", { hasText: "cannot save files from this view" }).waitFor({ timeout: 25_000 });
      expect((await statusOf(frame)).problem).toContain("Ask the assistant for the package link");
      await page.context().close();
    }, 60_000);
  }

  test("axe finds nothing at 390 px and on a desktop, light and dark, with the files open and after an error; nothing overflows", async () => {
    for (const [width, theme] of [[390, "light"], [1024, "light"], [390, "dark"]] as const) {
      const { page, frame } = await openHost({ mode: "cancel", theme, context: { bypassCSP: true, viewport: { width, height: 900 } } });
      await frame.locator("#files-box").waitFor({ timeout: 15_000 });
      const states: [string, () => Promise<void>][] = [
        ["ready", async () => {}],
        ["files open", () => frame.locator("#files-summary").click()],
        ["refused", async () => {
          await frame.locator("#download").click();
          await frame.locator("#problem", { hasText: "not saved" }).waitFor({ timeout: 15_000 });
        }],
      ];
      for (const [state, reach] of states) {
        await reach();
        const violations = await runAxe(frame);
        expect(violations.map((violation) => `${width} px, ${theme}, ${state}: ${violation.id}: ${violation.help} (${violation.targets.join(", ")})`)).toEqual([]);
        expect(await frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      }
      expect(await frame.locator("#status").getAttribute("role")).toBe("status");
      expect(await frame.locator("#problem").getAttribute("role")).toBe("alert");
      // The Download button is a real button, large enough to hit (WCAG 2.2 target size).
      const box = (await frame.locator("#download").boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(24);
      if (process.env.EXPORT_VIEW_SCREENSHOTS) await page.screenshot({ path: `${process.env.EXPORT_VIEW_SCREENSHOTS}/export-view-${width}-${theme}.png`, fullPage: true });
      await page.context().close();
    }
  }, 60_000);
});

describe("the same view in the 2026-07-28 era", () => {
  test("a host on the pinned v2 client gets the same view, and Download saves the package of its own export", async () => {
    const modern = await connectModernAgent(service, await devAccessToken(service, "alice"), { name: "apps-host-modern" });
    try {
      const view = (await modern.client.readResource({ uri: exportViewUri })).contents[0] as { text: string; mimeType: string };
      expect(view.mimeType).toBe("text/html;profile=mcp-app");
      expect(view.text).toBe(viewHtml);
      const { tools } = await modern.client.listTools();
      expect(getToolUiResourceUri(tools.find((tool) => tool.name === "export_course") as Parameters<typeof getToolUiResourceUri>[0])).toBe(exportViewUri);
      const result = (await modern.callRaw("export_course", { courseId, format: "scorm2004" })) as CallToolResult;
      const own = result.structuredContent as typeof facts;
      const { page, frame } = await openHost({ host: "reference", result, readResource: (uri) => modern.client.readResource({ uri }) as Promise<never> });
      await frame.locator("#files-box").waitFor({ timeout: 15_000 });
      await tabToDownload(page, frame);
      const [download] = await Promise.all([page.waitForEvent("download", { timeout: 15_000 }), page.keyboard.press("Enter")]);
      expect(download.suggestedFilename()).toBe(own.fileName);
      expect(await savedBytes(download)).toEqual((await readExport(alice, own.uri)).bytes);
      await frame.locator("#status", { hasText: "Downloaded" }).waitFor({ timeout: 15_000 });
      await page.screenshot({ path: join(tmpdir(), "export-view-modern.png") });
      await page.context().close();
    } finally {
      await modern.close();
    }
  }, 60_000);
});
