/**
 * An uploaded file read to be imported or brought back (a document, a review copy): the asset's bytes,
 * when the person may read the course it belongs to; anything else is "not found", so an asset of a
 * course one cannot read is never told apart from one that does not exist.
 */
import { openCourse } from "./access.ts";
import type { AuthoringSession } from "./context.ts";
import { notFound } from "./errors.ts";
import { maxImportBytes } from "../formats/draft-course.ts";
import { officeError } from "../formats/office/office-package.ts";

export interface UploadedFile {
  readonly fileName: string;
  readonly bytes: Uint8Array;
  readonly courseId: string;
}

/** The asset's bytes, when the person may read the course it belongs to; anything else is "not found". */
export async function readUploadedFile(session: AuthoringSession, assetId: string, maxBytes: number = maxImportBytes): Promise<UploadedFile> {
  const asset = await session.tx.findAsset(assetId);
  if (!asset) throw notFound("asset", assetId, "assetId");
  try {
    await openCourse(session, asset.courseId, "read");
  } catch {
    throw notFound("asset", assetId, "assetId");
  }
  if (asset.byteSize > maxBytes) {
    throw officeError(asset.filename, `is ${asset.byteSize} bytes; at most ${maxBytes} bytes (${maxBytes / 1024 / 1024} MB) can be imported`, "limit_exceeded", { byteSize: asset.byteSize, limit: maxBytes });
  }
  const bytes = await session.tx.readAssetBytes(asset.id);
  if (!bytes) throw notFound("asset", assetId, "assetId");
  return { fileName: asset.filename, bytes, courseId: asset.courseId };
}

