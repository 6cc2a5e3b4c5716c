/**
 * Course assets: uploads arrive as base64, are decoded, size-checked and recognised from their bytes,
 * then stored once per content hash. A name or claimed type that disagrees with the bytes is refused,
 * so what a course embeds is what it says it is. The checks run before the write transaction opens,
 * which then only stores what they found.
 */
import * as v from "valibot";
import { openCourse } from "./access.ts";
import { timestamp, type Actor, type AuthoringSession } from "./context.ts";
import { beginCourseEdit, commitCourseEdit } from "./course-edit.ts";
import { decodeCursor, pageOf } from "./cursor.ts";
import { archivedCourse, invalidArgument, limitExceeded, staleVersion } from "./errors.ts";
import { readAs, writeAs, type AuthoringServices } from "./services.ts";
import { assertWithinLimit } from "./limits.ts";
import { isReviewCopy } from "../formats/review-copy/read-review-copy.ts";
import type { Thumbnail } from "../codecs/thumbnail.ts";
import { assetFileNameMaxLength, assetFileNamePattern, assetFileNameProblem } from "../formats/asset-names.ts";
import { acceptedTypesText, claimMatches, sniffMediaType, type MediaType } from "../codecs/media-types.ts";
import { cursorField, expectedVersionField, idField, limits, pageSizeField } from "./schemas/fields.ts";
import type { AssetRow } from "../store/types.ts";
import { fromBase64, sha256Hex } from "../bytes.ts";
import { TimeSlicer } from "../codecs/event-loop.ts";

/** Base64 of the size limit, with slack for line breaks; longer strings are refused before decoding. */
const maxBase64Characters = Math.ceil((limits.assetBytes * 4) / 3) + 1_000_000;

export const uploadAssetArguments = v.object({
  courseId: v.optional(v.pipe(idField("course"), v.description("Omit to keep the file in your own library (a document to read or import, a review copy): usable by its ID in every course you can edit."))),
  expectedVersion: expectedVersionField,
  filename: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty("must not be empty"),
    v.maxLength(assetFileNameMaxLength, `must be at most ${assetFileNameMaxLength} characters`),
    v.regex(assetFileNamePattern, "must be a plain file name without folders or control characters"),
  ),
  mediaType: v.optional(v.pipe(v.string(), v.maxLength(100), v.description("The type you believe the file has; it must match the content."))),
  dataBase64: v.pipe(
    v.string(),
    v.nonEmpty("must not be empty"),
    v.maxLength(maxBase64Characters, `is too large: assets may be at most ${limits.assetBytes} bytes`),
    v.description(`The file's bytes in standard base64, at most ${limits.assetBytes} bytes decoded. Accepted: ${acceptedTypesText()}.`),
  ),
});

export const assetSchema = v.object({
  id: idField("asset"),
  filename: v.string(),
  mediaType: v.string(),
  byteSize: v.number(),
  sha256: v.string(),
  createdAt: v.string(),
});
export type AssetDocument = v.InferOutput<typeof assetSchema>;

export function assetDocument(row: AssetRow): AssetDocument {
  return { id: row.id, filename: row.filename, mediaType: row.mediaType, byteSize: row.byteSize, sha256: row.sha256, createdAt: row.createdAt };
}

/** A file whose bytes were checked and hashed before any transaction opened: storing it only writes. */
export interface CheckedFile {
  filename: string;
  mediaType: string;
  bytes: Uint8Array;
  sha256: string;
}

/**
 * Recognises the bytes (PDF scanning, Office sniffing) and hashes them: the heavy part of storing a
 * file, run outside any transaction so that on SQLite, where one write holds the only queue, every
 * other user's call goes on meanwhile.
 */
export async function checkFile(bytes: Uint8Array, claims: { filename: string; mediaType?: string | null | undefined }, field: string): Promise<CheckedFile> {
  const type = await recogniseUpload(bytes, claims, field);
  return { filename: claims.filename, mediaType: type.mediaType, bytes, sha256: await sha256Hex(bytes) };
}

/** The course may take a new asset from this person: the same checks beginCourseEdit makes, read only. */
export async function assertMayAddAsset(session: AuthoringSession, courseId: string, expectedVersion: number | undefined): Promise<void> {
  const { course } = await openCourse(session, courseId, "edit");
  if (course.status === "archived") throw archivedCourse(course.id);
  if (expectedVersion !== undefined && expectedVersion !== course.version) throw staleVersion(expectedVersion, course.version);
}

