/**
 * Review comments on a course, module, lesson or block. Reviewers, editors and the owner comment and
 * resolve; anyone who can read the course can list. Comments are review notes, not content: they do
 * not change the course version or its revisions, so comment traffic never makes an editor's
 * `expectedVersion` stale. A comment follows its target through edits and moves; when the target is
 * removed the comment stays, marked `targetRemoved`.
 */
import * as v from "valibot";
import { openCourse } from "../authoring/access.ts";
import { timestamp, type AuthoringSession } from "../authoring/context.ts";
import { archivedCourse, invalidArgument, notFound } from "../authoring/errors.ts";
import { idField, pageSizeField, cursorField } from "../authoring/schemas/fields.ts";
import type { CommentRow, CommentTargetKind, CourseRow } from "../store/types.ts";
import { containsQuote, TargetResolver, targetIdPattern, targetKindOf, type ResolvedTarget } from "./comment-targets.ts";
import { decodeCommentCursor, encodeCommentCursor, type CommentDocument } from "./comment-schemas.ts";

export const commentLimits = { bodyCharacters: 5000, quoteCharacters: 500, noteCharacters: 1000 } as const;

const targetIdField = v.pipe(
  v.string(),
  v.regex(targetIdPattern, "must be the ID of the course, a module, a lesson or a block (crs_…, mod_…, les_…, blk_…)"),
  v.description("What the comment is about: the course ID, or a module, lesson or block ID from get_course."),
);

export const addCommentArguments = v.object({
  courseId: idField("course"),
  targetId: targetIdField,
  body: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty("must not be empty"),
    v.maxLength(commentLimits.bodyCharacters, `must be at most ${commentLimits.bodyCharacters} characters`),
    v.description("The comment, in Markdown."),
  ),
  quote: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty("must not be empty"),
      v.maxLength(commentLimits.quoteCharacters, `must be at most ${commentLimits.quoteCharacters} characters`),
      v.description("The exact passage of the target the comment is about; it must occur in the target's text."),
    ),
  ),
});

async function openForComments(session: AuthoringSession, courseId: string): Promise<CourseRow> {
  const { course } = await openCourse(session, courseId, "comment");
  if (course.status === "archived") throw archivedCourse(course.id);
  return course;
}

/**
 * A new open comment by the session's actor: the one place a comment row is made, for add_comment,
 * a deck's speaker notes and a returned review copy. `authorName` defaults to the actor's name or e-mail.
 */
export function newCommentRow(
  session: AuthoringSession,
  fields: { courseId: string; targetKind: CommentTargetKind; targetId: string; body: string; quote?: string | null; authorName?: string | null },
): CommentRow {
  return {
    id: session.newId("comment"),
    courseId: fields.courseId,
    targetKind: fields.targetKind,
    targetId: fields.targetId,
    body: fields.body,
    quote: fields.quote ?? null,
    authorSub: session.actor.sub,
    authorName: fields.authorName !== undefined ? fields.authorName : (session.actor.name ?? session.actor.email ?? null),
    createdAt: timestamp(session),
    resolvedBy: null,
    resolvedAt: null,
    resolutionNote: null,
  };
}

export async function addComment(session: AuthoringSession, args: v.InferOutput<typeof addCommentArguments>): Promise<{ comment: CommentDocument; counts: CommentCounts }> {
  const course = await openForComments(session, args.courseId);
  const kind = targetKindOf(args.targetId);
  const resolver = new TargetResolver(session, course);
  const target = await resolver.resolve(kind, args.targetId);
  if (!target) throw notFound(kind, args.targetId, "targetId");
  if (args.quote !== undefined && !containsQuote(target.text, args.quote)) {
    throw invalidArgument("quote", `does not occur in ${kind} ${args.targetId}; copy the passage exactly as it is written there, or leave quote out`);
  }
  const row = newCommentRow(session, { courseId: course.id, targetKind: kind, targetId: args.targetId, body: args.body, quote: args.quote ?? null });
  await session.tx.insertComment(row);
  return { comment: commentDocument(row, target), counts: await session.tx.countComments(course.id) };
}

