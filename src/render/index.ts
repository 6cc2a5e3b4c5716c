/**
 * The one HTML renderer for a whole course, shared by the preview resource and the SCORM, cmi5 and HTML
 * exports. It returns a complete, self-contained document (inline CSS and script under a per-render
 * CSP nonce), as one string or streamed piece by piece; author and agent text is escaped, Markdown
 * sanitised.
 */
import { declaredImageOrigins, renderCourseDocumentChunks } from "./page.ts";
import { flatString } from "./html.ts";
import { timeSlicer } from "./time-slicer.ts";
import type { RenderableCourse, RenderOptions } from "./types.ts";
import { inInterfaceLanguage } from "./ui-text.ts";

export { renderMarkdown } from "./markdown.ts";
export { declaredImageOrigins } from "./page.ts";
export { fallbackStrings, interfaceLanguage } from "./ui-text.ts";
export { courseEvents } from "../page-contract/course-runtime.ts";
export type {
  CourseProgress,
  CourseRuntimeApi,
  CourseState,
  LessonSummary,
  LessonVisit,
  QuestionAnswer,
  QuizRecord,
  QuizScore,
} from "../page-contract/course-runtime.ts";
export type { RenderableBlock, RenderableCourse, RenderableLesson, RenderableModule, RenderOptions } from "./types.ts";

/** Renders the course as one HTML document: contents, an introduction page, then one page per lesson. */
export function renderCourseHtml(course: RenderableCourse, options: RenderOptions): string {
  return Array.from(localisedChunks(course, withImageOrigins(course, options))).join("");
}

/** A whole-document render reads every block anyway, so it finds the declared picture hosts itself. */
function withImageOrigins(course: RenderableCourse, options: RenderOptions): RenderOptions {
  return options.imageOrigins ? options : { ...options, imageOrigins: declaredImageOrigins(course) };
}

/**
 * The same document as `renderCourseHtml`, as consecutive pieces (the start, one per lesson, the end)
 * rendered lazily as they are read, so a large course is never held as one string. Its head is written
 * before any block is read: the caller names the picture hosts (`options.imageOrigins`).
 */
export function renderCourseHtmlChunks(course: RenderableCourse, options: RenderOptions): Iterable<string> {
  return localisedChunks(course, options);
}

/** The player's own strings (buttons, headings, announcements) in the course's language where it has them. */
function localisedChunks(course: RenderableCourse, options: RenderOptions): Iterable<string> {
  return inInterfaceLanguage(course.language ?? "en", renderCourseDocumentChunks(course, options));
}

/**
 * `renderCourseHtml` without holding the event loop: the pieces are rendered one at a time (a block
 * at most) and the render yields whenever a time slice is used up, so a large preview never stalls
 * other requests. The pieces are joined once, at the end. With `maxLength`, rendering stops as soon
 * as the document is longer (null), so a page too large to send is never rendered whole.
 */
export async function renderCourseHtmlSliced(course: RenderableCourse, options: RenderOptions, maxLength = Number.POSITIVE_INFINITY): Promise<string | null> {
  const pause = timeSlicer();
  const pieces: string[] = [];
  let length = 0;
  for (const piece of localisedChunks(course, withImageOrigins(course, options))) {
    const flat = flatString(piece);
    length += flat.length;
    if (length > maxLength) return null;
    pieces.push(flat);
    await pause();
  }
  return pieces.join("");
}
