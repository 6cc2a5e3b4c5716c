/**
 * Chunked upload sessions for both stores: one row per upload (who, which course, the file's declared
 * name and size, how many chunks arrived) and its chunks as base64 text (portable across SQLite and
 * PostgreSQL). A chunk is accepted only as the next one in order, by a single conditional update, so two
 * racing sends of one chunk cannot both land. Finishing, cancelling or expiring deletes both, and the
 * store may then give the chunks' space back to the file system (`reclaimFreedSpace`).
 */
import type { UploadRow } from "../types.ts";
import type { SqlRecord } from "./statements.ts";
import { SqlTaskRecords } from "./task-records.ts";

export const uploadTablesSql = `
  CREATE TABLE uploads (
    upload_id TEXT PRIMARY KEY, owner_sub TEXT NOT NULL, course_id TEXT NOT NULL, filename TEXT NOT NULL,
    media_type TEXT, byte_size INTEGER NOT NULL, chunk_bytes INTEGER NOT NULL,
    chunks_received INTEGER NOT NULL DEFAULT 0, bytes_received INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL, expires_at TEXT NOT NULL
  );
  CREATE INDEX uploads_by_owner ON uploads (owner_sub, created_at);
  CREATE INDEX uploads_by_expiry ON uploads (expires_at);
  CREATE TABLE upload_chunks (upload_id TEXT NOT NULL, chunk_index INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (upload_id, chunk_index));
`;

const columns = "upload_id, owner_sub, course_id, filename, media_type, byte_size, chunk_bytes, chunks_received, bytes_received, created_at, expires_at";

function uploadFromRecord(record: SqlRecord): UploadRow {
  return {
    uploadId: String(record.upload_id),
    ownerSub: String(record.owner_sub),
    courseId: record.course_id === null || record.course_id === undefined ? null : String(record.course_id),
    filename: String(record.filename),
    mediaType: record.media_type === null || record.media_type === undefined ? null : String(record.media_type),
    byteSize: Number(record.byte_size),
    chunkBytes: Number(record.chunk_bytes),
    chunksReceived: Number(record.chunks_received),
    bytesReceived: Number(record.bytes_received),
    createdAt: String(record.created_at),
    expiresAt: String(record.expires_at),
  };
}

export abstract class SqlUploadRecords extends SqlTaskRecords {
  async insertUpload(row: UploadRow): Promise<void> {
    await this.run(
      `INSERT INTO uploads (${columns}) VALUES (?, ?, ?, ?, ?, ${this.dialect.integer}, ${this.dialect.integer}, ${this.dialect.integer}, ${this.dialect.integer}, ?, ?)`,
      [row.uploadId, row.ownerSub, row.courseId, row.filename, row.mediaType, row.byteSize, row.chunkBytes, row.chunksReceived, row.bytesReceived, row.createdAt, row.expiresAt],
    );
  }

  async findUpload(uploadId: string): Promise<UploadRow | undefined> {
    const record = await this.get(`SELECT ${columns} FROM uploads WHERE upload_id = ?`, [uploadId]);
    return record ? uploadFromRecord(record) : undefined;
  }

  /**
   * Bytes declared by the unfinished, unexpired uploads into the courses `courseOwnerSub` owns and into
   * their library: they become that owner's assets when finished, so they count against the owner's
   * asset quota already.
   */
  async openUploadBytes(courseOwnerSub: string, now: string): Promise<number> {
    const record = await this.get(
      `SELECT COALESCE(SUM(byte_size), 0) AS bytes FROM uploads WHERE expires_at >= ?
       AND (course_id IN (SELECT id FROM courses WHERE owner_sub = ?) OR (course_id IS NULL AND owner_sub = ?))`,
      [now, courseOwnerSub, courseOwnerSub],
    );
    return Number(record?.bytes ?? 0);
  }

  async countUploads(ownerSub: string): Promise<number> {
    const record = await this.get("SELECT COUNT(*) AS count FROM uploads WHERE owner_sub = ?", [ownerSub]);
    return Number(record?.count ?? 0);
  }

  /** Stores chunk `index` when it is the next one expected; false when another send got there first. */
  async appendUploadChunk(uploadId: string, index: number, base64: string, bytes: number): Promise<boolean> {
    const changed = await this.run(
      `UPDATE uploads SET chunks_received = chunks_received + 1, bytes_received = bytes_received + ${this.dialect.integer} WHERE upload_id = ? AND chunks_received = ${this.dialect.integer}`,
      [bytes, uploadId, index],
    );
    if (changed !== 1) return false;
    await this.run(`INSERT INTO upload_chunks (upload_id, chunk_index, data) VALUES (?, ${this.dialect.integer}, ?)`, [uploadId, index, base64]);
    return true;
  }

  async readUploadChunks(uploadId: string): Promise<string[]> {
    const records = await this.all("SELECT data FROM upload_chunks WHERE upload_id = ? ORDER BY chunk_index", [uploadId]);
    return records.map((record) => String(record.data));
  }

  async deleteUpload(uploadId: string): Promise<void> {
    const chunks = await this.run("DELETE FROM upload_chunks WHERE upload_id = ?", [uploadId]);
    await this.run("DELETE FROM uploads WHERE upload_id = ?", [uploadId]);
    if (chunks > 0) await this.reclaimFreedSpace();
  }

  /** Removes uploads that were never finished in time, with their chunks; returns how many. */
  async deleteExpiredUploads(now: string): Promise<number> {
    const chunks = await this.run("DELETE FROM upload_chunks WHERE upload_id IN (SELECT upload_id FROM uploads WHERE expires_at < ?)", [now]);
    const uploads = Number(await this.run("DELETE FROM uploads WHERE expires_at < ?", [now]));
    if (chunks > 0) await this.reclaimFreedSpace();
    return uploads;
  }

  /**
   * Gives the pages deleted chunks held back to the file system, where the store keeps freed pages for
   * itself otherwise (SQLite): a user's abandoned megabytes must not stay on disk. Nothing by default:
   * PostgreSQL's autovacuum reuses the space.
   */
  protected async reclaimFreedSpace(): Promise<void> {}
}
