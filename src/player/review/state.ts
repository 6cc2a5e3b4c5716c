/**
 * What the reviewer has written, kept in the browser's storage under the round's key so closing or
 * reloading the page loses nothing; the comments file "Save comments" writes from it.
 */
import { reviewCommentsFormat, reviewCommentsFormatVersion, type ReviewCommentsFile, type ReviewFileComment, type ReviewRoundInfo } from "../../page-contract/review.ts";

/** A comment as kept here: `saved` once it went into a file (it can no longer be changed). */
export type KeptComment = ReviewFileComment & { readonly saved?: boolean };

export interface ReviewState {
  reviewer: string;
  comments: KeptComment[];
}

export const storageKey = (roundId: string): string => `course-review:${roundId}`;

export function loadState(roundId: string): ReviewState {
  try {
    const text = window.localStorage.getItem(storageKey(roundId));
    const parsed = text ? (JSON.parse(text) as Partial<ReviewState>) : {};
    return { reviewer: typeof parsed.reviewer === "string" ? parsed.reviewer : "", comments: Array.isArray(parsed.comments) ? parsed.comments : [] };
  } catch {
    return { reviewer: "", comments: [] };
  }
}

/** False when the browser keeps nothing (storage off or full): the layer still works for this visit. */
export function keepState(roundId: string, state: ReviewState): boolean {
  try {
    window.localStorage.setItem(storageKey(roundId), JSON.stringify(state));
    return true;
  } catch {
    return false;
  }
}

export function newCommentId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `rc_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

export function commentsFile(round: ReviewRoundInfo, state: ReviewState, savedAt: string): ReviewCommentsFile {
  return {
    format: reviewCommentsFormat,
    formatVersion: reviewCommentsFormatVersion,
    roundId: round.id,
    courseId: round.courseId,
    courseTitle: round.courseTitle,
    courseVersion: round.courseVersion,
    reviewer: state.reviewer,
    savedAt,
    comments: state.comments.map(({ saved: _saved, ...comment }) => comment),
  };
}

/** `review-comments-<course>-<reviewer>-<date>.json`, ASCII letters, digits and dashes. */
export function commentsFileName(round: ReviewRoundInfo, reviewer: string, savedAt: string): string {
  const slug = (text: string) =>
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40);
  return `review-comments-${slug(round.courseTitle) || "course"}-${slug(reviewer) || "reviewer"}-${savedAt.slice(0, 10)}.json`;
}

/** "1:05" or "1:02:05" or "65" → seconds; null when it is not a time. */
export function parseTime(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+(:\d{1,2}){0,2}(\.\d+)?$/.test(trimmed)) return null;
  return trimmed.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}

export function formatTime(seconds: number): string {
  const whole = Math.floor(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}
