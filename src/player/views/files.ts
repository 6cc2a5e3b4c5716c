/**
 * The MCP Apps files view list_assets links to: the person chooses or drops files; each travels to the
 * service in ordered chunks through the app-only tools (begin_upload, upload_chunk, finish_upload) with
 * its own progress bar and Cancel button, never through the model. A stored file is told to the model
 * with `ui/update-model-context`: asset ID, name, type, size, a picture's pixel size and a small
 * thumbnail drawn on a canvas, so the agent can place the asset and write its alt text, and the course's
 * new version, so the agent's next write does not conflict. Opened without a course (list_assets with no
 * courseId), the files go to the person's own library, usable in every course they can edit.
 */
import type { FilesViewConfig } from "../../page-contract/config.ts";
import { createViewBridge, type RpcMessage, type ToolResult, applyHostContext, type HostContext } from "./bridge.ts";
import { base64Of, tellModel, thumbnailOf, toolCaller, uploadFactOf, type UploadFact } from "./upload-tools.ts";
import { byId as $, element, humanSize } from "./view-dom.ts";

export function startFilesView(config: FilesViewConfig): void {
  const { request, notify, send, reportSize, fromHost, settled } = createViewBridge();
  /** undefined until the host says; null: the person's library; otherwise the course. */
  let courseId: string | null | undefined = undefined;
  let version: number | undefined;
  const uploaded: UploadFact[] = [];
  const thumbnails = new Map<string, string>();

  const callTool = toolCaller(request);

  const upload = async (file: File): Promise<void> => {
    const row = element("li", undefined, "file");
    const name = element("span", file.name, "name");
    const bar = element("progress");
    bar.max = Math.max(1, file.size);
    bar.value = 0;
    bar.setAttribute("aria-label", `Upload of ${file.name}`);
    const state = element("span", "Waiting…", "state");
    state.setAttribute("role", "status");
    const cancel = element("button", "Cancel");
    cancel.type = "button";
    cancel.setAttribute("aria-label", `Cancel ${file.name}`);
    row.append(name, bar, state, cancel);
    $("files").append(row);
    let cancelled = false;
    let uploadId: unknown = null;
    // aria-disabled, not disabled: a disabled button loses focus, and the keyboard user with it.
    cancel.addEventListener("click", () => {
      if (cancelled) return;
      cancelled = true;
      cancel.setAttribute("aria-disabled", "true");
      state.textContent = "Cancelling…";
    });
    const done = (text: string, kind: string): void => {
      state.textContent = text;
      row.dataset.state = kind;
      // Removing the focused Cancel would drop focus to the page; the file picker is where a keyboard user goes next.
      const hadFocus = document.activeElement === cancel;
      cancel.remove();
      if (hadFocus) $("choose").focus();
    };
    if (file.size > config.maxBytes) return done(`Not sent: ${humanSize(file.size)} is more than the ${humanSize(config.maxBytes)} a file may be.`, "refused");
    if (file.size === 0) return done("Not sent: the file is empty.", "refused");
    try {
      const begun = await callTool("begin_upload", { ...(courseId ? { courseId } : {}), filename: file.name, byteSize: file.size, ...(file.type ? { mediaType: file.type } : {}) });
      uploadId = begun.uploadId;
      const chunkBytes = Number(begun.chunkBytes);
      const bytes = new Uint8Array(await file.arrayBuffer());
      for (let index = 0; index * chunkBytes < bytes.length; index++) {
        if (cancelled) {
          await callTool("finish_upload", { uploadId, cancel: true });
          return done("Cancelled; nothing was kept.", "cancelled");
        }
        const chunk = bytes.subarray(index * chunkBytes, (index + 1) * chunkBytes);
        const progress = await callTool("upload_chunk", { uploadId, index, dataBase64: base64Of(chunk) });
        bar.value = Number(progress.bytesReceived);
        state.textContent = `${Math.round((100 * Number(progress.bytesReceived)) / file.size)}%`;
      }
      if (cancelled) {
        await callTool("finish_upload", { uploadId, cancel: true });
        return done("Cancelled; nothing was kept.", "cancelled");
      }
      const finished = await callTool("finish_upload", { uploadId });
      if (typeof finished.version === "number") version = Math.max(version ?? 0, finished.version);
      const fact = uploadFactOf(finished, file.name);
      const { assetId, mediaType, byteSize } = fact;
      const pictured = fact.width !== undefined;
      if (mediaType.startsWith("image/")) {
        const data = await thumbnailOf(file);
        if (data) thumbnails.set(assetId, data);
      }
      uploaded.push(fact);
      const kept = fact.keptInLibrary ? ` to your library: ${fact.keptInLibrary}` : "";
      done(`Uploaded as ${assetId} (${mediaType}, ${humanSize(byteSize)}${pictured ? `, ${fact.width}×${fact.height} px` : ""})${kept}`, "done");
      await tellModel(request, { courseId: courseId ?? null, version }, uploaded, thumbnails);
    } catch (error) {
      if (uploadId && !cancelled) await callTool("finish_upload", { uploadId, cancel: true }).catch(() => undefined);
      done(`Not uploaded: ${String((error as Error | null)?.message || error)}`, "refused");
    }
  };

  const sendFiles = async (files: FileList): Promise<void> => {
    if (courseId === undefined) {
      $("problem").textContent = "Where the files go is not known yet; wait for the assistant to open this view.";
      return;
    }
    $("problem").textContent = "";
    await Promise.all(Array.from(files).map((file) => upload(file)));
  };

  const drop = $("drop");
  drop.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    if (event.dataTransfer?.files) void sendFiles(event.dataTransfer.files);
  });
  const choose = $("choose") as HTMLInputElement;
  choose.addEventListener("change", () => {
    if (choose.files) void sendFiles(choose.files);
    choose.value = "";
  });

  const setCourse = (id: unknown, title?: unknown): void => {
    if (id === null) {
      courseId = null;
      $("course").textContent = "Your library";
    } else if (typeof id === "string") {
      courseId = id;
      $("course").textContent = title ? `Files for “${String(title)}”` : `Files for course ${id}`;
    } else return;
    choose.disabled = false;
  };

  function onMessage(event: MessageEvent): void {
    const message: RpcMessage | null = fromHost(event);
    if (!message || settled(message)) return;
    if (message.method === "ui/notifications/tool-result") {
      setCourse((message.params as ToolResult | undefined)?.structuredContent?.courseId);
    } else if (message.method === "ui/notifications/tool-input") {
      const args = (message.params as { arguments?: { courseId?: unknown } } | undefined)?.arguments;
      // list_assets without a course opens the person's library.
      if (courseId === undefined) setCourse(args?.courseId ?? null);
    } else if (message.method === "ui/notifications/host-context-changed") applyHostContext(message.params as HostContext | undefined);
    else if (message.id !== undefined && (message.method === "ui/resource-teardown" || message.method === "ping")) send({ id: message.id, result: {} });
  }

  window.addEventListener("message", onMessage);
  request<{ hostContext?: HostContext } | undefined>("ui/initialize", {
    protocolVersion: config.protocolVersion,
    appInfo: { name: "course-files", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline"] },
  }).then(
    (answer) => {
      applyHostContext(answer?.hostContext);
      notify("ui/notifications/initialized", {});
      if (typeof ResizeObserver === "function") new ResizeObserver(reportSize).observe(document.documentElement);
      reportSize();
    },
    () => {
      $("problem").textContent = "This host did not start the files view. Ask the assistant to use upload_asset instead.";
    },
  );
}
