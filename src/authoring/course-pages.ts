/**
 * Partial reads of a course document: only chosen modules or lessons, and pages that stay under a
 * byte budget. A page is an ordinary course document whose `modules` hold the next run of lessons
 * (and blocks) in course order; a module or lesson that does not fit whole continues on the next page
 * under the same ID. The cursor names the course, its version and the query, so a cursor handed to a
 * different query, or kept across an edit, is refused with what to send instead.
 */
import * as v from "valibot";
import { documentJson } from "./document-json.ts";
import { CourseAuthoringError, invalidArgument } from "./errors.ts";
import type { CourseDocument, LessonDocument, ModuleDocument } from "./schemas/course.ts";
import { fromBase64url, toBase64url, utf8Bytes, utf8Length, utf8Text } from "../bytes.ts";

export interface CourseSelection {
  moduleIds?: readonly string[] | undefined;
  lessonIds?: readonly string[] | undefined;
}

/** Keeps the chosen modules (whole) and the chosen lessons (inside their modules), in course order. */
export function selectCourseParts(course: CourseDocument, selection: CourseSelection): CourseDocument {
  const moduleIds = selection.moduleIds ?? [];
  const lessonIds = selection.lessonIds ?? [];
  if (moduleIds.length === 0 && lessonIds.length === 0) return course;
  const modules = new Set(course.modules.map((module) => module.id));
  const lessons = new Set(course.modules.flatMap((module) => module.lessons.map((lesson) => lesson.id)));
  const outlineCall = `get_course { courseId: "${course.id}", includeBlocks: false }`;
  moduleIds.forEach((id, index) => {
    if (!modules.has(id)) throw notInCourse("module", id, `moduleIds[${index}]`, course.id, outlineCall);
  });
  lessonIds.forEach((id, index) => {
    if (!lessons.has(id)) throw notInCourse("lesson", id, `lessonIds[${index}]`, course.id, outlineCall);
  });
  const chosenModules = new Set(moduleIds);
  const chosenLessons = new Set(lessonIds);
  const kept: ModuleDocument[] = [];
  for (const module of course.modules) {
    if (chosenModules.has(module.id)) kept.push(module);
    else {
      const chosen = module.lessons.filter((lesson) => chosenLessons.has(lesson.id));
      if (chosen.length > 0) kept.push({ ...module, lessons: chosen });
    }
  }
  return { ...course, modules: kept };
}

/** Blocks `first` to `last` of a lesson (positions from 1, both included). */
export interface BlockRange {
  readonly first: number;
  readonly last: number;
}

/**
 * The lesson `lessonId` inside its module, keeping only the blocks of `range`. A range past the lesson's
 * end is `not_found`, naming how many blocks the lesson has.
 */
export function selectLessonBlocks(course: CourseDocument, lessonId: string, range: BlockRange): CourseDocument {
  const selected = selectCourseParts(course, { lessonIds: [lessonId] });
  const module = selected.modules[0] as ModuleDocument;
  const lesson = module.lessons[0] as LessonDocument;
  const blocks = lesson.blocks ?? [];
  if (range.first > range.last || range.last > blocks.length) {
    throw new CourseAuthoringError("not_found", `Lesson ${lessonId} has ${blocks.length} block(s); blocks ${range.first}-${range.last} are not a run of them (positions from 1, first ≤ last).`, {
      lessonId,
      blockCount: blocks.length,
    });
  }
  return { ...selected, modules: [{ ...module, lessons: [{ ...lesson, blocks: blocks.slice(range.first - 1, range.last) }] }] };
}

export function notInCourse(kind: "module" | "lesson", id: string, field: string, courseId: string, outlineCall: string): CourseAuthoringError {
  return new CourseAuthoringError("not_found", `${field}: ${kind} ${id} is not part of course ${courseId}. Send IDs from this course's outline (${outlineCall}).`, {
    field,
    [`${kind}Id`]: id,
    courseId,
  });
}

const cursorSchema = v.object({
  course: v.string(),
  version: v.number(),
  query: v.string(),
  module: v.number(),
  lesson: v.number(),
  block: v.number(),
});
type PagePosition = v.InferOutput<typeof cursorSchema>;

function encodePageCursor(position: PagePosition): string {
  return toBase64url(utf8Bytes(JSON.stringify(position)));
}

/**
 * Where a cursor continues. `query` is a fingerprint of the arguments that shape the pages; a cursor
 * from another course, another query or an older version of the course is refused with what to send.
 */
