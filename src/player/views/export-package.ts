/**
 * The package export_course made, as the export view reads it from the tool's result and shows it: its
 * facts (file, format, size, expiry, notes) and the files inside; and its bytes, read through the host.
 */
import type { ContentItem, ReadResult, ToolResult, ViewBridge } from "./bridge.ts";
import { byId as $, element, humanSize } from "./view-dom.ts";

export interface PackageFacts {
  readonly uri: string;
  readonly fileName: string;
  readonly mimeType: string;
  readonly size: number | undefined;
  readonly format: unknown;
  readonly variant: unknown;
  readonly courseVersion: unknown;
  readonly expiresAt: unknown;
  readonly notices: readonly string[];
  readonly blob: string | null;
}

export const dateOf = (value: unknown): Date | null => {
  const when = typeof value === "string" ? new Date(value) : null;
  return when && !Number.isNaN(when.getTime()) ? when : null;
};

/** What the view needs from export_course's result: its structuredContent, else the link or embedded resource. */
export const packageOf = (result: ToolResult | undefined): PackageFacts | null => {
  const facts = result?.structuredContent ?? {};
  const content: readonly ContentItem[] = Array.isArray(result?.content) ? (result?.content ?? []) : [];
  const link: ContentItem = content.find((item) => item?.type === "resource_link") ?? {};
  const embedded = content.find((item) => item?.type === "resource" && typeof item.resource?.blob === "string")?.resource;
  const uri = facts.uri || link.uri || embedded?.uri;
  if (typeof uri !== "string") return null;
  const meta = embedded?._meta ?? {};
  return {
    uri,
    fileName: String(facts.fileName || link.name || meta.fileName || "course-package"),
    mimeType: String(facts.mimeType || link.mimeType || embedded?.mimeType || "application/octet-stream"),
    size: typeof facts.size === "number" ? facts.size : typeof link.size === "number" ? link.size : undefined,
    format: facts.format,
    variant: facts.variant,
    courseVersion: facts.courseVersion,
    expiresAt: facts.expiresAt,
    notices: Array.isArray(facts.notices) ? facts.notices.filter((notice): notice is string => typeof notice === "string") : [],
    blob: embedded?.blob ?? null,
  };
};

export const showFacts = (pkg: PackageFacts, formatName: (format: unknown) => string | undefined): void => {
  const facts = $("facts");
  facts.replaceChildren();
  const add = (term: string, value: unknown): void => {
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
  if (pkg.variant) add("Built from", (pkg.variant === "published" ? "the published course" : "the draft") + (pkg.courseVersion ? `, version ${String(pkg.courseVersion)}` : ""));
  const when = dateOf(pkg.expiresAt);
  if (when) {
    const time = element("time", when.toLocaleString());
    time.dateTime = String(pkg.expiresAt);
    add("Available until", time);
  }
  $("notices").replaceChildren(...pkg.notices.map((notice) => element("li", notice)));
  $("notes").hidden = pkg.notices.length === 0;
};

export const showFiles = (listing: { files?: unknown; count?: unknown }): void => {
  const files = (Array.isArray(listing.files) ? listing.files : []) as { path?: unknown; size?: unknown }[];
  const count = typeof listing.count === "number" ? listing.count : files.length;
  const list = $("files");
  list.replaceChildren(
    ...files.map((file) => {
      const item = element("li");
      item.append(element("span", String(file.path), "path"), " ", element("span", humanSize(Number(file.size) || 0), "size"));
      return item;
    }),
  );
  if (count > files.length) list.append(element("li", `and ${count - files.length} more`, "more"));
  $("files-summary").textContent = count === 1 ? "1 file in the package" : `${count} files in the package`;
  // A long list starts folded so the Download button and the notes stay in view.
  const box = $("files-box") as HTMLDetailsElement;
  box.open = count <= 12;
  box.hidden = false;
  $("files-note").hidden = true;
};

/** Bytes a base64 string decodes to, without decoding it. */
export const decodedSize = (base64: string): number => {
  const length = base64.replace(/\s/g, "").length;
  return (length / 4) * 3 - (base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0);
};

export const readPackage = async (pkg: PackageFacts, request: ViewBridge["request"]): Promise<string> => {
  if (pkg.blob) return pkg.blob;
  const read = await request<ReadResult>("resources/read", { uri: pkg.uri });
  const item = Array.isArray(read?.contents) ? read.contents.find((content) => typeof content?.blob === "string") : undefined;
  if (!item?.blob) throw new Error("the answer held no package bytes");
  return item.blob;
};
