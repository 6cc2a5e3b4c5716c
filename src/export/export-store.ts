/**
 * Built packages on disk, so a large export is streamed once to a file and then served by
 * `resources/read` of `course://{courseId}/exports/{exportId}` instead of travelling inside a tool
 * result. Each export is `<directory>/<courseId>/<exportId>.<ext>` beside a small `.meta.json`; the
 * package is written to a `.part` file chunk by chunk (memory stays flat) and renamed only when
 * complete, so a failed build leaves nothing behind. Exports expire (24 h by default) and are swept
 * whenever a course's exports are touched.
 */
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { limitExceededError } from "../authoring/limits.ts";
import { idPattern, idPrefixes, idSuffixPattern, randomId } from "../authoring/ids.ts";
import { defaultEmbedLimitBytes, defaultExportTtlMs, type NewExport, type PackageStorage, type StoredExport } from "../store/packages.ts";
import { courseUri, matchCourseUri } from "../course-uris.ts";

export type { NewExport, StoredExport } from "../store/packages.ts";

export { defaultEmbedLimitBytes, defaultExportTtlMs } from "../store/packages.ts";

export interface ExportStoreOptions {
  /** The folder exports live in, e.g. `<dataDir>/exports`. */
  readonly directory: string;
  readonly ttlMs?: number;
  readonly embedLimitBytes?: number;
  readonly now?: () => Date;
  /** Unexpired packages one user may keep (`LIMIT_USER_EXPORTS`); a build past it is refused before it starts. */
  readonly keptPerUser?: number;
}

const courseIdPattern = idPattern("course");
const exportIdPattern = idPattern("export");
const metaFilePattern = new RegExp(`^(${idPrefixes.export}_${idSuffixPattern})\\.meta\\.json$`);

/** `exp_` and 100 random bits, like every ID the domain makes. */
export function newExportId(): string {
  return randomId("export");
}

export function exportUri(courseId: string, exportId: string): string {
  return courseUri("export", { courseId, exportId });
}

/** The course and export IDs of an export URI, or null when `uri` is not one. */
export function parseExportUri(uri: string): { courseId: string; exportId: string } | null {
  const match = matchCourseUri("export", uri);
  return match?.courseId && match.exportId ? { courseId: match.courseId, exportId: match.exportId } : null;
}

function extensionOf(fileName: string): string {
  return /\.(zip|imscc|json|xlf|xml|txt)$/.exec(fileName)?.[1] ?? "bin";
}

/** Package storage as files beside the SQLite database. */
export class ExportStore implements PackageStorage {
  private readonly ttlMs: number;
  private readonly now: () => Date;
  /** Largest package embedded in export_course's result; larger ones are linked. */
  readonly embedLimitBytes: number;

  constructor(private readonly options: ExportStoreOptions) {
    this.ttlMs = options.ttlMs ?? defaultExportTtlMs;
    this.embedLimitBytes = options.embedLimitBytes ?? defaultEmbedLimitBytes;
    this.now = options.now ?? (() => new Date());
  }

  private courseFolder(courseId: string): string {
    if (!courseIdPattern.test(courseId)) throw new Error(`not a course ID: ${courseId}`);
    return join(this.options.directory, courseId);
  }

  private metaPath(courseId: string, exportId: string): string {
    if (!exportIdPattern.test(exportId)) throw new Error(`not an export ID: ${exportId}`);
    return join(this.courseFolder(courseId), `${exportId}.meta.json`);
  }

  private packagePath(record: Pick<StoredExport, "courseId" | "exportId" | "fileName">): string {
    return join(this.courseFolder(record.courseId), `${record.exportId}.${extensionOf(record.fileName)}`);
  }

  /**
   * Drains `stream` into a new export, calling `onBytes` with the running total after each chunk.
   * If the stream fails, the partial file is removed and the error is rethrown.
   */
  async save(description: NewExport, stream: ReadableStream<Uint8Array>, onBytes?: (written: number) => void): Promise<StoredExport> {
    await this.sweepExpired(description.courseId);
    const release = await this.reserve(description.createdBy).catch(async (error: unknown) => {
      // The package stream is lazy: cancelling it before the first read means nothing was built.
      await stream.cancel().catch(() => {});
      throw error;
    });
    try {
      const record = await this.write(description, stream, onBytes);
      this.keptIndex?.set(record.exportId, { courseId: record.courseId, createdBy: record.createdBy, expiresAt: Date.parse(record.expiresAt) });
      return record;
    } finally {
      release();
    }
  }

  /** Packages built and builds under way per user, loaded from the metadata files once and kept up to date. */
  private keptIndex: Map<string, { courseId: string; createdBy: string; expiresAt: number }> | null = null;
  private readonly building = new Map<string, number>();

  /** Holds one of the user's `keptPerUser` places for a build, or refuses with `limit_exceeded`. */
  private async reserve(user: string): Promise<() => void> {
    const limit = this.options.keptPerUser;
    if (limit === undefined) return () => {};
    const index = await this.loadKeptIndex();
    const now = this.now().getTime();
    const kept = [...index.values()].filter((entry) => entry.createdBy === user && entry.expiresAt > now);
    const current = kept.length + (this.building.get(user) ?? 0);
    if (current + 1 > limit) {
      const soonest = Math.min(...kept.map((entry) => entry.expiresAt));
      const when = Number.isFinite(soonest) ? ` The next one expires at ${new Date(soonest).toISOString()}.` : "";
      throw limitExceededError("userExports", limit, user, current, 1, when);
    }
    this.building.set(user, (this.building.get(user) ?? 0) + 1);
    return () => this.building.set(user, (this.building.get(user) ?? 1) - 1);
  }

