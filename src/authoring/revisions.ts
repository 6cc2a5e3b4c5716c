/**
 * Course history. Each revision stores only the rows its call changed (inserted rows, removed rows,
 * changed fields), so a course as of revision N is the current course with the newer revisions undone
 * in reverse. Restoring writes the difference between now and then as a new revision; nothing in the
 * history is ever rewritten.
 */
import * as v from "valibot";
import type { CourseRow, EntityKind, OrderedKind, RevisionRow, RowChange } from "../store/types.ts";
import { openCourse } from "./access.ts";
import type { AuthoringSession } from "./context.ts";
import { beginCourseEdit, commitCourseEdit, type CourseEdit } from "./course-edit.ts";
import { CourseAuthoringError, notFound, invalidArgument } from "./errors.ts";
import { courseDocument, loadCourseRows, type CourseRows } from "./read-model.ts";
import type { CourseDocument } from "./schemas/course.ts";
import { expectedVersionField, idField, pageSizeField, cursorField } from "./schemas/fields.ts";
import { fromBase64url, toBase64url, utf8Bytes, utf8Text } from "../bytes.ts";

export const revisionSummarySchema = v.object({
  id: idField("revision"),
  version: v.number(),
  actorSub: v.string(),
  tool: v.string(),
  summary: v.string(),
  createdAt: v.string(),
  changeCount: v.number(),
  squashed: v.optional(v.pipe(v.boolean(), v.description("True when squashed into the history baseline: listed, but no longer readable or restorable."))),
});
export type RevisionSummary = v.InferOutput<typeof revisionSummarySchema>;

export const listRevisionsArguments = v.object({ courseId: idField("course"), limit: pageSizeField, cursor: cursorField });

