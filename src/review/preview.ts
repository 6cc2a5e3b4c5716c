/**
 * The course preview: the renderer's HTML for the draft or the published snapshot, with the assets
 * the course uses inlined as `data:` URLs, so the page is one self-contained document a host can show
 * without fetching anything. Assets past the size budget are left out (and named), which keeps a
 * preview of a video-heavy course from growing without bound; a caller with a byte cap renders it
 * bounded, inlining only what still fits. Loading happens inside the caller's
 * store transaction; rendering happens after it, in time slices, so a large preview holds neither the
 * store nor the event loop.
 */
import { getCourse, type CourseVariant } from "../authoring/courses.ts";
import type { AuthoringSession } from "../authoring/context.ts";
import { selectLessonBlocks, type BlockRange, type CourseSelection } from "../authoring/course-pages.ts";
import type { CourseDocument } from "../authoring/schemas/course.ts";
import { renderCourseHtmlSliced, renderCoursePiecesSliced, type RenderOptions } from "../render/index.ts";
import { toBase64, utf8Length } from "../bytes.ts";
import { themeAssetIds } from "../render/theme.ts";
import { clientFeaturesOf } from "../render/page.ts";
import { featureSetOf, type FeatureSet } from "../render/player-bundles.ts";

export const previewLimits = {
  /** Larger assets are not inlined. */
  assetBytes: 5 * 1024 * 1024,
  /** Inlined assets stop once this much has been inlined. */
  totalBytes: 20 * 1024 * 1024,
} as const;

export interface CoursePreview {
  course: CourseDocument;
  html: string;
  /** Assets referenced but not inlined (too large, over the budget, or missing). */
  omittedAssetIds: string[];
  /** The player bundle the page names instead of carrying it (it would not fit otherwise), or null when it carries it. */
  referencedPlayer: FeatureSet | null;
}

/** Shown in place of an asset that was not inlined: an empty resource rather than a request elsewhere. */
const omittedAssetUrl = "data:,";

/** The course (or the chosen modules or lessons of it) and the data URLs of the assets that may be inlined, read in one transaction. */
export interface LoadedPreview {
  course: CourseDocument;
  variant: CourseVariant;
  dataUrls: ReadonlyMap<string, string>;
  omittedAssetIds: string[];
}

export interface PreviewTarget extends CourseSelection {
  courseId: string;
  variant: CourseVariant;
  /** With one lesson chosen: only these of its blocks. */
  blocks?: BlockRange | undefined;
}

/** `budgetBytes` bounds the data URLs read: no asset whose data URL alone is larger is read at all. */
export async function loadCoursePreview(session: AuthoringSession, args: PreviewTarget, budgetBytes: number = previewLimits.totalBytes): Promise<LoadedPreview> {
  const selected = await getCourse(session, { courseId: args.courseId, includeBlocks: true, variant: args.variant, moduleIds: args.moduleIds, lessonIds: args.lessonIds });
  const lessonId = args.lessonIds?.[0];
  const course = args.blocks && lessonId ? selectLessonBlocks(selected, lessonId, args.blocks) : selected;
  const dataUrls = new Map<string, string>();
  const omittedAssetIds: string[] = [];
  const budget = Math.min(budgetBytes, previewLimits.totalBytes);
  let inlinedBytes = 0;
  for (const assetId of referencedAssetIds(course)) {
    const asset = await session.tx.findAsset(assetId);
    const urlBytes = asset ? dataUrlLength(asset.mediaType, asset.byteSize) : Number.POSITIVE_INFINITY;
    const fits = asset && asset.courseId === course.id && asset.byteSize <= previewLimits.assetBytes && inlinedBytes + urlBytes <= budget;
    const bytes = fits ? await session.tx.readAssetBytes(assetId) : undefined;
    if (!asset || !bytes) {
      omittedAssetIds.push(assetId);
      continue;
    }
    inlinedBytes += urlBytes;
    dataUrls.set(assetId, `data:${asset.mediaType};base64,${toBase64(bytes)}`);
  }
  return { course, variant: args.variant, dataUrls, omittedAssetIds };
}

function dataUrlLength(mediaType: string, byteSize: number): number {
  return `data:${mediaType};base64,`.length + Math.ceil(byteSize / 3) * 4;
}

/**
 * The page whose answer stays within `limit` as `answerSize` measures it: rendered once with a
 * placeholder per asset (stopping as soon as it is longer than `limit`), then as many loaded assets
 * inlined, in course order, as still fit; the others are left out and named. A page too large with
 * its player names the player's bundle instead of carrying it. Null when the page is too large even
 * without its assets and player.
 */
const placeholder = (assetId: string) => `"data:,asset-${assetId}"`;

