/**
 * Comments back from a review package (export_course format html_review): the file a reviewer saved
 * with "Save comments", uploaded and given to import_review_copy, which recognises it by its content.
 * Each comment lands on its block as a review comment, authored as the reviewer typed their name,
 * marked as from the package and its round (with what it pointed at: a choice, a time in a video), and
 * saying when the block changed or was removed since the round; a reply stays a reply to its comment.
 * The file must be of this course and of a round this course opened, and each anchor one of the blocks
 * that round's package showed (a hand-edited file pointing at other blocks is refused whole). Importing
 * the same file again adds nothing: each comment is known by its round and its ID in the file.
 */
import type { AuthoringSession } from "../authoring/context.ts";
import { getCourse } from "../authoring/courses.ts";
import { WorkSlicer } from "../codecs/event-loop.ts";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { anchorHashes } from "../formats/review-copy/part-hash.ts";
import type { ReviewCommentsFile, ReviewFileComment } from "../page-contract/review.ts";
import type { CommentOrigin, CourseRow } from "../store/types.ts";
import { commentLimits, newCommentRow } from "./comments.ts";

const insertsPerSlice = 100;

export type BlockState = CommentOrigin["blockState"];

export interface ImportedPackageComment {
  commentId: string;
  kind: ReviewFileComment["kind"];
  targetId: string;
  author: string;
  partState: "unchanged" | "changed" | "deleted";
  replyTo?: string;
}

export interface LessonSummary {
  lessonId: string | null;
  lessonTitle: string;
  byKind: Record<ReviewFileComment["kind"], number>;
  /** The open errors on this lesson's blocks: what to act on first. */
  openErrors: { commentId: string; blockId: string; text: string; partState: ImportedPackageComment["partState"] }[];
}

export interface ImportedReviewPackage {
  courseId: string;
  roundId: string;
  reviewer: string;
  copyVersion: number;
  currentVersion: number;
  imported: ImportedPackageComment[];
  alreadyImported: number;
  /** Per lesson, lessons with open errors first. */
  lessons: LessonSummary[];
}

function refused(fileName: string, why: string, code: "invalid_arguments" | "forbidden" = "invalid_arguments", details: Record<string, unknown> = {}): CourseAuthoringError {
  return new CourseAuthoringError(code, `assetId: ${fileName} ${why}; nothing was imported.`, { field: "assetId", file: fileName, ...details });
}

const stateWords: Record<BlockState, (version: number) => string> = {
  unchanged: () => "",
  changed: (version) => `\n\nThis block has changed since version ${version}, which the reviewer saw.`,
  removed: (version) => `\n\nThis block was removed after version ${version}, which the reviewer saw.`,
};

function minutesSeconds(seconds: number): string {
  const whole = Math.floor(seconds);
  const rest = String(whole % 60).padStart(2, "0");
  return whole >= 3600 ? `${Math.floor(whole / 3600)}:${String(Math.floor((whole % 3600) / 60)).padStart(2, "0")}:${rest}` : `${Math.floor(whole / 60)}:${rest}`;
}

function body(file: ReviewCommentsFile, comment: ReviewFileComment, state: BlockState, isReply: boolean): string {
  const header = `From the review package of round ${file.roundId} (version ${file.courseVersion}), ${isReply ? "a reply " : ""}by ${comment.author} — ${comment.kind}:`;
  const about = [
    comment.choice !== undefined ? `On choice ${comment.choice + 1}${comment.choiceText ? ` “${comment.choiceText}”` : ""}.` : "",
    comment.videoTime !== undefined ? `At ${minutesSeconds(comment.videoTime)} in the video.` : "",
    comment.quote ? `On the words “${comment.quote}”.` : "",
  ].filter(Boolean);
  const full = `${header}\n\n${comment.text}${about.length ? `\n\n${about.join(" ")}` : ""}${stateWords[state](file.courseVersion)}`;
  return full.length > commentLimits.bodyCharacters ? `${full.slice(0, commentLimits.bodyCharacters - 1)}…` : full;
}

/** The file's identity against the course and its rounds; throws naming the rule. Returns the round's anchors. */
async function checkedRound(session: AuthoringSession, course: CourseRow, file: ReviewCommentsFile, fileName: string): Promise<Record<string, string>> {
  if (file.courseId !== course.id) {
    throw refused(fileName, `is a comments file of course ${file.courseId}, not of ${course.id}; its comments can only go to the course its review package was made from`, "invalid_arguments", { fileCourseId: file.courseId });
  }
  const round = await session.tx.findReviewRound(course.id, file.roundId);
  if (!round) throw refused(fileName, `names review round ${file.roundId}, which course ${course.id} never opened (see list_review_rounds)`, "invalid_arguments", { roundId: file.roundId });
  if (round.courseVersion !== file.courseVersion) {
    throw refused(fileName, `says round ${file.roundId} showed version ${file.courseVersion}, but that round sent version ${round.courseVersion}`, "invalid_arguments", { roundId: file.roundId });
  }
  for (const comment of file.comments) {
    if (round.anchors[comment.anchor.id] !== comment.anchor.hash) {
      throw refused(fileName, `has comment ${comment.id} on block ${comment.anchor.id} (anchor ${comment.anchor.hash}), which is not a block the round's package showed; a comments file's anchors must be the package's own`, "invalid_arguments", { commentId: comment.id, blockId: comment.anchor.id });
    }
  }
  return round.anchors;
}

