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
 * Its script is built like the player (`src/player/views/course-preview.ts`, bundled by Bun.build): a
 * few lines of JSON-RPC over postMessage rather than the SDK's bundled App class (~330 kB with its
 * dependencies), so the page stays small enough for hosts to prefetch and review.
 */
import { appsProtocolVersion } from "./apps-protocol.ts";
import type { ViewConfig } from "../../page-contract/config.ts";
import { viewBundles } from "../../render/player-bundles.ts";
import { viewScripts } from "../../render/player-scripts.ts";
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";

export const coursePreviewViewUri = "ui://course-authoring/course-preview.html";
export const mcpAppMimeType = RESOURCE_MIME_TYPE;

/** Resource `_meta.ui`: no external origins at all (the preview inlines its assets), and a framed look. */
export const coursePreviewViewMeta = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

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
${viewScripts({ protocolVersion: appsProtocolVersion } satisfies ViewConfig, viewBundles.coursePreview).markup}
</body>
</html>
`;
