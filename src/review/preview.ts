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
import { ClassName } from "../page-contract/markup-names.ts";

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
  /** The data URL's length of every asset that may be inlined (read or not), for sizing narrower previews. */
  dataUrlBytes: ReadonlyMap<string, number>;
}

export interface PreviewTarget extends CourseSelection {
  courseId: string;
  variant: CourseVariant;
  /** With one lesson chosen: only these of its blocks. */
  blocks?: BlockRange | undefined;
}

/**
 * `budgetBytes` bounds the data URLs read: the smallest pictures first, so as many as possible fit, and
 * no asset whose data URL alone is larger is read at all.
 */
export async function loadCoursePreview(session: AuthoringSession, args: PreviewTarget, budgetBytes: number = previewLimits.totalBytes): Promise<LoadedPreview> {
  const selected = await getCourse(session, { courseId: args.courseId, includeBlocks: true, variant: args.variant, moduleIds: args.moduleIds, lessonIds: args.lessonIds });
  const lessonId = args.lessonIds?.[0];
  const part = args.blocks && lessonId ? selectLessonBlocks(selected, lessonId, args.blocks) : selected;
  const course = await withModulePositions(session, args, part);
  const dataUrls = new Map<string, string>();
  const omittedAssetIds: string[] = [];
  const dataUrlBytes = new Map<string, number>();
  const mediaTypes = new Map<string, string>();
  for (const assetId of referencedAssetIds(course)) {
    const asset = await session.tx.findAsset(assetId);
    // Every asset the course's content uses is read with it (authoring/asset-access.ts), wherever it was uploaded.
    if (asset && inlinable(asset.mediaType, asset.byteSize)) {
      dataUrlBytes.set(assetId, dataUrlLength(asset.mediaType, asset.byteSize));
      mediaTypes.set(assetId, asset.mediaType);
    } else omittedAssetIds.push(assetId);
  }
  const budget = Math.min(budgetBytes, previewLimits.totalBytes);
  let inlinedBytes = 0;
  for (const [assetId, urlBytes] of [...dataUrlBytes].sort((a, b) => a[1] - b[1])) {
    const bytes = inlinedBytes + urlBytes <= budget ? await session.tx.readAssetBytes(assetId) : undefined;
    if (!bytes) {
      omittedAssetIds.push(assetId);
      continue;
    }
    inlinedBytes += urlBytes;
    dataUrls.set(assetId, `data:${mediaTypes.get(assetId)};base64,${toBase64(bytes)}`);
  }
  return { course, variant: args.variant, dataUrls, omittedAssetIds, dataUrlBytes };
}

/**
 * SVG is refused at upload (it can carry scripts), but a page that runs the player must never carry one
 * that slipped in some other way, so it is not inlined whatever its size.
 */
function inlinable(mediaType: string, byteSize: number): boolean {
  return byteSize <= previewLimits.assetBytes && !mediaType.toLowerCase().startsWith("image/svg");
}

/**
 * The part with each module numbered by its place in the whole course, so a preview of module 3's lesson
 * says "Module 3", not "Module 1" (the part's own length, `estimatedMinutes`, is already the course's).
 */
async function withModulePositions(session: AuthoringSession, args: PreviewTarget, part: CourseDocument): Promise<CourseDocument> {
  const whole = (args.moduleIds?.length ?? 0) + (args.lessonIds?.length ?? 0) === 0 ? part : await getCourse(session, { courseId: args.courseId, includeBlocks: false, variant: args.variant });
  const positions = new Map(whole.modules.map((module, index) => [module.id, index + 1]));
  return { ...part, modules: part.modules.map((module) => ({ ...module, position: positions.get(module.id) ?? null })) };
}

function dataUrlLength(mediaType: string, byteSize: number): number {
  return `data:${mediaType};base64,`.length + Math.ceil(byteSize / 3) * 4;
}

