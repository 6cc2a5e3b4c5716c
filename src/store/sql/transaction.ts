/**
 * The `StoreTransaction` written once in SQL for both stores. A dialect's transaction supplies the
 * executor and the few spellings that differ (`SqlDialect`); every statement, its bindings and the
 * mapping of its rows live here, so the two stores cannot drift apart.
 */
import type {
  AssetRow,
  CollaboratorRole,
  CollaboratorRow,
  CourseQuery,
  CourseRow,
  CourseUsage,
  EntityKind,
  EntityRows,
  HistoryUsage,
  OrderedKind,
  OwnerUsage,
  RevisionListing,
  RevisionRow,
  RevisionSize,
  StoreTransaction,
} from "../types.ts";
import { foldCase } from "./fold.ts";
import { assetFromRecord, collaboratorFromRecord, revisionFromRecord, revisionListingFromRecord } from "./records.ts";
import { SqlResultRecords } from "./result-records.ts";
import { chunkHashesOf, revisionMetadataBytes, storedChanges, type ChangeChunk } from "./revision-chunks.ts";
import type { Bindings, SqlRecord } from "./statements.ts";
import { fromColumns, parentColumn, tables, toColumns } from "./tables.ts";

/** The largest INTEGER on either store (versions are 32-bit on PostgreSQL); "before no version" pages from the newest. */
const largestVersion = 2147483647;

