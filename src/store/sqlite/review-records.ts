/**
 * The SQLite statements for review and publishing: comments, published snapshots, and the course's
 * assets read in one go for validation. `SqliteTransaction` extends this class, so these are plain
 * `StoreTransaction` methods running on the same connection and inside the same transaction.
 */
import { assetFromRecord, commentFromRecord, publicationListingFromRecord } from "../sql/records.ts";
import type { Database, SQLQueryBindings } from "bun:sqlite";
import type { AssetRow, CommentQuery, CommentRow, CommentTargetKind, JsonObject, PublicationListing, PublicationRow } from "../types.ts";

type Bindings = SQLQueryBindings[];
type SqlRecord = Record<string, unknown>;

/** Open comments sort before resolved ones; `resolved_at IS NOT NULL` is that rank as 0 or 1. */
const resolvedRank = "(resolved_at IS NOT NULL)";

export class SqliteReviewRecords {
  constructor(protected readonly database: Database) {}

  /** The prepared statement for `sql` (bun:sqlite caches each by its SQL); every statement helper goes through it. */
  protected statement(sql: string) {
    return this.database.query<SqlRecord, Bindings>(sql);
  }

  /** Statement helpers shared with `SqliteTransaction`. */
  protected all(sql: string, bindings: Bindings): SqlRecord[] {
    return this.statement(sql).all(...bindings);
  }

  protected get(sql: string, bindings: Bindings): SqlRecord | undefined {
    return this.statement(sql).get(...bindings) ?? undefined;
  }

  /** Runs a statement and returns how many rows it changed. */
  protected run(sql: string, bindings: Bindings): number {
    return this.statement(sql).run(...bindings).changes;
  }

  async listAllAssets(courseId: string): Promise<AssetRow[]> {
    return this.all("SELECT * FROM assets WHERE course_id = ? ORDER BY created_at, id", [courseId]).map(assetFromRecord);
  }

  async insertComment(row: CommentRow): Promise<void> {
    this.run(
      `INSERT INTO comments (id, course_id, target_kind, target_id, body, quote, author_sub, author_name, created_at, resolved_by, resolved_at, resolution_note)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [row.id, row.courseId, row.targetKind, row.targetId, row.body, row.quote, row.authorSub, row.authorName, row.createdAt, row.resolvedBy, row.resolvedAt, row.resolutionNote],
    );
  }

  async findComment(courseId: string, commentId: string): Promise<CommentRow | undefined> {
    const record = this.get("SELECT * FROM comments WHERE course_id = ? AND id = ?", [courseId, commentId]);
    return record ? commentFromRecord(record) : undefined;
  }

  async updateComment(commentId: string, fields: Pick<CommentRow, "resolvedBy" | "resolvedAt" | "resolutionNote">): Promise<void> {
    this.run("UPDATE comments SET resolved_by = ?, resolved_at = ?, resolution_note = ? WHERE id = ?", [
      fields.resolvedBy,
      fields.resolvedAt,
      fields.resolutionNote,
      commentId,
    ]);
  }

  async listComments(query: CommentQuery): Promise<CommentRow[]> {
    const conditions = ["course_id = ?"];
    const bindings: Bindings = [query.courseId];
    if (query.resolved !== undefined) conditions.push(query.resolved ? "resolved_at IS NOT NULL" : "resolved_at IS NULL");
    if (query.targetId !== undefined) {
      conditions.push("target_id = ?");
      bindings.push(query.targetId);
    }
    if (query.after) {
      const rank = query.after.resolved ? 1 : 0;
      conditions.push(`(${resolvedRank} > ? OR (${resolvedRank} = ? AND (created_at > ? OR (created_at = ? AND id > ?))))`);
      bindings.push(rank, rank, query.after.createdAt, query.after.createdAt, query.after.id);
    }
    bindings.push(query.limit);
    const sql = `SELECT * FROM comments WHERE ${conditions.join(" AND ")} ORDER BY ${resolvedRank}, created_at, id LIMIT CAST(? AS INTEGER)`;
    return this.all(sql, bindings).map(commentFromRecord);
  }

  async countComments(courseId: string, targetId?: string): Promise<{ open: number; resolved: number }> {
    const record = this.get(
      `SELECT COALESCE(SUM(resolved_at IS NULL), 0) AS open, COALESCE(SUM(resolved_at IS NOT NULL), 0) AS resolved
       FROM comments WHERE course_id = ?${targetId === undefined ? "" : " AND target_id = ?"}`,
      targetId === undefined ? [courseId] : [courseId, targetId],
    );
    return { open: Number(record?.open ?? 0), resolved: Number(record?.resolved ?? 0) };
  }

  async insertPublication(row: PublicationRow): Promise<void> {
    this.run(
      "INSERT INTO publications (course_id, version, published_by, published_at, content_fingerprint, document) VALUES (?, ?, ?, ?, ?, ?)",
      [row.courseId, row.version, row.publishedBy, row.publishedAt, row.contentFingerprint, JSON.stringify(row.document)],
    );
  }

  async latestPublication(courseId: string): Promise<PublicationListing | undefined> {
    const record = this.get(
      "SELECT course_id, version, published_by, published_at, content_fingerprint FROM publications WHERE course_id = ? ORDER BY version DESC LIMIT 1",
      [courseId],
    );
    return record ? publicationListingFromRecord(record) : undefined;
  }

  async findPublication(courseId: string, version: number): Promise<PublicationRow | undefined> {
    const record = this.get("SELECT * FROM publications WHERE course_id = ? AND version = ?", [courseId, version]);
    return record ? { ...publicationListingFromRecord(record), document: JSON.parse(String(record.document)) as JsonObject } : undefined;
  }
}