function decodePageCursor(cursor: string, course: CourseDocument, query: string): PagePosition {
  let position: PagePosition;
  try {
    position = v.parse(cursorSchema, JSON.parse(utf8Text(fromBase64url(cursor))));
  } catch {
    throw invalidArgument("cursor", "is not a cursor returned by get_course; pass nextCursor from the previous page, or omit cursor for the first page");
  }
  if (position.course !== course.id || position.query !== query) {
    throw invalidArgument("cursor", "belongs to another get_course query; send it with the same courseId, variant, includeBlocks, moduleIds and lessonIds as the call that returned it, or omit cursor to start again");
  }
  if (position.version !== course.version) {
    throw new CourseAuthoringError("conflict", `cursor: the course changed (now version ${course.version}, the cursor was for version ${position.version}); read again without cursor.`, {
      field: "cursor",
      currentVersion: course.version,
    });
  }
  return position;
}

/** The fingerprint of the arguments that shape get_course's pages; a cursor is valid only for the same. */
export function courseReadQuery(args: { variant?: string | undefined; includeBlocks: boolean } & CourseSelection): string {
  return JSON.stringify([args.variant ?? "draft", args.includeBlocks, args.moduleIds ?? [], args.lessonIds ?? []]);
}

/** A course's blocks reduced to their IDs and types: what a write returns instead of echoing the content sent. */
export function withBlockIdsOnly(course: CourseDocument): CourseDocument {
  return {
    ...course,
    modules: course.modules.map((module) => ({
      ...module,
      lessons: module.lessons.map((lesson) => (lesson.blocks ? { ...lesson, blocks: lesson.blocks.map((block) => ({ id: block.id, type: block.type })) } : lesson)),
    })),
  };
}

export function documentBytes(value: unknown): number {
  return bytes(value);
}

function bytes(value: unknown): number {
  return utf8Length(JSON.stringify(value)) + 1;
}

/**
 * The page of `course` starting at `cursor` that fits `budgetBytes` when serialised. Every page holds
 * at least one lesson (or one block), so paging always moves on even when one item alone is larger.
 */
export function pageCourse(
  course: CourseDocument,
  options: { budgetBytes: number; cursor?: string | undefined; query: string },
): { page: CourseDocument; nextCursor: string | null } {
  const start = options.cursor ? decodePageCursor(options.cursor, course, options.query) : { module: 0, lesson: 0, block: 0 };
  if (!options.cursor && documentJson(course).bytes + 1 <= options.budgetBytes) return { page: course, nextCursor: null };
  const header = { ...course, modules: [] as ModuleDocument[] };
  let used = bytes(header) + 64;
  let placed = 0;
  const at = (module: number, lesson: number, block: number) => ({ module, lesson, block });
  for (let m = start.module; m < course.modules.length; m++) {
    const module = course.modules[m] as ModuleDocument;
    const pageModule: ModuleDocument = { ...module, lessons: [] };
    used += bytes({ ...module, lessons: [] });
    header.modules.push(pageModule);
    for (let l = m === start.module ? start.lesson : 0; l < module.lessons.length; l++) {
      const lesson = module.lessons[l] as LessonDocument;
      const firstBlock = m === start.module && l === start.lesson ? start.block : 0;
      const withoutBlocks = { ...lesson, ...(lesson.blocks ? { blocks: [] } : {}) };
      const lessonBytes = bytes(withoutBlocks);
      if (placed > 0 && used + lessonBytes > options.budgetBytes) return stop(header, course, options.query, at(m, l, firstBlock));
      used += lessonBytes;
      const pageLesson: LessonDocument = withoutBlocks;
      pageModule.lessons.push(pageLesson);
      placed++;
      const blocks = lesson.blocks ?? [];
      for (let b = firstBlock; b < blocks.length; b++) {
        const blockBytes = bytes(blocks[b]);
        if (placed > 1 && used + blockBytes > options.budgetBytes) return stop(header, course, options.query, at(m, l, b));
        used += blockBytes;
        pageLesson.blocks?.push(blocks[b] as NonNullable<LessonDocument["blocks"]>[number]);
        placed++;
      }
    }
  }
  return { page: header, nextCursor: null };
}

function stop(page: CourseDocument, course: CourseDocument, query: string, next: { module: number; lesson: number; block: number }) {
  // A module opened but left empty at the end of the page starts the next page instead.
  const last = page.modules[page.modules.length - 1];
  if (last && last.lessons.length === 0) page.modules.pop();
  return { page, nextCursor: encodePageCursor({ course: course.id, version: course.version, query, ...next }) };
}
