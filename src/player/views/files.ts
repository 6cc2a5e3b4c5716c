/**
 * The MCP Apps files view list_assets links to: the person chooses or drops files; each travels to the
 * service in ordered chunks through the app-only tools (begin_upload, upload_chunk, finish_upload) with
 * its own progress bar and Cancel button, never through the model. A stored file is told to the model
 * with `ui/update-model-context`: asset ID, name, type, size, a picture's pixel size and a small
 * thumbnail drawn on a canvas, so the agent can place the asset and write its alt text.
 */
import type { FilesViewConfig } from "../../page-contract/config.ts";
import { createViewBridge, type RpcMessage, type ToolResult, applyHostContext, type HostContext } from "./bridge.ts";

interface UploadFact {
  assetId: string;
  filename: string;
  mediaType: string;
  byteSize: number;
  width?: number;
  height?: number;
}

const thumbnailPixels = 160;

export function startFilesView(config: FilesViewConfig): void {
  const { request, notify, send, reportSize, fromHost, settled } = createViewBridge();
  const $ = (id: string): HTMLElement => document.getElementById(id) ?? document.createElement("div");
  let courseId: string | null = null;
  const uploaded: UploadFact[] = [];
  const thumbnails = new Map<string, string>();

  const humanSize = (bytes: number): string => (bytes < 1024 ? `${bytes} bytes` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1048576).toFixed(1)} MB`);
  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  };
  const toolText = (result: ToolResult | undefined): string => (Array.isArray(result?.content) ? (result?.content ?? []) : []).find((item) => item?.type === "text")?.text ?? "";
  /** A tool's structuredContent, or an Error carrying the tool's words. */
  const callTool = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const result = await request<ToolResult | undefined>("tools/call", { name, arguments: args });
    if (!result || result.isError) {
      const text = toolText(result);
      let message = text;
      try {
        const parsed = JSON.parse(text.slice(text.indexOf("{"))) as { error?: { message?: string } };
        message = parsed.error?.message || text;
      } catch {
        // Words, not JSON: they are the message.
      }
      // The person reads the rule, not the error code the agent gets ("invalid_arguments: ").
      throw new Error((message || `${name} failed`).replace(/^[a-z_]+: (?=\S)/, ""));
    }
    return result.structuredContent ?? {};
  };
  const base64Of = (bytes: Uint8Array): string => {
    let binary = "";
    for (let at = 0; at < bytes.length; at += 32768) binary += String.fromCharCode(...bytes.subarray(at, at + 32768));
    return btoa(binary);
  };

  /** A PNG thumbnail at most thumbnailPixels on its longer side, as base64, or null. */
  const thumbnailOf = async (file: File): Promise<string | null> => {
    try {
      const bitmap = await createImageBitmap(file);
      const scale = Math.min(1, thumbnailPixels / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      return canvas.toDataURL("image/png").split(",")[1] || null;
    } catch {
      return null;
    }
  };

  const tellModel = async (): Promise<void> => {
    const text = `Files the person uploaded to course ${courseId} through the files view (asset IDs to use in blocks; write alt text from the thumbnails):\n${JSON.stringify(uploaded)}`;
    const content: Record<string, string>[] = [{ type: "text", text }];
    for (const fact of uploaded) {
      const data = thumbnails.get(fact.assetId);
      if (data) content.push({ type: "image", data, mimeType: "image/png" });
    }
    try {
      await request("ui/update-model-context", { content, structuredContent: { courseId, uploads: uploaded } });
    } catch {
      await request("ui/message", { role: "user", content: { type: "text", text } }).catch(() => undefined);
    }
  };

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
      const begun = await callTool("begin_upload", { courseId, filename: file.name, byteSize: file.size, ...(file.type ? { mediaType: file.type } : {}) });
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
      const assetId = String(finished.assetId);
      const mediaType = String(finished.mediaType);
      const byteSize = Number(finished.byteSize);
      const fact: UploadFact = { assetId, filename: file.name, mediaType, byteSize };
      const pictured = typeof finished.width === "number" && typeof finished.height === "number";
      if (pictured) {
        fact.width = Number(finished.width);
        fact.height = Number(finished.height);
      }
      if (mediaType.startsWith("image/")) {
        const data = await thumbnailOf(file);
        if (data) thumbnails.set(assetId, data);
      }
      uploaded.push(fact);
      done(`Uploaded as ${assetId} (${mediaType}, ${humanSize(byteSize)}${pictured ? `, ${fact.width}×${fact.height} px` : ""})`, "done");
      await tellModel();
    } catch (error) {
      if (uploadId && !cancelled) await callTool("finish_upload", { uploadId, cancel: true }).catch(() => undefined);
      done(`Not uploaded: ${String((error as Error | null)?.message || error)}`, "refused");
    }
  };

  const sendFiles = async (files: FileList): Promise<void> => {
    if (!courseId) {
      $("problem").textContent = "The course is not known yet; wait for the assistant to open this view for a course.";
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
    if (typeof id !== "string") return;
    courseId = id;
    $("course").textContent = title ? `Files for “${String(title)}”` : `Files for course ${id}`;
    choose.disabled = false;
  };

  function onMessage(event: MessageEvent): void {
    const message: RpcMessage | null = fromHost(event);
    if (!message || settled(message)) return;
    if (message.method === "ui/notifications/tool-result") {
      setCourse((message.params as ToolResult | undefined)?.structuredContent?.courseId);
    } else if (message.method === "ui/notifications/tool-input") {
      const args = (message.params as { arguments?: { courseId?: unknown } } | undefined)?.arguments;
      if (!courseId) setCourse(args?.courseId);
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
