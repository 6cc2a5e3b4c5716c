/**
 * Course previews as MCP resources: `course://{courseId}/preview` (the draft) and
 * `course://{courseId}/preview/published` (the published snapshot; `?variant=published` works too),
 * each one self-contained HTML page; the same per module and per lesson
 * (`course://{courseId}/modules/{moduleId}/preview`, `course://{courseId}/lessons/{lessonId}/preview`);
 * and the MCP Apps view `ui://course-authoring/course-preview.html` that preview_course links to,
 * served with the MCP App MIME type. A page is bounded by the result cap: assets are inlined while they
 * fit, and a page too large even without them is `limit_exceeded` naming the narrower previews.
 */
import type { ReadResourceResult, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/server";
import type { CourseVariant } from "../../authoring/courses.ts";
import type { CourseDocument } from "../../authoring/schemas/course.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import { loadCoursePreview, renderBoundedPreview, type PreviewTarget } from "../../review/preview.ts";
import { coursePreviewViewHtml, coursePreviewViewMeta, coursePreviewViewUri, mcpAppMimeType } from "../apps/course-preview-view.ts";
import { courseUri, courseUriTemplates, matchCourseUri } from "../../course-uris.ts";
import type { CallerIdentity } from "../registry.ts";
import { courseBundles, type FeatureSet } from "../../render/player-bundles.ts";
import { embeddableScript } from "../../render/player-scripts.ts";
import { boundedResult, measuredWithin, resourceTooLarge, type NarrowerReads } from "../resource-bounds.ts";

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
  return null;
}

export function previewUriOf(courseId: string, variant: CourseVariant): string {
  return courseUri(variant === "published" ? "publishedPreview" : "preview", { courseId });
}

function withVariant(uri: string, variant: CourseVariant): string {
  return variant === "published" ? `${uri}?variant=published` : uri;
}

/** Where to read a preview too large to send: its modules, its lessons, or (for one lesson) its content as JSON. */
function narrowerPreviews(target: PreviewUri, course: CourseDocument): NarrowerReads {
  const { courseId, variant } = target;
  if (target.lessonId) {
    return {
      how: "",
      uris: [],
      templates: [courseUriTemplates.lesson],
      otherwise: `one lesson is the narrowest preview; read its content as JSON (${courseUri("lesson", { courseId, lessonId: target.lessonId })}) or with get_course { courseId: "${courseId}", lessonIds: ["${target.lessonId}"] }, which pages it`,
    };
  }
  if (target.moduleId) {
    const lessons = course.modules.flatMap((module) => module.lessons);
    return { how: "one lesson at a time", uris: lessons.map((lesson) => withVariant(courseUri("lessonPreview", { courseId, lessonId: lesson.id }), variant)), templates: [courseUriTemplates.lessonPreview] };
  }
  return {
    how: "one module at a time (or one lesson at a time)",
    uris: course.modules.map((module) => withVariant(courseUri("modulePreview", { courseId, moduleId: module.id }), variant)),
    templates: [courseUriTemplates.modulePreview, courseUriTemplates.lessonPreview],
  };
}

export async function readPreviewResource(services: AuthoringServices, user: CallerIdentity, uri: string, target: PreviewUri, limit: number): Promise<ReadResourceResult> {
  // Rendered after the read transaction ends, so a large course never holds the store while it renders.
  const loaded = await readAs(services, user, (session) => loadCoursePreview(session, target, limit));
  const answer = (html: string, omittedAssetIds: readonly string[], player: FeatureSet | null): ReadResourceResult => ({
    contents: [
      {
        uri,
        mimeType: "text/html",
        text: html,
        _meta: { courseId: loaded.course.id, variant: target.variant, version: loaded.course.version, omittedAssetIds, ...(player ? { playerUri: playerBundleUri(player) } : {}) },
      },
    ],
  });
  // Measured with every asset named as omitted and the player named, the most its _meta can hold.
  const preview = await renderBoundedPreview(loaded, limit, (html) => measuredWithin(answer(html, [...loaded.dataUrls.keys(), ...loaded.omittedAssetIds], "course-interactions"), Number.POSITIVE_INFINITY).size);
  if (!preview) throw resourceTooLarge(uri, null, limit, narrowerPreviews(target, loaded.course));
  return boundedResult(answer(preview.html, preview.omittedAssetIds, preview.referencedPlayer), uri, limit, () => narrowerPreviews(target, loaded.course));
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
