/**
 * Who the server says it is and what it tells the client beside results, over the real service with
 * the official SDK client: `serverInfo` carries a title, description, website and an icon; every tool
 * shows its toolset's icon, small inline SVGs that Chromium draws; log messages (`notifications/message`)
 * carry what a result does not say (questions a cartridge left out, parts of an import kept as text, a
 * translation's player in English), honour `logging/setLevel`, travel on the request's own stream, are
 * bounded per call and hold no credentials.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION, LoggingMessageNotificationSchema, type LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";
import { startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { launchBrowser } from "./support/browser.ts";
import { toolsets } from "../src/mcp/toolsets.ts";

type Message = LoggingMessageNotification["params"];

let service: TestService;
let token: string;
let alice: Agent;
/** Every log message alice's client received, in order. */
const received: Message[] = [];

beforeAll(async () => {
  service = await startTestService();
  token = await devAccessToken(service, "alice");
  alice = await connectAgent(service, token);
  alice.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    received.push(notification.params);
  });
});
afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

/** The log messages one call brings: they come on its stream before its result, so they are all in when it returns. */
async function messagesOf(call: () => Promise<unknown>): Promise<Message[]> {
  const before = received.length;
  await call();
  return received.slice(before);
}

const matching = { type: "matching", prompt: "Match the sign to its meaning.", pairs: [{ left: "Green arrow", right: "Exit" }, { left: "Red flame", right: "Alarm" }] };
const singleChoice = { type: "single_choice", prompt: "Where do you meet?", choices: [{ text: "Assembly point", correct: true }, { text: "Desk" }] };

/** A Markdown outline whose import keeps three things in another form: a warning, a notice and an info. */
const outline = [
  "# Fire safety",
  "## Basics",
  "### Exits",
  "![Evacuation map](./map.png)",
  "",
  "---",
  "",
  "- [x] The stairs",
  "- [ ] The lift",
  "",
  "```{.shell}",
  "echo drill",
  "```",
].join("\n");