/** How a preview page is rendered before its assets are inlined: each asset a placeholder URL. */
function previewOptions(course: CourseDocument, variant: CourseVariant, playerDelivery: "inline" | "referenced"): RenderOptions {
  return { mode: "preview", previewOf: { variant, version: course.version }, assetUrl: (assetId: string) => placeholder(assetId).slice(1, -1), playerDelivery };
}

export async function renderBoundedPreview(loaded: LoadedPreview, limit: number, answerSize: (html: string) => number): Promise<CoursePreview | null> {
  const render = async (playerDelivery: "inline" | "referenced"): Promise<{ html: string; size: number } | null> => {
    const html = await renderCourseHtmlSliced(loaded.course, previewOptions(loaded.course, loaded.variant, playerDelivery), limit);
    const size = html === null ? Number.POSITIVE_INFINITY : answerSize(html);
    return html !== null && size <= limit ? { html, size } : null;
  };
  // The page carries its player while it fits; past that it names the bundle, which the preview view holds once.
  const inline = await render("inline");
  const rendered = inline ?? (await render("referenced"));
  if (rendered === null) return null;
  const html = rendered.html;
  let size = rendered.size;
  const referencedPlayer = inline ? null : featureSetOf(clientFeaturesOf(loaded.course));
  const omitted = new Set(loaded.omittedAssetIds);
  let page = html;
  for (const assetId of referencedAssetIds(loaded.course)) {
    const parts = page.split(placeholder(assetId));
    const url = loaded.dataUrls.get(assetId);
    // Base64 data URLs need no escaping in JSON, so each use grows the answer by exactly this much.
    const growth = url === undefined ? 0 : (parts.length - 1) * (url.length + 2 - placeholder(assetId).length);
    const fits = url !== undefined && size + growth <= limit;
    if (fits) size += growth;
    else omitted.add(assetId);
    page = parts.join(`"${fits ? url : omittedAssetUrl}"`);
  }
  return { course: loaded.course, html: page, omittedAssetIds: [...omitted], referencedPlayer };
}

/** Bytes `text` takes inside a JSON string (quotes, backslashes and controls escaped), as UTF-8. */
function jsonStringBytes(text: string): number {
  return utf8Length(JSON.stringify(text)) - 2;
}

/** Not a block ID any course has (IDs are `blk_…`): marks the stand-ins of `pageShell`. */
const standInPrefix = "stand-in:";

/**
 * The part with each lesson's blocks replaced by one stand-in per block type: the page's shell (head,
 * contents, introduction, lesson openings and closings, the scripts and style sheets its block types
 * need) renders as the part would, without rendering a single block of it.
 */
function pageShell(document: CourseDocument): CourseDocument {
  const standIns = (blocks: readonly { type: string }[]) => [...new Set(blocks.map((block) => block.type))].map((type) => ({ id: `${standInPrefix}${type}`, type }));
  const modules = document.modules.map((module) => ({ ...module, lessons: module.lessons.map((lesson) => ({ ...lesson, blocks: standIns(lesson.blocks ?? []) })) }));
  return { ...document, modules } as CourseDocument;
}

/** Per block measured in the whole course rather than in the part: a longer question number or element ID. */
const blockMarginBytes = 32;

/**
 * Sizes of preview pages of parts of `course` without rendering each part: every block is rendered once
 * (in time slices) and measured; a part's page is its shell (`pageShell`, rendered without blocks) plus
 * the measured blocks it holds and a margin. The page is measured as the text of a JSON answer, with the
 * player named rather than carried, as the smallest page a bounded read would send.
 */
export async function previewSizer(course: CourseDocument, variant: CourseVariant): Promise<(document: CourseDocument) => Promise<number>> {
  const blockBytes = new Map<string, number>();
  for await (const piece of renderCoursePiecesSliced(course, previewOptions(course, variant, "referenced"))) {
    if (piece.blockId !== null) blockBytes.set(piece.blockId, jsonStringBytes(piece.text));
  }
  return async (document) => {
    let bytes = 0;
    for await (const piece of renderCoursePiecesSliced(pageShell(document), previewOptions(document, variant, "referenced"))) {
      if (!piece.blockId?.startsWith(standInPrefix)) bytes += jsonStringBytes(piece.text);
    }
    for (const module of document.modules) {
      for (const lesson of module.lessons) for (const block of lesson.blocks ?? []) bytes += (blockBytes.get(block.id) ?? Number.POSITIVE_INFINITY) + blockMarginBytes;
    }
    return bytes;
  };
}

/** Every asset ID the course's blocks use (media, captions, posters, pictures, attachments), once each, in course order. */
export function referencedAssetIds(course: CourseDocument): string[] {
  const ids = new Set<string>(themeAssetIds(course.theme));
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) {
        if (key === "assetId" && typeof child === "string") ids.add(child);
        else visit(child);
      }
    }
  };
  for (const module of course.modules) {
    for (const lesson of module.lessons) visit(lesson.blocks ?? []);
  }
  return [...ids];
}
