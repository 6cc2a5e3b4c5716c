/**
 * Chunked uploads, for the files view: a file the person chooses travels in ordered chunks through
 * tools only the view calls, and becomes an asset only when the last byte has arrived and the whole is
 * recognised exactly as upload_asset recognises a file. Until then nothing of it is an asset; a
 * cancelled, refused or abandoned upload is deleted with its chunks. Each upload belongs to the person
 * who began it: a chunk from anyone else, out of order, or beyond the declared size is refused.
 *
 * An open upload's declared size counts against the course owner's asset quota from begin_upload on,
 * so unfinished uploads cannot park more than the quota allows; expired ones are swept on a timer
 * (upload-sweeper.ts). Finishing checks the file's bytes between a read and the write, never inside a
 * transaction, so a heavy file does not hold the store for anyone else.
 */
import * as v from "valibot";
import { openCourse } from "./access.ts";
import { assertMayAddAsset, assetDocument, checkFile, onlyToBeRead, storeAsset, storeLibraryAsset, uploadAssetArguments, type AssetDocument, type CheckedFile } from "./assets.ts";
import { timestamp, type Actor, type AuthoringSession } from "./context.ts";
import { beginCourseEdit, commitCourseEdit } from "./course-edit.ts";
import { archivedCourse, invalidArgument, limitExceeded } from "./errors.ts";
import { imageSize, type ImageSize } from "../codecs/image-size.ts";
import { limitExceededError } from "./limits.ts";
import { readAs, writeAs, type AuthoringServices } from "./services.ts";
import { expectedVersionField, idField, limits } from "./schemas/fields.ts";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import type { UploadRow } from "../store/types.ts";
import { fromBase64 } from "../bytes.ts";
import { TimeSlicer } from "../codecs/event-loop.ts";

export const uploadLimits = {
  /** Bytes per chunk (the last may be shorter); small enough for any host's message size. */
  chunkBytes: 256 * 1024,
  /** Unfinished uploads one person may have at once. */
  openPerPerson: 20,
  /** An upload not finished within this time is deleted with its chunks (UPLOAD_LIFETIME_SECONDS changes it). */
  lifetimeMs: 60 * 60 * 1000,
} as const;

/** How long this deployment keeps an unfinished upload. */
export function uploadLifetimeMs(services: Pick<AuthoringServices, "uploadLifetimeMs">): number {
  return services.uploadLifetimeMs ?? uploadLimits.lifetimeMs;
}

const uploadIdField = idField("upload");

export const beginUploadArguments = v.object({
  /** Omitted: the file goes to the person's own library, outside any course. */
  courseId: v.optional(idField("course")),
  filename: uploadAssetArguments.entries.filename,
  mediaType: v.optional(v.pipe(v.string(), v.maxLength(100))),
  byteSize: v.pipe(v.number(), v.integer("must be a whole number of bytes"), v.minValue(1, "must be at least 1 byte")),
});

export const uploadChunkArguments = v.object({
  uploadId: uploadIdField,
  index: v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(0, "must be 0 or more")),
  dataBase64: v.pipe(v.string(), v.nonEmpty("must not be empty"), v.maxLength(Math.ceil(uploadLimits.chunkBytes / 3) * 4 + 4, `must decode to at most ${uploadLimits.chunkBytes} bytes`)),
});

export const finishUploadArguments = v.object({ uploadId: uploadIdField, expectedVersion: expectedVersionField });
export const cancelUploadArguments = v.object({ uploadId: uploadIdField });

export type UploadProgress = {
  uploadId: string;
  filename: string;
  byteSize: number;
  bytesReceived: number;
  chunksReceived: number;
  chunkBytes: number;
  chunkCount: number;
  expiresAt: string;
};

function progressOf(row: UploadRow): UploadProgress {
  return {
    uploadId: row.uploadId,
    filename: row.filename,
    byteSize: row.byteSize,
    bytesReceived: row.bytesReceived,
    chunksReceived: row.chunksReceived,
    chunkBytes: row.chunkBytes,
    chunkCount: Math.ceil(row.byteSize / row.chunkBytes),
    expiresAt: row.expiresAt,
  };
}

/**
 * The upload when it is this person's and still open. An expired one is as gone as a finished one; a
 * write deletes it on the way, a read leaves it to the sweeper.
 */
async function openUpload(session: AuthoringSession, uploadId: string, mode: "read" | "write" = "write"): Promise<UploadRow> {
  const row = await session.tx.findUpload(uploadId);
  const gone = () =>
    new CourseAuthoringError("not_found", `uploadId: upload ${uploadId} was not found: it was finished, cancelled or expired (an upload not finished in time is deleted). Begin it again.`, {
      field: "uploadId",
      uploadId,
    });
  if (!row) throw gone();
  if (row.ownerSub !== session.actor.sub) {
    throw new CourseAuthoringError("forbidden", `uploadId: upload ${uploadId} was begun by another person; only they can send, finish or cancel it.`, { field: "uploadId", uploadId });
  }
  if (row.expiresAt < timestamp(session)) {
    if (mode === "write") await session.tx.deleteUpload(uploadId);
    throw gone();
  }
  return row;
}

