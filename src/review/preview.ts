/**
 * The course preview: the renderer's HTML for the draft or the published snapshot, with the assets
 * the course uses inlined as `data:` URLs, so the page is one self-contained document a host can show
 * without fetching anything. Assets past the size budget are left out (and named), which keeps a
 * preview of a video-heavy course from growing without bound. Loading happens inside the caller's
 * store transaction; rendering happens after it, in time slices, so a large preview holds neither the
 * store nor the event loop.
 */
import { getCourse, type CourseVariant } from "../authoring/courses.ts";
import type { AuthoringSession } from "../authoring/context.ts";
import type { CourseDocument } from "../authoring/schemas/course.ts";
import { renderCourseHtmlSliced } from "../render/index.ts";

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
}

/** Shown in place of an asset that was not inlined: an empty resource rather than a request elsewhere. */
const omittedAssetUrl = "data:,";

/** The course and its inlined assets, read in one transaction; `renderLoadedPreview` makes the page. */
export interface LoadedPreview {
  course: CourseDocument;
  dataUrls: ReadonlyMap<string, string>;
  omittedAssetIds: string[];
}

export async function loadCoursePreview(session: AuthoringSession, args: { courseId: string; variant: CourseVariant }): Promise<LoadedPreview> {
  const course = await getCourse(session, { courseId: args.courseId, includeBlocks: true, variant: args.variant });
  const dataUrls = new Map<string, string>();
  const omittedAssetIds: string[] = [];
  let inlinedBytes = 0;
  for (const assetId of referencedAssetIds(course)) {
    const asset = await session.tx.findAsset(assetId);
    const fits = asset && asset.courseId === course.id && asset.byteSize <= previewLimits.assetBytes && inlinedBytes + asset.byteSize <= previewLimits.totalBytes;
    const bytes = fits ? await session.tx.readAssetBytes(assetId) : undefined;
    if (!asset || !bytes) {
      omittedAssetIds.push(assetId);
      continue;
    }
    inlinedBytes += bytes.byteLength;
    dataUrls.set(assetId, `data:${asset.mediaType};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")}`);
  }
  return { course, dataUrls, omittedAssetIds };
}

export async function renderLoadedPreview(loaded: LoadedPreview): Promise<CoursePreview> {
  const { course, dataUrls, omittedAssetIds } = loaded;
  const html = await renderCourseHtmlSliced(course, { mode: "preview", assetUrl: (assetId) => dataUrls.get(assetId) ?? omittedAssetUrl });
  return { course, html, omittedAssetIds };
}

/** Every asset ID the course's blocks use (media, captions, posters, pictures, attachments), once each, in course order. */
export function referencedAssetIds(course: CourseDocument): string[] {
  const ids = new Set<string>();
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