  private async loadKeptIndex(): Promise<Map<string, { courseId: string; createdBy: string; expiresAt: number }>> {
    if (this.keptIndex) return this.keptIndex;
    const index = new Map<string, { courseId: string; createdBy: string; expiresAt: number }>();
    for (const courseId of (await this.listFolder(this.options.directory)).filter((name) => courseIdPattern.test(name))) {
      for (const name of await this.listFolder(this.courseFolder(courseId))) {
        const exportId = /^(exp_[0-9a-z]{1,64})\.meta\.json$/.exec(name)?.[1];
        const record = exportId ? await this.readMeta(courseId, exportId) : null;
        if (record) index.set(record.exportId, { courseId: record.courseId, createdBy: record.createdBy, expiresAt: Date.parse(record.expiresAt) });
      }
    }
    this.keptIndex ??= index;
    return this.keptIndex;
  }

  private async write(description: NewExport, stream: ReadableStream<Uint8Array>, onBytes?: (written: number) => void): Promise<StoredExport> {
    const exportId = newExportId();
    const folder = this.courseFolder(description.courseId);
    await mkdir(folder, { recursive: true });
    const createdAt = this.now();
    const draft = { ...description, exportId };
    const finalPath = this.packagePath(draft);
    const partPath = `${finalPath}.part`;
    const file = await open(partPath, "wx");
    let size = 0;
    try {
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        await file.write(value);
        size += value.byteLength;
        onBytes?.(size);
      }
      await file.close();
      const record: StoredExport = {
        ...draft,
        size,
        createdAt: createdAt.toISOString(),
        expiresAt: new Date(createdAt.getTime() + this.ttlMs).toISOString(),
      };
      await rename(partPath, finalPath);
      await writeFile(this.metaPath(record.courseId, exportId), JSON.stringify(record));
      return record;
    } catch (error) {
      await file.close().catch(() => {});
      await rm(partPath, { force: true });
      await rm(finalPath, { force: true });
      throw error;
    }
  }

  /** The export, or null when it does not exist or has expired (an expired one is deleted on the way). */
  async find(courseId: string, exportId: string): Promise<StoredExport | null> {
    await this.sweepExpired(courseId);
    const record = await this.readMeta(courseId, exportId);
    return record && (await this.exists(record)) ? record : null;
  }

  /** The package's bytes: `resources/read` answers with the whole blob, so they are read at once. */
  async readBytes(record: StoredExport): Promise<Uint8Array> {
    return new Uint8Array(await readFile(this.packagePath(record)));
  }

  async delete(record: Pick<StoredExport, "courseId" | "exportId" | "fileName">): Promise<void> {
    await rm(this.packagePath(record), { force: true });
    await rm(this.metaPath(record.courseId, record.exportId), { force: true });
    this.keptIndex?.delete(record.exportId);
  }

  /** Removes the course's expired exports (every course's when `courseId` is omitted); returns how many. */
  async sweepExpired(courseId?: string): Promise<number> {
    const courseIds = courseId ? [courseId] : (await this.listFolder(this.options.directory)).filter((name) => courseIdPattern.test(name));
    const now = this.now().getTime();
    let removed = 0;
    for (const id of courseIds) {
      for (const name of await this.listFolder(this.courseFolder(id))) {
        if (name.endsWith(".part")) {
          // Left by a build the process did not live to finish.
          const path = join(this.courseFolder(id), name);
          const info = await stat(path).catch(() => null);
          if (info && info.mtimeMs + this.ttlMs < now) await rm(path, { force: true });
          continue;
        }
        const exportId = metaFilePattern.exec(name)?.[1];
        if (!exportId) continue;
        const record = await this.readMeta(id, exportId);
        if (record && Date.parse(record.expiresAt) > now) continue;
        if (record) await this.delete(record);
        else await rm(join(this.courseFolder(id), name), { force: true });
        removed++;
      }
    }
    return removed;
  }

  /** Deletes every export of a course, e.g. when the course is deleted. */
  async deleteCourseExports(courseId: string): Promise<void> {
    await rm(this.courseFolder(courseId), { recursive: true, force: true });
    for (const [exportId, entry] of this.keptIndex ?? []) if (entry.courseId === courseId) this.keptIndex?.delete(exportId);
  }

  private async readMeta(courseId: string, exportId: string): Promise<StoredExport | null> {
    try {
      return JSON.parse(await readFile(this.metaPath(courseId, exportId), "utf8")) as StoredExport;
    } catch {
      return null;
    }
  }

  private async exists(record: StoredExport): Promise<boolean> {
    return stat(this.packagePath(record)).then(
      (info) => info.isFile(),
      () => false,
    );
  }

  private async listFolder(folder: string): Promise<string[]> {
    return readdir(folder).catch(() => []);
  }
}
