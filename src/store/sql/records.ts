/**
 * Turns result rows into the store's row types, the same for every SQL store: SQLite and PostgreSQL
 * keep the same columns (see tables.ts), so one mapper serves both.
 */
import type { AssetRow, CollaboratorRole, CollaboratorRow, CommentOrigin, CommentRow, CommentTargetKind, PublicationListing, ReviewRoundRow, RevisionRow } from "../types.ts";

type SqlRecord = Record<string, unknown>;

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

export function commentFromRecord(record: SqlRecord): CommentRow {
  return {
    id: String(record.id),
    courseId: String(record.course_id),
    targetKind: String(record.target_kind) as CommentTargetKind,
    targetId: String(record.target_id),
    body: String(record.body),
    quote: nullableText(record.quote),
    authorSub: String(record.author_sub),
    authorName: nullableText(record.author_name),
    createdAt: String(record.created_at),
    resolvedBy: nullableText(record.resolved_by),
    resolvedAt: nullableText(record.resolved_at),
    resolutionNote: nullableText(record.resolution_note),
    origin: record.origin === null || record.origin === undefined ? null : (JSON.parse(String(record.origin)) as CommentOrigin),
    replyTo: nullableText(record.reply_to),
  };
}

export function reviewRoundFromRecord(record: SqlRecord): ReviewRoundRow {
  return {
    id: String(record.id),
    courseId: String(record.course_id),
    courseVersion: Number(record.course_version),
    variant: String(record.variant) === "published" ? "published" : "draft",
    exportId: String(record.export_id),
    dueDate: nullableText(record.due_date),
    reviewers: JSON.parse(String(record.reviewers)) as string[],
    note: nullableText(record.note),
    anchors: JSON.parse(String(record.anchors ?? "{}")) as Record<string, string>,
    createdBy: String(record.created_by),
    createdAt: String(record.created_at),
  };
}

export function publicationListingFromRecord(record: SqlRecord): PublicationListing {
  return {
    courseId: String(record.course_id),
    version: Number(record.version),
    publishedBy: String(record.published_by),
    publishedAt: String(record.published_at),
    contentFingerprint: String(record.content_fingerprint),
  };
}

export function assetFromRecord(record: SqlRecord): AssetRow {
  return {
    id: String(record.id),
    courseId: record.course_id === null || record.course_id === undefined ? null : String(record.course_id),
    filename: String(record.filename),
    mediaType: String(record.media_type),
    byteSize: Number(record.byte_size),
    sha256: String(record.sha256),
    createdBy: String(record.created_by),
    createdAt: String(record.created_at),
  };
}

export function collaboratorFromRecord(record: SqlRecord): CollaboratorRow {
  return {
    courseId: String(record.course_id),
    principalKind: record.principal_kind === "email" ? "email" : "sub",
    principal: String(record.principal),
    role: record.role as CollaboratorRole,
    addedBy: String(record.added_by),
    addedAt: String(record.added_at),
  };
}

export function revisionListingFromRecord(record: SqlRecord): Omit<RevisionRow, "changes"> {
  return {
    id: String(record.id),
    courseId: String(record.course_id),
    version: Number(record.version),
    actorSub: String(record.actor_sub),
    tool: String(record.tool),
    summary: String(record.summary),
    createdAt: String(record.created_at),
  };
}

export function revisionFromRecord(record: SqlRecord): RevisionRow {
  return { ...revisionListingFromRecord(record), changes: JSON.parse(String(record.changes)) as RevisionRow["changes"] };
}
