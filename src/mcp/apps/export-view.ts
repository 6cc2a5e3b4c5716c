/**
 * The MCP Apps view (SEP-1865, `@modelcontextprotocol/ext-apps`) export_course links to: it shows the
 * package (format, size, expiry, the export's notes, the files inside) and a Download button. The button
 * asks the host to read the package resource and hands the bytes straight back in `ui/download-file`, so
 * the host saves them as a file and they never pass through the model. It is a static template, the
 * same for every export: the host supplies export_course's result after the `ui/initialize` handshake.
 *
 * Like the preview view, the bridge is a few lines of JSON-RPC over postMessage rather than the SDK's
 * bundled App class, so the page stays small enough for hosts to prefetch and review.
 */
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/ext-apps";
import { viewBridgePrologue } from "./view-bridge.ts";
import type { ReadResourceResult } from "@modelcontextprotocol/server";
import { formatNames } from "../../export/export-course.ts";
import { defaultExportTtlMs } from "../../export/export-store.ts";
import { mcpAppMimeType } from "./course-preview-view.ts";

export const exportViewUri = "ui://course-authoring/export.html";

/** Resource `_meta.ui`: no external origins at all, and a framed look. */
export const exportViewMeta = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

/**
 * How long the view waits for a host that did not declare `downloadFile` to answer `ui/download-file`
 * before it explains what else to do; a host that declares it may take as long as the person needs to
 * confirm the download.
 */
const undeclaredDownloadWaitMs = 10_000;

