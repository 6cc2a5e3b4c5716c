/**
 * Course previews as MCP resources: `course://{courseId}/preview` (the draft) and
 * `course://{courseId}/preview/published` (the published snapshot; `?variant=published` works too),
 * each one self-contained HTML page; the same per module and per lesson
 * (`course://{courseId}/modules/{moduleId}/preview`, `course://{courseId}/lessons/{lessonId}/preview`) and
 * per run of a lesson's blocks (`course://{courseId}/lessons/{lessonId}/blocks/{first}-{last}/preview`);
 * and the MCP Apps view `ui://course-authoring/course-preview.html` that preview_course links to,
 * served with the MCP App MIME type. A page is bounded by the result cap: assets are inlined while they
 * fit, and a page too large even without them is `limit_exceeded` naming narrower previews that each fit.
 */
import type { ReadResourceResult, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/server";
import type { CourseVariant } from "../../authoring/courses.ts";
import type { CourseDocument } from "../../authoring/schemas/course.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import { loadCoursePreview, previewSizer, referencedAssetIds, renderBoundedPreview, type PreviewTarget } from "../../review/preview.ts";
import { coursePreviewViewHtml, coursePreviewViewMeta, coursePreviewViewUri, mcpAppMimeType } from "../apps/course-preview-view.ts";
import { courseUri, courseUriTemplates, matchCourseUri } from "../../course-uris.ts";
import type { CallerIdentity } from "../registry.ts";
import { courseBundles, type FeatureSet } from "../../render/player-bundles.ts";
import { embeddableScript } from "../../render/player-scripts.ts";
import { boundedResult, measuredWithin, resourceTooLarge, type NarrowerReads } from "../resource-bounds.ts";
import { narrowerParts, previewPartUri, type PartReads } from "./course-parts.ts";

export const previewResourceTemplates: ResourceTemplate[] = [
  {
    uriTemplate: courseUriTemplates.preview,
    name: "course-preview",
    title: "Course preview (HTML)",
    description: "The draft course rendered as learners will see it: one self-contained HTML page with its images and media inlined while they fit the result cap.",
    mimeType: "text/html",
  },
  {
    uriTemplate: courseUriTemplates.publishedPreview,
    name: "course-preview-published",
    title: "Published course preview (HTML)",
    description: "The published snapshot rendered as learners get it (also course://{courseId}/preview?variant=published).",
    mimeType: "text/html",
  },
  {
    uriTemplate: courseUriTemplates.modulePreview,
    name: "module-preview",
    title: "Module preview (HTML)",
    description: "One module of the draft rendered as learners will see it, for a course too large to preview whole (?variant=published for the snapshot).",
    mimeType: "text/html",
  },
  {
    uriTemplate: courseUriTemplates.lessonPreview,
    name: "lesson-preview",
    title: "Lesson preview (HTML)",
    description: "One lesson of the draft rendered as learners will see it, for a module too large to preview whole (?variant=published for the snapshot).",
    mimeType: "text/html",
  },
  {
    uriTemplate: courseUriTemplates.lessonBlocksPreview,
    name: "lesson-blocks-preview",
    title: "Blocks of a lesson (HTML preview)",
    description: "Blocks first to last (positions from 1, both included) of one lesson rendered, for a lesson too large to preview whole (?variant=published for the snapshot).",
    mimeType: "text/html",
  },
];

export interface PreviewUri extends PreviewTarget {
  moduleId?: string;
  lessonId?: string;
}

/** The preview a URI names; `?variant=draft|published` picks the variant (the published URI is published only). */
export function parsePreviewUri(uri: string): PreviewUri | null {
  const [path = "", query] = uri.split("?", 2);
  const variantParam = query === undefined ? undefined : /^variant=(draft|published)$/.exec(query)?.[1];
  if (query !== undefined && !variantParam) return null;
  const published = matchCourseUri("publishedPreview", path);
  if (published?.courseId) return variantParam === "draft" ? null : { courseId: published.courseId, variant: "published" };
  const variant: CourseVariant = variantParam === "published" ? "published" : "draft";
  const draft = matchCourseUri("preview", path);
  if (draft?.courseId) return { courseId: draft.courseId, variant };
  const module = matchCourseUri("modulePreview", path);
  if (module?.courseId && module.moduleId) return { courseId: module.courseId, variant, moduleId: module.moduleId, moduleIds: [module.moduleId] };
  const lesson = matchCourseUri("lessonPreview", path);
  if (lesson?.courseId && lesson.lessonId) return { courseId: lesson.courseId, variant, lessonId: lesson.lessonId, lessonIds: [lesson.lessonId] };
  const blocks = matchCourseUri("lessonBlocksPreview", path);
  if (blocks?.courseId && blocks.lessonId && blocks.first && blocks.last) {
    return { courseId: blocks.courseId, variant, lessonId: blocks.lessonId, lessonIds: [blocks.lessonId], blocks: { first: Number(blocks.first), last: Number(blocks.last) } };
  }
  return null;
}

export function previewUriOf(courseId: string, variant: CourseVariant): string {
  return courseUri(variant === "published" ? "publishedPreview" : "preview", { courseId });
}

/** The answer to a preview read: the page, and what a host needs to know about it. */
function previewAnswer(uri: string, html: string, course: CourseDocument, variant: CourseVariant, omittedAssetIds: readonly string[], player: FeatureSet | null): ReadResourceResult {
  return {
    contents: [
      { uri, mimeType: "text/html", text: html, _meta: { courseId: course.id, variant, version: course.version, omittedAssetIds, ...(player ? { playerUri: playerBundleUri(player) } : {}) } },
    ],
  };
}

/**
 * Where to read a preview too large to send: previews of its modules, lessons or runs of blocks, each
 * checked to fit by a size estimate (`previewSizer`: every block rendered once, each part's page shell
 * without blocks), never by rendering each candidate, which for a wide lesson meant rendering its blocks
 * again and again. Measured with every asset named as omitted and the player named, plus the data URLs
 * of the part's pictures (`pictureBytes`), so a part is chosen small enough to show its pictures too.
 */
async function narrowerPreviews(target: PreviewUri, course: CourseDocument, limit: number, dataUrlBytes: ReadonlyMap<string, number>): Promise<NarrowerReads> {
  const { courseId, variant } = target;
  const pageBytes = await previewSizer(course, variant);
  const reads: PartReads = {
    uri: (part) => previewPartUri(courseId, part, variant === "published"),
    fits: async (uri, document) => {
      const answer = previewAnswer(uri, "", document, variant, referencedAssetIds(document), "course-interactions");
      const page = measuredWithin(answer, Number.POSITIVE_INFINITY).size + (await pageBytes(document));
      return page + pictureBytes(document, dataUrlBytes, limit - page) <= limit;
    },
  };
  const { uris, overCap } = await narrowerParts(course, target, reads);
  const lessonHint = target.lessonId
    ? `read its content as JSON (${courseUri("lesson", { courseId, lessonId: target.lessonId })}) or with get_course { courseId: "${courseId}", lessonIds: ["${target.lessonId}"] }, which pages it`
    : `read its content with get_course { courseId: "${courseId}" }, which pages it`;
  return {
    how: "in these previews, each within the cap",
    uris,
    overCap,
    templates: [courseUriTemplates.modulePreview, courseUriTemplates.lessonPreview, courseUriTemplates.lessonBlocksPreview],
    otherwise: `no narrower preview fits; ${lessonHint}`,
  };
}

/**
 * The bytes the part's pictures add once inlined. A picture that could not fit beside the page anyway
 * is left out of it (the page names it instead), and so are the pictures of a single block, which
 * cannot be split further: its page shows what fits and names the rest.
 */
function pictureBytes(document: CourseDocument, dataUrlBytes: ReadonlyMap<string, number>, room: number): number {
  const blocks = document.modules.flatMap((module) => module.lessons.flatMap((lesson) => lesson.blocks ?? []));
  if (blocks.length <= 1) return 0;
  const sizes = referencedAssetIds(document).map((assetId) => dataUrlBytes.get(assetId) ?? 0);
  return sizes.filter((size) => size <= room).reduce((sum, size) => sum + size, 0);
}

export async function readPreviewResource(services: AuthoringServices, user: CallerIdentity, uri: string, target: PreviewUri, limit: number): Promise<ReadResourceResult> {
  // Rendered after the read transaction ends, so a large course never holds the store while it renders.
  const loaded = await readAs(services, user, (session) => loadCoursePreview(session, target, limit));
  const answer = (html: string, omittedAssetIds: readonly string[], player: FeatureSet | null): ReadResourceResult => previewAnswer(uri, html, loaded.course, target.variant, omittedAssetIds, player);
  // Measured with every asset named as omitted and the player named, the most its _meta can hold.
  const preview = await renderBoundedPreview(loaded, limit, (html) => measuredWithin(answer(html, [...loaded.dataUrls.keys(), ...loaded.omittedAssetIds], "course-interactions"), Number.POSITIVE_INFINITY).size);
  if (!preview) throw resourceTooLarge(uri, null, limit, await narrowerPreviews(target, loaded.course, limit, loaded.dataUrlBytes));
  return boundedResult(answer(preview.html, preview.omittedAssetIds, preview.referencedPlayer), uri, limit, () => narrowerPreviews(target, loaded.course, limit, loaded.dataUrlBytes));
}

/**
 * The player's course bundles as resources of the preview view: a preview too large to carry its player
 * names the bundle (`data-player-bundle`, and `_meta.playerUri`), and the view reads it here once.
 */
const playerBundlePrefix = "ui://course-authoring/player/";

export function playerBundleUri(featureSet: FeatureSet): string {
  return `${playerBundlePrefix}${featureSet}.js`;
}

export function readPlayerBundle(uri: string): ReadResourceResult | null {
  if (!uri.startsWith(playerBundlePrefix) || !uri.endsWith(".js")) return null;
  const name = uri.slice(playerBundlePrefix.length, -".js".length);
  if (!Object.hasOwn(courseBundles, name)) return null;
  return { contents: [{ uri, mimeType: "text/javascript", text: embeddableScript(courseBundles[name as FeatureSet]) }] };
}

export function readCoursePreviewView(): ReadResourceResult {
  return { contents: [{ uri: coursePreviewViewUri, mimeType: mcpAppMimeType, text: coursePreviewViewHtml, _meta: coursePreviewViewMeta }] };
}
