/**
 * Word and PowerPoint files for import: the uploaded asset read with the person's access to its course,
 * its bytes recognised again (the stored type is not trusted over the bytes, and the name must agree),
 * then opened as the package the bytes say it is and planned as a draft course.
 */
import { openCourse } from "../authoring/access.ts";
import type { AuthoringSession } from "../authoring/context.ts";
import { notFound } from "../authoring/errors.ts";
import { sniffMediaType } from "../codecs/media-types.ts";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { inlineFileName } from "../formats/draft-course.ts";
import { maxImportBytes } from "./source.ts";
import { planFromDocx } from "../formats/office/docx.ts";
import type { OfficePlan } from "../formats/office/office-content.ts";
import { OfficePackage, officeError, type OfficeKind } from "../formats/office/office-package.ts";
import { planFromPptx } from "../formats/office/pptx.ts";

export const officeMediaTypes: Record<string, OfficeKind> = {
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
};

export interface UploadedFile {
  readonly fileName: string;
  readonly bytes: Uint8Array;
  readonly courseId: string;
}

/** The asset's bytes, when the person may read the course it belongs to; anything else is "not found". */
export async function readUploadedFile(session: AuthoringSession, assetId: string): Promise<UploadedFile> {
  const asset = await session.tx.findAsset(assetId);
  if (!asset) throw notFound("asset", assetId, "assetId");
  try {
    await openCourse(session, asset.courseId, "read");
  } catch {
    throw notFound("asset", assetId, "assetId");
  }
  if (asset.byteSize > maxImportBytes) {
    throw officeError(asset.filename, `is ${asset.byteSize} bytes; at most ${maxImportBytes} bytes (10 MB) can be imported`, "limit_exceeded", { byteSize: asset.byteSize, limit: maxImportBytes });
  }
  const bytes = await session.tx.readAssetBytes(asset.id);
  if (!bytes) throw notFound("asset", assetId, "assetId");
  return { fileName: asset.filename, bytes, courseId: asset.courseId };
}

/** The Office kind of a file by its bytes, or null when it is not Word or PowerPoint. */
export async function officeKindOf(file: { fileName: string; bytes: Uint8Array }): Promise<OfficeKind | null> {
  const sniffed = await sniffMediaType(file.bytes, { filename: file.fileName });
  if (sniffed.kind === "refused") throw officeError(file.fileName, `is refused: ${sniffed.reason}`);
  if (sniffed.kind !== "accepted") return null;
  const kind = officeMediaTypes[sniffed.type.mediaType] ?? null;
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.fileName)?.[1]?.toLowerCase();
  if (kind && extension && extension !== kind) {
    throw officeError(file.fileName, `is named .${extension} but its content is a .${kind} file; rename it or send the right file`);
  }
  return kind;
}

export async function planFromOffice(file: { fileName: string; bytes: Uint8Array }, kind: OfficeKind, title: string | undefined): Promise<OfficePlan> {
  const officePackage = await OfficePackage.open(file.bytes, file.fileName, kind);
  const fallbackTitle = file.fileName === inlineFileName ? "Imported course" : file.fileName.replace(/\.[^.]*$/, "").replace(/[_-]+/g, " ").trim() || "Imported course";
  try {
    return kind === "docx" ? await planFromDocx(officePackage, title, fallbackTitle) : await planFromPptx(officePackage, title, fallbackTitle);
  } catch (error) {
    if (error instanceof CourseAuthoringError && error.message.startsWith("content: ")) {
      throw new CourseAuthoringError(error.code, `${file.fileName}: ${error.message.slice("content: ".length)}`, { ...error.details, file: file.fileName });
    }
    throw error;
  }
}
