/**
 * The narrow storage interface the authoring domain is written against. Rows are plain data; every
 * tool call runs inside one `read` or `write` transaction, so a failed call leaves nothing behind.
 * Methods are asynchronous so a PostgreSQL implementation can follow without touching the domain.
 */

import type { TaskRecordStatements } from "./task-records.ts";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export const courseStatuses = ["draft", "in_review", "published", "archived"] as const;
export type CourseStatus = (typeof courseStatuses)[number];

export const courseNumberings = ["modules", "none"] as const;
export type CourseNumbering = (typeof courseNumberings)[number];

export const collaboratorRoles = ["editor", "reviewer", "viewer"] as const;
export type CollaboratorRole = (typeof collaboratorRoles)[number];

export interface CourseRow {
  id: string;
  ownerSub: string;
  title: string;
  description: string;
  language: string;
  audience: string;
  level: string | null;
  tags: string[];
  /** Whether learner pages number modules ("Module 2: …") or show titles as written. */
  numbering: CourseNumbering;
  /** The length the author aims at, in minutes; null when none is set. */
  targetMinutes: number | null;
  /** The course theme as validated on write (see authoring/schemas/theme.ts); null for the default look. */
  theme: JsonObject | null;
  /** Manual accessibility answers by WCAG criterion (review/accessibility/manual-reviews.ts); null when none is recorded. */
  accessibilityReviews?: JsonObject | null;
  status: CourseStatus;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface ObjectiveRow {
  id: string;
  courseId: string;
  position: number;
  text: string;
}

export interface ModuleRow {
  id: string;
  courseId: string;
  position: number;
  title: string;
  summary: string;
  objectiveIds: string[];
}

export interface LessonRow {
  id: string;
  courseId: string;
  moduleId: string;
  position: number;
  title: string;
  kind: "content" | "quiz";
  passingScore: number | null;
  maxAttempts: number | null;
  /** Set by the author; null means derived from the content when read. */
  estimatedMinutes: number | null;
  /** Pools, shuffling, feedback and final assessment of a quiz lesson; null (or absent in rows stored before them) means the defaults. */
  quizOptions?: QuizOptions | null;
  /** The picture atop the lesson page (alt text unless decorative); null or absent: none. */
  banner?: LessonBannerRow | null;
}

export interface LessonBannerRow {
  assetId?: string;
  url?: string;
  alt?: string;
  decorative: boolean;
}

export interface QuizOptions {
  /** Questions drawn for each attempt; null draws all. */
  drawCount: number | null;
  drawByObjective: boolean;
  shuffleChoices: boolean;
  feedbackMode: "after_submit" | "immediate" | "none";
  finalAssessment: boolean;
  /** Show the drawn questions one per screen, with a count. */
  oneQuestionAtATime: boolean;
  /** Which attempt's score and verdict count after a retake. */
  attemptScoring: "best" | "last";
}

export interface BlockRow {
  id: string;
  courseId: string;
  lessonId: string;
  position: number;
  type: string;
  /** The validated block without `id` and `type`. */
  body: JsonObject;
}

/** The course content a revision can record and restore. */
export interface EntityRows {
  course: CourseRow;
  objective: ObjectiveRow;
  module: ModuleRow;
  lesson: LessonRow;
  block: BlockRow;
}
export type EntityKind = keyof EntityRows;
/** Ordered entities and the column naming their parent. */
export type OrderedKind = Exclude<EntityKind, "course">;

export interface CollaboratorRow {
  courseId: string;
  /** Either a user's `sub` or an e-mail address (lowercase), as `principalKind` says. */
  principalKind: "sub" | "email";
  principal: string;
  role: CollaboratorRole;
  addedBy: string;
  addedAt: string;
}

export interface AssetRow {
  id: string;
  /** The course the file was uploaded to; null for a file in its owner's library (`createdBy` is the owner). */
  courseId: string | null;
  filename: string;
  mediaType: string;
  byteSize: number;
  sha256: string;
  createdBy: string;
  createdAt: string;
}

/** One entity's change: `before` only for a removal, `after` only for an insertion, changed fields otherwise. */
export interface RowChange {
  kind: EntityKind;
  id: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

export interface RevisionRow {
  id: string;
  courseId: string;
  version: number;
  actorSub: string;
  tool: string;
  summary: string;
  createdAt: string;
  changes: RowChange[];
}

export type RevisionListing = Omit<RevisionRow, "changes"> & { changeCount: number; squashed: boolean };

/** A course's history as the budget sees it: stored bytes (revisions and their chunks) and the oldest readable version (0: all). */
export interface HistoryUsage {
  bytes: number;
  floorVersion: number;
}

/** One revision's stored size, for choosing what to squash. */
export interface RevisionSize {
  version: number;
  bytes: number;
  squashed: boolean;
}

export const commentTargetKinds = ["course", "module", "lesson", "block"] as const;
export type CommentTargetKind = (typeof commentTargetKinds)[number];

/** A review comment. Not course content: writing one neither bumps the version nor records a revision. */
export interface CommentRow {
  id: string;
  courseId: string;
  targetKind: CommentTargetKind;
  targetId: string;
  /** Markdown. */
  body: string;
  /** The exact text the comment is about, when the author anchored it. */
  quote: string | null;
  authorSub: string;
  authorName: string | null;
  createdAt: string;
  resolvedBy: string | null;
  resolvedAt: string | null;
  resolutionNote: string | null;
  /** Where the comment came from when not typed here: a review package's comments file (absent or null otherwise). */
  origin?: CommentOrigin | null;
  /** The comment this one answers, in the same thread. */
  replyTo?: string | null;
}

/** A comment brought back from a review package: its round, its ID in the file, and what the reviewer pointed at. */
export interface CommentOrigin {
  source: "review_package";
  roundId: string;
  /** The comment's ID in the reviewer's file: importing the file again finds it here and adds nothing. */
  reviewCommentId: string;
  kind: "suggestion" | "error" | "question" | "approval";
  /** The course version the package showed. */
  courseVersion: number;
  /** The block then, compared with now. */
  blockState: "unchanged" | "changed" | "removed";
  choice?: number;
  choiceText?: string;
  videoTime?: number;
}

/** One html_review export sent to reviewers. */
export interface ReviewRoundRow {
  id: string;
  courseId: string;
  courseVersion: number;
  variant: "draft" | "published";
  exportId: string;
  dueDate: string | null;
  reviewers: string[];
  note: string | null;
  /** Each block the package showed, by ID: its content hash then. A comment must name one of these. */
  anchors: Record<string, string>;
  createdBy: string;
  createdAt: string;
}

/** What came back in one round from one reviewer, by kind. */
export interface ReviewReturn {
  roundId: string;
  author: string;
  kind: string;
  comments: number;
  open: number;
  lastAt: string;
}

/** A file arriving in chunks from the files view; gone once finished, cancelled or expired. */
export interface UploadRow {
  uploadId: string;
  ownerSub: string;
  /** The course it will become an asset of; null for the person's own library. */
  courseId: string | null;
  filename: string;
  /** What the sender says the file is; checked against the bytes when it is finished. */
  mediaType: string | null;
  byteSize: number;
  chunkBytes: number;
  chunksReceived: number;
  bytesReceived: number;
  createdAt: string;
  expiresAt: string;
}

export interface CommentQuery {
  courseId: string;
  resolved?: boolean;
  targetId?: string;
  /** Keyset cursor in (open before resolved, createdAt, id) order. */
  after?: { resolved: boolean; createdAt: string; id: string };
  limit: number;
}

/** One publish of a course: the immutable document learners get, and a fingerprint of its content. */
export interface PublicationRow {
  courseId: string;
  /** The course version the publish produced. */
  version: number;
  publishedBy: string;
  publishedAt: string;
  contentFingerprint: string;
  document: JsonObject;
}
export type PublicationListing = Omit<PublicationRow, "document">;

/**
 * Running totals of one course's content, so limits are checked without walking the course. The
 * domain keeps them: every insert, body change and removal of a lesson or block adds its delta through
 * `addCourseUsage` in the same transaction. `contentBytes` is the UTF-8 length of the blocks' bodies
 * as JSON (`JSON.stringify(body)`), which is what the SQLite store writes.
 */
export interface CourseUsage {
  lessons: number;
  blocks: number;
  contentBytes: number;
}

/** What one user owns: courses, and the summed `byteSize` of the asset rows in those courses and in their library. */
export interface OwnerUsage {
  courses: number;
  assetBytes: number;
}

export interface CourseQuery {
  sub: string;
  email: string | null;
  status?: CourseStatus;
  /** Substring of the title, case-insensitive; every character (NUL, %, _ included) matches only itself. */
  titleContains?: string;
  /** Keyset cursor: courses strictly after this one in (createdAt desc, id desc) order. */
  after?: { createdAt: string; id: string };
  limit: number;
}

export interface StoreTransaction extends TaskRecordStatements {
  insert<K extends EntityKind>(kind: K, row: EntityRows[K]): Promise<void>;
  update<K extends EntityKind>(kind: K, id: string, fields: Partial<EntityRows[K]>): Promise<void>;
  remove(kind: EntityKind, id: string): Promise<void>;
  find<K extends EntityKind>(kind: K, id: string): Promise<EntityRows[K] | undefined>;
  /** Every row of a kind in one course, ordered by parent then position. */
  listInCourse<K extends OrderedKind>(kind: K, courseId: string): Promise<EntityRows[K][]>;
  /** The children of one parent (course for objectives and modules, module for lessons, lesson for blocks), in order. */
  listChildren<K extends OrderedKind>(kind: K, parentId: string): Promise<EntityRows[K][]>;
  countChildren(kind: OrderedKind, parentId: string): Promise<number>;
  /** Positions either side of the gap at `index` among the parent's children, ignoring `excludeId`. */
  positionsAround(kind: OrderedKind, parentId: string, index: number, excludeId?: string): Promise<{ before: number | null; after: number | null }>;

