/**
 * Review rounds: each html_review export sends the course, as of one version, to reviewers (named or
 * not, with an optional due date and note); list_review_rounds tells per round what came back, from
 * whom and of which kind, and which named reviewers have sent nothing yet. A round is opened by who may
 * comment on the course (reviewers, editors, the owner); anyone who can read the course can list them.
 */
import * as v from "valibot";
import { openCourse } from "../authoring/access.ts";
import { timestamp, type AuthoringSession } from "../authoring/context.ts";
import { archivedCourse } from "../authoring/errors.ts";
import { idField, pageSizeField } from "../authoring/schemas/fields.ts";
import type { ReviewRoundRow } from "../store/types.ts";

export const reviewRoundLimits = { reviewers: 50, nameCharacters: 200, noteCharacters: 2000 } as const;

/** The round's own arguments, on export_course (format html_review). */
export const reviewRoundFields = {
  dueDate: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD"),
      v.check((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), "must be a real date as YYYY-MM-DD"),
      v.description("html_review: comments due (YYYY-MM-DD)."),
    ),
  ),
  reviewers: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty"), v.maxLength(reviewRoundLimits.nameCharacters, `must be at most ${reviewRoundLimits.nameCharacters} characters`))),
      v.maxLength(reviewRoundLimits.reviewers, `must name at most ${reviewRoundLimits.reviewers} reviewers`),
      v.description("html_review: reviewers' names."),
    ),
  ),
  note: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(reviewRoundLimits.noteCharacters, `must be at most ${reviewRoundLimits.noteCharacters} characters`),
      v.description("html_review: a note to reviewers."),
    ),
  ),
};

/** Checks the person may open a round on the course (comment access, not archived); the round's ID. */
export async function prepareReviewRound(session: AuthoringSession, courseId: string): Promise<string> {
  const { course } = await openCourse(session, courseId, "comment");
  if (course.status === "archived") throw archivedCourse(course.id);
  return session.newId("reviewRound");
}

export async function recordReviewRound(session: AuthoringSession, row: Omit<ReviewRoundRow, "createdBy" | "createdAt">): Promise<ReviewRoundRow> {
  await openCourse(session, row.courseId, "comment");
  const stored: ReviewRoundRow = { ...row, createdBy: session.actor.sub, createdAt: timestamp(session) };
  await session.tx.insertReviewRound(stored);
  return stored;
}

export const listReviewRoundsArguments = v.object({
  courseId: idField("course"),
  limit: pageSizeField,
});

export interface ReviewRoundSummary {
  roundId: string;
  courseVersion: number;
  variant: "draft" | "published";
  exportId: string;
  openedAt: string;
  openedBy: string;
  dueDate: string | null;
  note: string | null;
  reviewers: string[];
  /** Per reviewer (as they typed their name): comments brought back, by kind, and how many are still open. */
  returned: { reviewer: string; comments: number; open: number; byKind: Record<string, number>; lastAt: string }[];
  /** Reviewers named for the round from whom nothing came back yet. */
  awaiting: string[];
}

export async function listReviewRounds(session: AuthoringSession, args: v.InferOutput<typeof listReviewRoundsArguments>): Promise<{ courseId: string; rounds: ReviewRoundSummary[] }> {
  const { course } = await openCourse(session, args.courseId, "read");
  const rounds = await session.tx.listReviewRounds(course.id, args.limit ?? 20);
  const returns = await session.tx.reviewReturns(course.id, rounds.map((round) => round.id));
  return {
    courseId: course.id,
    rounds: rounds.map((round) => {
      const byReviewer = new Map<string, ReviewRoundSummary["returned"][number]>();
      for (const row of returns.filter((entry) => entry.roundId === round.id)) {
        const entry = byReviewer.get(row.author) ?? { reviewer: row.author, comments: 0, open: 0, byKind: {}, lastAt: row.lastAt };
        entry.comments += row.comments;
        entry.open += row.open;
        entry.byKind[row.kind] = (entry.byKind[row.kind] ?? 0) + row.comments;
        if (row.lastAt > entry.lastAt) entry.lastAt = row.lastAt;
        byReviewer.set(row.author, entry);
      }
      const answered = new Set([...byReviewer.keys()].map((name) => name.toLowerCase()));
      return {
        roundId: round.id,
        courseVersion: round.courseVersion,
        variant: round.variant,
        exportId: round.exportId,
        openedAt: round.createdAt,
        openedBy: round.createdBy,
        dueDate: round.dueDate,
        note: round.note,
        reviewers: round.reviewers,
        returned: [...byReviewer.values()],
        awaiting: round.reviewers.filter((name) => !answered.has(name.toLowerCase())),
      };
    }),
  };
}
