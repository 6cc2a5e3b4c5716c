/**
 * An uploaded file read to be imported or brought back (a document, a review copy): the asset's bytes,
 * when it is in the person's own library or belongs to a course they may read; anything else is "not
 * found", so another person's asset is never told apart from one that does not exist.
 */
import { readableAsset } from "./asset-access.ts";
import type { AuthoringSession } from "./context.ts";
import type { CourseRow } from "../store/types.ts";
import { notFound } from "./errors.ts";
import { maxImportBytes } from "../formats/draft-course.ts";
import { officeError } from "../formats/office/office-package.ts";

export interface UploadedFile {
  readonly fileName: string;
  readonly bytes: Uint8Array;
  /** The course it was uploaded to; undefined for a file in the person's library. */
  readonly courseId: string | undefined;
}

/** The asset's bytes, when it is in the person's library or a course they may read; anything else is "not found". */
export async function readUploadedFile(session: AuthoringSession, assetId: string, maxBytes: number = maxImportBytes, broughtTo?: CourseRow): Promise<UploadedFile> {
  const asset = await readableAsset(session, assetId, "assetId", broughtTo);
  if (asset.byteSize > maxBytes) {
    throw officeError(asset.filename, `is ${asset.byteSize} bytes; at most ${maxBytes} bytes (${maxBytes / 1024 / 1024} MB) can be imported`, "limit_exceeded", { byteSize: asset.byteSize, limit: maxBytes });
  }
  const bytes = await session.tx.readAssetBytes(asset.id);
  if (!bytes) throw notFound("asset", assetId, "assetId");
  return { fileName: asset.filename, bytes, courseId: asset.courseId ?? undefined };
}
