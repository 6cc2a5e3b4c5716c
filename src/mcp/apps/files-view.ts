/**
 * The MCP Apps files view list_assets links to: the person chooses or drops files, each travels to the
 * service in ordered chunks through the app-only tools (begin_upload, upload_chunk, finish_upload) with its own progress bar and Cancel button, and never passes through the model. When a
 * file is stored the view tells the model what it needs through `ui/update-model-context`: asset ID,
 * name, type, size, a picture's pixel size and a small thumbnail as image content (drawn here on a
 * canvas), so the agent can place the asset and write its alt text. Built like the export view: a
 * static page with the few JSON-RPC lines of the shared bridge.
 */
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/ext-apps";
import type { ReadResourceResult } from "@modelcontextprotocol/server";
import { acceptedMediaTypes } from "../../authoring/media-types.ts";
import { limits } from "../../authoring/schemas/fields.ts";
import { mcpAppMimeType } from "./course-preview-view.ts";
import { viewBridgePrologue } from "./view-bridge.ts";

export const filesViewUri = "ui://course-authoring/files.html";

/** Resource `_meta.ui`: no external origins at all, and a framed look. */
export const filesViewMeta = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

const accept = [...new Set(acceptedMediaTypes.flatMap((type) => type.extensions.map((extension) => `.${extension}`)))].join(",");

const bridgeScript = `(() => {
  "use strict";
${viewBridgePrologue}

  const maxBytes = ${limits.assetBytes};
  const thumbnailPixels = 160;
  const $ = (id) => document.getElementById(id);
  let courseId = null;
  const uploaded = [];
  const thumbnails = new Map();

  const humanSize = (bytes) => bytes < 1024 ? bytes + " bytes" : bytes < 1048576 ? (bytes / 1024).toFixed(1) + " KB" : (bytes / 1048576).toFixed(1) + " MB";
  const element = (tag, text, className) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  };
  const toolText = (result) => ((result && Array.isArray(result.content) ? result.content : []).find((item) => item && item.type === "text") || {}).text || "";
  /** A tool's structuredContent, or an Error carrying the tool's words. */
  const callTool = async (name, args) => {
    const result = await request("tools/call", { name, arguments: args });
    if (!result || result.isError) {
      const text = toolText(result);
      let message = text;
      try { const parsed = JSON.parse(text.slice(text.indexOf("{"))); message = (parsed.error && parsed.error.message) || text; } catch {}
      throw new Error(message || name + " failed");
    }
    return result.structuredContent || {};
  };
  const base64Of = (bytes) => {
    let binary = "";
    for (let at = 0; at < bytes.length; at += 32768) binary += String.fromCharCode.apply(null, bytes.subarray(at, at + 32768));
    return btoa(binary);
  };

  /** A PNG thumbnail at most thumbnailPixels on its longer side, as base64, or null. */
  const thumbnailOf = async (file) => {
    try {
      const bitmap = await createImageBitmap(file);
      const scale = Math.min(1, thumbnailPixels / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      return canvas.toDataURL("image/png").split(",")[1] || null;
    } catch {
      return null;
    }
  };

  const tellModel = async () => {
    const facts = uploaded.map((item) => item.fact);
    const content = [{ type: "text", text: "Files the person uploaded to course " + courseId + " through the files view (asset IDs to use in blocks; write alt text from the thumbnails):\\n" + JSON.stringify(facts) }];
    for (const item of uploaded) {
      const data = thumbnails.get(item.fact.assetId);
      if (data) content.push({ type: "image", data, mimeType: "image/png" });
    }
    try {
      await request("ui/update-model-context", { content, structuredContent: { courseId, uploads: facts } });
    } catch {
      await request("ui/message", { role: "user", content: { type: "text", text: content[0].text } }).catch(() => {});
    }
  };

  const upload = async (file) => {
    const row = element("li", undefined, "file");
    const name = element("span", file.name, "name");
    const bar = element("progress");
    bar.max = Math.max(1, file.size);
    bar.value = 0;
    bar.setAttribute("aria-label", "Upload of " + file.name);
    const state = element("span", "Waiting…", "state");
    state.setAttribute("role", "status");
    const cancel = element("button", "Cancel");
    cancel.type = "button";
    cancel.setAttribute("aria-label", "Cancel " + file.name);
    row.append(name, bar, state, cancel);
    $("files").append(row);
    let cancelled = false;
    let uploadId = null;
    cancel.addEventListener("click", () => { cancelled = true; cancel.disabled = true; state.textContent = "Cancelling…"; });
    const done = (text, kind) => { state.textContent = text; row.dataset.state = kind; cancel.remove(); };
    if (file.size > maxBytes) return done("Not sent: " + humanSize(file.size) + " is more than the " + humanSize(maxBytes) + " a file may be.", "refused");
    if (file.size === 0) return done("Not sent: the file is empty.", "refused");
    try {
      const begun = await callTool("begin_upload", Object.assign({ courseId, filename: file.name, byteSize: file.size }, file.type ? { mediaType: file.type } : {}));
      uploadId = begun.uploadId;
      const bytes = new Uint8Array(await file.arrayBuffer());
      for (let index = 0; index * begun.chunkBytes < bytes.length; index++) {
        if (cancelled) {
          await callTool("finish_upload", { uploadId, cancel: true });
          return done("Cancelled; nothing was kept.", "cancelled");
        }
        const chunk = bytes.subarray(index * begun.chunkBytes, (index + 1) * begun.chunkBytes);
        const progress = await callTool("upload_chunk", { uploadId, index, dataBase64: base64Of(chunk) });
        bar.value = progress.bytesReceived;
        state.textContent = Math.round((100 * progress.bytesReceived) / file.size) + "%";
      }
      if (cancelled) {
        await callTool("finish_upload", { uploadId, cancel: true });
        return done("Cancelled; nothing was kept.", "cancelled");
      }
      const finished = await callTool("finish_upload", { uploadId });
      const fact = { assetId: finished.assetId, filename: file.name, mediaType: finished.mediaType, byteSize: finished.byteSize };
      const pictured = typeof finished.width === "number";
      if (pictured) { fact.width = finished.width; fact.height = finished.height; }
      if (/^image\\//.test(finished.mediaType)) {
        const data = await thumbnailOf(file);
        if (data) thumbnails.set(finished.assetId, data);
      }
      uploaded.push({ fact });
      done("Uploaded as " + finished.assetId + " (" + finished.mediaType + ", " + humanSize(finished.byteSize) + (pictured ? ", " + finished.width + "×" + finished.height + " px" : "") + ")", "done");
      await tellModel();
    } catch (error) {
      if (uploadId && !cancelled) await callTool("finish_upload", { uploadId, cancel: true }).catch(() => {});
      done("Not uploaded: " + String((error && error.message) || error), "refused");
    }
  };

  const sendFiles = async (files) => {
    if (!courseId) {
      $("problem").textContent = "The course is not known yet; wait for the assistant to open this view for a course.";
      return;
    }
    $("problem").textContent = "";
    await Promise.all(Array.from(files).map((file) => upload(file)));
  };

  const drop = $("drop");
  drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    if (event.dataTransfer && event.dataTransfer.files) sendFiles(event.dataTransfer.files);
  });
  $("choose").addEventListener("change", (event) => {
    sendFiles(event.target.files);
    event.target.value = "";
  });

  const setCourse = (id, title) => {
    if (typeof id !== "string") return;
    courseId = id;
    $("course").textContent = title ? "Files for “" + title + "”" : "Files for course " + id;
    $("choose").disabled = false;
  };

  function onMessage(event) {
    const message = fromHost(event);
    if (!message || settled(message)) return;
    if (message.method === "ui/notifications/tool-result") {
      const facts = (message.params && message.params.structuredContent) || {};
      setCourse(facts.courseId);
    } else if (message.method === "ui/notifications/tool-input") {
      const args = (message.params && message.params.arguments) || {};
      if (!courseId) setCourse(args.courseId);
    } else if (message.id !== undefined && (message.method === "ui/resource-teardown" || message.method === "ping")) send({ id: message.id, result: {} });
  }

  window.addEventListener("message", onMessage);
  request("ui/initialize", {
    protocolVersion: ${JSON.stringify(LATEST_PROTOCOL_VERSION)},
    appInfo: { name: "course-files", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline"] },
  }).then(
    () => {
      notify("ui/notifications/initialized", {});
      if (typeof ResizeObserver === "function") new ResizeObserver(reportSize).observe(document.documentElement);
      reportSize();
    },
    () => { $("problem").textContent = "This host did not start the files view. Ask the assistant to use upload_asset instead."; },
  );
})();`;

