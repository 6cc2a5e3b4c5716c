/**
 * The narrower parts of a course read that is over the result cap, for `limit_exceeded` to name: the
 * modules that fit, the lessons that fit of the modules that do not, and runs of blocks of the lessons
 * that do not, each run as long as still fits. The JSON resources and the previews share it; each says
 * how a part's URI is written and how its answer is measured.
 */
import { selectCourseParts, selectLessonBlocks, type BlockRange } from "../../authoring/course-pages.ts";
import type { CourseDocument } from "../../authoring/schemas/course.ts";
import { courseUri } from "../../course-uris.ts";
import { blockRuns, partsThatFit, type ReadablePart } from "../resource-bounds.ts";

export type CoursePart = { moduleId: string } | { lessonId: string; blocks?: BlockRange };

/** What `course` was read as: the whole course, a module, a lesson, or a run of a lesson's blocks. */
export interface ReadTarget {
  moduleId?: string | undefined;
  lessonId?: string | undefined;
  blocks?: BlockRange | undefined;
}

/** The JSON resource of a part: `course://{courseId}/modules/…`, `…/lessons/…` or `…/lessons/…/blocks/{first}-{last}`. */
export function jsonPartUri(courseId: string, part: CoursePart): string {
  if ("moduleId" in part) return courseUri("module", { courseId, moduleId: part.moduleId });
  if (!part.blocks) return courseUri("lesson", { courseId, lessonId: part.lessonId });
  return courseUri("lessonBlocks", { courseId, lessonId: part.lessonId, first: String(part.blocks.first), last: String(part.blocks.last) });
}

/** The preview of a part (`…/preview`), of the published snapshot when `published`. */
export function previewPartUri(courseId: string, part: CoursePart, published: boolean): string {
  const uri =
    "moduleId" in part
      ? courseUri("modulePreview", { courseId, moduleId: part.moduleId })
      : part.blocks
        ? courseUri("lessonBlocksPreview", { courseId, lessonId: part.lessonId, first: String(part.blocks.first), last: String(part.blocks.last) })
        : courseUri("lessonPreview", { courseId, lessonId: part.lessonId });
  return published ? `${uri}?variant=published` : uri;
}

export interface PartReads {
  uri(part: CoursePart): string;
  /** Whether the answer to reading `uri`, which shows `document`, is within the cap. */
  fits(uri: string, document: CourseDocument): Promise<boolean>;
}

/**
 * Runs of the blocks of lesson `lessonId` in `course` (which may hold only some of its blocks, the first
 * at position `offset + 1`), each as long as still fits.
 */
async function blockRunParts(course: CourseDocument, lessonId: string, offset: number, reads: PartReads): Promise<ReadablePart[]> {
  const lesson = course.modules.flatMap((module) => module.lessons).find((item) => item.id === lessonId);
  const uriOf = (range: BlockRange) => reads.uri({ lessonId, blocks: { first: range.first + offset, last: range.last + offset } });
  const runs = await blockRuns(lesson?.blocks?.length ?? 0, (range) => reads.fits(uriOf(range), selectLessonBlocks(course, lessonId, range)));
  return runs.map(({ range, fits }) => ({ uri: uriOf(range), fits: async () => fits, split: async () => [] }));
}

function lessonPart(course: CourseDocument, lessonId: string, reads: PartReads): ReadablePart {
  const uri = reads.uri({ lessonId });
  return { uri, fits: () => reads.fits(uri, selectCourseParts(course, { lessonIds: [lessonId] })), split: () => blockRunParts(course, lessonId, 0, reads) };
}

function moduleParts(course: CourseDocument, reads: PartReads): ReadablePart[] {
  return course.modules.map((module) => {
    const uri = reads.uri({ moduleId: module.id });
    return {
      uri,
      fits: () => reads.fits(uri, selectCourseParts(course, { moduleIds: [module.id] })),
      split: async () => module.lessons.map((lesson) => lessonPart(course, lesson.id, reads)),
    };
  });
}

/** The URIs of the parts of `course` (read as `target`) that fit, narrowest where needed, in course order; and those too large alone. */
export async function narrowerParts(course: CourseDocument, target: ReadTarget, reads: PartReads): Promise<{ uris: string[]; overCap: string[] }> {
  const parts = target.lessonId
    ? await blockRunParts(course, target.lessonId, (target.blocks?.first ?? 1) - 1, reads)
    : target.moduleId
      ? course.modules.flatMap((module) => module.lessons.map((lesson) => lessonPart(course, lesson.id, reads)))
      : moduleParts(course, reads);
  return partsThatFit(parts);
}