export async function listRevisions(
  session: AuthoringSession,
  args: v.InferOutput<typeof listRevisionsArguments>,
): Promise<{ courseId: string; revisions: RevisionSummary[]; nextCursor: string | null }> {
  const { course } = await openCourse(session, args.courseId, "read");
  const limit = args.limit ?? 20;
  const beforeVersion = args.cursor === undefined ? undefined : decodeVersionCursor(args.cursor);
  const rows = await session.tx.listRevisions(course.id, beforeVersion, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const { floorVersion } = await session.tx.historyUsage(course.id);
  return {
    courseId: course.id,
    revisions: page.map(({ courseId: _courseId, squashed: _squashed, ...summary }) => (summary.version < floorVersion ? { ...summary, squashed: true } : summary)),
    nextCursor: rows.length > limit && last ? toBase64url(utf8Bytes(`v${last.version}`)) : null,
  };
}

function decodeVersionCursor(cursor: string): number {
  const match = /^v(\d+)$/.exec(base64urlText(cursor));
  if (!match) throw invalidArgument("cursor", "is not a cursor returned by list_revisions; pass nextCursor from the previous page");
  return Number(match[1]);
}

export const getRevisionArguments = v.object({
  courseId: idField("course"),
  revisionId: idField("revision"),
  includeBlocks: v.optional(v.boolean(), true),
  includeChanges: v.optional(v.pipe(v.boolean(), v.description("Also return the rows this revision changed (before/after).")), false),
});

export async function getRevision(
  session: AuthoringSession,
  args: v.InferOutput<typeof getRevisionArguments>,
): Promise<{ revision: RevisionSummary & { changes?: RowChange[] }; course: CourseDocument }> {
  const { course, role } = await openCourse(session, args.courseId, "read");
  const revision = await findRevision(session, course.id, args.revisionId, "revisionId");
  const rows = await courseRowsAt(session, course, revision);
  const { courseId: _courseId, changes, ...meta } = revision;
  return {
    revision: { ...meta, changeCount: changes.length, ...(args.includeChanges ? { changes } : {}) },
    course: courseDocument(rows, role, await session.tx.listCollaborators(course.id), { includeBlocks: args.includeBlocks }),
  };
}

/** The revision, if the course can still be read as of it: one squashed into the history baseline is `invalid_state`. */
async function findRevision(session: AuthoringSession, courseId: string, revisionId: string, field: string): Promise<RevisionRow> {
  const revision = await session.tx.findRevision(courseId, revisionId);
  const { floorVersion } = await session.tx.historyUsage(courseId);
  if (!revision) {
    if (floorVersion === 0) throw notFound("revision", revisionId, field);
    throw new CourseAuthoringError("not_found", `${field}: revision ${revisionId} is not in the history of course ${courseId}; history before version ${floorVersion} was squashed to keep it within HISTORY_BUDGET_BYTES, so the oldest version that can be read or restored is ${floorVersion}. Pick a revision from list_revisions.`, {
      field,
      oldestReadableVersion: floorVersion,
    });
  }
  if (revision.version < floorVersion) {
    throw new CourseAuthoringError(
      "invalid_state",
      `${field}: revision ${revisionId} (version ${revision.version}) was squashed into the history baseline to keep course ${courseId}'s history within HISTORY_BUDGET_BYTES; the course can no longer be read or restored as of it. The oldest version that can be is ${floorVersion}; pick a revision from list_revisions that is not marked squashed.`,
      { field, revisionId, version: revision.version, oldestReadableVersion: floorVersion },
    );
  }
  return revision;
}

type RowMaps = { [K in OrderedKind]: Map<string, CourseRows[`${K}s`][number]> };

/** The course's rows as they were right after `revision`, by undoing every newer revision. */
export async function courseRowsAt(session: AuthoringSession, course: CourseRow, revision: RevisionRow): Promise<CourseRows> {
  const current = await loadCourseRows(session.tx, course);
  const maps: RowMaps = {
    objective: new Map(current.objectives.map((row) => [row.id, row])),
    module: new Map(current.modules.map((row) => [row.id, row])),
    lesson: new Map(current.lessons.map((row) => [row.id, row])),
    block: new Map(current.blocks.map((row) => [row.id, row])),
  };
  let courseRow: Record<string, unknown> = { ...course };
  for (const newer of await session.tx.revisionsAfter(course.id, revision.version)) {
    for (const change of [...newer.changes].reverse()) {
      if (change.kind === "course") {
        courseRow = { ...courseRow, ...(change.before ?? {}) };
        continue;
      }
      undoChange(maps[change.kind] as Map<string, unknown>, change);
    }
  }
  return {
    course: { ...(courseRow as unknown as CourseRow), version: revision.version, updatedAt: revision.createdAt },
    objectives: [...maps.objective.values()],
    modules: [...maps.module.values()],
    lessons: [...maps.lesson.values()],
    blocks: [...maps.block.values()],
  };
}

function undoChange(rows: Map<string, unknown>, change: RowChange): void {
  if (!change.before) rows.delete(change.id);
  else if (!change.after) rows.set(change.id, change.before);
  else rows.set(change.id, { ...(rows.get(change.id) as object), ...change.before });
}

export const restoreRevisionArguments = v.object({
  courseId: idField("course"),
  revisionId: idField("revision"),
  expectedVersion: expectedVersionField,
});

/** Course fields a restore brings back; status, owner and sharing are not content and stay as they are. */
const restoredCourseFields = ["title", "description", "language", "audience", "level", "tags"] as const;

export async function restoreRevision(
  session: AuthoringSession,
  args: v.InferOutput<typeof restoreRevisionArguments>,
): Promise<{ courseId: string; version: number; restoredVersion: number; changeCount: number; course: CourseDocument }> {
  const edit = await beginCourseEdit(session, args.courseId, args.expectedVersion);
  const revision = await findRevision(session, edit.course.id, args.revisionId, "revisionId");
  const target = await courseRowsAt(session, edit.course, revision);
  const current = await loadCourseRows(session.tx, edit.course);
  const courseFields: Partial<CourseRow> = {};
  for (const field of restoredCourseFields) Object.assign(courseFields, { [field]: target.course[field] });
  await edit.update("course", edit.course, courseFields);
  await applyDifference(edit, current, target);
  const committed = await commitCourseEdit(edit, "restore_revision", `Restored the course as of version ${revision.version} (${revision.id})`);
  const rows = await loadCourseRows(session.tx, edit.course);
  return {
    courseId: edit.course.id,
    version: committed.version,
    restoredVersion: revision.version,
    changeCount: edit.changes.length,
    course: courseDocument(rows, edit.role, await session.tx.listCollaborators(edit.course.id), { includeBlocks: false }),
  };
}

const parentsFirst: readonly OrderedKind[] = ["objective", "module", "lesson", "block"];
const listOf = { objective: "objectives", module: "modules", lesson: "lessons", block: "blocks" } as const;

/** Inserts and updates parents before children, then removes children before parents. */
async function applyDifference(edit: CourseEdit, current: CourseRows, target: CourseRows): Promise<void> {
  for (const kind of parentsFirst) {
    const existing = new Map<string, object & { id: string }>(current[listOf[kind]].map((row) => [row.id, row]));
    for (const row of target[listOf[kind]]) {
      const now = existing.get(row.id);
      if (now) await edit.update(kind as EntityKind, now as never, row as never);
      else await edit.insert(kind as EntityKind, row as never);
    }
  }
  for (const kind of [...parentsFirst].reverse()) {
    const wanted = new Set(target[listOf[kind]].map((row) => row.id));
    for (const row of current[listOf[kind]]) if (!wanted.has(row.id)) await edit.remove(kind as EntityKind, row as never);
  }
}

/** The text inside a cursor, or "" when it is not base64url at all. */
function base64urlText(cursor: string): string {
  try {
    return utf8Text(fromBase64url(cursor));
  } catch {
    return "";
  }
}