function summarise(file: ReviewCommentsFile, lessonOf: Map<string, { id: string; title: string }>, stored: Map<string, { commentId: string; partState: ImportedPackageComment["partState"]; open: boolean }>): LessonSummary[] {
  const lessons = new Map<string, LessonSummary>();
  for (const comment of file.comments) {
    const lesson = lessonOf.get(comment.anchor.id);
    const key = lesson?.id ?? "";
    const summary = lessons.get(key) ?? { lessonId: lesson?.id ?? null, lessonTitle: lesson?.title ?? "(blocks removed since)", byKind: { error: 0, question: 0, suggestion: 0, approval: 0 }, openErrors: [] };
    summary.byKind[comment.kind] += 1;
    const kept = stored.get(comment.id);
    if (comment.kind === "error" && kept?.open) summary.openErrors.push({ commentId: kept.commentId, blockId: comment.anchor.id, text: comment.text.slice(0, 200), partState: kept.partState });
    lessons.set(key, summary);
  }
  return [...lessons.values()].sort((a, b) => b.openErrors.length - a.openErrors.length);
}

/** The write: the course checked again, the file's round and anchors checked, then only the new comments stored. */
export async function storeReviewPackage(session: AuthoringSession, course: CourseRow, file: ReviewCommentsFile, fileName: string): Promise<ImportedReviewPackage> {
  const roundAnchors = await checkedRound(session, course, file, fileName);
  const document = await getCourse(session, { courseId: course.id, includeBlocks: true }, "read");
  const current = anchorHashes(document);
  const lessonOf = new Map<string, { id: string; title: string }>();
  for (const module of document.modules) for (const lesson of module.lessons) for (const block of lesson.blocks ?? []) lessonOf.set(block.id, { id: lesson.id, title: lesson.title });
  const known = await session.tx.listReviewCommentIds(course.id, file.roundId);
  const stored = new Map<string, { commentId: string; partState: ImportedPackageComment["partState"]; open: boolean }>();
  const imported: ImportedPackageComment[] = [];
  let alreadyImported = 0;
  const slicer = new WorkSlicer(insertsPerSlice);
  for (const comment of file.comments) {
    await slicer.done(1);
    const now = current.get(comment.anchor.id);
    const blockState: BlockState = now === undefined ? "removed" : now === roundAnchors[comment.anchor.id] ? "unchanged" : "changed";
    const partState = blockState === "removed" ? "deleted" : blockState;
    const existing = known.get(comment.id);
    if (existing !== undefined) {
      alreadyImported += 1;
      stored.set(comment.id, { commentId: existing.commentId, partState, open: existing.open });
      continue;
    }
    const replyTo = comment.replyTo === undefined ? undefined : (stored.get(comment.replyTo)?.commentId ?? known.get(comment.replyTo)?.commentId);
    const origin: CommentOrigin = {
      source: "review_package",
      roundId: file.roundId,
      reviewCommentId: comment.id,
      kind: comment.kind,
      courseVersion: file.courseVersion,
      blockState,
      ...(comment.choice !== undefined ? { choice: comment.choice, ...(comment.choiceText !== undefined ? { choiceText: comment.choiceText } : {}) } : {}),
      ...(comment.videoTime !== undefined ? { videoTime: comment.videoTime } : {}),
    };
    const row = {
      ...newCommentRow(session, { courseId: course.id, targetKind: "block", targetId: comment.anchor.id, body: body(file, comment, blockState, replyTo !== undefined), quote: comment.quote || null, authorName: comment.author }),
      origin,
      replyTo: replyTo ?? null,
    };
    await session.tx.insertComment(row);
    stored.set(comment.id, { commentId: row.id, partState, open: true });
    imported.push({ commentId: row.id, kind: comment.kind, targetId: comment.anchor.id, author: comment.author, partState, ...(replyTo ? { replyTo } : {}) });
  }
  return {
    courseId: course.id,
    roundId: file.roundId,
    reviewer: file.reviewer,
    copyVersion: file.courseVersion,
    currentVersion: course.version,
    imported,
    alreadyImported,
    lessons: summarise(file, lessonOf, stored),
  };
}