const bridgeScript = `(() => {
  "use strict";
${viewBridgePrologue}

  const formatNames = ${JSON.stringify(formatNames)};
  const keptHours = ${defaultExportTtlMs / 3_600_000};
  const formatName = (format) => (typeof format === "string" && Object.prototype.hasOwnProperty.call(formatNames, format) ? formatNames[format] : undefined);
  const $ = (id) => document.getElementById(id);
  let hostCapabilities = {};
  let current = null;
  let busy = false;


  const humanSize = (bytes) =>
    bytes < 1024 ? bytes + " bytes" : bytes < 1048576 ? (bytes / 1024).toFixed(1) + " KB" : (bytes / 1048576).toFixed(1) + " MB";
  const say = (text) => {
    $("status").textContent = text;
    if (text) $("problem").textContent = "";
  };
  const fail = (text) => {
    $("status").textContent = "";
    $("problem").textContent = text;
  };
  const element = (tag, text, className) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  };
  const errorText = (error) => String((error && error.message) || error || "");
  const isUnsupported = (error) => Boolean(error && (error.code === -32601 || /-32601|method not found|not supported|unsupported/i.test(errorText(error))));
  // The server answers -32602 (-32002 before SDK v2) with data.code "not_found"; a host may pass on only the words.
  const isNotFound = (error) =>
    !isUnsupported(error) && Boolean(error && ((error.data && error.data.code === "not_found") || error.code === -32002 || /not_found|not found|-32002/i.test(errorText(error))));
  const expired = () =>
    "This package is no longer available: exports are kept for " + keptHours + " hours. Ask the assistant to export the course again, then download the new package.";
  const expiry = () => {
    const when = current && current.expiresAt ? new Date(current.expiresAt) : null;
    return when && !Number.isNaN(when.getTime()) ? " It is kept until " + when.toLocaleString() + "." : "";
  };

  /** What the view needs from export_course's result: its structuredContent, else the link or embedded resource. */
  const packageOf = (result) => {
    const facts = (result && result.structuredContent) || {};
    const content = (result && Array.isArray(result.content)) ? result.content : [];
    const link = content.find((item) => item && item.type === "resource_link") || {};
    const embedded = (content.find((item) => item && item.type === "resource" && item.resource && typeof item.resource.blob === "string") || {}).resource;
    const uri = facts.uri || link.uri || (embedded && embedded.uri);
    if (typeof uri !== "string") return null;
    const meta = (embedded && embedded._meta) || {};
    return {
      uri,
      fileName: String(facts.fileName || link.name || meta.fileName || "course-package"),
      mimeType: String(facts.mimeType || link.mimeType || (embedded && embedded.mimeType) || "application/octet-stream"),
      size: typeof facts.size === "number" ? facts.size : typeof link.size === "number" ? link.size : undefined,
      format: facts.format,
      variant: facts.variant,
      courseVersion: facts.courseVersion,
      expiresAt: facts.expiresAt,
      notices: Array.isArray(facts.notices) ? facts.notices.filter((notice) => typeof notice === "string") : [],
      blob: embedded ? embedded.blob : null,
    };
  };

  const showFacts = (pkg) => {
    const facts = $("facts");
    facts.replaceChildren();
    const add = (term, value) => {
      if (value === undefined || value === null || value === "") return;
      const row = element("div");
      row.append(element("dt", term));
      const detail = element("dd");
      if (value instanceof Node) detail.append(value);
      else detail.textContent = String(value);
      row.append(detail);
      facts.append(row);
    };
    add("File", pkg.fileName);
    add("Format", formatName(pkg.format) || pkg.format);
    add("Size", typeof pkg.size === "number" ? humanSize(pkg.size) : undefined);
    if (pkg.variant) add("Built from", (pkg.variant === "published" ? "the published course" : "the draft") + (pkg.courseVersion ? ", version " + pkg.courseVersion : ""));
    const when = pkg.expiresAt ? new Date(pkg.expiresAt) : null;
    if (when && !Number.isNaN(when.getTime())) {
      const time = element("time", when.toLocaleString());
      time.dateTime = pkg.expiresAt;
      add("Available until", time);
    }
    const notices = $("notices");
    notices.replaceChildren(...pkg.notices.map((notice) => element("li", notice)));
    $("notes").hidden = pkg.notices.length === 0;
  };

  const showFiles = (listing) => {
    const files = Array.isArray(listing.files) ? listing.files : [];
    const count = typeof listing.count === "number" ? listing.count : files.length;
    const list = $("files");
    list.replaceChildren(
      ...files.map((file) => {
        const item = element("li");
        item.append(element("span", String(file.path), "path"), " ", element("span", humanSize(Number(file.size) || 0), "size"));
        return item;
      }),
    );
    if (count > files.length) list.append(element("li", "and " + (count - files.length) + " more", "more"));
    $("files-summary").textContent = count === 1 ? "1 file in the package" : count + " files in the package";
    // A long list starts folded so the Download button and the notes stay in view.
    $("files-box").open = count <= 12;
    $("files-box").hidden = false;
    $("files-note").hidden = true;
  };

  const loadFiles = async (pkg) => {
    try {
      const read = await request("resources/read", { uri: pkg.uri + "/files" });
      const item = read && Array.isArray(read.contents) ? read.contents.find((content) => content && typeof content.text === "string") : null;
      if (!item) throw new Error("no file list in the answer");
      if (current === pkg) showFiles(JSON.parse(item.text));
    } catch (error) {
      if (current !== pkg) return;
      if (isNotFound(error)) {
        $("files-note").textContent = "The list of files is not available because the package has expired.";
        fail(expired());
      } else {
        $("files-note").textContent = "This host could not fetch the list of files; the package can still be downloaded.";
      }
    }
  };

  const showResult = (result) => {
    current = null;
    for (const id of ["package", "notes", "files-note", "files-box"]) $(id).hidden = true;
    if (result && result.isError) {
      const text = ((result.content || []).find((item) => item && item.type === "text") || {}).text || "";
      $("title").textContent = "Export failed";
      fail("The export did not finish. " + String(text).slice(0, 600));
      return;
    }
    const pkg = packageOf(result);
    if (!pkg) {
      $("title").textContent = "No package";
      fail("This result has no package to download. Ask the assistant to export the course again.");
      return;
    }
    current = pkg;
    $("title").textContent = (formatName(pkg.format) || "Course") + " package";
    showFacts(pkg);
    $("download").textContent = "Download " + pkg.fileName;
    $("files-note").textContent = "Reading the list of files…";
    $("files-note").hidden = false;
    $("files-box").hidden = true;
    $("package").hidden = false;
    say("The package is ready to download.");
    loadFiles(pkg);
  };

  /** Bytes a base64 string decodes to, without decoding it. */
  const decodedSize = (base64) => {
    const length = base64.replace(/\\s/g, "").length;
    return (length / 4) * 3 - (base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0);
  };

  /** ui/download-file; a host that did not declare it gets a bounded wait, then the view explains. */
  const askHostToSave = (params) => {
    const answer = request("ui/download-file", params);
    if (hostCapabilities.downloadFile) return answer;
    return Promise.race([
      answer,
      new Promise((resolve, reject) => setTimeout(() => reject({ code: -32601, message: "no answer to ui/download-file" }), ${undeclaredDownloadWaitMs})),
    ]);
  };

  const readPackage = async (pkg) => {
    if (pkg.blob) return pkg.blob;
    const read = await request("resources/read", { uri: pkg.uri });
    const item = read && Array.isArray(read.contents) ? read.contents.find((content) => content && typeof content.blob === "string") : null;
    if (!item) throw new Error("the answer held no package bytes");
    return item.blob;
  };

  /** Asks the host to save the contents; says how it went, naming the file (and its size) as given. */
  const saveThroughHost = async (contents, what) => {
    let saved;
    try {
      saved = await askHostToSave({ contents });
    } catch (error) {
      if (isUnsupported(error)) return fail("This host cannot save files from this view. Ask the assistant for the package link instead, or download it in an app that supports MCP Apps downloads." + expiry());
      return fail("The host could not save the file (" + errorText(error).slice(0, 200) + "). Press Download to try again.");
    }
    if (saved && saved.isError) return fail("The file was not saved: the download was cancelled or refused. Press Download to try again.");
    say("Downloaded " + what + ". It is wherever your browser or app saves downloads.");
  };

  const download = async () => {
    const pkg = current;
    if (busy || !pkg) return;
    busy = true;
    const button = $("download");
    button.setAttribute("aria-disabled", "true");
    say("Fetching " + pkg.fileName + " through the host…");
    try {
      let blob;
      try {
        blob = await readPackage(pkg);
      } catch (error) {
        if (isNotFound(error)) return fail(expired());
        // A host that does not read resources for its views may still fetch a linked file itself.
        if (isUnsupported(error)) {
          say("Asking the host to fetch and save " + pkg.fileName + "…");
          const link = { type: "resource_link", uri: pkg.uri, name: pkg.fileName, mimeType: pkg.mimeType };
          return await saveThroughHost([typeof pkg.size === "number" ? Object.assign(link, { size: pkg.size }) : link], pkg.fileName);
        }
        return fail("The host could not fetch the package (" + errorText(error).slice(0, 200) + "). Press Download to try again; if it keeps failing, ask the assistant to export the course again.");
      }
      const size = decodedSize(blob);
      if (typeof pkg.size === "number" && size !== pkg.size) {
        return fail("The package arrived incomplete (" + humanSize(size) + " of " + humanSize(pkg.size) + "). Press Download to try again.");
      }
      say("Asking the host to save " + pkg.fileName + "…");
      await saveThroughHost(
        [{ type: "resource", resource: { uri: "file:///" + encodeURIComponent(pkg.fileName), mimeType: pkg.mimeType, blob, _meta: { fileName: pkg.fileName, packageUri: pkg.uri } } }],
        pkg.fileName + " (" + humanSize(size) + ")",
      );
    } finally {
      busy = false;
      button.removeAttribute("aria-disabled");
    }
  };

  const applyHostContext = (context) => {
    if (!context) return;
    const root = document.documentElement;
    if (context.theme === "dark" || context.theme === "light") root.dataset.theme = context.theme;
    const variables = context.styles && context.styles.variables;
    if (variables && typeof variables === "object") {
      for (const [name, value] of Object.entries(variables)) if (name.startsWith("--") && typeof value === "string") root.style.setProperty(name, value);
    }
  };

  function onMessage(event) {
    const message = fromHost(event);
    if (!message || settled(message)) return;
    if (message.method === "ui/notifications/tool-result") showResult(message.params);
    else if (message.method === "ui/notifications/tool-input") {
      const format = message.params && message.params.arguments && message.params.arguments.format;
      if (!current) say("Building the " + (formatName(format) || "course") + " package…");
    } else if (message.method === "ui/notifications/tool-cancelled") {
      if (!current) fail("The export was cancelled, so there is no package. Ask the assistant to export the course again.");
    } else if (message.method === "ui/notifications/host-context-changed") applyHostContext(message.params);
    else if (message.id !== undefined && (message.method === "ui/resource-teardown" || message.method === "ping")) send({ id: message.id, result: {} });
  }

  window.addEventListener("message", onMessage);
  $("download").addEventListener("click", download);
  request("ui/initialize", {
    protocolVersion: ${JSON.stringify(LATEST_PROTOCOL_VERSION)},
    appInfo: { name: "course-export", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline"] },
  }).then(
    (answer) => {
      hostCapabilities = (answer && answer.hostCapabilities) || {};
      applyHostContext(answer && answer.hostContext);
      notify("ui/notifications/initialized", {});
      // Sizes only after the handshake: a host takes no notifications before it.
      if (typeof ResizeObserver === "function") new ResizeObserver(reportSize).observe(document.documentElement);
      reportSize();
    },
    () => fail("This host did not start the export view. Ask the assistant for the package link instead."),
  );
})();`;

