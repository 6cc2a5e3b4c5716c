/**
 * The `course://` resource URIs, written once as URI templates (RFC 6570) and matched with the MCP
 * SDK's `UriTemplate`: the course as JSON (whole, per module, per lesson, per run of a lesson's blocks),
 * its Markdown outline, its HTML previews (the same parts), its export packages and the list of files in each. Resource listings, links in tool results and the export store all build and parse them here.
 */
import { UriTemplate } from "@modelcontextprotocol/server";

export const courseUriTemplates = {
  course: "course://{courseId}",
  module: "course://{courseId}/modules/{moduleId}",
  lesson: "course://{courseId}/lessons/{lessonId}",
  outline: "course://{courseId}/outline",
  preview: "course://{courseId}/preview",
  publishedPreview: "course://{courseId}/preview/published",
  modulePreview: "course://{courseId}/modules/{moduleId}/preview",
  lessonPreview: "course://{courseId}/lessons/{lessonId}/preview",
  lessonBlocks: "course://{courseId}/lessons/{lessonId}/blocks/{first}-{last}",
  lessonBlocksPreview: "course://{courseId}/lessons/{lessonId}/blocks/{first}-{last}/preview",
  export: "course://{courseId}/exports/{exportId}",
  exportFiles: "course://{courseId}/exports/{exportId}/files",
} as const;

export type CourseUriKind = keyof typeof courseUriTemplates;

const compiled = Object.fromEntries(Object.entries(courseUriTemplates).map(([kind, template]) => [kind, new UriTemplate(template)])) as Record<CourseUriKind, UriTemplate>;

/** What each variable must look like; a URI whose values do not is no resource of ours. */
const variablePatterns: Record<string, RegExp> = {
  courseId: /^crs_[0-9a-z]{1,64}$/,
  moduleId: /^mod_[0-9a-z]{1,64}$/,
  lessonId: /^les_[0-9a-z]{1,64}$/,
  exportId: /^exp_[0-9a-z]{1,64}$/,
  // Block positions in a lesson, from 1.
  first: /^[1-9][0-9]{0,5}$/,
  last: /^[1-9][0-9]{0,5}$/,
};

export function courseUri(kind: CourseUriKind, variables: Record<string, string>): string {
  return compiled[kind].expand(variables);
}

/** The variables of `uri` when it is a `kind` URI with well-formed IDs, else null. */
export function matchCourseUri(kind: CourseUriKind, uri: string): Record<string, string> | null {
  const match = compiled[kind].match(uri);
  if (!match) return null;
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(match)) {
    if (typeof value !== "string" || !variablePatterns[name]?.test(value)) return null;
    variables[name] = value;
  }
  return variables;
}
