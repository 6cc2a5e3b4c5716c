/**
 * Course previews as MCP resources: `course://{courseId}/preview` (the draft) and
 * `course://{courseId}/preview/published` (the published snapshot; `?variant=published` works too),
 * each one self-contained HTML page; and the MCP Apps view `ui://course-authoring/course-preview.html`
 * that preview_course links to, served with the MCP App MIME type.
 */
import type { ReadResourceResult, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import type { CourseVariant } from "../../authoring/courses.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import { loadCoursePreview, renderLoadedPreview } from "../../review/preview.ts";
import { coursePreviewViewHtml, coursePreviewViewMeta, coursePreviewViewUri, mcpAppMimeType } from "../apps/course-preview-view.ts";
import { courseUri, courseUriTemplates, matchCourseUri } from "../../course-uris.ts";
import type { CallerIdentity } from "../registry.ts";

export const previewResourceTemplates: ResourceTemplate[] = [
  {
    uriTemplate: courseUriTemplates.preview,
    name: "course-preview",
    title: "Course preview (HTML)",
    description: "The draft course rendered as learners will see it: one self-contained HTML page with its images and media inlined.",
    mimeType: "text/html",
  },
  {
    uriTemplate: courseUriTemplates.publishedPreview,
    name: "course-preview-published",
    title: "Published course preview (HTML)",
    description: "The published snapshot rendered as learners get it (also course://{courseId}/preview?variant=published).",
    mimeType: "text/html",
  },
];

/** The preview a URI names; `?variant=draft|published` on the draft preview's URI picks the variant too. */
export function parsePreviewUri(uri: string): { courseId: string; variant: CourseVariant } | null {
  const [path = "", query] = uri.split("?", 2);
  const variantParam = query === undefined ? undefined : /^variant=(draft|published)$/.exec(query)?.[1];
  if (query !== undefined && !variantParam) return null;
  const published = matchCourseUri("publishedPreview", path);
  if (published?.courseId) return variantParam === "draft" ? null : { courseId: published.courseId, variant: "published" };
  const draft = matchCourseUri("preview", path);
  return draft?.courseId ? { courseId: draft.courseId, variant: variantParam === "published" ? "published" : "draft" } : null;
}

export function previewUriOf(courseId: string, variant: CourseVariant): string {
  return courseUri(variant === "published" ? "publishedPreview" : "preview", { courseId });
}

export async function readPreviewResource(services: AuthoringServices, user: CallerIdentity, uri: string, target: { courseId: string; variant: CourseVariant }): Promise<ReadResourceResult> {
  // Rendered after the read transaction ends, so a large course never holds the store while it renders.
  const preview = await renderLoadedPreview(await readAs(services, user, (session) => loadCoursePreview(session, target)));
  return {
    contents: [
      {
        uri,
        mimeType: "text/html",
        text: preview.html,
        _meta: { courseId: preview.course.id, variant: target.variant, version: preview.course.version, omittedAssetIds: preview.omittedAssetIds },
      },
    ],
  };
}

export function readCoursePreviewView(): ReadResourceResult {
  return { contents: [{ uri: coursePreviewViewUri, mimeType: mcpAppMimeType, text: coursePreviewViewHtml, _meta: coursePreviewViewMeta }] };
}
