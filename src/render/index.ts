/**
 * The one HTML renderer for a whole course, shared by the preview resource and the SCORM, cmi5 and HTML
 * exports. It returns a complete, self-contained document (inline CSS and script under a per-render
 * CSP nonce); author and agent text is escaped, Markdown sanitised.
 */
import { renderCourseDocument } from "./page.ts";
import type { RenderableCourse, RenderOptions } from "./types.ts";

export { renderMarkdown } from "./markdown.ts";
export { courseEvents } from "./client/types.ts";
export type {
  CourseProgress,
  CourseRuntimeApi,
  CourseState,
  LessonSummary,
  LessonVisit,
  QuestionAnswer,
  QuizRecord,
  QuizScore,
} from "./client/types.ts";
export type { RenderableBlock, RenderableCourse, RenderableLesson, RenderableModule, RenderOptions } from "./types.ts";

/** Renders the course as one HTML document: contents, an introduction page, then one page per lesson. */
export function renderCourseHtml(course: RenderableCourse, options: RenderOptions): string {
  return renderCourseDocument(course, options);
}