  listCourses(query: CourseQuery): Promise<CourseRow[]>;
  /** Deletes the course and everything in it, including assets no other course uses. */
  deleteCourse(courseId: string): Promise<void>;

  /** The course's running totals; all zero when none were recorded. One keyed read, never a walk over the content. */
  courseUsage(courseId: string): Promise<CourseUsage>;
  /** Adds `delta` (negative numbers subtract) to the course's running totals, starting them at zero. Deleting the course deletes them. */
  addCourseUsage(courseId: string, delta: CourseUsage): Promise<void>;
  /** Totals over the courses `ownerSub` owns (indexed aggregates; called only when a course or an asset is added). */
  ownerUsage(ownerSub: string): Promise<OwnerUsage>;

  listCollaborators(courseId: string): Promise<CollaboratorRow[]>;
  /** Roles granted to this user on the course, by `sub` or by e-mail. */
  rolesOf(courseId: string, sub: string, email: string | null): Promise<CollaboratorRole[]>;
  putCollaborator(row: CollaboratorRow): Promise<void>;
  removeCollaborator(courseId: string, principalKind: CollaboratorRow["principalKind"], principal: string): Promise<boolean>;

  insertAsset(row: AssetRow, bytes: Uint8Array): Promise<void>;
  /** Copies an asset's metadata under a new ID and course, sharing the stored bytes. */
  copyAsset(source: AssetRow, target: { id: string; courseId: string; createdBy: string; createdAt: string }): Promise<void>;
  findAsset(id: string): Promise<AssetRow | undefined>;
  readAssetBytes(id: string): Promise<Uint8Array | undefined>;
  listAssets(courseId: string, after: { createdAt: string; id: string } | undefined, limit: number): Promise<AssetRow[]>;
  /** The files in a person's library (assets of no course that they uploaded), in upload order. */
  listLibraryAssets(ownerSub: string, after: { createdAt: string; id: string } | undefined, limit: number): Promise<AssetRow[]>;

