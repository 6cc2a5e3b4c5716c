/**
 * MCP tools for review comments: add one to the course, a module, a lesson or a block; list them
 * (open first); resolve or reopen one.
 */
import * as v from "valibot";
import { readAs, writeAs, type AuthoringServices } from "../../authoring/services.ts";
import { commentCountsSchema, commentSchema, type CommentDocument } from "../../review/comment-schemas.ts";
import {
  addComment,
  addCommentArguments,
  commentLimits,
  listComments,
  listCommentsArguments,
  resolveComment,
  resolveCommentArguments,
} from "../../review/comments.ts";
import { importReviewCopy, importReviewCopyArguments, partStates } from "../../review/import-review-copy.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { listReviewRounds, listReviewRoundsArguments } from "../../review/review-rounds.ts";

function commentLine(comment: CommentDocument): string {
  const where = comment.targetRemoved ? `${comment.target.kind} ${comment.target.id} (removed)` : `${comment.target.path}`;
  const quote = comment.quote ? ` on "${comment.quote}"` : "";
  const body = comment.body.length > 200 ? `${comment.body.slice(0, 199)}…` : comment.body;
  return `[${comment.status}] ${comment.id} by ${comment.author.name ?? comment.author.sub} at ${where}${quote}: ${body.replace(/\s+/g, " ")}`;
}

const addCommentTool = defineTool<AuthoringServices, typeof addCommentArguments>({
  name: "add_comment",
  toolset: "review",
  title: "Add comment",
  description:
    `Leaves a review comment (Markdown, at most ${commentLimits.bodyCharacters} characters) on the course, a module, a lesson or a block, named by targetId. ` +
    "Optionally quote the exact passage it is about. Owners, editors and reviewers can comment; viewers cannot. Comments are not content: they do not change " +
    "the course version. A target that does not exist is not_found. Returns the comment and the open/resolved counts.",
  input: addCommentArguments,
  output: v.object({ comment: commentSchema, counts: commentCountsSchema }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, { user, services }) {
    const result = await writeAs(services, user, (session) => addComment(session, args));
    return { structuredContent: result, summary: `Added comment ${result.comment.id} at ${result.comment.target.path}. ${result.counts.open} open comment(s).` };
  },
});

const listCommentsTool = defineTool<AuthoringServices, typeof listCommentsArguments>({
  name: "list_comments",
  toolset: "review",
  title: "List comments",
  description:
    "Lists a course's review comments, open ones first (oldest first), then resolved ones. Filter by status (open, resolved, all) or by targetId. " +
    "Each comment names its target with moduleId/lessonId and a readable path (as it is now, after edits and moves), targetRemoved when the target is gone, " +
    "and whether a quoted passage is still there. Paged with nextCursor. To address one: fix the target with the editing tools, then resolve_comment.",
  input: listCommentsArguments,
  output: v.object({ courseId: v.string(), comments: v.array(commentSchema), counts: commentCountsSchema, nextCursor: v.nullable(v.string()) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services }) {
    const page = await readAs(services, user, (session) => listComments(session, args));
    const lines = page.comments.map(commentLine);
    return {
      structuredContent: page,
      summary: `${page.counts.open} open, ${page.counts.resolved} resolved comment(s) on ${page.courseId}${page.nextCursor ? "; more with nextCursor" : ""}${lines.length ? `:\n${lines.join("\n")}` : "."}`,
    };
  },
});

const resolveCommentTool = defineTool<AuthoringServices, typeof resolveCommentArguments>({
  name: "resolve_comment",
  toolset: "review",
  title: "Resolve comment",
  description:
    "Marks a comment resolved, recording who resolved it and when, with an optional note on how it was addressed; reopen: true reopens it. " +
    "Owners, editors and reviewers can. Resolving an already resolved comment changes nothing (changed: false).",
  input: resolveCommentArguments,
  output: v.object({ comment: commentSchema, changed: v.boolean(), counts: commentCountsSchema }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services }) {
    const result = await writeAs(services, user, (session) => resolveComment(session, args));
    const verb = result.comment.status === "resolved" ? "resolved" : "open";
    return {
      structuredContent: result,
      summary: `Comment ${result.comment.id} is ${verb}${result.changed ? "" : " (unchanged)"}. ${result.counts.open} open comment(s) remain.`,
    };
  },
});

/** Room kept in the structured budget for the summary and the answer's other fields. */
const reviewCopyAnswerMargin = 4 * 1024;

/**
 * The import's answer within the result cap: every imported note when they fit, else the first ones
 * that do, with `unlisted` saying how many more were stored (the write has committed; list_comments has them all).
 */
function reviewCopyAnswer<Result extends { imported: readonly object[] }>(result: Result, budgetBytes: number): Result & { importedCount: number; unlisted?: number } {
  const importedCount = result.imported.length;
  let room = budgetBytes - reviewCopyAnswerMargin;
  let listed = 0;
  for (const note of result.imported) {
    room -= new TextEncoder().encode(JSON.stringify(note)).length + 1;
    if (room < 0) break;
    listed += 1;
  }
  if (listed === importedCount) return { ...result, importedCount };
  return { ...result, imported: result.imported.slice(0, listed), importedCount, unlisted: importedCount - listed };
}