/**
 * The course owner's asset quota covers the assets stored and the declared bytes of every unfinished
 * upload into their courses, so parking uploads cannot hold more than the quota. The refusal names the
 * three figures.
 */
async function assertQuotaAllows(session: AuthoringSession, courseOwnerSub: string, filename: string, byteSize: number, now: string): Promise<void> {
  const limit = session.limits.userAssetBytes;
  const used = (await session.tx.ownerUsage(courseOwnerSub)).assetBytes;
  const open = await session.tx.openUploadBytes(courseOwnerSub, now);
  if (used + open + byteSize <= limit) return;
  const refusal = limitExceededError(
    "userAssetBytes",
    limit,
    courseOwnerSub,
    used + open,
    byteSize,
    ` Current use is ${used} bytes of stored assets and ${open} bytes declared by unfinished uploads (finish or cancel them, or wait for them to expire); ${filename} would add ${byteSize} bytes to the limit of ${limit} bytes.`,
  );
  throw new CourseAuthoringError(refusal.code, refusal.message, { ...refusal.details, field: "byteSize", usedBytes: used, openUploadBytes: open });
}

export async function beginUpload(session: AuthoringSession, args: v.InferOutput<typeof beginUploadArguments>, lifetimeMs: number = uploadLimits.lifetimeMs): Promise<UploadProgress> {
  const course = args.courseId === undefined ? null : (await openCourse(session, args.courseId, "edit")).course;
  if (course?.status === "archived") throw archivedCourse(course.id);
  if (args.byteSize > limits.assetBytes) {
    throw limitExceeded("byteSize", `${args.filename} is ${args.byteSize} bytes; a file may be at most ${limits.assetBytes} bytes (${limits.assetBytes / 1024 / 1024} MB)`, {
      byteSize: args.byteSize,
      limit: limits.assetBytes,
    });
  }
  const now = timestamp(session);
  await session.tx.deleteExpiredUploads(now);
  if ((await session.tx.countUploads(session.actor.sub)) >= uploadLimits.openPerPerson) {
    throw limitExceeded("uploadId", `you have ${uploadLimits.openPerPerson} unfinished uploads; finish or cancel one before beginning another`, { limit: uploadLimits.openPerPerson });
  }
  // A library's files are their owner's; a course's count against the course owner's quota.
  await assertQuotaAllows(session, course?.ownerSub ?? session.actor.sub, args.filename, args.byteSize, now);
  const row: UploadRow = {
    uploadId: session.newId("upload"),
    ownerSub: session.actor.sub,
    courseId: course?.id ?? null,
    filename: args.filename,
    mediaType: args.mediaType ?? null,
    byteSize: args.byteSize,
    chunkBytes: uploadLimits.chunkBytes,
    chunksReceived: 0,
    bytesReceived: 0,
    createdAt: now,
    expiresAt: new Date(Date.parse(now) + lifetimeMs).toISOString(),
  };
  await session.tx.insertUpload(row);
  return progressOf(row);
}

function decodeChunk(text: string): Uint8Array {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
    throw invalidArgument("dataBase64", "is not valid base64: use the standard alphabet A-Z a-z 0-9 + / with = padding");
  }
  return fromBase64(text);
}

export async function uploadChunk(session: AuthoringSession, args: v.InferOutput<typeof uploadChunkArguments>): Promise<UploadProgress> {
  const row = await openUpload(session, args.uploadId);
  if (args.index !== row.chunksReceived) {
    throw invalidArgument("index", `chunk ${args.index} of ${row.filename} is out of order: chunks go in order and the next expected is ${row.chunksReceived}`, {
      expectedIndex: row.chunksReceived,
    });
  }
  const bytes = decodeChunk(args.dataBase64);
  const last = row.bytesReceived + bytes.byteLength >= row.byteSize;
  if (bytes.byteLength > row.chunkBytes || (!last && bytes.byteLength !== row.chunkBytes)) {
    throw invalidArgument("dataBase64", `chunk ${args.index} of ${row.filename} is ${bytes.byteLength} bytes; every chunk but the last is exactly ${row.chunkBytes} bytes`);
  }
  if (row.bytesReceived + bytes.byteLength > row.byteSize) {
    throw limitExceeded("dataBase64", `${row.filename} is longer than the ${row.byteSize} bytes begin_upload declared; nothing more is accepted`, { byteSize: row.byteSize });
  }
  if (!(await session.tx.appendUploadChunk(row.uploadId, args.index, args.dataBase64, bytes.byteLength))) {
    throw new CourseAuthoringError("conflict", `index: chunk ${args.index} of ${row.filename} arrived twice; send the next chunk.`, { field: "index" });
  }
  return progressOf({ ...row, chunksReceived: row.chunksReceived + 1, bytesReceived: row.bytesReceived + bytes.byteLength });
}

