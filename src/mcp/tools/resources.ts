/**
 * Courses as MCP resources: `course://{courseId}` (the whole course as JSON, as get_course returns it),
 * `course://{courseId}/outline` (a Markdown outline) and the HTML previews of `preview-resources.ts`,
 * plus the MCP Apps view preview_course links to. Listing shows each of the caller's courses as JSON and
 * outline (previews are offered by template, and the view through preview_course's `_meta`, which
 * keeps a page of listings small); completion offers the caller's course IDs. A course the caller may
 * not see reads as not found.
 */
import type { ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { getCourse, listCourses } from "../../authoring/courses.ts";
import { notFound } from "../../authoring/errors.ts";
import { courseOutlineMarkdown } from "../../authoring/outline-markdown.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import type { CallerIdentity } from "../registry.ts";
import { courseUri, courseUriTemplates, matchCourseUri } from "../../course-uris.ts";
import type { ResourceProvider } from "../server.ts";
import { coursePreviewViewUri } from "../apps/course-preview-view.ts";
import { parsePreviewUri, previewResourceTemplates, readCoursePreviewView, readPreviewResource } from "./preview-resources.ts";

export const courseResourceTemplates: ResourceTemplate[] = [
  {
    uriTemplate: courseUriTemplates.course,
    name: "course",
    title: "Course (JSON)",
    description: "A whole course — fields, objectives, modules, lessons and blocks — as JSON, exactly as get_course returns it.",
    mimeType: "application/json",
  },
  {
    uriTemplate: courseUriTemplates.outline,
    name: "course-outline",
    title: "Course outline (Markdown)",
    description: "A readable Markdown outline of a course with module, lesson and block IDs.",
    mimeType: "text/markdown",
  },
  ...previewResourceTemplates,
];


export async function readCourseResource(services: AuthoringServices, user: CallerIdentity, uri: string): Promise<ReadResourceResult> {
  if (uri === coursePreviewViewUri) return readCoursePreviewView();
  const preview = parsePreviewUri(uri);
  if (preview) return readPreviewResource(services, user, uri, preview);
  const outline = matchCourseUri("outline", uri);
  const courseId = (outline ?? matchCourseUri("course", uri))?.courseId;
  if (!courseId) throw notFound("course", uri);
  const course = await readAs(services, user, (session) => getCourse(session, { courseId, includeBlocks: true }));
  if (outline) return { contents: [{ uri, mimeType: "text/markdown", text: courseOutlineMarkdown(course) }] };
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(course) }] };
}

export async function listCourseResources(
  services: AuthoringServices,
  user: CallerIdentity,
  cursor: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const page = await readAs(services, user, (session) => listCourses(session, { limit: 50, cursor }));
  const resources = page.courses.flatMap((course): Resource[] => [
    {
      uri: courseUri("course", { courseId: course.id }),
      name: course.title,
      title: course.title,
      description: `${course.status} course, version ${course.version}, your role: ${course.role}`,
      mimeType: "application/json",
    },
    { uri: courseUri("outline", { courseId: course.id }), name: `${course.title} (outline)`, title: `${course.title} — outline`, mimeType: "text/markdown" },
  ]);
  return page.nextCursor ? { resources, nextCursor: page.nextCursor } : { resources };
}

/** Course IDs of the caller's courses whose ID starts with, or whose title contains, what was typed. */
export async function completeCourseId(services: AuthoringServices, user: CallerIdentity, typed: string): Promise<string[]> {
  const text = typed.trim();
  const byTitle = text.startsWith("crs_") ? undefined : text || undefined;
  const page = await readAs(services, user, (session) => listCourses(session, { limit: 100, search: byTitle }));
  return page.courses.map((course) => course.id).filter((id) => byTitle !== undefined || id.startsWith(text));
}

export const authoringResources: ResourceProvider<AuthoringServices> = {
  templates: courseResourceTemplates,
  list: listCourseResources,
  read: (services, user, uri) => readCourseResource(services, user, uri),
  complete: async (services, user, argument, value) => (argument === "courseId" ? completeCourseId(services, user, value) : []),
};