const importReviewCopyTool = defineTool<AuthoringServices, typeof importReviewCopyArguments>({
  name: "import_review_copy",
  toolset: "review",
  title: "Import review copy",
  description:
    "Brings a commented Word review copy (export_course docx_review) or a review package's comments file (html_review), uploaded, back: each comment " +
    "becomes a review comment on its part, saying if it changed since.",
  input: importReviewCopyArguments,
  output: v.object({
    source: v.picklist(["word", "review_package"]),
    copyVersion: v.number(),
    imported: v.array(
      v.object({
        commentId: v.string(),
        kind: v.picklist(["comment", "suggestion", "error", "question", "approval"]),
        targetId: v.string(),
        author: v.string(),
        partState: v.picklist(partStates),
        replyTo: v.optional(v.string()),
      }),
    ),
    importedCount: v.number(),
    unlisted: v.optional(v.number()),
    alreadyImported: v.number(),
    roundId: v.optional(v.string()),
    reviewer: v.optional(v.string()),
    lessons: v.optional(v.array(v.looseObject({ lessonId: v.nullable(v.string()), openErrors: v.array(v.looseObject({ commentId: v.string() })) }))),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services, structuredBudgetBytes }) {
    const result = await importReviewCopy(services, user, args);
    const changed = result.imported.filter((note) => note.partState !== "unchanged").length;
    if (result.source === "review_package") {
      const lessons = result.lessons.slice(0, 50).map((lesson) => ({ ...lesson, openErrors: lesson.openErrors.slice(0, 10) }));
      const answer = reviewCopyAnswer({ ...result, lessons }, structuredBudgetBytes - JSON.stringify(lessons).length);
      const errors = result.lessons.reduce((total, lesson) => total + lesson.openErrors.length, 0);
      const perLesson = lessons
        .slice(0, 10)
        .map((lesson) => `${lesson.lessonTitle}: ${Object.entries(lesson.byKind).filter(([, count]) => count > 0).map(([kind, count]) => `${count} ${kind}`).join(", ")}`)
        .join("; ");
      return {
        structuredContent: answer,
        summary:
          `Brought back ${answer.importedCount} comment(s) by ${result.reviewer || "the reviewer"} from review round ${result.roundId} (version ${result.copyVersion}; now version ${result.currentVersion})` +
          `${changed ? `; ${changed} on blocks changed or removed since` : ""}${result.alreadyImported ? `; ${result.alreadyImported} were already here` : ""}. ` +
          `${errors ? `${errors} open error(s) first. ` : ""}Per lesson: ${perLesson || "none"}. See list_comments.`,
      };
    }
    const answer = reviewCopyAnswer(result, structuredBudgetBytes);
    return {
      structuredContent: answer,
      summary:
        `Brought back ${answer.importedCount} comment(s) from a review copy of version ${result.copyVersion} of ${result.courseId} (now version ${result.currentVersion})` +
        `${changed ? `; ${changed} on parts changed or deleted since` : ""}${result.alreadyImported ? `; ${result.alreadyImported} were already here` : ""}` +
        `${answer.unlisted ? `; the first ${answer.imported.length} are listed here, all of them in list_comments` : ""}. See list_comments.`,
    };
  },
});

const listReviewRoundsTool = defineTool<AuthoringServices, typeof listReviewRoundsArguments>({
  name: "list_review_rounds",
  toolset: "review",
  title: "List review rounds",
  description: "Review rounds (each export_course html_review), newest first: version, due date, reviewers, and what came back from whom (comments by kind, open), who has not answered.",
  input: listReviewRoundsArguments,
  output: v.object({
    courseId: v.string(),
    rounds: v.array(v.looseObject({ roundId: v.string(), courseVersion: v.number(), returned: v.array(v.looseObject({ reviewer: v.string() })), awaiting: v.array(v.string()) })),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services }) {
    const result = await readAs(services, user, (session) => listReviewRounds(session, args));
    const lines = result.rounds.map(
      (round) =>
        `${round.roundId} (version ${round.courseVersion}, opened ${round.openedAt.slice(0, 10)}${round.dueDate ? `, due ${round.dueDate}` : ""}): ` +
        `${round.returned.length ? round.returned.map((entry) => `${entry.reviewer} sent ${entry.comments} (${entry.open} open)`).join("; ") : "nothing back yet"}` +
        `${round.awaiting.length ? `; awaiting ${round.awaiting.join(", ")}` : ""}`,
    );
    return { structuredContent: result, summary: `${result.rounds.length} review round(s) of ${result.courseId}${lines.length ? `:\n${lines.join("\n")}` : "."}` };
  },
});

export const commentTools: ToolDefinition<AuthoringServices>[] = [addCommentTool, listCommentsTool, resolveCommentTool, importReviewCopyTool, listReviewRoundsTool];
