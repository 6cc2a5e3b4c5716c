/**
 * preview_course: shows a course the way learners will see it. Hosts with MCP Apps support render the
 * linked view (`_meta.ui.resourceUri`) inline, which loads the HTML preview resource; every other host
 * gets a text outline and a link to the same HTML resource.
 */
import * as v from "valibot";
import { RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import { notInCourse, selectCourseParts } from "../../authoring/course-pages.ts";
import { courseVariantField, getCourse } from "../../authoring/courses.ts";
import { courseUri } from "../../course-uris.ts";
import { courseOutlineMarkdown } from "../../authoring/outline-markdown.ts";
import { lessonKindField } from "../../authoring/schemas/course.ts";
import { idField } from "../../authoring/schemas/fields.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import { courseStatuses } from "../../store/types.ts";
import { coursePreviewViewUri } from "../apps/course-preview-view.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { previewUriOf } from "./preview-resources.ts";

export const previewCourseArguments = v.pipe(
  v.object({
    courseId: idField("course"),
    variant: courseVariantField,
    moduleId: v.optional(v.pipe(idField("module"), v.description("Preview only this module (a course too large to preview whole pages by module)."))),
    lessonId: v.optional(v.pipe(idField("lesson"), v.description("Preview only this lesson."))),
  }),
  v.check((args) => !(args.moduleId && args.lessonId), "give moduleId or lessonId, not both"),
);

const previewOutput = v.object({
  courseId: v.string(),
  variant: v.picklist(["draft", "published"]),
  title: v.string(),
  status: v.picklist(courseStatuses),
  version: v.number(),
  estimatedMinutes: v.pipe(v.number(), v.description("The course's length: lesson minutes (set or derived) summed.")),
  targetMinutes: v.nullable(v.number()),
  previewUri: v.pipe(v.string(), v.description("The HTML preview resource; read it with resources/read.")),
  scope: v.pipe(v.picklist(["course", "module", "lesson"]), v.description("What previewUri shows: the whole course, or the moduleId or lessonId asked for.")),
  modules: v.array(
    v.object({
      id: v.string(),
      title: v.string(),
      previewUri: v.pipe(v.string(), v.description("This module's preview, for a course too large to preview whole.")),
      lessons: v.array(
        v.object({ id: v.string(), title: v.string(), kind: lessonKindField, estimatedMinutes: v.number(), estimatedMinutesIsSet: v.boolean(), derivedMinutes: v.number(), blockCount: v.number() }),
      ),
    }),
  ),
});

const previewCourseTool = defineTool<AuthoringServices, typeof previewCourseArguments>({
  name: "preview_course",
  toolset: "review",
  title: "Preview course",
  description:
    "Shows the course as learners will see it, for the author to review: the draft (default) or, with variant: \"published\", the published snapshot. " +
    "Hosts that support MCP Apps display the rendered course inline; otherwise you get a Markdown outline and a link to the HTML preview resource " +
    "(course://{courseId}/preview). moduleId or lessonId previews one part; a course too large to show whole is shown module by module. " +
    "Returns the outline (modules, lessons, minutes), previewUri and each module's previewUri.",
  input: previewCourseArguments,
  output: previewOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  meta: { ui: { resourceUri: coursePreviewViewUri }, [RESOURCE_URI_META_KEY]: coursePreviewViewUri },
  async handler(args, { user, services }) {
    const whole = await readAs(services, user, (session) => getCourse(session, { courseId: args.courseId, includeBlocks: false, variant: args.variant }));
    const outlineCall = `get_course { courseId: "${whole.id}", includeBlocks: false }`;
    if (args.moduleId && !whole.modules.some((module) => module.id === args.moduleId)) throw notInCourse("module", args.moduleId, "moduleId", whole.id, outlineCall);
    if (args.lessonId && !whole.modules.some((module) => module.lessons.some((lesson) => lesson.id === args.lessonId))) {
      throw notInCourse("lesson", args.lessonId, "lessonId", whole.id, outlineCall);
    }
    const course = selectCourseParts(whole, { moduleIds: args.moduleId ? [args.moduleId] : [], lessonIds: args.lessonId ? [args.lessonId] : [] });
    const scope = args.moduleId ? "module" : args.lessonId ? "lesson" : "course";
    const partUri = (template: "modulePreview" | "lessonPreview", ids: Record<string, string>) =>
      `${courseUri(template, { courseId: whole.id, ...ids })}${args.variant === "published" ? "?variant=published" : ""}`;
    const previewUri = args.moduleId
      ? partUri("modulePreview", { moduleId: args.moduleId })
      : args.lessonId
        ? partUri("lessonPreview", { lessonId: args.lessonId })
        : previewUriOf(whole.id, args.variant);
    return {
      structuredContent: {
        courseId: course.id,
        variant: args.variant,
        title: course.title,
        status: course.status,
        version: course.version,
        estimatedMinutes: course.estimatedMinutes,
        targetMinutes: course.targetMinutes,
        previewUri,
        scope,
        modules: course.modules.map((module) => ({
          id: module.id,
          title: module.title,
          previewUri: partUri("modulePreview", { moduleId: module.id }),
          lessons: module.lessons.map((lesson) => ({
            id: lesson.id,
            title: lesson.title,
            kind: lesson.kind,
            estimatedMinutes: lesson.estimatedMinutes,
            estimatedMinutesIsSet: lesson.estimatedMinutesIsSet,
            derivedMinutes: lesson.derivedMinutes,
            blockCount: lesson.blockCount,
          })),
        })),
      },
      summary: `${courseOutlineMarkdown(course, args.variant)}\nHTML preview (${args.variant}, version ${course.version}): ${previewUri}`,
      content: [
        {
          type: "resource_link",
          uri: previewUri,
          name: `${course.title} (${args.variant} preview)`,
          mimeType: "text/html",
          description: "The course rendered as one self-contained HTML page.",
        },
      ],
    };
  },
});

export const previewTools: ToolDefinition<AuthoringServices>[] = [previewCourseTool];