  /** Stores the revision (large change lists as shared chunks) and returns the history bytes it added. */
  insertRevision(row: RevisionRow): Promise<number>;
  historyUsage(courseId: string): Promise<HistoryUsage>;
  /** Every revision's size, oldest first. */
  revisionSizes(courseId: string): Promise<RevisionSize[]>;
  /**
   * Drops the changes of every revision up to `throughVersion` (their metadata stays, marked squashed),
   * deletes squashed revisions older than `dropBelowVersion` outright, and makes `throughVersion` the oldest readable one.
   */
  squashRevisions(courseId: string, throughVersion: number, dropBelowVersion: number): Promise<void>;
  findRevision(courseId: string, revisionId: string): Promise<RevisionRow | undefined>;
  /** Newest first; `beforeVersion` pages backwards. */
  listRevisions(courseId: string, beforeVersion: number | undefined, limit: number): Promise<RevisionListing[]>;
  /** Revisions with a version greater than `version`, newest first, to walk the course back in time. */
  revisionsAfter(courseId: string, version: number): Promise<RevisionRow[]>;

  /** Every asset of the course, in upload order (validation checks references against them in one read). */
  listAllAssets(courseId: string): Promise<AssetRow[]>;

  insertUpload(row: UploadRow): Promise<void>;
  findUpload(uploadId: string): Promise<UploadRow | undefined>;
  countUploads(ownerSub: string): Promise<number>;
  /** Declared bytes of the unexpired uploads into the courses `courseOwnerSub` owns and into their library. */
  openUploadBytes(courseOwnerSub: string, now: string): Promise<number>;
  /** Stores chunk `index` only when it is the next one expected; false otherwise. */
  appendUploadChunk(uploadId: string, index: number, base64: string, bytes: number): Promise<boolean>;
  readUploadChunks(uploadId: string): Promise<string[]>;
  deleteUpload(uploadId: string): Promise<void>;
  /** Deletes the uploads that expired before `now` with their chunks (their space is reclaimed); returns how many. */
  deleteExpiredUploads(now: string): Promise<number>;

