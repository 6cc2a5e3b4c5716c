/**
 * What the files view sends with: the app-only tools called through the host (their errors in the
 * person's words), a file's bytes as base64, and what the model is told of the stored files (with a
 * picture's thumbnail).
 */
import type { ToolResult, ViewBridge } from "./bridge.ts";

/** A stored file as the model is told of it. */
export interface UploadFact {
  assetId: string;
  filename: string;
  mediaType: string;
  byteSize: number;
  width?: number;
  height?: number;
  /** Why a file sent to the course was kept in the person's library instead (a review copy coming back). */
  keptInLibrary?: string;
}

/** What finish_upload answered, as the model is told of it. */
export const uploadFactOf = (finished: Record<string, unknown>, filename: string): UploadFact => {
  const fact: UploadFact = { assetId: String(finished.assetId), filename, mediaType: String(finished.mediaType), byteSize: Number(finished.byteSize) };
  if (typeof finished.width === "number" && typeof finished.height === "number") {
    fact.width = finished.width;
    fact.height = finished.height;
  }
  if (typeof finished.keptInLibrary === "string") fact.keptInLibrary = finished.keptInLibrary;
  return fact;
};

/** The longer side of a thumbnail told to the model, in pixels. */
const thumbnailPixels = 160;

const toolText = (result: ToolResult | undefined): string => (Array.isArray(result?.content) ? (result?.content ?? []) : []).find((item) => item?.type === "text")?.text ?? "";
/** A tool's structuredContent, or an Error carrying the tool's words. */
export const toolCaller = (request: ViewBridge["request"]) => async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
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
export const base64Of = (bytes: Uint8Array): string => {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 32768) binary += String.fromCharCode(...bytes.subarray(at, at + 32768));
  return btoa(binary);
};

/** A PNG thumbnail at most thumbnailPixels on its longer side, as base64, or null. */
export const thumbnailOf = async (file: File): Promise<string | null> => {
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

/**
 * Tells the model the stored files (asset IDs, names, sizes, thumbnails) and, for a course, its version now,
 * the expectedVersion of the agent's next write; a host without model context gets a user message.
 */
export const tellModel = async (
  request: ViewBridge["request"],
  target: { courseId: string | null; version: number | undefined },
  uploaded: readonly UploadFact[],
  thumbnails: ReadonlyMap<string, string>,
): Promise<void> => {
  const { courseId, version } = target;
  const where =
    courseId === null
      ? "to their own library through the files view (no course changed; use the asset IDs in any course they can edit"
      : `to course ${courseId} through the files view (the course is now at version ${version ?? "?"}: use it as expectedVersion of your next write; asset IDs to use in blocks`;
  const text = `Files the person uploaded ${where}; write alt text from the thumbnails):\n${JSON.stringify(uploaded)}`;
  const content: Record<string, string>[] = [{ type: "text", text }];
  for (const fact of uploaded) {
    const data = thumbnails.get(fact.assetId);
    if (data) content.push({ type: "image", data, mimeType: "image/png" });
  }
  try {
    await request("ui/update-model-context", { content, structuredContent: { courseId, ...(version !== undefined ? { version } : {}), uploads: uploaded } });
  } catch {
    await request("ui/message", { role: "user", content: { type: "text", text } }).catch(() => undefined);
  }
};
