/**
 * The review package's contract (export_course format `html_review`): what the export hands the review
 * layer (the round, each block's content-hash anchor and what a reviewer can point at in it, the layer's
 * words), and the comments file the layer writes and `import_review_copy` reads back. Types and
 * constants only, shared by the renderer side (which writes the configuration and reads the file) and
 * the review bundle (which reads the configuration and writes the file).
 */

/** The attribute the review package puts on each block's wrapper: the block's ID. */
export const reviewBlockAttribute = "data-review-block";

/** What the comments file says it is, and its shape's version. */
export const reviewCommentsFormat = "course-review-comments";
export const reviewCommentsFormatVersion = 1;

export const reviewCommentKinds = ["suggestion", "error", "question", "approval"] as const;
export type ReviewCommentKind = (typeof reviewCommentKinds)[number];

/** The review layer's words, in the course's language (`{placeholder}`s filled in by the layer). */
export interface ReviewText {
  readonly panelTitle: string;
  readonly openPanel: string;
  readonly closePanel: string;
  readonly intro: string;
  readonly dueDate: string;
  readonly noteHeading: string;
  readonly nameLabel: string;
  readonly nameHint: string;
  readonly nameSave: string;
  readonly nameRequired: string;
  readonly nameSaved: string;
  readonly addComment: string;
  readonly newHeading: string;
  readonly editHeading: string;
  readonly replyHeading: string;
  readonly kindLegend: string;
  readonly kinds: Readonly<Record<ReviewCommentKind, string>>;
  readonly aboutLabel: string;
  readonly aboutBlock: string;
  readonly aboutChoice: string;
  readonly quoteLabel: string;
  readonly videoTimeLabel: string;
  readonly videoTimeInvalid: string;
  readonly textLabel: string;
  readonly textRequired: string;
  readonly add: string;
  readonly update: string;
  readonly cancel: string;
  readonly edit: string;
  readonly remove: string;
  readonly reply: string;
  readonly showInCourse: string;
  readonly saveFile: string;
  readonly saved: string;
  readonly nothingToSave: string;
  readonly added: string;
  readonly updated: string;
  readonly removed: string;
  readonly none: string;
  readonly locked: string;
  readonly atTime: string;
  readonly onQuote: string;
  readonly replyTo: string;
  readonly where: string;
  readonly listHeading: string;
}

/** One block a reviewer can comment on. */
export interface ReviewBlockAnchor {
  /** The block's content hash (`formats/review-copy/part-hash.ts`), as the Word review copy anchors it. */
  readonly hash: string;
  readonly lessonId: string;
  readonly lessonTitle: string;
  readonly type: string;
  /** The block's place in its lesson, from 1. */
  readonly number: number;
  /** A question's choices, in the author's order (the page may shuffle them). */
  readonly choices?: readonly string[];
  /** The block plays a video: a comment can name a time in it. */
  readonly video?: boolean;
}

export interface ReviewRoundInfo {
  readonly id: string;
  readonly courseId: string;
  readonly courseTitle: string;
  readonly courseVersion: number;
  readonly variant: "draft" | "published";
  readonly dueDate: string | null;
  readonly note: string | null;
  readonly reviewers: readonly string[];
}

export interface ReviewLayerConfig {
  readonly round: ReviewRoundInfo;
  readonly blocks: Readonly<Record<string, ReviewBlockAnchor>>;
  readonly text: ReviewText;
}

/** One comment in the file. `replyTo` names another comment of the file; a reply is about what its parent is about. */
export interface ReviewFileComment {
  readonly id: string;
  readonly anchor: { readonly id: string; readonly hash: string };
  readonly kind: ReviewCommentKind;
  readonly text: string;
  readonly author: string;
  readonly createdAt: string;
  readonly quote?: string;
  /** Index (from 0) of the question's choice, in the author's order. */
  readonly choice?: number;
  readonly choiceText?: string;
  /** Seconds into the block's video. */
  readonly videoTime?: number;
  readonly replyTo?: string;
}

/** The file "Save comments" writes. */
export interface ReviewCommentsFile {
  readonly format: typeof reviewCommentsFormat;
  readonly formatVersion: typeof reviewCommentsFormatVersion;
  readonly roundId: string;
  readonly courseId: string;
  readonly courseTitle: string;
  readonly courseVersion: number;
  readonly reviewer: string;
  readonly savedAt: string;
  readonly comments: readonly ReviewFileComment[];
}
