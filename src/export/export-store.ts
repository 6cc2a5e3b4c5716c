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
import { courseUri, matchCourseUri } from "../course-uris.ts";
import type { ExportFormat } from "./types.ts";

export const defaultExportTtlMs = 24 * 60 * 60 * 1000;
/** Packages up to this size travel inside the tool result; larger ones as a link to read. */
export const defaultEmbedLimitBytes = 1024 * 1024;

/** What is known about one stored export; the course's access rules decide who may read it. */
export interface StoredExport {
  readonly exportId: string;
  readonly courseId: string;
  readonly format: ExportFormat;
  readonly variant: "draft" | "published";
  /** The course version the package was built from. */
  readonly courseVersion: number;
  readonly fileName: string;
  readonly mimeType: string;
  readonly size: number;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export type NewExport = Omit<StoredExport, "exportId" | "size" | "createdAt" | "expiresAt">;

export interface ExportStoreOptions {
  /** The folder exports live in, e.g. `<dataDir>/exports`. */
  readonly directory: string;
  readonly ttlMs?: number;
  readonly embedLimitBytes?: number;
  readonly now?: () => Date;
}

const courseIdPattern = /^crs_[0-9a-z]{1,64}$/;
const exportIdPattern = /^exp_[0-9a-z]{1,64}$/;
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

/** `exp_` and 100 random bits, in the same alphabet as the domain's IDs. */
export function newExportId(): string {
  let suffix = "";
  for (const byte of crypto.getRandomValues(new Uint8Array(20))) suffix += alphabet[byte & 31];
  return `exp_${suffix}`;
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
  return /\.(zip|imscc|json)$/.exec(fileName)?.[1] ?? "bin";
}

export class ExportStore {
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
        const exportId = /^(exp_[0-9a-z]{1,64})\.meta\.json$/.exec(name)?.[1];
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