export const listCommentsArguments = v.object({
  courseId: idField("course"),
  status: v.optional(v.pipe(v.picklist(["open", "resolved", "all"], "must be open, resolved or all"), v.description("Default all: open comments first, then resolved.")), "all"),
  targetId: v.optional(v.pipe(targetIdField, v.description("Only comments on this course, module, lesson or block."))),
  limit: pageSizeField,
  cursor: cursorField,
});

export interface CommentCounts {
  open: number;
  resolved: number;
}

export async function listComments(
  session: AuthoringSession,
  args: v.InferOutput<typeof listCommentsArguments>,
): Promise<{ courseId: string; comments: CommentDocument[]; counts: CommentCounts; nextCursor: string | null }> {
  const { course } = await openCourse(session, args.courseId, "read");
  const limit = args.limit ?? 50;
  const rows = await session.tx.listComments({
    courseId: course.id,
    resolved: args.status === "all" ? undefined : args.status === "resolved",
    targetId: args.targetId,
    after: decodeCommentCursor(args.cursor),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const resolver = new TargetResolver(session, course);
  const comments: CommentDocument[] = [];
  for (const row of page) comments.push(commentDocument(row, await resolver.resolve(row.targetKind, row.targetId)));
  const last = page[page.length - 1];
  return {
    courseId: course.id,
    comments,
    counts: await session.tx.countComments(course.id, args.targetId),
    nextCursor: rows.length > limit && last ? encodeCommentCursor(last) : null,
  };
}

export const resolveCommentArguments = v.object({
  courseId: idField("course"),
  commentId: idField("comment"),
  note: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(commentLimits.noteCharacters, `must be at most ${commentLimits.noteCharacters} characters`),
      v.description("How it was addressed, e.g. 'Added alt text describing the chart.'"),
    ),
  ),
  reopen: v.optional(v.pipe(v.boolean(), v.description("true reopens a resolved comment instead."))),
});

export async function resolveComment(
  session: AuthoringSession,
  args: v.InferOutput<typeof resolveCommentArguments>,
): Promise<{ comment: CommentDocument; changed: boolean; counts: CommentCounts }> {
  const course = await openForComments(session, args.courseId);
  const current = await session.tx.findComment(course.id, args.commentId);
  if (!current) throw notFound("comment", args.commentId, "commentId");
  const reopen = args.reopen === true;
  const changed = reopen === (current.resolvedAt !== null);
  const updated: CommentRow = !changed
    ? current
    : reopen
      ? { ...current, resolvedBy: null, resolvedAt: null, resolutionNote: null }
      : { ...current, resolvedBy: session.actor.sub, resolvedAt: timestamp(session), resolutionNote: args.note || null };
  if (changed) await session.tx.updateComment(updated.id, updated);
  const target = await new TargetResolver(session, course).resolve(updated.targetKind, updated.targetId);
  return { comment: commentDocument(updated, target), changed, counts: await session.tx.countComments(course.id) };
}

export function commentDocument(row: CommentRow, target: ResolvedTarget | null): CommentDocument {
  return {
    id: row.id,
    courseId: row.courseId,
    target: {
      kind: row.targetKind,
      id: row.targetId,
      ...(target?.moduleId ? { moduleId: target.moduleId } : {}),
      ...(target?.lessonId ? { lessonId: target.lessonId } : {}),
      path: target?.path ?? null,
    },
    targetRemoved: target === null,
    body: row.body,
    quote: row.quote,
    quoteStillPresent: row.quote === null || target === null ? null : containsQuote(target.text, row.quote),
    author: { sub: row.authorSub, name: row.authorName },
    createdAt: row.createdAt,
    status: row.resolvedAt === null ? "open" : "resolved",
    resolvedBy: row.resolvedBy,
    resolvedAt: row.resolvedAt,
    resolutionNote: row.resolutionNote,
    ...(row.replyTo ? { replyTo: row.replyTo } : {}),
    ...(row.origin
      ? {
          origin: {
            source: row.origin.source,
            roundId: row.origin.roundId,
            kind: row.origin.kind,
            courseVersion: row.origin.courseVersion,
            blockState: row.origin.blockState,
            ...(row.origin.choice !== undefined ? { choice: row.origin.choice } : {}),
            ...(row.origin.choiceText !== undefined ? { choiceText: row.origin.choiceText } : {}),
            ...(row.origin.videoTime !== undefined ? { videoTime: row.origin.videoTime } : {}),
          },
        }
      : {}),
  };
}