/**
 * upload_asset in three steps: the course is checked in a read (so a caller who may not edit it learns
 * nothing from the file's checks), the bytes are decoded and checked outside any transaction, and the
 * write only stores them, checking the course and version again.
 */
export async function uploadAsset(
  services: AuthoringServices,
  actor: Actor,
  args: v.InferOutput<typeof uploadAssetArguments>,
): Promise<{ courseId: string | null; version?: number; asset: AssetDocument; keptInLibrary?: string; thumbnail?: Thumbnail | null }> {
  if (args.courseId !== undefined) await readAs(services, actor, (session) => assertMayAddAsset(session, args.courseId as string, args.expectedVersion));
  const bytes = await decodeBase64InSlices(args.dataBase64);
  if (bytes.byteLength > limits.assetBytes) {
    throw limitExceeded("dataBase64", `decodes to ${bytes.byteLength} bytes; assets may be at most ${limits.assetBytes} bytes`, {
      byteSize: bytes.byteLength,
      limit: limits.assetBytes,
    });
  }
  const file = await checkFile(bytes, { filename: args.filename, mediaType: args.mediaType }, "dataBase64");
  const keptInLibrary = args.courseId === undefined ? undefined : await onlyToBeRead(file);
  const courseId = keptInLibrary ? undefined : args.courseId;
  // Off the request loop, once: the model sees what arrived and can write its alt text.
  const thumbnail = file.mediaType.startsWith("image/") ? await services.heavyWork.run("pictureThumbnail", { bytes: file.bytes, mediaType: file.mediaType }).catch(() => null) : undefined;
  const seen = thumbnail === undefined ? {} : { thumbnail };
  if (courseId === undefined) {
    return writeAs(services, actor, async (session) => ({ courseId: null, asset: assetDocument(await storeLibraryAsset(session, file)), ...(keptInLibrary ? { keptInLibrary } : {}), ...seen }));
  }
  const stored = await writeAs(services, actor, async (session) => {
    const edit = await beginCourseEdit(session, courseId, args.expectedVersion);
    const row = await storeAsset(session, edit.course.id, file);
    edit.addedAssetBytes += row.byteSize;
    const committed = await commitCourseEdit(edit, "upload_asset", `Uploaded asset ${row.id} "${row.filename}" (${row.mediaType}, ${row.byteSize} bytes)`, {
      always: true,
    });
    return { courseId: edit.course.id, version: committed.version, asset: assetDocument(row) };
  });
  return { ...stored, ...seen };
}

/**
 * The media type of an uploaded file, recognised from its bytes; a refused, unknown or SVG file, a claimed
 * type or a name that disagrees with the bytes is an error naming `field` (or mediaType, filename).
 * upload_asset and the files view's chunked uploads both come here.
 */
export async function recogniseUpload(bytes: Uint8Array, claims: { filename: string; mediaType?: string | null | undefined }, field: string): Promise<MediaType> {
  const sniffed = await sniffMediaType(bytes, { claimed: claims.mediaType ?? undefined, filename: claims.filename });
  if (sniffed.kind === "refused") throw invalidArgument(field, `is refused: ${sniffed.reason}`);
  if (sniffed.kind === "svg") {
    throw invalidArgument(field, "SVG is not accepted because it can carry scripts; export the image as PNG or WebP and upload that");
  }
  if (sniffed.kind === "unknown") {
    throw invalidArgument(field, `the content is not a recognised file; accepted formats are ${acceptedTypesText()}`);
  }
  const type = sniffed.type;
  if (claims.mediaType !== undefined && claims.mediaType !== null && !claimMatches(claims.mediaType, type)) {
    throw invalidArgument("mediaType", `says ${claims.mediaType} but the content is ${type.mediaType}; send the right file or the right type`, {
      detectedMediaType: type.mediaType,
    });
  }
  const nameProblem = assetFileNameProblem(claims.filename, type);
  if (nameProblem !== null) throw invalidArgument("filename", nameProblem, { detectedMediaType: type.mediaType });
  return type;
}

/**
 * Stores a recognised file's bytes as a new asset of the course, with its size and content hash (given
 * when already computed outside the transaction); upload and import both come here.
 */
