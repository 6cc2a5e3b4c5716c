/**
 * The comment document tools return, and the opaque cursor of list_comments (the keyset position of
 * the last comment: open or resolved, creation time, ID).
 */
import * as v from "valibot";
import { invalidArgument } from "../authoring/errors.ts";
import { commentTargetKinds, type CommentRow } from "../store/types.ts";
import { fromBase64url, toBase64url, utf8Bytes, utf8Text } from "../bytes.ts";

export const commentSchema = v.object({
  id: v.string(),
  courseId: v.string(),
  target: v.object({
    kind: v.picklist(commentTargetKinds),
    id: v.string(),
    moduleId: v.optional(v.string()),
    lessonId: v.optional(v.string()),
    path: v.pipe(v.nullable(v.string()), v.description("Where the target is now; null when it was removed.")),
  }),
  targetRemoved: v.pipe(v.boolean(), v.description("True when the commented module, lesson or block no longer exists; the comment is kept.")),
  body: v.string(),
  quote: v.nullable(v.string()),
  quoteStillPresent: v.pipe(v.nullable(v.boolean()), v.description("Whether the quoted passage is still in the target's text (null without a quote).")),
  author: v.object({ sub: v.string(), name: v.nullable(v.string()) }),
  createdAt: v.string(),
  status: v.picklist(["open", "resolved"]),
  resolvedBy: v.nullable(v.string()),
  resolvedAt: v.nullable(v.string()),
  resolutionNote: v.nullable(v.string()),
  replyTo: v.optional(v.string()),
  /** From a review package: its round, the reviewer's kind, the block then against now (unchanged, changed, removed), a choice (from 0) or video time (s). */
  origin: v.optional(v.looseObject({ roundId: v.string(), kind: v.string(), blockState: v.string() })),
});
export type CommentDocument = v.InferOutput<typeof commentSchema>;

export const commentCountsSchema = v.object({ open: v.number(), resolved: v.number() });

const cursorSchema = v.object({ resolved: v.boolean(), createdAt: v.string(), id: v.string() });

export function encodeCommentCursor(row: CommentRow): string {
  return toBase64url(utf8Bytes(JSON.stringify({ resolved: row.resolvedAt !== null, createdAt: row.createdAt, id: row.id })));
}

export function decodeCommentCursor(cursor: string | undefined): v.InferOutput<typeof cursorSchema> | undefined {
  if (cursor === undefined) return undefined;
  try {
    return v.parse(cursorSchema, JSON.parse(utf8Text(fromBase64url(cursor))));
  } catch {
    throw invalidArgument("cursor", "is not a cursor returned by list_comments; pass nextCursor from the previous page, or omit it for the first page");
  }
}
