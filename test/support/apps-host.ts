/**
 * MCP Apps hosts for tests: a view (the ui:// HTML a test read from the service) served on its own origin
 * under the spec's default CSP, and two host pages on another origin that frame it: a hand-written one
 * whose `ui/download-file` behaviour a test chooses (save, refuse, lack the method, never answer) and
 * which logs what the view asked for, and one built on ext-apps' own AppBridge, bundled for the browser.
 * Both answer `ui/initialize`, send the tool input and result, and pass `resources/read` to the page's
 * `readResource` (a test exposes it, usually as its SDK client's read), and save downloads as real
 * browser downloads.
 */
import type { Browser, BrowserContextOptions, Download, Frame, Page } from "playwright-core";
import type { CallToolResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";

/** What SEP-1865 says a host must apply when the view declares no CSP domains. */
export const hostDefaultCsp =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'";

/**
 * How the hand-written host answers `ui/download-file`: saves the file, reports a refusal, lacks the
 * method, or never answers; `link-only` reads no resources for the view but saves a linked file,
 * fetching it itself.
 */
export type DownloadMode = "save" | "cancel" | "unsupported" | "silent" | "link-only";

/** A host built on ext-apps' own AppBridge: it reads resources through the page and saves downloads as files. */
function referenceHostPage(viewUrl: string): string {
  return `<!doctype html><html lang="en"><head><title>Reference host</title><style>body{margin:0} iframe{border:0;width:100%;height:900px}</style></head><body>
<script type="module">
  import { AppBridge, PostMessageTransport } from "/app-bridge.js";
  const frame = document.createElement("iframe");
  frame.title = "Course package";
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
  document.body.append(frame);
  const bridge = new AppBridge(null, { name: "reference-host", version: "1" }, { serverResources: {}, downloadFile: {} });
  bridge.onreadresource = (params) => window.readResource(params.uri);
  bridge.ondownloadfile = async ({ contents }) => {
    for (const item of contents) {
      const bytes = Uint8Array.from(atob(item.resource.blob), (char) => char.charCodeAt(0));
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([bytes], { type: item.resource.mimeType }));
      link.download = item.resource.uri.split("/").pop();
      link.click();
    }
    return {};
  };
  bridge.oninitialized = async () => {
    await bridge.sendToolInput({ arguments: await window.toolArguments() });
    await bridge.sendToolResult(await window.toolResult());
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.src = ${JSON.stringify(viewUrl)};
</script></body></html>`;
}

/** The hand-written host; `?download=` chooses its DownloadMode. */
function hostPage(viewUrl: string): string {
  return `<!doctype html><html lang="en"><head><title>Test host</title><style>body{margin:0} iframe{border:0;width:100%;height:900px}</style></head><body>
<iframe id="view" title="Course package" sandbox="allow-scripts allow-same-origin" src="${viewUrl}"></iframe>
<script>
  window.hostLog = [];
  const mode = new URLSearchParams(location.search).get("download");
  const frame = document.getElementById("view");
  const reply = (id, body) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: "2.0", id }, body), "*");
  const notify = (method, params) => frame.contentWindow.postMessage({ jsonrpc: "2.0", method, params }, "*");
  const capabilities = mode === "link-only" ? {} : { serverResources: {} };
  if (mode === "save" || mode === "cancel" || mode === "link-only") capabilities.downloadFile = {};
  const saveBytes = (base64, mimeType, name) => {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([bytes], { type: mimeType }));
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
  };
  window.addEventListener("message", async (event) => {
    if (event.source !== frame.contentWindow || !event.data || event.data.jsonrpc !== "2.0") return;
    const message = event.data;
    const item = message.method === "ui/download-file" ? message.params.contents[0] : null;
    const logged = !item ? null : item.type === "resource" ? { type: item.type, uri: item.resource.uri, mimeType: item.resource.mimeType, blobLength: item.resource.blob.length } : { type: item.type, uri: item.uri, name: item.name, mimeType: item.mimeType, size: item.size };
    window.hostLog.push({ method: message.method, uri: message.params && message.params.uri, item: logged });
    if (message.method === "ui/initialize") {
      reply(message.id, { result: { protocolVersion: message.params.protocolVersion, hostInfo: { name: "test-host", version: "1" }, hostCapabilities: capabilities, hostContext: Object.assign({ theme: new URLSearchParams(location.search).get("theme") || "light", displayMode: "inline" }, new URLSearchParams(location.search).get("locale") ? { locale: new URLSearchParams(location.search).get("locale") } : {}) } });
    } else if (message.method === "ui/notifications/initialized") {
      notify("ui/notifications/tool-input", { arguments: await window.toolArguments() });
      notify("ui/notifications/tool-result", await window.toolResult());
    } else if (message.method === "resources/read") {
      if (mode === "link-only") return reply(message.id, { error: { code: -32601, message: "Method not found" } });
      try {
        reply(message.id, { result: await window.readResource(message.params.uri) });
      } catch (error) {
        reply(message.id, { error: { code: -32000, message: String(error) } });
      }
    } else if (message.method === "ui/download-file") {
      if (mode === "unsupported") return reply(message.id, { error: { code: -32601, message: "Method not found" } });
      if (mode === "silent") return;
      if (mode === "cancel") return reply(message.id, { result: { isError: true } });
      if (item.type === "resource_link") {
        // The host fetches a linked file with its own connection to the server.
        const read = await window.readResource(item.uri);
        const blob = read.contents.find((content) => typeof content.blob === "string");
        saveBytes(blob.blob, item.mimeType, item.name);
      } else saveBytes(item.resource.blob, item.resource.mimeType, decodeURIComponent(item.resource.uri.split("/").pop()));
      reply(message.id, { result: {} });
    }
  });
</script></body></html>`;
}

async function bundleAppBridge(): Promise<string> {
  const entry = new URL(import.meta.resolve("@modelcontextprotocol/ext-apps/app-bridge")).pathname;
  const bundle = await Bun.build({ entrypoints: [entry], target: "browser", format: "esm" });
  if (!bundle.success) throw new Error(`bundling AppBridge failed: ${bundle.logs.join("\n")}`);
  return bundle.outputs[0]!.text();
}

export interface HostOptions {
  /** The hand-written host page (default) or the one built on ext-apps' AppBridge. */
  readonly host?: "host" | "reference";
  readonly mode?: DownloadMode;
  /** The theme the hand-written host announces in its host context. */
  readonly theme?: "light" | "dark";
  readonly arguments: Record<string, unknown>;
  readonly result: CallToolResult;
  readonly readResource: (uri: string) => Promise<ReadResourceResult>;
  readonly context?: BrowserContextOptions;
  /** The locale the hand-written host announces in its host context (none unless told). */
  readonly locale?: string;
  /** Resolves once the view is ready; the export view's Download button or problem unless told. */
  readonly ready?: (frame: Frame) => Promise<unknown>;
}

export interface AppsHost {
  /** Opens a host page in a new browser context and resolves once the view's frame is there. */
  open(browser: Browser, options: HostOptions): Promise<{ page: Page; frame: Frame }>;
  stop(): Promise<void>;
}

/** Serves `viewHtml` under the default CSP and both host pages, each on its own origin. */
export async function startAppsHost(viewHtml: string): Promise<AppsHost> {
  const appBridgeJs = await bundleAppBridge();
  const viewServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response(viewHtml, { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": hostDefaultCsp } }),
  });
  const viewUrl = `http://127.0.0.1:${viewServer.port}/view.html`;
  const hostServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/app-bridge.js") return new Response(appBridgeJs, { headers: { "content-type": "text/javascript; charset=utf-8" } });
      const page = path === "/reference.html" ? referenceHostPage(viewUrl) : hostPage(viewUrl);
      return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
  return {
    async open(browser, options) {
      const page = await (await browser.newContext({ acceptDownloads: true, ...options.context })).newPage();
      await page.exposeFunction("toolResult", () => options.result);
      await page.exposeFunction("toolArguments", () => options.arguments);
      await page.exposeFunction("readResource", options.readResource);
      const locale = options.locale ? `&locale=${encodeURIComponent(options.locale)}` : "";
      await page.goto(`http://127.0.0.1:${hostServer.port}/${options.host ?? "host"}.html?download=${options.mode ?? "save"}&theme=${options.theme ?? "light"}${locale}`);
      const frame = await (await page.waitForSelector("iframe[src]")).contentFrame();
      if (!frame) throw new Error("the view frame is missing");
      // Ready once the view shows a package to download or says why it cannot, unless the test says what ready is.
      if (options.ready) await options.ready(frame);
      else await frame.waitForFunction(() => document.getElementById("download")?.checkVisibility() || document.getElementById("problem")?.textContent, undefined, { timeout: 15_000 });
      return { page, frame };
    },
    async stop() {
      await viewServer.stop(true);
      await hostServer.stop(true);
    },
  };
}

export interface HostLogEntry {
  readonly method?: string;
  readonly uri?: string;
  /** What `ui/download-file` carried: an embedded package (its length in base64) or a link the host fetches. */
  readonly item?: { type: string; uri: string; mimeType: string; blobLength?: number; name?: string; size?: number };
}

/** What the view sent the hand-written host, in order. */
export async function hostLog(page: Page): Promise<HostLogEntry[]> {
  return page.evaluate(() => (window as unknown as { hostLog: HostLogEntry[] }).hostLog);
}

/** The file the browser saved, as the person would find it in their downloads. */
export async function savedBytes(download: Download): Promise<Uint8Array> {
  return new Uint8Array(await Bun.file(await download.path()).arrayBuffer());
}

/** Presses Tab in the host page until the view's Download button has the focus. */
export async function tabToDownload(page: Page, frame: Frame): Promise<void> {
  for (let presses = 0; presses < 20; presses++) {
    if (await frame.evaluate(() => document.activeElement?.id === "download")) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("Tab never reached the Download button");
}

/** The view's two live regions: progress and outcome (role status), and problems (role alert). */
export async function statusOf(frame: Frame): Promise<{ status: string; problem: string }> {
  return { status: await frame.locator("#status").innerText(), problem: await frame.locator("#problem").innerText() };
}
