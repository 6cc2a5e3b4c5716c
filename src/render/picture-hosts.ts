/**
 * Which hosts a course's pages may load pictures from (issue 28, issue 39): only those an author named
 * in a picture field (an image block's URL, a lesson banner, a video poster, the picture of a choice,
 * scene, step, event or labelled graphic). A video, audio or captions URL names a media host, not a
 * picture host, and a picture written into Markdown text declares nothing, so a tracking pixel added to a
 * text (or slipped into a translation) is never requested: the write that adds it is refused, the page's
 * `img-src` does not list its host, and the renderer shows its alt text instead.
 */
import type { RenderableBlock, RenderableCourse } from "./types.ts";
import { markdownTokens } from "./markdown.ts";
import { remotePictureOrigin } from "./urls.ts";

/** Most image origins a page's policy names; a course with more loads the rest as uploaded assets. */
export const maxImageOrigins = 50;

/** Keys whose object holds a picture source (`{ url }` or `{ assetId }`). */
const pictureKeys = new Set(["image", "poster"]);

/** Keys of the Markdown fields of blocks (`code` is plain text under a Markdown-sized limit). */
export const markdownKeys = new Set(["markdown", "text", "prompt", "explanation", "feedback", "back", "transcript", "summary", "description"]);

function addOrigin(origins: Set<string>, url: unknown): void {
  if (typeof url !== "string" || origins.size >= maxImageOrigins) return;
  const origin = remotePictureOrigin(url);
  if (origin !== null && origin !== "//") origins.add(origin);
}

/** Adds the picture origins `value` (a block, or part of one) declares, no deeper than the schema nests. */
function visitPictures(value: unknown, origins: Set<string>, depth: number): void {
  if (depth > 12 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value) visitPictures(item, origins, depth + 1);
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    if (pictureKeys.has(key) && child !== null && typeof child === "object") addOrigin(origins, (child as { url?: unknown }).url);
    visitPictures(child, origins, depth + 1);
  }
}

/** The picture origins one block declares. */
export function blockPictureOrigins(block: RenderableBlock | { type: string }, origins: Set<string> = new Set()): Set<string> {
  if (block.type === "image") addOrigin(origins, (block as { url?: unknown }).url);
  visitPictures(block, origins, 0);
  return origins;
}

/** The http(s) origins the course declares for pictures, at most `maxImageOrigins`. */
export function declaredImageOrigins(course: RenderableCourse): string[] {
  const origins = new Set<string>();
  for (const module of course.modules) {
    for (const lesson of module.lessons) {
      addOrigin(origins, lesson.banner?.url);
      for (const block of lesson.blocks ?? []) blockPictureOrigins(block, origins);
    }
  }
  return [...origins];
}

/** A Markdown field of a block: its path (`cards[3].back`) and text. */
export interface MarkdownText {
  readonly field: string;
  readonly text: string;
}

/** Every Markdown field of `block` (by key, at any depth), with its path from `field`. */
export function markdownTextsOf(block: object, field = ""): MarkdownText[] {
  const found: MarkdownText[] = [];
  const visit = (value: unknown, path: string, depth: number): void => {
    if (depth > 12 || value === null || typeof value !== "object") return;
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, index) => [`[${index}]`, item]) : Object.entries(value).map(([key, child]) => [key, child]);
    for (const [key, child] of entries) {
      const childPath = key.startsWith("[") ? `${path}${key}` : path ? `${path}.${key}` : key;
      if (typeof child === "string" && markdownKeys.has(key)) found.push({ field: childPath, text: child });
      else visit(child, childPath, depth + 1);
    }
  };
  visit(block, field, 0);
  return found;
}

/** The remote pictures a Markdown text shows, each with the origin it would be fetched from. */
export function remotePicturesOf(markdown: string): { url: string; origin: string }[] {
  if (!markdown.includes("![")) return [];
  const pictures: { url: string; origin: string }[] = [];
  for (const token of markdownTokens(markdown)) {
    for (const child of token.children ?? []) {
      if (child.type !== "image") continue;
      const url = String(child.attrGet("src") ?? "");
      const origin = remotePictureOrigin(url);
      if (origin !== null) pictures.push({ url, origin });
    }
  }
  return pictures;
}