describe("identity and icons", () => {
  test("serverInfo has a title, a description, the docs page as website and an inline SVG icon", async () => {
    const info = alice.client.getServerVersion();
    expect(info?.name).toBe("course-authoring-service");
    expect(info?.title).toBe("Course Authoring Service");
    expect(info?.description).toContain("course authoring");
    expect(info?.websiteUrl).toBe(`${service.url}/docs/api`);
    expect((await fetch(info!.websiteUrl!)).status).toBe(200);
    expect(info?.icons).toEqual([{ src: expect.stringMatching(/^data:image\/svg\+xml,/), mimeType: "image/svg+xml", sizes: ["any"] }]);
  });

  test("every tool shows its toolset's icon: one per toolset, each a few hundred bytes at most, that Chromium draws", async () => {
    const client = new Client({ name: "lister", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.mcpUrl}?toolsets=all`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const { tools } = await client.listTools();
    await client.close();
    // Tools grouped by the icon they show: one group per toolset.
    const toolsByIcon = new Map<string, Set<string>>();
    for (const tool of tools) {
      expect(tool.icons, `${tool.name} has no icons`).toHaveLength(1);
      const [icon] = tool.icons!;
      // The data: URI names its type; an SVG has no size: tools/list repeats these, so they say no more.
      expect(icon).toEqual({ src: expect.stringMatching(/^data:image\/svg\+xml,%3Csvg/) });
      expect(icon!.src.length).toBeLessThanOrEqual(400);
      toolsByIcon.set(icon!.src, (toolsByIcon.get(icon!.src) ?? new Set()).add(tool.name));
    }
    // As many distinct icons as toolsets, and tools of one toolset together (edit_course is in courses, update_block in edits).
    expect(toolsByIcon.size).toBe(Object.keys(toolsets).length);
    const setOf = (name: string) => [...toolsByIcon.values()].find((names) => names.has(name));
    expect(setOf("edit_course")).toBe(setOf("create_course"));
    expect(setOf("update_block")).toBe(setOf("add_blocks"));
    expect(setOf("update_block")).not.toBe(setOf("edit_course"));

    const sources = [...new Set([...tools.map((tool) => tool.icons![0]!.src), alice.client.getServerVersion()!.icons![0]!.src])];
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      // Each icon drawn at 16×16 on a canvas: it must load as an image and cover some pixels in its blue.
      const drawn = await page.evaluate(async (srcs: string[]) => {
        const results: { src: string; painted: number; blue: boolean }[] = [];
        for (const src of srcs) {
          const image = new Image();
          image.src = src;
          await image.decode();
          const canvas = document.createElement("canvas");
          canvas.width = canvas.height = 16;
          const context = canvas.getContext("2d")!;
          context.drawImage(image, 0, 0, 16, 16);
          const pixels = context.getImageData(0, 0, 16, 16).data;
          let painted = 0;
          let blue = false;
          for (let index = 0; index < pixels.length; index += 4) {
            if (pixels[index + 3]! > 128) {
              painted++;
              if (pixels[index + 2]! > pixels[index]! + 60) blue = true;
            }
          }
          results.push({ src, painted, blue });
        }
        return results;
      }, sources);
      for (const icon of drawn) {
        expect(icon.painted, `nothing drawn for ${icon.src}`).toBeGreaterThan(20);
        expect(icon.painted, `all of ${icon.src} is painted`).toBeLessThan(256);
        expect(icon.blue).toBe(true);
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe("log messages", () => {
  test("an IMS cartridge export tells, as a warning from export_course, which questions it could not carry", async () => {
    const course = await alice.call("create_course", {
      title: "Cartridge",
      modules: [{ title: "M", lessons: [{ title: "Check", kind: "quiz", blocks: [singleChoice, matching] }] }],
    });
    const read = await alice.call("get_course", { courseId: course.id });
    const blocks = (((read.modules as Record<string, unknown>[])[0]!.lessons as Record<string, unknown>[])[0]!.blocks as { id: string; type: string }[]);
    const matchingId = blocks.find((block) => block.type === "matching")!.id;
    const messages = await messagesOf(() => alice.call("export_course", { courseId: course.id, format: "imscc" }));
    const warning = messages.find((message) => message.level === "warning" && String(message.data).includes(matchingId));
    expect(warning).toMatchObject({ logger: "export_course" });
    expect(String(warning?.data)).toContain("no IMS Common Cartridge QTI equivalent");
    for (const message of messages) expect(JSON.stringify(message)).not.toContain(token);
  });

  test("an import says what it kept in another form; logging/setLevel warning hides notice and info, error hides warnings too", async () => {
    const all = await messagesOf(() => alice.call("import_course", { content: outline, format: "markdown" }));
    expect(all.map((message) => [message.level, message.logger])).toEqual([
      ["warning", "import_course"],
      ["notice", "import_course"],
      ["info", "import_course"],
    ]);
    expect(String(all[0]!.data)).toContain('"./map.png" is not a web address');
    expect(String(all[1]!.data)).toContain("a task list stays a list");
    expect(String(all[2]!.data)).toContain("plaintext");

    await alice.client.setLoggingLevel("warning");
    const warnings = await messagesOf(() => alice.call("import_course", { content: outline, format: "markdown" }));
    expect(warnings.map((message) => message.level)).toEqual(["warning"]);

    await alice.client.setLoggingLevel("error");
    expect(await messagesOf(() => alice.call("import_course", { content: outline, format: "markdown" }))).toEqual([]);

    await alice.client.setLoggingLevel("info");
    expect(await messagesOf(() => alice.call("import_course", { content: outline, format: "markdown" }))).toHaveLength(3);
  });

  test("the level is the session's: another session of the same user still gets everything", async () => {
    const other = await connectAgent(service, token, "other-session");
    const got: Message[] = [];
    other.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void got.push(notification.params));
    try {
      await alice.client.setLoggingLevel("error");
      await other.call("import_course", { content: outline, format: "markdown" });
      expect(got.map((message) => message.level)).toEqual(["warning", "notice", "info"]);
    } finally {
      await alice.client.setLoggingLevel("info");
      await other.close();
    }
  });

  test("a call sends at most 20 messages; the last says how many more were left out", async () => {
    const pictures = Array.from({ length: 30 }, (_, index) => `![Picture ${index}](./picture-${index}.png)\n`).join("\n");
    const messages = await messagesOf(() => alice.call("import_course", { content: `# Many pictures\n## Basics\n### Gallery\n${pictures}`, format: "markdown" }));
    expect(messages).toHaveLength(20);
    expect(messages.slice(0, 19).every((message) => String(message.data).includes("is not a web address"))).toBe(true);
    expect(messages[19]).toMatchObject({ level: "warning", data: "11 more message(s) like these were left out." });
  });

  test("a translation into a language the player has no interface text for says its packages show the player in English", async () => {
    const course = await alice.call("create_course", { title: "Translated", language: "en", modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "text", markdown: "Hello." }] }] }] });
    const japanese = await messagesOf(() => alice.call("create_translation", { courseId: course.id, language: "ja" }));
    expect(japanese).toEqual([{ level: "notice", logger: "create_translation", data: expect.stringContaining("in English: it has no ja interface text") }]);
    expect(await messagesOf(() => alice.call("create_translation", { courseId: course.id, language: "fr" }))).toEqual([]);
  });

  test("the messages travel on the tools/call request's own event stream, before its result", async () => {
    const course = await alice.call("create_course", { title: "Stream", modules: [{ title: "M", lessons: [{ title: "Check", kind: "quiz", blocks: [singleChoice, matching] }] }] });
    // A session of its own, driven by hand, so the POST's SSE answer can be read as it comes.
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const post = (body: unknown, session?: string) =>
      fetch(service.mcpUrl, { method: "POST", headers: { ...headers, ...(session ? { "Mcp-Session-Id": session, "Mcp-Protocol-Version": LATEST_PROTOCOL_VERSION } : {}) }, body: JSON.stringify(body) });
    const initialized = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    const session = initialized.headers.get("mcp-session-id")!;
    await initialized.text();
    await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
    const answer = await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "export_course", arguments: { courseId: course.id, format: "imscc" } } }, session);
    expect(answer.headers.get("content-type")).toContain("text/event-stream");
    // The stream opens with a priming event (an id and no data), which carries no message.
    const events = (await answer.text())
      .split("\n")
      .filter((line) => line.startsWith("data:") && line.slice(5).trim() !== "")
      .map((line) => JSON.parse(line.slice(5)) as { method?: string; id?: number; params?: Message });
    const logged = events.findIndex((event) => event.method === "notifications/message" && event.params?.level === "warning");
    const result = events.findIndex((event) => event.id === 2);
    expect(logged).toBeGreaterThanOrEqual(0);
    expect(result).toBeGreaterThan(logged);
    await fetch(service.mcpUrl, { method: "DELETE", headers: { Authorization: `Bearer ${token}`, "Mcp-Session-Id": session, "Mcp-Protocol-Version": LATEST_PROTOCOL_VERSION } });
  });
});