  insertComment(row: CommentRow): Promise<void>;
  findComment(courseId: string, commentId: string): Promise<CommentRow | undefined>;
  updateComment(commentId: string, fields: Pick<CommentRow, "resolvedBy" | "resolvedAt" | "resolutionNote">): Promise<void>;
  /** Open comments first, then resolved; oldest first within each. */
  listComments(query: CommentQuery): Promise<CommentRow[]>;
  countComments(courseId: string, targetId?: string): Promise<{ open: number; resolved: number }>;
  /** The review-package comment IDs of a round already stored on this course. */
  listReviewCommentIds(courseId: string, roundId: string): Promise<Map<string, { commentId: string; open: boolean }>>;
  insertReviewRound(row: ReviewRoundRow): Promise<void>;
  findReviewRound(courseId: string, roundId: string): Promise<ReviewRoundRow | undefined>;
  /** Newest first. */
  listReviewRounds(courseId: string, limit: number): Promise<ReviewRoundRow[]>;
  /** Comments brought back per round, reviewer and kind. */
  reviewReturns(courseId: string, roundIds: readonly string[]): Promise<ReviewReturn[]>;

  insertPublication(row: PublicationRow): Promise<void>;
  /** The newest publication without its document, or undefined when the course was never published. */
  latestPublication(courseId: string): Promise<PublicationListing | undefined>;
  findPublication(courseId: string, version: number): Promise<PublicationRow | undefined>;

  /** Links that name this course, as the translation or as the source (one indexed read for get_course). */
  listTranslationLinks(courseId: string): Promise<TranslationRow[]>;
  /** Inserts the link, or moves its `sourceVersion` when it exists. */
  putTranslation(row: TranslationRow): Promise<void>;
  listTranslationUnits(courseId: string): Promise<TranslationUnitRow[]>;
  /** Inserts or replaces the units (by course and unit ID). */
  putTranslationUnits(rows: readonly TranslationUnitRow[]): Promise<void>;
  /** Removes the units and their translator notes. */
  removeTranslationUnits(courseId: string, unitIds: readonly string[]): Promise<void>;
  listTranslationNotes(courseId: string): Promise<TranslationNoteRow[]>;
  /** Inserts or replaces the translator notes (by course and unit ID). */
  putTranslationNotes(rows: readonly TranslationNoteRow[]): Promise<void>;

  /** Inserts the results not stored yet (by course and statement id); returns how many were new. */
  putResults(rows: readonly ResultRow[]): Promise<number>;
  /** Marks statements voided (remembered even before they arrive); returns how many counted before. */
  voidResults(courseId: string, statementIds: readonly string[], importedAt: string): Promise<number>;
  /** The course's results that count (not voided), oldest first. */
  listResults(courseId: string): Promise<ResultRow[]>;
  countResults(courseId: string): Promise<number>;
  deleteResults(courseId: string): Promise<number>;
  /** Drops results brought in before `cutoff`; returns how many. */
  dropResultsBefore(cutoff: string): Promise<number>;
}

/** One learner statement kept for a course (issue 43): the learner is a salted hash, never an actor. */
export interface ResultRow {
  courseId: string;
  statementId: string;
  learner: string;
  verb: string;
  kind: "course" | "unit" | "lesson" | "question" | "video";
  target: string;
  registration: string | null;
  attempt: number | null;
  courseVersion: number | null;
  timestamp: string;
  result: { response?: string; success?: boolean; completion?: boolean; scaled?: number; raw?: number; max?: number; seconds?: number } | null;
  importedAt: string;
}

/**
 * A translation is a course of its own (`courseId`) linked to the course it translates: its structure
 * mirrors the source, only text differs. `sourceVersion` is the source version it last took.
 */
export interface TranslationRow {
  courseId: string;
  sourceCourseId: string;
  language: string;
  sourceVersion: number;
  createdAt: string;
}

/** One translated string of a translation, and the hash of the source text it was translated from. */
export interface TranslationUnitRow {
  courseId: string;
  unitId: string;
  target: string;
  sourceHash: string;
}

/** What a translator wrote about a unit (an XLIFF note, a PO translator comment): kept and written back on export. */
export interface TranslationNoteRow {
  courseId: string;
  unitId: string;
  note: string;
}

export interface AuthoringStore {
  /** Runs `work` in a read transaction: a consistent view, no writes. */
  read<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /** Runs `work` in a write transaction; any thrown error rolls everything back. */
  write<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  close(): void;
}
