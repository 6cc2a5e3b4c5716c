/**
 * What is inside a stored package, so a person can see it is the one they want before saving it: the
 * zip's files (path and uncompressed size) from its central directory, or the one file a JSON or XLIFF
 * export is. The list is bounded; `count` says how many files there are in all.
 */
import { listZipEntries } from "../codecs/zip-read.ts";
import type { StoredExport } from "../store/packages.ts";

export interface PackageFile {
  readonly path: string;
  readonly size: number;
}

export interface PackageFiles {
  /** Files in the package, all of them. */
  readonly count: number;
  /** The first `listedPackageFiles` of them, in archive order. */
  readonly files: PackageFile[];
}

/** Enough to recognise a package (a course's pages, manifests and media); a larger one is summed up by `count`. */
export const listedPackageFiles = 200;

export function packageFiles(record: Pick<StoredExport, "fileName" | "mimeType" | "size">, bytes: Uint8Array, limit = listedPackageFiles): PackageFiles {
  if (record.mimeType !== "application/zip") return { count: 1, files: [{ path: record.fileName, size: record.size }] };
  // Folder entries carry no bytes; the paths of the files already name them.
  const entries = listZipEntries(bytes).filter((entry) => !entry.name.endsWith("/"));
  return { count: entries.length, files: entries.slice(0, limit).map((entry) => ({ path: entry.name, size: entry.size })) };
}
