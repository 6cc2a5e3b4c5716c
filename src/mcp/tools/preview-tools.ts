/**
 * preview_course: shows a course the way learners will see it. Hosts with MCP Apps support render the
 * linked view (`_meta.ui.resourceUri`) inline, which loads the HTML preview resource; every other host
 * gets a text outline and a link to the same HTML resource.
 */
import * as v from "valibot";
import { RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import { courseVariantField, getCourse } from "../../authoring/courses.ts";
import { courseOutlineMarkdown } from "../../authoring/outline-markdown.ts";
import { lessonKindField } from "../../authoring/schemas/course.ts";
import { idField } from "../../authoring/schemas/fields.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import { courseStatuses } from "../../store/types.ts";
import { coursePreviewViewUri } from "../apps/course-preview-view.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { previewUriOf } from "./preview-resources.ts";

export const previewCourseArguments = v.object({ courseId: idField("course"), variant: courseVariantField });

const previewOutput = v.object({
  courseId: v.string(),
  variant: v.picklist(["draft", "published"]),
  title: v.string(),
  status: v.picklist(courseStatuses),
  version: v.number(),
  estimatedMinutes: v.pipe(v.number(), v.description("The course's length: lesson minutes (set or derived) summed.")),
  targetMinutes: v.nullable(v.number()),
  previewUri: v.pipe(v.string(), v.description("The HTML preview resource; read it with resources/read.")),
  modules: v.array(
    v.object({
      id: v.string(),
      title: v.string(),
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
    "(course://{courseId}/preview). Returns the outline (modules, lessons, minutes) and previewUri.",
  input: previewCourseArguments,
  output: previewOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  meta: { ui: { resourceUri: coursePreviewViewUri }, [RESOURCE_URI_META_KEY]: coursePreviewViewUri },
  async handler(args, { user, services }) {
    const course = await readAs(services, user, (session) => getCourse(session, { courseId: args.courseId, includeBlocks: false, variant: args.variant }));
    const previewUri = previewUriOf(course.id, args.variant);
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
        modules: course.modules.map((module) => ({
          id: module.id,
          title: module.title,
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
