/**
 * The MCP Apps view that shows a course preview inline: after the `ui/initialize` handshake the host
 * hands it preview_course's result; the view reads the result's `previewUri` through the host and
 * replaces itself with that self-contained page (filling in the player's bundle, read once as its own
 * resource, when the page names it instead of carrying it), then keeps reporting its size. It subscribes
 * to the preview and renders it again on `notifications/resources/updated`. A host that cannot read
 * resources gets the text outline from the tool result; a course too large at once is shown by module.
 */
import type { ViewConfig } from "../../page-contract/config.ts";
import { createViewBridge, type HostError, type ReadResult, type RpcMessage, type ToolResult } from "./bridge.ts";

interface ModuleFacts {
  readonly previewUri?: unknown;
  readonly title?: unknown;
}

export function startCoursePreviewView(config: ViewConfig): void {
  const { request, notify, send, reportSize, fromHost, settled } = createViewBridge();
  const byId = (id: string): HTMLElement => document.getElementById(id) ?? document.createElement("div");

  let observer: ResizeObserver | null = null;
  const watchSize = (): void => {
    observer?.disconnect();
    if (typeof ResizeObserver === "function") {
      observer = new ResizeObserver(reportSize);
      observer.observe(document.documentElement);
    }
    reportSize();
  };

  const showText = (note: string, text: string): void => {
    byId("status").textContent = note;
    const outline = byId("outline");
    outline.textContent = text;
    outline.hidden = !text;
    reportSize();
  };

  let previewUri: string | null = null;
  // Said at the top of the course when the view shows one module of a course too large to show at once.
  let pageNote = "";
  const escapeText = (text: string): string => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
  // Paragraphs of the outline; written so the minifier keeps the bundle on one line.
  const paragraphBreak = "\n".repeat(2);
  const textOf = (read: ReadResult | undefined): unknown => read?.contents?.[0]?.text;
  // A preview too large to carry its player names the bundle (an empty script element); it is read once per bundle.
  const players = new Map<string, string>();
  const withPlayer = async (html: string): Promise<string> => {
    const named = /<script nonce="[^"]*" data-player-bundle="([a-z-]+)"><\/script>/.exec(html);
    if (!named) return html;
    const uri = `ui://course-authoring/player/${named[1]}.js`;
    if (!players.has(uri)) {
      const text = textOf(await request<ReadResult>("resources/read", { uri }));
      if (typeof text !== "string") throw new Error("the player resource has no script");
      players.set(uri, text);
    }
    const element = named[0];
    const closing = "</" + "script>";
    // Functions as replacements, both: a bundle's text may hold `$&` or `$'`, which a replacement string expands.
    return html.replace(element, () => element.replace(`>${closing}`, () => `>${players.get(uri) ?? ""}${closing}`));
  };
  // Replaces this page with the course; the window, this script's state and the host link stay.
  const render = async (): Promise<void> => {
    const text = textOf(await request<ReadResult>("resources/read", { uri: previewUri }));
    if (typeof text !== "string") throw new Error("the preview resource has no HTML");
    const html = (await withPlayer(text)).replace(/<main id="main"[^>]*>/, (main) => (pageNote ? `${main}<p role="note">${escapeText(pageNote)}</p>` : main));
    document.open();
    document.write(html);
    document.close();
    window.addEventListener("message", onMessage);
    watchSize();
  };
  // One re-render at a time; changes arriving meanwhile are covered by one more.
  let refreshing = false;
  let again = false;
  const refresh = (): void => {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = true;
    render()
      .catch(() => undefined)
      .then(() => {
        refreshing = false;
        if (again) {
          again = false;
          refresh();
        }
      });
  };

  const showResult = async (result: ToolResult | undefined): Promise<void> => {
    const texts = (result?.content ?? []).filter((item) => item?.type === "text").map((item) => item.text ?? "");
    const facts = result?.structuredContent ?? {};
    const uri = facts.previewUri;
    if (typeof uri !== "string") return showText("This result has no course preview.", texts.join(paragraphBreak));
    showText("Loading the preview…", "");
    const shown = async (target: string, note: string): Promise<void> => {
      previewUri = target;
      pageNote = note;
      await render();
      request("resources/subscribe", { uri: target }).catch(() => undefined);
    };
    const isTooLarge = (error: unknown): boolean => /limit_exceeded/.test(String((error as HostError | null)?.message));
    try {
      await shown(uri, "");
    } catch (error) {
      // The server answers limit_exceeded for a preview over its result cap: a whole course is then shown module by module.
      let tooLarge = isTooLarge(error);
      const modules = (Array.isArray(facts.modules) ? facts.modules : []) as ModuleFacts[];
      const first = modules[0];
      if (tooLarge && facts.scope === "course" && modules.length > 1 && first && typeof first.previewUri === "string") {
        const note = `This course is too large to preview at once: this is module 1 of ${modules.length}, ${String(first.title)}. To see another module, ask for preview_course with its moduleId (or lessonId for one lesson).`;
        try {
          return void (await shown(first.previewUri, note));
        } catch (moduleError) {
          tooLarge = isTooLarge(moduleError);
        }
      }
      const note = tooLarge
        ? "This course is too large to preview here at once, so here is its outline. Ask for a preview of one module or lesson."
        : "The host could not load the HTML preview, so here is the course outline.";
      showText(note, texts.join(paragraphBreak));
    }
  };

  function onMessage(event: MessageEvent): void {
    const message: RpcMessage | null = fromHost(event);
    if (!message || settled(message)) return;
    const params = message.params as { uri?: unknown } | undefined;
    if (message.method === "ui/notifications/tool-result") void showResult(message.params as ToolResult | undefined);
    else if (message.method === "notifications/resources/updated" && previewUri && params?.uri === previewUri) refresh();
    else if (message.method === "ui/notifications/tool-cancelled") showText("The preview was cancelled.", "");
    else if (message.id !== undefined && (message.method === "ui/resource-teardown" || message.method === "ping")) {
      if (message.method === "ui/resource-teardown" && previewUri) request("resources/unsubscribe", { uri: previewUri }).catch(() => undefined);
      send({ id: message.id, result: {} });
    }
  }

  window.addEventListener("message", onMessage);
  request("ui/initialize", {
    protocolVersion: config.protocolVersion,
    appInfo: { name: "course-preview", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline", "fullscreen"] },
  }).then(
    () => {
      notify("ui/notifications/initialized", {});
      watchSize();
    },
    () => showText("This host did not start the preview.", ""),
  );
}