export async function storeAsset(session: AuthoringSession, courseId: string, file: { filename: string; mediaType: string; bytes: Uint8Array; sha256?: string }): Promise<AssetRow> {
  const row: AssetRow = {
    id: session.newId("asset"),
    courseId,
    filename: file.filename,
    mediaType: file.mediaType,
    byteSize: file.bytes.byteLength,
    sha256: file.sha256 ?? (await sha256Hex(file.bytes)),
    createdBy: session.actor.sub,
    createdAt: timestamp(session),
  };
  await session.tx.insertAsset(row, file.bytes);
  return row;
}

/**
 * Why a file sent to a course goes to its sender's library instead, or undefined: a Word review copy
 * (export_course docx_review) coming back is read by import_review_copy, never course content, so it
 * neither changes the course's version nor shows as a source change in its translations.
 */
export async function onlyToBeRead(file: CheckedFile): Promise<string | undefined> {
  if (file.mediaType !== docxMediaType || !(await isReviewCopy(file.bytes, file.filename))) return undefined;
  return "it is a Word review copy coming back (bring its comments in with import_review_copy); it is kept in your library, not added to the course";
}

const docxMediaType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/**
 * Stores a checked file in the person's own library (no course): theirs alone, counted against their
 * asset quota, and usable by its ID in every course they can edit (asset-access.ts).
 */
export async function storeLibraryAsset(session: AuthoringSession, file: CheckedFile): Promise<AssetRow> {
  const owner = session.actor.sub;
  const used = (await session.tx.ownerUsage(owner)).assetBytes;
  assertWithinLimit("userAssetBytes", session.limits.userAssetBytes, owner, used, file.bytes.byteLength);
  const row: AssetRow = {
    id: session.newId("asset"),
    courseId: null,
    filename: file.filename,
    mediaType: file.mediaType,
    byteSize: file.bytes.byteLength,
    sha256: file.sha256,
    createdBy: owner,
    createdAt: timestamp(session),
  };
  await session.tx.insertAsset(row, file.bytes);
  return row;
}

/**
 * decodeBase64, a slice at a time with pauses between: ten megabytes of base64 decoded in one call held
 * the event loop for hundreds of milliseconds on a busy machine.
 */
export async function decodeBase64InSlices(text: string): Promise<Uint8Array> {
  const compact = text.replace(/\s+/g, "");
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return decodeBase64(compact);
  const padding = compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0;
  const bytes = new Uint8Array((compact.length / 4) * 3 - padding);
  const slicer = new TimeSlicer();
  // Whole quadruples per slice, so only the last one can carry padding.
  for (let at = 0; at < compact.length; at += base64SliceCharacters) {
    bytes.set(fromBase64(compact.slice(at, at + base64SliceCharacters)), (at / 4) * 3);
    if (slicer.due()) await slicer.pause();
  }
  return bytes;
}

const base64SliceCharacters = 256 * 1024;

/** Strict standard base64 (whitespace ignored); anything else names the field. */
export function decodeBase64(text: string): Uint8Array {
  const compact = text.replace(/\s+/g, "");
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) {
    throw invalidArgument("dataBase64", "is not valid base64: use the standard alphabet A-Z a-z 0-9 + / with = padding, no data: prefix");
  }
  return fromBase64(compact);
}

export const listAssetsArguments = v.object({
  courseId: v.optional(v.pipe(idField("course"), v.description("Omit for your own library (files of no course)."))),
  limit: pageSizeField,
  cursor: cursorField,
});

/** A course's assets, or without courseId the person's own library. */
export async function listAssets(
  session: AuthoringSession,
  args: v.InferOutput<typeof listAssetsArguments>,
): Promise<{ courseId: string | null; assets: AssetDocument[]; nextCursor: string | null }> {
  const limit = args.limit ?? 50;
  const after = decodeCursor(args.cursor, "list_assets");
  if (args.courseId === undefined) {
    const page = pageOf(await session.tx.listLibraryAssets(session.actor.sub, after, limit + 1), limit);
    return { courseId: null, assets: page.items.map(assetDocument), nextCursor: page.nextCursor };
  }
  const { course } = await openCourse(session, args.courseId, "read");
  const rows = await session.tx.listAssets(course.id, after, limit + 1);
  const page = pageOf(rows, limit);
  return { courseId: course.id, assets: page.items.map(assetDocument), nextCursor: page.nextCursor };
}
