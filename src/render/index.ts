/**
 * The one HTML renderer for a whole course, shared by the preview resource and the SCORM, cmi5 and HTML
 * exports. It returns a complete, self-contained document (inline CSS and script under a per-render
 * CSP nonce), as one string or streamed piece by piece; author and agent text is escaped, Markdown
 * sanitised.
 */
import { declaredImageOrigins, renderCourseDocumentChunks } from "./page.ts";
import { flatString } from "./html.ts";
import { inMarkdownScope, prerenderMarkdown, type MarkdownRequest, type MarkdownScope } from "./markdown.ts";
import { timeSlicer, type SlicePause } from "../codecs/event-loop.ts";
import type { RenderableCourse, RenderOptions } from "./types.ts";
import { inInterfaceLanguage } from "./ui-text.ts";

export { renderMarkdown, withPictureOrigins } from "./markdown.ts";
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
  return Array.from(piecesOnly(documentPieces(course, withImageOrigins(course, options)))).join("");
}

/** A whole-document render reads every block anyway, so it finds the declared picture hosts itself. */
function withImageOrigins(course: RenderableCourse, options: RenderOptions): RenderOptions {
  return options.imageOrigins ? options : { ...options, imageOrigins: declaredImageOrigins(course) };
}

/** The page's pieces and the Markdown they ask for, with the same scope as the page's `img-src`. */
function documentPieces(course: RenderableCourse, options: RenderOptions, scope: MarkdownScope = newScope(options)): Iterable<string | MarkdownRequest> {
  return inMarkdownScope(scope, inInterfaceLanguage(course.language ?? "en", renderCourseDocumentChunks(course, options)));
}

function newScope(options: RenderOptions): MarkdownScope {
  return { pictureOrigins: new Set((options.imageOrigins ?? []).map((origin) => origin.trim().toLowerCase())), prerendered: new Map() };
}

/** The pieces, each rendering its Markdown at once (no requests honoured). */
function* piecesOnly(pieces: Iterable<string | MarkdownRequest>): Generator<string> {
  for (const piece of pieces) if (typeof piece === "string") yield piece;
}

/** A piece of the page, and the block it renders (null for the page's other pieces). */
export interface CoursePiece {
  readonly text: string;
  readonly blockId: string | null;
}

/**
 * The pieces in time slices: the Markdown a piece asks for is rendered first, yielding to the event loop
 * whenever a slice is used up (between top-level Markdown blocks, inline runs and tokens), and the loop
 * gets a turn between pieces too, so no block, however many large fields it has, holds the loop.
 */
async function* slicedPieces(course: RenderableCourse, options: RenderOptions, pause: SlicePause = timeSlicer()): AsyncGenerator<CoursePiece> {
  const scope = newScope(options);
  let blockId: string | null = null;
  for (const piece of documentPieces(course, options, scope)) {
    if (typeof piece !== "string") {
      if (piece.prerender.length > 0) await prerenderMarkdown(scope, piece.prerender, pause);
      blockId = piece.blockId ?? null;
      continue;
    }
    yield { text: piece, blockId };
    blockId = null;
    const waiting = pause();
    if (waiting) await waiting;
  }
}

/** `renderCourseHtmlChunks` read in time slices, each piece with the block it renders (for measuring a page by its blocks). */
export function renderCoursePiecesSliced(course: RenderableCourse, options: RenderOptions): AsyncIterable<CoursePiece> {
  return slicedPieces(course, withImageOrigins(course, options));
}

async function* slicedTexts(course: RenderableCourse, options: RenderOptions): AsyncGenerator<string> {
  for await (const piece of slicedPieces(course, options)) yield piece.text;
}

/** The document's pieces, read either way: at once (`for…of`) or in time slices (`for await…of`, which exports use). */
export interface CoursePieces extends Iterable<string>, AsyncIterable<string> {}

/**
 * The same document as `renderCourseHtml`, as consecutive pieces (the start, one per lesson's opening,
 * one per block, each lesson's closing, the end) rendered lazily as they are read, so a large course is
 * never held as one string. Its head is written before any block is read: the caller names the picture
 * hosts (`options.imageOrigins`). Read asynchronously, the pieces are rendered in time slices.
 */
export function renderCourseHtmlChunks(course: RenderableCourse, options: RenderOptions): CoursePieces {
  return {
    [Symbol.iterator]: () => piecesOnly(documentPieces(course, options)),
    [Symbol.asyncIterator]: () => slicedTexts(course, options),
  };
}

/**
 * `renderCourseHtml` without holding the event loop: rendered in time slices (`renderCourseHtmlChunks`
 * read asynchronously). The pieces are joined once, at the end. With `maxLength`, rendering stops as
 * soon as the document is longer (null), so a page too large to send is never rendered whole.
 */
export async function renderCourseHtmlSliced(course: RenderableCourse, options: RenderOptions, maxLength = Number.POSITIVE_INFINITY): Promise<string | null> {
  const pause = timeSlicer();
  const pieces: string[] = [];
  let length = 0;
  for await (const { text: piece } of slicedPieces(course, withImageOrigins(course, options), pause)) {
    length += piece.length;
    if (length > maxLength) return null;
    for (const part of flatParts(piece)) {
      pieces.push(part);
      const waiting = pause();
      if (waiting) await waiting;
    }
  }
  return pieces.join("");
}

/** Characters flattened at once: one block can be megabytes of markup, too long a UTF-8 round trip to do in one step. */
const flatPartLength = 128 * 1024;

/** `flatString(piece)` in parts, never splitting a surrogate pair. */
function* flatParts(piece: string): Generator<string> {
  for (let start = 0; start < piece.length; ) {
    let end = Math.min(piece.length, start + flatPartLength);
    const last = piece.charCodeAt(end - 1);
    if (end < piece.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield flatString(piece.slice(start, end));
    start = end;
  }
}
