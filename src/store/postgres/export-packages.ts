/**
 * Export packages in PostgreSQL, so a link made on one replica is read through any other and no
 * replica keeps local files. A package streams in as it is built: chunks of about 1 MB go to
 * `export_chunks` one by one (memory stays flat) under a row in `export_packages` that becomes visible
 * only when the last chunk is written; a failed build deletes its row and chunks. Expired packages, and
 * builds whose replica died part-way, are deleted by whichever replica sweeps first: the DELETE is
 * atomic, so racing sweepers never remove anything twice or anything live.
 */
import type { SQL } from "bun";
import { defaultEmbedLimitBytes, defaultExportTtlMs, type KeptPackagesLimit, type NewExport, type PackageStorage, type StoredExport } from "../packages.ts";
import { classifiedQuery } from "./connect.ts";

const chunkBytes = 1024 * 1024;

export interface PostgresExportStoreOptions {
  /** Makes an export ID (`exp_…`), in the domain's ID grammar. */
  readonly newExportId: () => string;
  /** Unexpired packages (finished or being built, on any replica) one user may keep. */
  readonly kept?: KeptPackagesLimit;
  readonly ttlMs?: number;
  readonly embedLimitBytes?: number;
  readonly now?: () => Date;
}

export class PostgresExportStore implements PackageStorage {
  private readonly ttlMs: number;
  private readonly now: () => Date;
  readonly embedLimitBytes: number;
  /** Packages being written by this replica right now (a metric). */
  inFlight = 0;

  constructor(
    private readonly sql: SQL,
    private readonly options: PostgresExportStoreOptions,
  ) {
    this.ttlMs = options.ttlMs ?? defaultExportTtlMs;
    this.embedLimitBytes = options.embedLimitBytes ?? defaultEmbedLimitBytes;
    this.now = options.now ?? (() => new Date());
  }

  private query<T = Record<string, unknown>>(text: string, bindings: unknown[] = []): Promise<T[] & { count: number | null }> {
    return classifiedQuery<T>(this.sql, text, bindings);
  }

  async save(description: NewExport, stream: ReadableStream<Uint8Array>, onBytes?: (written: number) => void): Promise<StoredExport> {
    await this.sweepExpired(description.courseId);
    await this.assertKeptWithinLimit(description.createdBy);
    const exportId = this.options.newExportId();
    const createdAt = this.now();
    const expiresAt = new Date(createdAt.getTime() + this.ttlMs);
    // The row exists from the start so a replica that dies mid-build leaves something the sweep finds.
    await this.query("INSERT INTO export_packages (id, course_id, record, complete, expires_at) VALUES ($1, $2, $3, FALSE, $4)", [
      exportId,
      description.courseId,
      JSON.stringify({ ...description, exportId }),
      expiresAt.toISOString(),
    ]);
    this.inFlight++;
    let size = 0;
    try {
      let pending: Uint8Array[] = [];
      let pendingBytes = 0;
      let seq = 0;
      const flush = async () => {
        if (pendingBytes === 0) return;
        await this.query("INSERT INTO export_chunks (export_id, seq, bytes) VALUES ($1, $2, $3)", [exportId, seq++, Buffer.concat(pending, pendingBytes)]);
        pending = [];
        pendingBytes = 0;
      };
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pending.push(value);
        pendingBytes += value.byteLength;
        size += value.byteLength;
        onBytes?.(size);
        if (pendingBytes >= chunkBytes) await flush();
      }
      await flush();
      const record: StoredExport = { ...description, exportId, size, createdAt: createdAt.toISOString(), expiresAt: expiresAt.toISOString() };
      await this.query("UPDATE export_packages SET record = $2, complete = TRUE WHERE id = $1", [exportId, JSON.stringify(record)]);
      return record;
    } catch (error) {
      await this.query("DELETE FROM export_packages WHERE id = $1", [exportId]).catch(() => undefined);
      throw error;
    } finally {
      this.inFlight--;
    }
  }

  /** Counts the user's unexpired packages on every replica, builds under way included (their row exists from the start). */
  private async assertKeptWithinLimit(user: string): Promise<void> {
    const kept = this.options.kept;
    if (!kept) return;
    const [row] = await this.query<{ count: string | number; soonest: string | Date | null }>(
      "SELECT COUNT(*) AS count, MIN(expires_at) AS soonest FROM export_packages WHERE record::jsonb ->> 'createdBy' = $1 AND expires_at > $2",
      [user, this.now().toISOString()],
    );
    const current = Number(row?.count ?? 0);
    if (current + 1 > kept.perUser) throw kept.refuse(user, current, row?.soonest ? new Date(row.soonest) : undefined);
  }

  async find(courseId: string, exportId: string): Promise<StoredExport | null> {
    await this.sweepExpired(courseId);
    const [row] = await this.query<{ record: string }>(
      "SELECT record FROM export_packages WHERE id = $1 AND course_id = $2 AND complete AND expires_at > $3",
      [exportId, courseId, this.now().toISOString()],
    );
    return row ? (JSON.parse(row.record) as StoredExport) : null;
  }

  async readBytes(record: StoredExport): Promise<Uint8Array> {
    const chunks = await this.query<{ bytes: Uint8Array }>("SELECT bytes FROM export_chunks WHERE export_id = $1 ORDER BY seq", [record.exportId]);
    const bytes = Buffer.concat(chunks.map((chunk) => chunk.bytes));
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async delete(record: Pick<StoredExport, "courseId" | "exportId" | "fileName">): Promise<void> {
    await this.query("DELETE FROM export_packages WHERE id = $1 AND course_id = $2", [record.exportId, record.courseId]);
  }

  async sweepExpired(courseId?: string): Promise<number> {
    const now = this.now().toISOString();
    const result = courseId
      ? await this.query("DELETE FROM export_packages WHERE course_id = $1 AND expires_at <= $2", [courseId, now])
      : await this.query("DELETE FROM export_packages WHERE expires_at <= $1", [now]);
    return Number(result.count ?? 0);
  }

  async deleteCourseExports(courseId: string): Promise<void> {
    await this.query("DELETE FROM export_packages WHERE course_id = $1", [courseId]);
  }
}