/**
 * The page whose answer stays within `limit` as `answerSize` measures it: rendered once with a
 * placeholder per asset (stopping as soon as it is longer than `limit`), then as many loaded assets
 * inlined, smallest first, as still fit; the others are left out and named, each picture shown as its
 * alt text. A page whose pictures do not all fit beside its player names the player's bundle instead of
 * carrying it (the preview view holds the bundle once), so the room goes to the pictures; so does a
 * page too large with its player at all. Null when the page is too large even without its assets and player.
 */
const placeholder = (assetId: string) => `"data:,asset-${assetId}"`;

/** How a preview page is rendered before its assets are inlined: each asset a placeholder URL. */
function previewOptions(course: CourseDocument, variant: CourseVariant, playerDelivery: "inline" | "referenced"): RenderOptions {
  return { mode: "preview", previewOf: { variant, version: course.version }, assetUrl: (assetId: string) => placeholder(assetId).slice(1, -1), playerDelivery };
}

interface RenderedPage {
  html: string;
  size: number;
}

export async function renderBoundedPreview(loaded: LoadedPreview, limit: number, answerSize: (html: string) => number): Promise<CoursePreview | null> {
  const render = async (playerDelivery: "inline" | "referenced"): Promise<RenderedPage | null> => {
    const html = await renderCourseHtmlSliced(loaded.course, previewOptions(loaded.course, loaded.variant, playerDelivery), limit);
    const size = html === null ? Number.POSITIVE_INFINITY : answerSize(html);
    return html !== null && size <= limit ? { html, size } : null;
  };
  const inline = await render("inline");
  const allFit = inline !== null && chosenAssets(inline, loaded.dataUrls, limit).size === loaded.dataUrls.size;
  const referenced = allFit ? null : await render("referenced");
  const rendered = allFit ? inline : (referenced ?? inline);
  if (rendered === null) return null;
  const referencedPlayer = rendered === inline ? null : featureSetOf(clientFeaturesOf(loaded.course));
  const chosen = chosenAssets(rendered, loaded.dataUrls, limit);
  const omitted = new Set(loaded.omittedAssetIds);
  let page = rendered.html;
  for (const assetId of referencedAssetIds(loaded.course)) {
    const url = chosen.get(assetId);
    if (url === undefined) {
      omitted.add(assetId);
      page = withAltTextFor(page, assetId);
    }
    page = page.split(placeholder(assetId)).join(`"${url ?? omittedAssetUrl}"`);
  }
  return { course: loaded.course, html: page, omittedAssetIds: [...omitted], referencedPlayer };
}

/** How much inlining `url` for `assetId` grows the answer: base64 data URLs need no escaping in JSON, so exactly this much per use. */
function growthOf(page: string, assetId: string, url: string): number {
  return (page.split(placeholder(assetId)).length - 1) * (url.length + 2 - placeholder(assetId).length);
}

/** The loaded assets inlined into `rendered`: the smallest first, which fits the most pictures, while the answer stays within `limit`. */
function chosenAssets(rendered: RenderedPage, dataUrls: ReadonlyMap<string, string>, limit: number): Map<string, string> {
  const bySize = [...dataUrls].map(([assetId, url]) => ({ assetId, url, growth: growthOf(rendered.html, assetId, url) })).sort((a, b) => a.growth - b.growth);
  const chosen = new Map<string, string>();
  let size = rendered.size;
  for (const { assetId, url, growth } of bySize) {
    if (size + growth > limit) break;
    size += growth;
    chosen.set(assetId, url);
  }
  return chosen;
}

/**
 * Each picture of `assetId` left out of the page replaced by its alt text, so the reader sees what it
 * shows rather than a broken image; decorative pictures (empty alt) stay as empty images. The renderer
 * escapes every attribute value, so neither `>` nor `"` can occur inside the tag matched here, and the
 * text is always shorter than the tag it replaces (which names the asset), so the page only shrinks.
 */
function withAltTextFor(page: string, assetId: string): string {
  const tag = new RegExp(`<img\\b[^>]*?src=${escapeRegExp(placeholder(assetId))}[^>]*>`, "g");
  return page.replace(tag, (image) => {
    const alt = /\salt="([^"]+)"/.exec(image)?.[1];
    return alt === undefined ? image : `<span class="${ClassName.omittedPicture}">${alt}</span>`;
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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
