/**
 * The MCP Apps files view list_assets links to: the person chooses or drops files, each travels to the
 * service in ordered chunks through the app-only tools (begin_upload, upload_chunk, finish_upload) with its own progress bar and Cancel button, and never passes through the model. When a
 * file is stored the view tells the model what it needs through `ui/update-model-context`: asset ID,
 * name, type, size, a picture's pixel size and a small thumbnail as image content (drawn here on a
 * canvas), so the agent can place the asset and write its alt text. Built like the export view: a
 * static page whose script is built like the player (`src/player/views/files.ts`).
 */
import { appsProtocolVersion } from "./apps-protocol.ts";
import type { ReadResourceResult } from "@modelcontextprotocol/server";
import { acceptedMediaTypes } from "../../codecs/media-types.ts";
import { limits } from "../../authoring/schemas/fields.ts";
import { mcpAppMimeType } from "./course-preview-view.ts";
import type { FilesViewConfig } from "../../page-contract/config.ts";
import { viewBundles } from "../../render/player-bundles.ts";
import { viewScripts } from "../../render/player-scripts.ts";

export const filesViewUri = "ui://course-authoring/files.html";

/** Resource `_meta.ui`: no external origins at all, and a framed look. */
export const filesViewMeta = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

const accept = [...new Set(acceptedMediaTypes.flatMap((type) => type.extensions.map((extension) => `.${extension}`)))].join(",");

export const filesViewHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Upload files</title>
<style>
  :root { color-scheme: light; --fallback-text: #1a1a1a; --fallback-background: #fff; --fallback-accent: #1d4ed8; --fallback-danger: #b3261e; --fallback-border: #767676; --fallback-line: #c4c4c4; --fallback-over: #e8f0fe; }
  :root[data-theme="dark"] { color-scheme: dark; --fallback-text: #f2f2f2; --fallback-background: #1e1e1e; --fallback-accent: #8ab4f8; --fallback-danger: #ffb4ab; --fallback-border: #9a9a9a; --fallback-line: #5a5a5a; --fallback-over: #2a3550; }
  body { margin: 0; padding: 1rem; font-family: var(--font-sans, system-ui, sans-serif); line-height: 1.5; color: var(--color-text-primary, var(--fallback-text)); background: var(--color-background-primary, var(--fallback-background)); }
  h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
  #drop { display: block; border: 2px dashed var(--color-border-primary, var(--fallback-border)); border-radius: 0.5rem; padding: 1.5rem; text-align: center; cursor: pointer; }
  #drop.over { border-style: solid; background: var(--color-background-secondary, var(--fallback-over)); }
  #drop:focus-within { outline: 3px solid var(--color-ring-primary, var(--fallback-accent)); outline-offset: 2px; }
  button:focus-visible { outline: 3px solid var(--color-ring-primary, var(--fallback-accent)); outline-offset: 2px; }
  button[aria-disabled="true"] { cursor: progress; opacity: 0.8; }
  #choose { display: block; margin: 0.5rem auto 0; max-width: 100%; font: inherit; }
  #choose::file-selector-button { font: inherit; font-weight: 600; min-height: 2.75rem; padding: 0.25rem 1rem; margin-right: 0.75rem; cursor: pointer; }
  #files { list-style: none; padding: 0; margin: 1rem 0 0; }
  .file { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.25rem 1rem; padding: 0.5rem 0; border-bottom: 1px solid var(--color-border-secondary, var(--fallback-line)); }
  .name { font-weight: 600; overflow-wrap: anywhere; }
  progress { grid-column: 1 / -1; width: 100%; }
  .state { overflow-wrap: anywhere; }
  .file[data-state="refused"] .state { color: var(--color-text-danger, var(--fallback-danger)); font-weight: 600; }
  button { font: inherit; min-height: 2.75rem; padding: 0.25rem 1rem; cursor: pointer; }
  #problem { color: var(--color-text-danger, var(--fallback-danger)); font-weight: 600; }
</style>
</head>
<body>
<main>
<h1 id="course">Upload files</h1>
<label id="drop" for="choose">Drop files here, or choose them (at most ${limits.assetBytes / 1024 / 1024} MB each: pictures, audio, video, captions, PDF, Word, PowerPoint, Excel, text, CSV).
<input id="choose" type="file" multiple accept="${accept}" disabled>
</label>
<p id="problem" role="alert"></p>
<ul id="files" aria-label="Uploads"></ul>
</main>
${viewScripts({ protocolVersion: appsProtocolVersion, maxBytes: limits.assetBytes } satisfies FilesViewConfig, viewBundles.files).markup}
</body>
</html>
`;

export function readFilesView(): ReadResourceResult {
  return { contents: [{ uri: filesViewUri, mimeType: mcpAppMimeType, text: filesViewHtml, _meta: filesViewMeta }] };
}