export abstract class SqlTransaction extends SqlResultRecords implements StoreTransaction {
  async insert<K extends EntityKind>(kind: K, row: EntityRows[K]): Promise<void> {
    const values = toColumns(kind, row);
    const columns = [...values.keys()];
    await this.run(`INSERT INTO ${tables[kind].table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, [...values.values()]);
  }

  async update<K extends EntityKind>(kind: K, id: string, fields: Partial<EntityRows[K]>): Promise<void> {
    const values = toColumns(kind, fields);
    if (values.size === 0) return;
    const assignments = [...values.keys()].map((column) => `${column} = ?`).join(", ");
    await this.run(`UPDATE ${tables[kind].table} SET ${assignments} WHERE id = ?`, [...values.values(), id]);
  }

  async remove(kind: EntityKind, id: string): Promise<void> {
    await this.run(`DELETE FROM ${tables[kind].table} WHERE id = ?`, [id]);
  }

  async find<K extends EntityKind>(kind: K, id: string): Promise<EntityRows[K] | undefined> {
    const record = await this.get(`SELECT * FROM ${tables[kind].table} WHERE id = ?`, [id]);
    return record ? fromColumns(kind, record) : undefined;
  }

  async listInCourse<K extends OrderedKind>(kind: K, courseId: string): Promise<EntityRows[K][]> {
    const records = await this.all(`SELECT * FROM ${tables[kind].table} WHERE course_id = ? ORDER BY ${parentColumn(kind)}, position, id`, [courseId]);
    return records.map((record) => fromColumns(kind, record));
  }

  async listChildren<K extends OrderedKind>(kind: K, parentId: string): Promise<EntityRows[K][]> {
    const records = await this.all(`SELECT * FROM ${tables[kind].table} WHERE ${parentColumn(kind)} = ? ORDER BY position, id`, [parentId]);
    return records.map((record) => fromColumns(kind, record));
  }

  async countChildren(kind: OrderedKind, parentId: string): Promise<number> {
    const record = await this.get(`SELECT COUNT(*) AS count FROM ${tables[kind].table} WHERE ${parentColumn(kind)} = ?`, [parentId]);
    return Number(record?.count ?? 0);
  }

  async positionsAround(kind: OrderedKind, parentId: string, index: number, excludeId = "") {
    const integer = this.dialect.integer;
    const sql = `SELECT position FROM ${tables[kind].table} WHERE ${parentColumn(kind)} = ? AND id <> ? ORDER BY position, id LIMIT ${integer} OFFSET ${integer}`;
    if (index === 0) {
      const first = await this.get(sql, [parentId, excludeId, 1, 0]);
      return { before: null, after: first ? Number(first.position) : null };
    }
    const [before, after] = await this.all(sql, [parentId, excludeId, 2, index - 1]);
    return { before: before ? Number(before.position) : null, after: after ? Number(after.position) : null };
  }

  async listCourses(query: CourseQuery): Promise<CourseRow[]> {
    const conditions = [
      `(c.owner_sub = ? OR EXISTS (SELECT 1 FROM collaborators k WHERE k.course_id = c.id AND
        ((k.principal_kind = 'sub' AND k.principal = ?) OR (k.principal_kind = 'email' AND k.principal = ?))))`,
    ];
    const bindings: Bindings = [query.sub, query.sub, query.email ?? ""];
    if (query.status) {
      conditions.push("c.status = ?");
      bindings.push(query.status);
    }
    if (query.titleContains) {
      const contains = this.dialect.contains("c.title_folded", foldCase(query.titleContains));
      conditions.push(contains.sql);
      bindings.push(...contains.bindings);
    }
    if (query.after) {
      conditions.push("(c.created_at < ? OR (c.created_at = ? AND c.id < ?))");
      bindings.push(query.after.createdAt, query.after.createdAt, query.after.id);
    }
    bindings.push(query.limit);
    const sql = `SELECT c.* FROM courses c WHERE ${conditions.join(" AND ")} ORDER BY c.created_at DESC, c.id DESC LIMIT ${this.dialect.integer}`;
    return (await this.all(sql, bindings)).map((record) => fromColumns("course", record));
  }

  async deleteCourse(courseId: string): Promise<void> {
    await this.run("DELETE FROM courses WHERE id = ?", [courseId]);
    await this.run("DELETE FROM asset_blobs WHERE NOT EXISTS (SELECT 1 FROM assets a WHERE a.sha256 = asset_blobs.sha256)", []);
  }

  async courseUsage(courseId: string): Promise<CourseUsage> {
    const record = await this.get("SELECT lessons, blocks, content_bytes FROM course_usage WHERE course_id = ?", [courseId]);
    return { lessons: Number(record?.lessons ?? 0), blocks: Number(record?.blocks ?? 0), contentBytes: Number(record?.content_bytes ?? 0) };
  }

  async addCourseUsage(courseId: string, delta: CourseUsage): Promise<void> {
    await this.run(
      `INSERT INTO course_usage (course_id, lessons, blocks, content_bytes) VALUES (?, ?, ?, ?)
       ON CONFLICT (course_id) DO UPDATE SET lessons = course_usage.lessons + excluded.lessons, blocks = course_usage.blocks + excluded.blocks,
       content_bytes = course_usage.content_bytes + excluded.content_bytes`,
      [courseId, delta.lessons, delta.blocks, delta.contentBytes],
    );
  }

  async ownerUsage(ownerSub: string): Promise<OwnerUsage> {
    const record = await this.get(
      `SELECT (SELECT COUNT(*) FROM courses WHERE owner_sub = ?) AS courses,
       (SELECT COALESCE(SUM(a.byte_size), 0) FROM courses c JOIN assets a ON a.course_id = c.id WHERE c.owner_sub = ?)
       + (SELECT COALESCE(SUM(byte_size), 0) FROM assets WHERE course_id IS NULL AND created_by = ?) AS asset_bytes`,
      [ownerSub, ownerSub, ownerSub],
    );
    return { courses: Number(record?.courses ?? 0), assetBytes: Number(record?.asset_bytes ?? 0) };
  }

  async listCollaborators(courseId: string): Promise<CollaboratorRow[]> {
    return (await this.all("SELECT * FROM collaborators WHERE course_id = ? ORDER BY added_at, principal", [courseId])).map(collaboratorFromRecord);
  }

  async rolesOf(courseId: string, sub: string, email: string | null): Promise<CollaboratorRole[]> {
    const records = await this.all(
      `SELECT role FROM collaborators WHERE course_id = ? AND
       ((principal_kind = 'sub' AND principal = ?) OR (principal_kind = 'email' AND principal = ?))`,
      [courseId, sub, email ?? ""],
    );
    return records.map((record) => record.role as CollaboratorRole);
  }

  async putCollaborator(row: CollaboratorRow): Promise<void> {
    await this.run(
      `INSERT INTO collaborators (course_id, principal_kind, principal, role, added_by, added_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (course_id, principal_kind, principal) DO UPDATE SET role = excluded.role`,
      [row.courseId, row.principalKind, row.principal, row.role, row.addedBy, row.addedAt],
    );
  }

  async removeCollaborator(courseId: string, principalKind: CollaboratorRow["principalKind"], principal: string): Promise<boolean> {
    return (await this.run("DELETE FROM collaborators WHERE course_id = ? AND principal_kind = ? AND principal = ?", [courseId, principalKind, principal])) > 0;
  }

  async insertAsset(row: AssetRow, bytes: Uint8Array): Promise<void> {
    await this.run("INSERT INTO asset_blobs (sha256, bytes) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING", [row.sha256, bytes]);
    await this.insertAssetRow(row);
  }

  async copyAsset(source: AssetRow, target: { id: string; courseId: string; createdBy: string; createdAt: string }): Promise<void> {
    await this.insertAssetRow({ ...source, ...target });
  }

  private async insertAssetRow(row: AssetRow): Promise<void> {
    await this.run(
      "INSERT INTO assets (id, course_id, filename, media_type, byte_size, sha256, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      [row.id, row.courseId, row.filename, row.mediaType, row.byteSize, row.sha256, row.createdBy, row.createdAt],
    );
  }

  async findAsset(id: string): Promise<AssetRow | undefined> {
    const record = await this.get("SELECT * FROM assets WHERE id = ?", [id]);
    return record ? assetFromRecord(record) : undefined;
  }

  async readAssetBytes(id: string): Promise<Uint8Array | undefined> {
    const record = await this.get("SELECT b.bytes FROM assets a JOIN asset_blobs b ON b.sha256 = a.sha256 WHERE a.id = ?", [id]);
    const bytes = record?.bytes;
    // A plain Uint8Array over the driver's memory, whatever subclass (a Node Buffer) the driver hands back.
    return bytes instanceof Uint8Array ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : undefined;
  }

  async listAssets(courseId: string, after: { createdAt: string; id: string } | undefined, limit: number): Promise<AssetRow[]> {
    const integer = this.dialect.integer;
    const records = after
      ? await this.all(
          `SELECT * FROM assets WHERE course_id = ? AND (created_at > ? OR (created_at = ? AND id > ?)) ORDER BY created_at, id LIMIT ${integer}`,
          [courseId, after.createdAt, after.createdAt, after.id, limit],
        )
      : await this.all(`SELECT * FROM assets WHERE course_id = ? ORDER BY created_at, id LIMIT ${integer}`, [courseId, limit]);
    return records.map(assetFromRecord);
  }

  async listLibraryAssets(ownerSub: string, after: { createdAt: string; id: string } | undefined, limit: number): Promise<AssetRow[]> {
    const integer = this.dialect.integer;
    const records = after
      ? await this.all(
          `SELECT * FROM assets WHERE course_id IS NULL AND created_by = ? AND (created_at > ? OR (created_at = ? AND id > ?)) ORDER BY created_at, id LIMIT ${integer}`,
          [ownerSub, after.createdAt, after.createdAt, after.id, limit],
        )
      : await this.all(`SELECT * FROM assets WHERE course_id IS NULL AND created_by = ? ORDER BY created_at, id LIMIT ${integer}`, [ownerSub, limit]);
    return records.map(assetFromRecord);
  }

  async insertRevision(row: RevisionRow): Promise<number> {
    const stored = storedChanges(row.changes);
    let added = Buffer.byteLength(stored.column) + revisionMetadataBytes(row);
    const uses = new Map<string, { chunk: ChangeChunk; count: number }>();
    for (const chunk of stored.chunks) {
      const use = uses.get(chunk.hash);
      if (use) use.count += 1;
      else uses.set(chunk.hash, { chunk, count: 1 });
    }
    const kept = new Set((await this.chunkRecords(row.courseId, [...uses.keys()], "hash")).map((record) => String(record.hash)));
    for (const { chunk, count } of uses.values()) {
      if (kept.has(chunk.hash)) {
        await this.run("UPDATE revision_chunks SET refs = refs + ? WHERE course_id = ? AND hash = ?", [count, row.courseId, chunk.hash]);
      } else {
        await this.run("INSERT INTO revision_chunks (course_id, hash, content, bytes, refs) VALUES (?, ?, ?, ?, ?)", [row.courseId, chunk.hash, chunk.content, chunk.bytes, count]);
        added += chunk.bytes;
      }
    }
    await this.run(
      `INSERT INTO revisions (id, course_id, version, actor_sub, tool, summary, changes, change_count, created_at, bytes, squashed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      [row.id, row.courseId, row.version, row.actorSub, row.tool, row.summary, stored.column, row.changes.length, row.createdAt, Buffer.byteLength(stored.column) + revisionMetadataBytes(row)],
    );
    await this.run(
      `INSERT INTO course_usage (course_id, lessons, blocks, content_bytes, history_bytes) VALUES (?, 0, 0, 0, ?)
       ON CONFLICT (course_id) DO UPDATE SET history_bytes = course_usage.history_bytes + excluded.history_bytes`,
      [row.courseId, added],
    );
    return added;
  }

  /** Chunk rows of a course by hash, in batches that stay under either store's bound-parameter limit. */
  private async chunkRecords(courseId: string, hashes: readonly string[], columns: string) {
    const records = [];
    for (let start = 0; start < hashes.length; start += 500) {
      const batch = hashes.slice(start, start + 500);
      records.push(...(await this.all(`SELECT ${columns} FROM revision_chunks WHERE course_id = ? AND hash IN (${batch.map(() => "?").join(", ")})`, [courseId, ...batch])));
    }
    return records;
  }

  /** Revision records with their chunked change lists put back together. */
  private async revisionsFromRecords(courseId: string, records: readonly SqlRecord[]): Promise<RevisionRow[]> {
    const hashesByRecord = records.map((record) => chunkHashesOf(String(record.changes)));
    const wanted = [...new Set(hashesByRecord.flatMap((hashes) => hashes ?? []))];
    // Each chunk is parsed once however many revisions share it (its changes are only read, never changed).
    const chunks = new Map((await this.chunkRecords(courseId, wanted, "hash, content")).map((record) => [String(record.hash), JSON.parse(String(record.content)) as RevisionRow["changes"]]));
    return records.map((record, index) => {
      const hashes = hashesByRecord[index];
      if (!hashes) return revisionFromRecord(record);
      const changes = hashes.flatMap((hash) => {
        const chunk = chunks.get(hash);
        if (chunk === undefined) throw new Error(`revision ${String(record.id)} references a missing history chunk ${hash}`);
        return chunk;
      });
      return { ...revisionListingFromRecord(record), changes };
    });
  }

  async findRevision(courseId: string, revisionId: string): Promise<RevisionRow | undefined> {
    const record = await this.get("SELECT * FROM revisions WHERE course_id = ? AND id = ?", [courseId, revisionId]);
    return record ? (await this.revisionsFromRecords(courseId, [record]))[0] : undefined;
  }

  async listRevisions(courseId: string, beforeVersion: number | undefined, limit: number): Promise<RevisionListing[]> {
    const integer = this.dialect.integer;
    const records = await this.all(
      `SELECT id, course_id, version, actor_sub, tool, summary, change_count, created_at, squashed FROM revisions
       WHERE course_id = ? AND version < ${integer} ORDER BY version DESC LIMIT ${integer}`,
      [courseId, Math.min(beforeVersion ?? largestVersion, largestVersion), limit],
    );
    return records.map((record) => ({ ...revisionListingFromRecord(record), changeCount: Number(record.change_count), squashed: Number(record.squashed) === 1 }));
  }

  async revisionsAfter(courseId: string, version: number): Promise<RevisionRow[]> {
    const records = await this.all(`SELECT * FROM revisions WHERE course_id = ? AND version > ${this.dialect.integer} ORDER BY version DESC`, [courseId, version]);
    return this.revisionsFromRecords(courseId, records);
  }

  async historyUsage(courseId: string): Promise<HistoryUsage> {
    const record = await this.get("SELECT history_bytes, history_floor FROM course_usage WHERE course_id = ?", [courseId]);
    return { bytes: Number(record?.history_bytes ?? 0), floorVersion: Number(record?.history_floor ?? 0) };
  }

  async revisionSizes(courseId: string): Promise<RevisionSize[]> {
    const records = await this.all("SELECT version, bytes, squashed FROM revisions WHERE course_id = ? ORDER BY version", [courseId]);
    return records.map((record) => ({ version: Number(record.version), bytes: Number(record.bytes), squashed: Number(record.squashed) === 1 }));
  }

  async squashRevisions(courseId: string, throughVersion: number, dropBelowVersion: number): Promise<void> {
    const integer = this.dialect.integer;
    const records = await this.all(`SELECT id, actor_sub, tool, summary, changes FROM revisions WHERE course_id = ? AND squashed = 0 AND version <= ${integer}`, [courseId, throughVersion]);
    const released = new Map<string, number>();
    for (const record of records) {
      for (const hash of chunkHashesOf(String(record.changes)) ?? []) released.set(hash, (released.get(hash) ?? 0) + 1);
      const metadata = revisionMetadataBytes({ id: String(record.id), actorSub: String(record.actor_sub), tool: String(record.tool), summary: String(record.summary) });
      await this.run("UPDATE revisions SET changes = '[]', squashed = 1, bytes = ? WHERE id = ?", [metadata + 2, record.id]);
    }
    for (const [hash, count] of released) await this.run("UPDATE revision_chunks SET refs = refs - ? WHERE course_id = ? AND hash = ?", [count, courseId, hash]);
    await this.run("DELETE FROM revision_chunks WHERE course_id = ? AND refs <= 0", [courseId]);
    await this.run(`DELETE FROM revisions WHERE course_id = ? AND squashed = 1 AND version < ${integer}`, [courseId, Math.min(dropBelowVersion, throughVersion)]);
    await this.run(
      `UPDATE course_usage SET history_floor = ${integer},
         history_bytes = COALESCE((SELECT SUM(r.bytes) FROM revisions r WHERE r.course_id = course_usage.course_id), 0)
           + COALESCE((SELECT SUM(c.bytes) FROM revision_chunks c WHERE c.course_id = course_usage.course_id), 0)
       WHERE course_id = ?`,
      [throughVersion, courseId],
    );
  }
}
