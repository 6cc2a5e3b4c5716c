/**
 * The export view across replicas: three replicas as separate processes on one PostgreSQL database
 * behind a round-robin proxy (no sticky sessions). The package is built through one replica; the view,
 * framed by an MCP Apps host in Chromium, reads its file list and bytes through the proxy (so through
 * the others too) and the host saves them. The saved file must equal the package as a fresh session on
 * another replica reads it, and a stranger reading through the same proxy learns nothing.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { exportViewUri } from "../src/mcp/apps/export-view.ts";
import { savedBytes, startAppsHost, statusOf, tabToDownload, type AppsHost } from "./support/apps-host.ts";
import { launchBrowser } from "./support/browser.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startDeployment, type McpDeployment } from "./support/mcp-deployments.ts";
import { pngBase64, readExport } from "./support/transfer.ts";

let deployment: McpDeployment;
let alice: Agent;
let mallory: Agent;
let browser: Browser;
let apps: AppsHost;

beforeAll(async () => {
  deployment = await startDeployment("replicas");
  alice = await connectAgent({ mcpUrl: deployment.mcpUrl }, await deployment.token("alice"), "apps-host");
  mallory = await connectAgent({ mcpUrl: deployment.mcpUrl }, await deployment.token("mallory"), "apps-host");
  const view = (await alice.client.readResource({ uri: exportViewUri })).contents[0] as { text: string };
  apps = await startAppsHost(view.text);
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await apps?.stop();
  await alice?.close().catch(() => undefined);
  await mallory?.close().catch(() => undefined);
  await deployment?.stop();
});

test("a package built on one replica is listed and saved through the others, byte for byte; a stranger reads nothing", async () => {
  const course = (await alice.call("create_course", { title: "Shared exits", modules: [{ title: "M", lessons: [{ title: "L" }] }] })) as {
    id: string;
    modules: { lessons: { id: string }[] }[];
  };
  const asset = (await alice.call("upload_asset", { courseId: course.id, filename: "exit.png", dataBase64: pngBase64 })).asset as { id: string };
  await alice.call("add_blocks", { courseId: course.id, lessonId: course.modules[0]!.lessons[0]!.id, blocks: [{ type: "image", assetId: asset.id, alt: "Exit sign" }] });
  const exported = (await alice.callRaw("export_course", { courseId: course.id, format: "scorm12" })) as CallToolResult;
  const facts = exported.structuredContent as { uri: string; fileName: string; size: number };
  const builtOn = deployment.proxy!.served.at(-1)!.replica;

  const servedBefore = deployment.proxy!.served.length;
  const { page, frame } = await apps.open(browser, {
    arguments: { courseId: course.id, format: "scorm12" },
    result: exported,
    readResource: (uri) => alice.client.readResource({ uri }),
  });
  await frame.locator("#files-summary", { hasText: "files in the package" }).waitFor({ timeout: 15_000 });
  await tabToDownload(page, frame);
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 30_000 }), page.keyboard.press("Enter")]);
  const saved = await savedBytes(download);
  await frame.locator("#status", { hasText: "Downloaded" }).waitFor({ timeout: 15_000 });
  expect((await statusOf(frame)).problem).toBe("");
  const readOn = new Set(deployment.proxy!.served.slice(servedBefore).map((entry) => entry.replica));
  expect(readOn.size).toBeGreaterThan(1);
  await page.context().close();

  // Read independently: a fresh session straight on a replica that did not build the package.
  const otherUrl = deployment.replicaUrls[(builtOn + 1) % deployment.replicaUrls.length]!;
  const direct = await connectAgent({ mcpUrl: `${otherUrl}/mcp` }, await deployment.token("alice"), "direct-reader");
  try {
    const { bytes } = await readExport(direct, facts.uri);
    expect(bytes.byteLength).toBe(facts.size);
    expect(saved).toEqual(bytes);
  } finally {
    await direct.close();
  }

  for (const uri of [facts.uri, `${facts.uri}/files`]) {
    for (let attempt = 0; attempt < deployment.replicaUrls.length; attempt++) await expect(mallory.client.readResource({ uri })).rejects.toThrow(/not_found/);
  }
}, 90_000);
