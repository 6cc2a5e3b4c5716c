/**
 * The MCP Apps view (SEP-1865, `@modelcontextprotocol/ext-apps`) that shows a course preview inline in
 * hosts that support MCP Apps. It is a static template, the same for every course: after the
 * `ui/initialize` handshake the host hands it preview_course's result, the view asks the host to read
 * the result's `previewUri` (`course://{id}/preview`), and replaces itself with that self-contained
 * HTML (filling in the player's bundle, read once as its own resource, when the page names it instead
 * of carrying it). It then keeps reporting its size so the host can fit the frame. A host that cannot read
 * resources gets the text outline from the tool result instead. The view also asks the host to
 * subscribe to the preview (`resources/subscribe`) and renders it again on each
 * `notifications/resources/updated` for it, so an open preview follows the course as anyone edits it;
 * MCP Apps does not oblige a host to relay either, and a host that does not keeps the snapshot.
 *
 * The bridge is a few lines of JSON-RPC over postMessage rather than the SDK's bundled App class
 * (~330 kB with its dependencies): the view needs three messages, and the page stays small enough for
 * hosts to prefetch and review.
 */
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/ext-apps";
import { viewBridgePrologue } from "./view-bridge.ts";
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";

export const coursePreviewViewUri = "ui://course-authoring/course-preview.html";
export const mcpAppMimeType = RESOURCE_MIME_TYPE;

/** Resource `_meta.ui`: no external origins at all (the preview inlines its assets), and a framed look. */
export const coursePreviewViewMeta = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

const bridgeScript = `(() => {
  "use strict";
${viewBridgePrologue}

  let observer = null;
  const watchSize = () => {
    if (observer) observer.disconnect();
    if (typeof ResizeObserver === "function") {
      observer = new ResizeObserver(reportSize);
      observer.observe(document.documentElement);
    }
    reportSize();
  };

  const showText = (note, text) => {
    document.getElementById("status").textContent = note;
    const outline = document.getElementById("outline");
    outline.textContent = text;
    outline.hidden = !text;
    reportSize();
  };

  let previewUri = null;
  // Said at the top of the course when the view shows one module of a course too large to show at once.
  let pageNote = "";
  const escapeText = (text) => text.replace(/[&<>"]/g, (character) => "&#" + character.charCodeAt(0) + ";");
  // A preview too large to carry its player names the bundle (an empty script element); it is read once per bundle.
  const players = new Map();
  const withPlayer = async (html) => {
    const named = /<script nonce="[^"]*" data-player-bundle="([a-z-]+)"><\\/script>/.exec(html);
    if (!named) return html;
    const uri = "ui://course-authoring/player/" + named[1] + ".js";
    if (!players.has(uri)) {
      const read = await request("resources/read", { uri });
      const text = read && read.contents && read.contents[0] && read.contents[0].text;
      if (typeof text !== "string") throw new Error("the player resource has no script");
      players.set(uri, text);
    }
    const element = named[0];
    return html.replace(element, () => element.replace("></" + "script>", ">" + players.get(uri) + "</" + "script>"));
  };
  // Replaces this page with the course; the window, this script's state and the host link stay.
  const render = async () => {
    const read = await request("resources/read", { uri: previewUri });
    const text = read && read.contents && read.contents[0] && read.contents[0].text;
    if (typeof text !== "string") throw new Error("the preview resource has no HTML");
    const html = (await withPlayer(text)).replace(/<main id="main"[^>]*>/, (main) => (pageNote ? main + '<p role="note">' + escapeText(pageNote) + "</p>" : main));
    document.open();
    document.write(html);
    document.close();
    window.addEventListener("message", onMessage);
    watchSize();
  };
  // One re-render at a time; changes arriving meanwhile are covered by one more.
  let refreshing = false;
  let again = false;
  const refresh = () => {
    if (refreshing) return void (again = true);
    refreshing = true;
    render().catch(() => undefined).then(() => {
      refreshing = false;
      if (again) {
        again = false;
        refresh();
      }
    });
  };

  const showResult = async (result) => {
    const texts = ((result && result.content) || []).filter((item) => item && item.type === "text").map((item) => item.text);
    const uri = result && result.structuredContent && result.structuredContent.previewUri;
    if (typeof uri !== "string") return showText("This result has no course preview.", texts.join("\\n\\n"));
    showText("Loading the preview…", "");
    const shown = async (target, note) => {
      previewUri = target;
      pageNote = note;
      await render();
      request("resources/subscribe", { uri: target }).catch(() => undefined);
    };
    const isTooLarge = (error) => /limit_exceeded/.test(String(error && error.message));
    try {
      await shown(uri, "");
    } catch (error) {
      // The server answers limit_exceeded for a preview over its result cap: a whole course is then shown module by module.
      let tooLarge = isTooLarge(error);
      const facts = result.structuredContent;
      const modules = Array.isArray(facts.modules) ? facts.modules : [];
      if (tooLarge && facts.scope === "course" && modules.length > 1 && typeof modules[0].previewUri === "string") {
        const note = "This course is too large to preview at once: this is module 1 of " + modules.length + ", " + modules[0].title +
          ". To see another module, ask for preview_course with its moduleId (or lessonId for one lesson).";
        try {
          return void (await shown(modules[0].previewUri, note));
        } catch (moduleError) {
          tooLarge = isTooLarge(moduleError);
        }
      }
      const note = tooLarge
        ? "This course is too large to preview here at once, so here is its outline. Ask for a preview of one module or lesson."
        : "The host could not load the HTML preview, so here is the course outline.";
      showText(note, texts.join("\\n\\n"));
    }
  };

  function onMessage(event) {
    const message = fromHost(event);
    if (!message || settled(message)) return;
    if (message.method === "ui/notifications/tool-result") showResult(message.params);
    else if (message.method === "notifications/resources/updated" && previewUri && message.params && message.params.uri === previewUri) refresh();
    else if (message.method === "ui/notifications/tool-cancelled") showText("The preview was cancelled.", "");
    else if (message.id !== undefined && (message.method === "ui/resource-teardown" || message.method === "ping")) {
      if (message.method === "ui/resource-teardown" && previewUri) request("resources/unsubscribe", { uri: previewUri }).catch(() => undefined);
      send({ id: message.id, result: {} });
    }
  }

  window.addEventListener("message", onMessage);
  request("ui/initialize", {
    protocolVersion: ${JSON.stringify(LATEST_PROTOCOL_VERSION)},
    appInfo: { name: "course-preview", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline", "fullscreen"] },
  }).then(
    () => {
      notify("ui/notifications/initialized", {});
      watchSize();
    },
    () => showText("This host did not start the preview.", ""),
  );
})();`;

/** The view's page: a status line, a fallback outline, and the bridge. */
export const coursePreviewViewHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course preview</title>
<style>
  body { margin: 0; padding: 1rem; font-family: var(--font-sans, system-ui, sans-serif); color: var(--color-text-primary, #1a1a1a); background: var(--color-background-primary, #fff); }
  #status { margin: 0 0 0.5rem; color: var(--color-text-secondary, #555); }
  #outline { white-space: pre-wrap; font: inherit; margin: 0; }
</style>
</head>
<body>
<p id="status" role="status">Waiting for the course…</p>
<pre id="outline" hidden></pre>
<script>${bridgeScript}</script>
</body>
</html>
`;
