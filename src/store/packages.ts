/**
 * The package-storage contract: where built export packages are kept until they expire, so a large
 * package is written once and then served by `resources/read` instead of travelling inside a tool
 * result. The use cases are written against this interface; the composition root (`service.ts`)
 * chooses the implementation (files beside the SQLite database today, `ExportStore`). The format list
 * lives here because a stored package records its format, and storage sits below the exporters.
 */

export const defaultExportTtlMs = 24 * 60 * 60 * 1000;
/** Packages up to this size travel inside the tool result; larger ones as a link to read. */
export const defaultEmbedLimitBytes = 1024 * 1024;

/** The per-user cap on kept packages, and the error a build past it is refused with (the domain words it). */
export interface KeptPackagesLimit {
  readonly perUser: number;
  refuse(user: string, current: number, soonestExpiry: Date | undefined): Error;
}

export const exportFormats = ["scorm12", "scorm2004", "cmi5", "imscc", "html", "json", "qti3", "qti21", "moodle_xml", "gift", "docx_review", "xapi", "html_review", "acr", "pdf_handout", "pdf_job_aid"] as const;
export type ExportFormat = (typeof exportFormats)[number];
/** Translation files (export_translation) are kept and served like packages. */
export type StoredFormat = ExportFormat | "xliff20" | "xliff12";

/** What is known about one stored export; the course's access rules decide who may read it. */
export interface StoredExport {
  readonly exportId: string;
  readonly courseId: string;
  readonly format: StoredFormat;
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

/** The description of a package about to be saved; storage assigns the ID, size and dates. */
export type NewExport = Omit<StoredExport, "exportId" | "size" | "createdAt" | "expiresAt">;

export interface PackageStorage {
  /** Largest package embedded in export_course's result; larger ones are linked. */
  readonly embedLimitBytes: number;
  /**
   * Drains `stream` into a new export, calling `onBytes` with the running total after each chunk (it
   * may throw to cancel). If the stream fails, nothing is kept and the error is rethrown.
   */
  save(description: NewExport, stream: ReadableStream<Uint8Array>, onBytes?: (written: number) => void): Promise<StoredExport>;
  /** The export, or null when it does not exist or has expired. */
  find(courseId: string, exportId: string): Promise<StoredExport | null>;
  /** The package's bytes, read at once (`resources/read` answers with the whole blob). */
  readBytes(record: StoredExport): Promise<Uint8Array>;
  /** Removes the course's expired exports (every course's when `courseId` is omitted); returns how many. */
  sweepExpired(courseId?: string): Promise<number>;
  /** Deletes one export. */
  delete(record: Pick<StoredExport, "courseId" | "exportId" | "fileName">): Promise<void>;
  /** Deletes every export of a course, e.g. when the course is deleted. */
  deleteCourseExports(courseId: string): Promise<void>;
}
