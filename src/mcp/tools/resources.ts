/**
 * Courses as MCP resources: `course://{courseId}` (the whole course as JSON, as get_course returns it),
 * the same per module, per lesson and per run of a lesson's blocks (`course://{courseId}/modules/{moduleId}`,
 * `course://{courseId}/lessons/{lessonId}`, `course://{courseId}/lessons/{lessonId}/blocks/{first}-{last}`),
 * `course://{courseId}/outline` (a Markdown outline) and the HTML previews of `preview-resources.ts`, every
 * answer within the result cap (a larger one is `limit_exceeded` naming narrower URIs that each fit),
 * plus the MCP Apps view preview_course links to. Listing shows each of the caller's courses as JSON and
 * outline (previews are offered by template, and the view through preview_course's `_meta`, which
 * keeps a page of listings small); completion offers the caller's course IDs. A course the caller may
 * not see reads as not found.
 */
import type { ReadResourceResult, Resource, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/server";
import { getCourse, listCourses } from "../../authoring/courses.ts";
import { CourseAuthoringError, notFound } from "../../authoring/errors.ts";
import { courseOutlineMarkdown } from "../../authoring/outline-markdown.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import type { CallerIdentity } from "../registry.ts";
import { courseUri, courseUriTemplates, matchCourseUri } from "../../course-uris.ts";
import type { ResourceProvider } from "../server.ts";
import { coursePreviewViewUri } from "../apps/course-preview-view.ts";
import { parsePreviewUri, previewResourceTemplates, readCoursePreviewView, readPlayerBundle, readPreviewResource } from "./preview-resources.ts";
import { boundedResult, measuredWithin, type NarrowerReads } from "../resource-bounds.ts";
import { selectLessonBlocks, type BlockRange } from "../../authoring/course-pages.ts";
import { jsonPartUri, narrowerParts, type PartReads } from "./course-parts.ts";
import { rememberedJson } from "../../authoring/document-json.ts";
import type { CourseDocument } from "../../authoring/schemas/course.ts";

export const courseResourceTemplates: ResourceTemplate[] = [
  {
    uriTemplate: courseUriTemplates.course,
    name: "course",
    title: "Course (JSON)",
    description: "A whole course — fields, objectives, modules, lessons and blocks — as JSON, exactly as get_course returns it.",
    mimeType: "application/json",
  },
  {
    uriTemplate: courseUriTemplates.module,
    name: "course-module",
    title: "Module (JSON)",
    description: "One module of a course with its lessons and blocks, as get_course { moduleIds } returns it; for a course too large to read whole.",
    mimeType: "application/json",
  },
  {
    uriTemplate: courseUriTemplates.lesson,
    name: "course-lesson",
    title: "Lesson (JSON)",
    description: "One lesson of a course with its blocks, inside its module, as get_course { lessonIds } returns it.",
    mimeType: "application/json",
  },
  {
    uriTemplate: courseUriTemplates.lessonBlocks,
    name: "course-lesson-blocks",
    title: "Blocks of a lesson (JSON)",
    description: "Blocks first to last (positions from 1, both included) of one lesson, inside its module, as JSON; for a lesson too large to read whole.",
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


interface CourseJsonTarget {
  courseId: string;
  moduleId?: string;
  lessonId?: string;
  blocks?: BlockRange;
}

function jsonAnswer(uri: string, document: CourseDocument): ReadResourceResult {
  return { contents: [{ uri, mimeType: "application/json", text: rememberedJson(document)?.text ?? JSON.stringify(document) }] };
}

/** Where to read a course, module, lesson or run of blocks too large to send: narrower parts, each within the cap. */
async function narrowerJson(course: CourseDocument, target: CourseJsonTarget, limit: number): Promise<NarrowerReads> {
  const reads: PartReads = {
    uri: (part) => jsonPartUri(course.id, part),
    fits: async (uri, document) => measuredWithin(jsonAnswer(uri, document), limit).fits,
  };
  const { uris, overCap } = await narrowerParts(course, target, reads);
  const pagedRead = target.lessonId ? `get_course { courseId: "${course.id}", lessonIds: ["${target.lessonId}"] }` : `get_course { courseId: "${course.id}" }`;
  return {
    how: "in these parts, each within the cap",
    uris,
    overCap,
    templates: [courseUriTemplates.module, courseUriTemplates.lesson, courseUriTemplates.lessonBlocks],
    otherwise: `no narrower resource fits; read it with ${pagedRead}, which pages it with nextCursor`,
  };
}

function courseJsonTarget(uri: string): CourseJsonTarget | null {
  const blocks = matchCourseUri("lessonBlocks", uri);
  if (blocks?.courseId && blocks.lessonId && blocks.first && blocks.last) {
    return { courseId: blocks.courseId, lessonId: blocks.lessonId, blocks: { first: Number(blocks.first), last: Number(blocks.last) } };
  }
  const module = matchCourseUri("module", uri);
  if (module?.courseId && module.moduleId) return { courseId: module.courseId, moduleId: module.moduleId };
  const lesson = matchCourseUri("lesson", uri);
  if (lesson?.courseId && lesson.lessonId) return { courseId: lesson.courseId, lessonId: lesson.lessonId };
  const course = matchCourseUri("course", uri);
  return course?.courseId ? { courseId: course.courseId } : null;
}

/** Reads a course resource; no answer is larger than `limit` bytes (`MCP_RESULT_MAX_BYTES`). */
export async function readCourseResource(services: AuthoringServices, user: CallerIdentity, uri: string, limit: number): Promise<ReadResourceResult> {
  if (uri === coursePreviewViewUri) return readCoursePreviewView();
  const playerBundle = readPlayerBundle(uri);
  if (playerBundle) return playerBundle;
  const preview = parsePreviewUri(uri);
  if (preview) return readPreviewResource(services, user, uri, preview, limit);
  const outline = matchCourseUri("outline", uri);
  if (outline?.courseId) {
    const courseId = outline.courseId;
    const course = await readAs(services, user, (session) => getCourse(session, { courseId, includeBlocks: true }));
    const result: ReadResourceResult = { contents: [{ uri, mimeType: "text/markdown", text: courseOutlineMarkdown(course) }] };
    // The outline has no narrower resource: the paged tool read is the way.
    return boundedResult(result, uri, limit, () => ({
      how: "",
      uris: [],
      templates: [],
      otherwise: `read the outline with get_course { courseId: "${courseId}", includeBlocks: false }, which pages it with nextCursor`,
    }));
  }
  const target = courseJsonTarget(uri);
  if (!target) throw notFound("course", uri);
  const selected = await readAs(services, user, (session) =>
    getCourse(session, {
      courseId: target.courseId,
      includeBlocks: true,
      ...(target.moduleId ? { moduleIds: [target.moduleId] } : {}),
      ...(target.lessonId ? { lessonIds: [target.lessonId] } : {}),
    }),
  );
  const course = target.lessonId && target.blocks ? selectLessonBlocks(selected, target.lessonId, target.blocks) : selected;
  return boundedResult(jsonAnswer(uri, course), uri, limit, () => narrowerJson(course, target, limit));
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

/** Module or lesson IDs of the course already chosen (the request's `context.arguments.courseId`) that start with what was typed. */
export async function completePartId(services: AuthoringServices, user: CallerIdentity, argument: "moduleId" | "lessonId", courseId: string | undefined, typed: string): Promise<string[]> {
  if (!courseId || !matchCourseUri("course", `course://${courseId}`)) return [];
  const course = await readAs(services, user, (session) => getCourse(session, { courseId, includeBlocks: false })).catch((error: unknown) => {
    if (error instanceof CourseAuthoringError) return null;
    throw error;
  });
  if (!course) return [];
  const ids = argument === "moduleId" ? course.modules.map((module) => module.id) : course.modules.flatMap((module) => module.lessons.map((lesson) => lesson.id));
  return ids.filter((id) => id.startsWith(typed.trim()));
}

export const authoringResources: ResourceProvider<AuthoringServices> = {
  templates: courseResourceTemplates,
  list: listCourseResources,
  read: (services, user, uri, context) => readCourseResource(services, user, uri, context.resultMaxBytes),
  complete: async (services, user, argument, value, resolved) => {
    if (argument === "courseId") return completeCourseId(services, user, value);
    if (argument === "moduleId" || argument === "lessonId") return completePartId(services, user, argument, resolved?.courseId, value);
    return [];
  },
};