export type FinishedUpload = {
  /** null: the file went to the person's library (no course, no version). */
  courseId: string | null;
  version?: number;
  /** Why a file sent to a course was kept in the library instead (a review copy coming back). */
  keptInLibrary?: string;
  asset: AssetDocument;
  /** Pictures: their size in pixels. */
  image?: ImageSize;
};

/** A complete upload's row and chunks, read in one short read transaction; a course that cannot take it fails here, before any check. */
async function readCompleteUpload(session: AuthoringSession, uploadId: string, expectedVersion: number | undefined): Promise<{ row: UploadRow; chunks: string[] }> {
  const row = await openUpload(session, uploadId, "read");
  if (row.bytesReceived !== row.byteSize) {
    throw new CourseAuthoringError(
      "invalid_state",
      `uploadId: ${row.filename} is not complete: ${row.bytesReceived} of ${row.byteSize} bytes arrived (${row.chunksReceived} chunks); send chunk ${row.chunksReceived} next, or cancel it.`,
      { field: "uploadId", bytesReceived: row.bytesReceived, byteSize: row.byteSize },
    );
  }
  if (row.courseId !== null) await assertMayAddAsset(session, row.courseId, expectedVersion);
  return { row, chunks: await session.tx.readUploadChunks(row.uploadId) };
}

/** The whole file from its chunks, recognised as upload_asset recognises a file; a refusal names the file. */
async function checkUploadedFile(row: UploadRow, chunks: string[]): Promise<CheckedFile> {
  const bytes = new Uint8Array(row.byteSize);
  const slicer = new TimeSlicer();
  let at = 0;
  for (const chunk of chunks) {
    const part = fromBase64(chunk);
    bytes.set(part, at);
    at += part.byteLength;
    if (slicer.due()) await slicer.pause();
  }
  try {
    return await checkFile(bytes, { filename: row.filename, mediaType: row.mediaType }, "uploadId");
  } catch (error) {
    if (error instanceof CourseAuthoringError) throw new CourseAuthoringError(error.code, `${row.filename}: ${error.message}`, { ...error.details, filename: row.filename });
    throw error;
  }
}

/**
 * Assembles the chunks, recognises the file as upload_asset would and stores it as an asset: the chunks
 * are read in one read, the bytes checked outside any transaction, and the write only stores the result
 * (the upload must still be there, unchanged, and the course still editable).
 */
export async function finishUpload(services: AuthoringServices, actor: Actor, args: v.InferOutput<typeof finishUploadArguments>): Promise<FinishedUpload> {
  const { row, chunks } = await readAs(services, actor, (session) => readCompleteUpload(session, args.uploadId, args.expectedVersion));
  const file = await checkUploadedFile(row, chunks);
  const size = imageSize(file.bytes, file.mediaType);
  const keptInLibrary = row.courseId === null ? undefined : await onlyToBeRead(file);
  return writeAs(services, actor, async (session) => {
    const current = await openUpload(session, row.uploadId);
    if (current.createdAt !== row.createdAt || current.bytesReceived !== row.bytesReceived) {
      throw new CourseAuthoringError("conflict", `uploadId: upload ${row.uploadId} changed while it was being checked; finish it again.`, { field: "uploadId" });
    }
    if (row.courseId === null || keptInLibrary) {
      await session.tx.deleteUpload(row.uploadId);
      const asset = await storeLibraryAsset(session, file);
      return { courseId: null, asset: assetDocument(asset), ...(size ? { image: size } : {}), ...(keptInLibrary ? { keptInLibrary } : {}) };
    }
    const edit = await beginCourseEdit(session, row.courseId, args.expectedVersion);
    // Deleted first, so the asset can take the pages its chunks held.
    await session.tx.deleteUpload(row.uploadId);
    const asset = await storeAsset(session, edit.course.id, file);
    edit.addedAssetBytes += asset.byteSize;
    const committed = await commitCourseEdit(edit, "finish_upload", `Uploaded asset ${asset.id} "${asset.filename}" (${asset.mediaType}, ${asset.byteSize} bytes) from the files view`, { always: true });
    return { courseId: edit.course.id, version: committed.version, asset: assetDocument(asset), ...(size ? { image: size } : {}) };
  });
}

export async function cancelUpload(session: AuthoringSession, args: v.InferOutput<typeof cancelUploadArguments>): Promise<{ uploadId: string; cancelled: true }> {
  const row = await openUpload(session, args.uploadId);
  await session.tx.deleteUpload(row.uploadId);
  return { uploadId: row.uploadId, cancelled: true };
}
