/**
 * The statements for review and publishing: comments, published snapshots, and the course's assets
 * read in one go for validation. `SqlTransaction` extends this class, so these are plain
 * `StoreTransaction` methods running on the same connection and inside the same transaction.
 */
import type { AssetRow, CommentQuery, CommentRow, JsonObject, PublicationListing, PublicationRow, ReviewReturn, ReviewRoundRow } from "../types.ts";
import { assetFromRecord, commentFromRecord, publicationListingFromRecord, reviewRoundFromRecord } from "./records.ts";
import { SqlStatements, type Bindings } from "./statements.ts";

/** Open comments sort before resolved ones. */
const resolvedRank = "(CASE WHEN resolved_at IS NULL THEN 0 ELSE 1 END)";

export abstract class SqlReviewRecords extends SqlStatements {
  async listAllAssets(courseId: string): Promise<AssetRow[]> {
    return (await this.all("SELECT * FROM assets WHERE course_id = ? ORDER BY created_at, id", [courseId])).map(assetFromRecord);
  }

  async insertComment(row: CommentRow): Promise<void> {
    await this.run(
      `INSERT INTO comments (id, course_id, target_kind, target_id, body, quote, author_sub, author_name, created_at, resolved_by, resolved_at, resolution_note,
         origin, round_id, origin_key, review_kind, reply_to)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.id, row.courseId, row.targetKind, row.targetId, row.body, row.quote, row.authorSub, row.authorName, row.createdAt, row.resolvedBy, row.resolvedAt, row.resolutionNote,
        row.origin ? JSON.stringify(row.origin) : null,
        row.origin?.roundId ?? null,
        row.origin ? `${row.origin.roundId}:${row.origin.reviewCommentId}` : null,
        row.origin?.kind ?? null,
        row.replyTo ?? null,
      ],
    );
  }

  async findComment(courseId: string, commentId: string): Promise<CommentRow | undefined> {
    const record = await this.get("SELECT * FROM comments WHERE course_id = ? AND id = ?", [courseId, commentId]);
    return record ? commentFromRecord(record) : undefined;
  }

  async updateComment(commentId: string, fields: Pick<CommentRow, "resolvedBy" | "resolvedAt" | "resolutionNote">): Promise<void> {
    await this.run("UPDATE comments SET resolved_by = ?, resolved_at = ?, resolution_note = ? WHERE id = ?", [
      fields.resolvedBy,
      fields.resolvedAt,
      fields.resolutionNote,
      commentId,
    ]);
  }

  async listComments(query: CommentQuery): Promise<CommentRow[]> {
    const integer = this.dialect.integer;
    const conditions = ["course_id = ?"];
    const bindings: Bindings = [query.courseId];
    if (query.resolved !== undefined) conditions.push(query.resolved ? "resolved_at IS NOT NULL" : "resolved_at IS NULL");
    if (query.targetId !== undefined) {
      conditions.push("target_id = ?");
      bindings.push(query.targetId);
    }
    if (query.after) {
      const rank = query.after.resolved ? 1 : 0;
      conditions.push(`(${resolvedRank} > ${integer} OR (${resolvedRank} = ${integer} AND (created_at > ? OR (created_at = ? AND id > ?))))`);
      bindings.push(rank, rank, query.after.createdAt, query.after.createdAt, query.after.id);
    }
    bindings.push(query.limit);
    const sql = `SELECT * FROM comments WHERE ${conditions.join(" AND ")} ORDER BY ${resolvedRank}, created_at, id LIMIT ${integer}`;
    return (await this.all(sql, bindings)).map(commentFromRecord);
  }

  async countComments(courseId: string, targetId?: string): Promise<{ open: number; resolved: number }> {
    const record = await this.get(
      `SELECT COUNT(*) FILTER (WHERE resolved_at IS NULL) AS open, COUNT(*) FILTER (WHERE resolved_at IS NOT NULL) AS resolved
       FROM comments WHERE course_id = ?${targetId === undefined ? "" : " AND target_id = ?"}`,
      targetId === undefined ? [courseId] : [courseId, targetId],
    );
    return { open: Number(record?.open ?? 0), resolved: Number(record?.resolved ?? 0) };
  }

  async listReviewCommentIds(courseId: string, roundId: string): Promise<Map<string, { commentId: string; open: boolean }>> {
    const records = await this.all("SELECT id, origin_key, resolved_at FROM comments WHERE course_id = ? AND round_id = ?", [courseId, roundId]);
    return new Map(records.map((record) => [String(record.origin_key).slice(roundId.length + 1), { commentId: String(record.id), open: record.resolved_at === null || record.resolved_at === undefined }]));
  }

  async insertReviewRound(row: ReviewRoundRow): Promise<void> {
    await this.run(
      `INSERT INTO review_rounds (id, course_id, course_version, variant, export_id, due_date, reviewers, note, anchors, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [row.id, row.courseId, row.courseVersion, row.variant, row.exportId, row.dueDate, JSON.stringify(row.reviewers), row.note, JSON.stringify(row.anchors), row.createdBy, row.createdAt],
    );
  }

  async findReviewRound(courseId: string, roundId: string): Promise<ReviewRoundRow | undefined> {
    const record = await this.get("SELECT * FROM review_rounds WHERE course_id = ? AND id = ?", [courseId, roundId]);
    return record ? reviewRoundFromRecord(record) : undefined;
  }

  async listReviewRounds(courseId: string, limit: number): Promise<ReviewRoundRow[]> {
    // The anchors are left out of listings: a large course's run to hundreds of KB.
    const records = await this.all(`SELECT id, course_id, course_version, variant, export_id, due_date, reviewers, note, '{}' AS anchors, created_by, created_at FROM review_rounds WHERE course_id = ? ORDER BY created_at DESC, id DESC LIMIT ${this.dialect.integer}`, [courseId, limit]);
    return records.map(reviewRoundFromRecord);
  }

  async reviewReturns(courseId: string, roundIds: readonly string[]): Promise<ReviewReturn[]> {
    if (roundIds.length === 0) return [];
    const records = await this.all(
      `SELECT round_id, author_name, review_kind, COUNT(*) AS comments, COUNT(*) FILTER (WHERE resolved_at IS NULL) AS open, MAX(created_at) AS last_at
       FROM comments WHERE course_id = ? AND round_id IN (${roundIds.map(() => "?").join(", ")})
       GROUP BY round_id, author_name, review_kind ORDER BY round_id, author_name, review_kind`,
      [courseId, ...roundIds],
    );
    return records.map((record) => ({
      roundId: String(record.round_id),
      author: String(record.author_name ?? ""),
      kind: String(record.review_kind ?? ""),
      comments: Number(record.comments),
      open: Number(record.open),
      lastAt: String(record.last_at),
    }));
  }

  async insertPublication(row: PublicationRow): Promise<void> {
    await this.run(
      "INSERT INTO publications (course_id, version, published_by, published_at, content_fingerprint, document) VALUES (?, ?, ?, ?, ?, ?)",
      [row.courseId, row.version, row.publishedBy, row.publishedAt, row.contentFingerprint, JSON.stringify(row.document)],
    );
  }

  async latestPublication(courseId: string): Promise<PublicationListing | undefined> {
    const record = await this.get(
      "SELECT course_id, version, published_by, published_at, content_fingerprint FROM publications WHERE course_id = ? ORDER BY version DESC LIMIT 1",
      [courseId],
    );
    return record ? publicationListingFromRecord(record) : undefined;
  }

  async findPublication(courseId: string, version: number): Promise<PublicationRow | undefined> {
    const record = await this.get("SELECT * FROM publications WHERE course_id = ? AND version = ?", [courseId, version]);
    return record ? { ...publicationListingFromRecord(record), document: JSON.parse(String(record.document)) as JsonObject } : undefined;
  }
}