/** The view's page: the package's facts, the Download button, live status lines, notes and files, and the bridge. */
export const exportViewHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course package</title>
<style>
  :root { color-scheme: light; --fallback-text: #1a1a1a; --fallback-muted: #4a4a4a; --fallback-background: #fff; --fallback-accent: #1d4ed8; --fallback-on-accent: #fff; --fallback-danger: #b3261e; --fallback-border: #c4c4c4; }
  :root[data-theme="dark"] { color-scheme: dark; --fallback-text: #f2f2f2; --fallback-muted: #c8c8c8; --fallback-background: #1e1e1e; --fallback-accent: #8ab4f8; --fallback-on-accent: #111; --fallback-danger: #ffb4ab; --fallback-border: #5a5a5a; }
  body { margin: 0; padding: 1rem; font-family: var(--font-sans, system-ui, sans-serif); line-height: 1.5; color: var(--color-text-primary, var(--fallback-text)); background: var(--color-background-primary, var(--fallback-background)); }
  h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
  h2 { font-size: 1rem; margin: 1rem 0 0.25rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0 0 1rem; }
  dl > div { display: contents; }
  dt { color: var(--color-text-secondary, var(--fallback-muted)); }
  dd { margin: 0; overflow-wrap: anywhere; }
  button { font: inherit; font-weight: 600; min-height: 2.75rem; padding: 0.5rem 1rem; border: 2px solid transparent; border-radius: var(--border-radius-md, 0.375rem); cursor: pointer; max-width: 100%; overflow-wrap: anywhere;
    color: var(--color-text-inverse, var(--fallback-on-accent)); background: var(--color-background-inverse, var(--fallback-accent)); }
  button[aria-disabled="true"] { cursor: progress; opacity: 0.8; }
  button:focus-visible, summary:focus-visible { outline: 3px solid var(--color-ring-primary, var(--fallback-accent)); outline-offset: 2px; }
  #status { margin: 0.5rem 0 0; color: var(--color-text-secondary, var(--fallback-muted)); }
  #problem { margin: 0.5rem 0 0; color: var(--color-text-danger, var(--fallback-danger)); font-weight: 600; }
  ul { margin: 0.25rem 0 0; padding-left: 1.25rem; }
  #files { list-style: none; padding: 0; }
  #files li { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0 1rem; border-bottom: 1px solid var(--color-border-secondary, var(--fallback-border)); padding: 0.125rem 0; }
  .path { font-family: var(--font-mono, ui-monospace, monospace); overflow-wrap: anywhere; min-width: 0; }
  .size { color: var(--color-text-secondary, var(--fallback-muted)); white-space: nowrap; }
  summary { cursor: pointer; font-weight: 600; margin-top: 1rem; min-height: 1.5rem; }
  @media (max-width: 420px) { dl { grid-template-columns: 1fr; gap: 0; } dd { margin-bottom: 0.375rem; } button { width: 100%; } }
</style>
</head>
<body>
<main>
<h1 id="title">Course package</h1>
<div id="package" hidden>
<dl id="facts"></dl>
<button id="download" type="button">Download</button>
</div>
<p id="status" role="status">Waiting for the export…</p>
<p id="problem" role="alert"></p>
<section id="notes" aria-labelledby="notes-title" hidden>
<h2 id="notes-title">Notes on this package</h2>
<ul id="notices"></ul>
</section>
<p id="files-note" hidden></p>
<details id="files-box" hidden>
<summary id="files-summary">Files in the package</summary>
<ul id="files"></ul>
</details>
</main>
<script>${bridgeScript}</script>
</body>
</html>
`;

export function readExportView(): ReadResourceResult {
  return { contents: [{ uri: exportViewUri, mimeType: mcpAppMimeType, text: exportViewHtml, _meta: exportViewMeta }] };
}