export const filesViewHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Upload files</title>
<style>
  :root { color-scheme: light dark; }
  body { margin: 0; padding: 1rem; font-family: var(--font-sans, system-ui, sans-serif); line-height: 1.5; color: var(--color-text-primary, CanvasText); background: var(--color-background-primary, Canvas); }
  h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
  #drop { display: block; border: 2px dashed var(--color-border-primary, #767676); border-radius: 0.5rem; padding: 1.5rem; text-align: center; cursor: pointer; }
  #drop.over { border-style: solid; background: var(--color-background-secondary, #e8f0fe); }
  #drop:focus-within { outline: 3px solid var(--color-ring-primary, #1d4ed8); outline-offset: 2px; }
  #choose { display: block; margin: 0.5rem auto 0; max-width: 100%; }
  #files { list-style: none; padding: 0; margin: 1rem 0 0; }
  .file { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.25rem 1rem; padding: 0.5rem 0; border-bottom: 1px solid var(--color-border-secondary, #c4c4c4); }
  .name { font-weight: 600; overflow-wrap: anywhere; }
  progress { grid-column: 1 / -1; width: 100%; }
  .state { overflow-wrap: anywhere; }
  .file[data-state="refused"] .state { color: var(--color-text-danger, #b3261e); font-weight: 600; }
  button { font: inherit; min-height: 2.75rem; padding: 0.25rem 1rem; cursor: pointer; }
  #problem { color: var(--color-text-danger, #b3261e); font-weight: 600; }
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
<script>${bridgeScript}</script>
</body>
</html>
`;

export function readFilesView(): ReadResourceResult {
  return { contents: [{ uri: filesViewUri, mimeType: mcpAppMimeType, text: filesViewHtml, _meta: filesViewMeta }] };
}
