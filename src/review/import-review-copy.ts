/**
 * `import_review_copy`: a Word review copy a reviewer commented on (uploaded as an asset) becomes review
 * comments on the course. Each comment goes on the part whose bookmark it falls in, authored as in the
 * file and marked as from a review copy of version N; a part changed or deleted since that version says
 * so. Tracked changes become comments quoting the suggested text. A copy of another course, or a course
 * the person cannot comment on, is refused. Bringing the same copy back twice adds nothing new.
 *
 * In three steps, so no other call waits on the file: the course check (access, archived) and the
 * file's bytes in a read transaction, the parsing outside any transaction, and a write transaction that
 * checks access again and only stores the comments found.
 */
import * as v from "valibot";
import { openCourse } from "../authoring/access.ts";
import { timestamp, type Actor, type AuthoringSession } from "../authoring/context.ts";
import { readAs, writeAs, type AuthoringServices } from "../authoring/services.ts";
import { getCourse } from "../authoring/courses.ts";
import { archivedCourse } from "../authoring/errors.ts";
import { idField } from "../authoring/schemas/fields.ts";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { WorkSlicer } from "../codecs/event-loop.ts";
import { anchorHashes } from "../formats/review-copy/part-hash.ts";
import { readUploadedFile } from "../authoring/uploaded-files.ts";
import { OfficePackage, officeError } from "../formats/office/office-package.ts";
import type { CommentRow } from "../store/types.ts";
import { commentLimits, newCommentRow } from "./comments.ts";
import { targetKindOf } from "./comment-targets.ts";
import { readReviewCopy, reviewCopyLimits, type ReviewCopy, type ReviewNote } from "../formats/review-copy/read-review-copy.ts";
import { isReviewCommentsFile, reviewFileLimits } from "../formats/review-package/review-package-read.ts";
import { maxImportBytes } from "../formats/draft-course.ts";
import { storeReviewPackage, type ImportedReviewPackage } from "./import-review-package.ts";

export const importReviewCopyArguments = v.object({
  courseId: idField("course"),
  assetId: v.pipe(idField("asset"), v.description("The commented .docx, uploaded with upload_asset or the files view.")),
});

/** Comments stored between two yields to the event loop. */
const insertsPerSlice = 100;

export const partStates = ["unchanged", "changed", "deleted"] as const;
export type PartState = (typeof partStates)[number];

export interface ImportedReviewNote {
  commentId: string;
  kind: "comment" | "suggestion";
  targetId: string;
  author: string;
  /** The part now, compared with the copy's version. */
  partState: PartState;
}

export type ImportedReviewCopy = {
  courseId: string;
  copyVersion: number;
  currentVersion: number;
  imported: ImportedReviewNote[];
  /** Comments already brought back from this copy before. */
  alreadyImported: number;
};

function body(note: ReviewNote, version: number, state: PartState): string {
  const kind = targetKindOf(note.anchor.id);
  const when = note.date ? `, ${note.date.slice(0, 10)}` : "";
  const header = `From a Word review copy of version ${version}, by ${note.author}${when}${note.kind === "suggestion" ? " (tracked change)" : ""}:`;
  const text = note.kind === "suggestion" ? `Suggested change: ${note.text}` : note.text;
  const cut = note.passageCut ? ` (its first ${reviewCopyLimits.passageCharacters} characters; it goes on in the copy)` : "";
  const passage = note.passage ? `\n\nOn the passage “${note.passage}${note.passageCut ? "…" : ""}”${cut}.` : "";
  const stateLine =
    state === "changed" ? `\n\nThis ${kind} has changed since version ${version}.` : state === "deleted" ? `\n\nThis ${kind} was deleted after version ${version}.` : "";
  const full = `${header}\n\n${text}${passage}${stateLine}`;
  return full.length > commentLimits.bodyCharacters ? `${full.slice(0, commentLimits.bodyCharacters - 1)}…` : full;
}

/** The course the person may comment on, not archived; throws `not_found`, `forbidden` or the archived error. */
async function commentableCourse(session: AuthoringSession, courseId: string) {
  const { course } = await openCourse(session, courseId, "comment");
  if (course.status === "archived") throw archivedCourse(course.id);
  return course;
}

export async function importReviewCopy(
  services: AuthoringServices,
  actor: Actor,
  args: v.InferOutput<typeof importReviewCopyArguments>,
): Promise<({ source: "word" } & ImportedReviewCopy) | ({ source: "review_package" } & ImportedReviewPackage)> {
  const file = await readAs(services, actor, async (session) => {
    const course = await commentableCourse(session, args.courseId);
    return readUploadedFile(session, args.assetId, Math.max(maxImportBytes, reviewFileLimits.bytes), course);
  });
  // A review package's comments file (JSON) or a Word review copy, told apart by the bytes.
  if (isReviewCommentsFile(file.bytes)) {
    const comments = await services.heavyWork.run("readReviewComments", { fileName: file.fileName, bytes: file.bytes });
    const result = await writeAs(services, actor, async (session) => storeReviewPackage(session, await commentableCourse(session, args.courseId), comments, file.fileName));
    return { source: "review_package", ...result };
  }
  if (file.bytes.byteLength > maxImportBytes) {
    throw new CourseAuthoringError("limit_exceeded", `assetId: ${file.fileName} is ${file.bytes.byteLength} bytes; a Word review copy is at most ${maxImportBytes / 1024 / 1024} MB. Nothing was imported.`, {
      field: "assetId",
      byteSize: file.bytes.byteLength,
      limit: maxImportBytes,
    });
  }
  // Parsed off the request loop; a copy of another course is refused from its properties, before its document is read.
  const copy = await services.heavyWork.run("readReviewCopyFile", { fileName: file.fileName, bytes: file.bytes, courseId: args.courseId });
  return { source: "word", ...(await writeAs(services, actor, (session) => storeReviewCopy(session, copy))) };
}

/** The write: access checked again (it may have changed while the file was read), then the new comments stored. */
async function storeReviewCopy(session: AuthoringSession, copy: ReviewCopy): Promise<ImportedReviewCopy> {
  const course = await commentableCourse(session, copy.courseId);
  const current = anchorHashes(await getCourse(session, { courseId: course.id, includeBlocks: true }, "read"));
  const existing = new Set((await session.tx.listComments({ courseId: course.id, limit: 10_000 })).map((row) => `${row.targetId}\n${row.body}`));
  const imported: ImportedReviewNote[] = [];
  let alreadyImported = 0;
  // A synchronous store (SQLite) would run 2,000 inserts in one turn of the event loop: yield between slices of them.
  const slicer = new WorkSlicer(insertsPerSlice);
  for (const note of copy.notes) {
    await slicer.done(1);
    const now = current.get(note.anchor.id);
    const partState: PartState = now === undefined ? "deleted" : now === note.anchor.hash ? "unchanged" : "changed";
    const text = body(note, copy.version, partState);
    if (existing.has(`${note.anchor.id}\n${text}`)) {
      alreadyImported += 1;
      continue;
    }
    existing.add(`${note.anchor.id}\n${text}`);
    const row = newCommentRow(session, { courseId: course.id, targetKind: targetKindOf(note.anchor.id), targetId: note.anchor.id, body: text, authorName: note.author.slice(0, 200) });
    await session.tx.insertComment(row);
    imported.push({ commentId: row.id, kind: note.kind, targetId: note.anchor.id, author: row.authorName ?? note.author, partState });
  }
  return { courseId: course.id, copyVersion: copy.version, currentVersion: course.version, imported, alreadyImported };
}
