/**
 * The MCP Apps view (SEP-1865, `@modelcontextprotocol/ext-apps`) export_course links to: it shows the
 * package (format, size, expiry, the export's notes, the files inside) and a Download button. The button
 * asks the host to read the package resource and hands the bytes straight back in `ui/download-file`, so
 * the host saves them as a file and they never pass through the model. It is a static template, the
 * same for every export: the host supplies export_course's result after the `ui/initialize` handshake.
 *
 * Like the preview view, its script is built like the player (`src/player/views/export.ts`): a few lines
 * of JSON-RPC over postMessage rather than the SDK's bundled App class.
 */
import { appsProtocolVersion } from "./apps-protocol.ts";
import type { ExportViewConfig } from "../../page-contract/config.ts";
import { viewBundles } from "../../render/player-bundles.ts";
import { viewScripts } from "../../render/player-scripts.ts";
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

const viewConfig: ExportViewConfig = { protocolVersion: appsProtocolVersion, formatNames, keptHours: defaultExportTtlMs / 3_600_000, undeclaredDownloadWaitMs };

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
${viewScripts(viewConfig, viewBundles.export).markup}
</body>
</html>
`;

export function readExportView(): ReadResourceResult {
  return { contents: [{ uri: exportViewUri, mimeType: mcpAppMimeType, text: exportViewHtml, _meta: exportViewMeta }] };
}
