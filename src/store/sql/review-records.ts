/**
 * The statements for review and publishing: comments, published snapshots, and the course's assets
 * read in one go for validation. `SqlTransaction` extends this class, so these are plain
 * `StoreTransaction` methods running on the same connection and inside the same transaction.
 */
import type { AssetRow, CommentQuery, CommentRow, JsonObject, PublicationListing, PublicationRow } from "../types.ts";
import { assetFromRecord, commentFromRecord, publicationListingFromRecord } from "./records.ts";
import { SqlStatements, type Bindings } from "./statements.ts";

/** Open comments sort before resolved ones. */
const resolvedRank = "(CASE WHEN resolved_at IS NULL THEN 0 ELSE 1 END)";

export abstract class SqlReviewRecords extends SqlStatements {
  async listAllAssets(courseId: string): Promise<AssetRow[]> {
    return (await this.all("SELECT * FROM assets WHERE course_id = ? ORDER BY created_at, id", [courseId])).map(assetFromRecord);
  }

  async insertComment(row: CommentRow): Promise<void> {
    await this.run(
      `INSERT INTO comments (id, course_id, target_kind, target_id, body, quote, author_sub, author_name, created_at, resolved_by, resolved_at, resolution_note)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [row.id, row.courseId, row.targetKind, row.targetId, row.body, row.quote, row.authorSub, row.authorName, row.createdAt, row.resolvedBy, row.resolvedAt, row.resolutionNote],
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
