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
import type { CallerIdentity } from "../registry.ts";

export const previewResourceTemplates: ResourceTemplate[] = [
  {
    uriTemplate: "course://{courseId}/preview",
    name: "course-preview",
    title: "Course preview (HTML)",
    description: "The draft course rendered as learners will see it: one self-contained HTML page with its images and media inlined.",
    mimeType: "text/html",
  },
  {
    uriTemplate: "course://{courseId}/preview/published",
    name: "course-preview-published",
    title: "Published course preview (HTML)",
    description: "The published snapshot rendered as learners get it (also course://{courseId}/preview?variant=published).",
    mimeType: "text/html",
  },
];

const previewUri = /^course:\/\/(crs_[0-9a-z]{1,64})\/preview(\/published)?(?:\?variant=(draft|published))?$/;

export function parsePreviewUri(uri: string): { courseId: string; variant: CourseVariant } | null {
  const match = previewUri.exec(uri);
  if (!match?.[1] || (match[2] && match[3] === "draft")) return null;
  return { courseId: match[1], variant: match[2] || match[3] === "published" ? "published" : "draft" };
}

export function previewUriOf(courseId: string, variant: CourseVariant): string {
  return `course://${courseId}/preview${variant === "published" ? "/published" : ""}`;
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
