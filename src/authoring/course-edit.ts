/**
 * A unit of work on one course. Every row written through a `CourseEdit` is also recorded as a compact
 * change (inserted row, removed row, or changed fields only), and `commitCourseEdit` turns those
 * changes into exactly one revision and one version step. That is how revisions stay proportional to
 * the change and how a batch of operations becomes a single revision.
 */
import type { CourseRow, EntityKind, EntityRows, RowChange } from "../store/types.ts";
import { openCourse, type CourseRole, type Permission } from "./access.ts";
import { timestamp, type AuthoringSession } from "./context.ts";
import { archivedCourse, staleVersion } from "./errors.ts";

/** Bookkeeping columns that change on every write and are carried by the revision itself. */
const unrecordedFields = new Set(["version", "updatedAt"]);

export class CourseEdit {
  readonly changes: RowChange[] = [];

  constructor(
    readonly session: AuthoringSession,
    public course: CourseRow,
    readonly role: CourseRole,
    /** True while creating the course: its first revision is version 1. */
    readonly isNewCourse = false,
  ) {}

  get tx() {
    return this.session.tx;
  }

  async insert<K extends EntityKind>(kind: K, row: EntityRows[K]): Promise<EntityRows[K]> {
    await this.tx.insert(kind, row);
    this.changes.push({ kind, id: row.id, after: recordable(row) });
    if (kind === "course") this.course = row as CourseRow;
    return row;
  }

  /** Writes only the fields that differ and returns the row as it now is. */
  async update<K extends EntityKind>(kind: K, current: EntityRows[K], fields: Partial<EntityRows[K]>): Promise<EntityRows[K]> {
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const currentFields = current as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined || sameValue(currentFields[field], value)) continue;
      before[field] = currentFields[field];
      after[field] = value;
    }
    if (Object.keys(after).length === 0) return current;
    await this.tx.update(kind, current.id, after as Partial<EntityRows[K]>);
    this.changes.push({ kind, id: current.id, before, after });
    const updated = { ...current, ...after } as EntityRows[K];
    if (kind === "course") this.course = updated as CourseRow;
    return updated;
  }

  async remove<K extends EntityKind>(kind: K, row: EntityRows[K]): Promise<void> {
    await this.tx.remove(kind, row.id);
    this.changes.push({ kind, id: row.id, before: recordable(row) });
  }
}

/** Opens a course for a write and checks `expectedVersion` before anything is written. */
export async function beginCourseEdit(
  session: AuthoringSession,
  courseId: string,
  expectedVersion: number | undefined,
  permission: Permission = "edit",
): Promise<CourseEdit> {
  const { course, role } = await openCourse(session, courseId, permission);
  if (permission === "edit" && course.status === "archived") throw archivedCourse(course.id);
  if (expectedVersion !== undefined && expectedVersion !== course.version) throw staleVersion(expectedVersion, course.version);
  return new CourseEdit(session, course, role);
}

export interface CommittedEdit {
  version: number;
  revisionId: string | null;
}

/**
 * Records one revision for everything the edit changed; an edit that changed nothing keeps its version.
 * `always` records a revision without content changes (uploads, sharing), so the history shows them.
 */
export async function commitCourseEdit(edit: CourseEdit, tool: string, summary: string, options: { always?: boolean } = {}): Promise<CommittedEdit> {
  if (edit.changes.length === 0 && !edit.isNewCourse && !options.always) return { version: edit.course.version, revisionId: null };
  const now = edit.isNewCourse ? edit.course.updatedAt : timestamp(edit.session);
  const version = edit.isNewCourse ? edit.course.version : edit.course.version + 1;
  if (!edit.isNewCourse) {
    await edit.tx.update("course", edit.course.id, { version, updatedAt: now });
    edit.course = { ...edit.course, version, updatedAt: now };
  }
  const revisionId = edit.session.newId("revision");
  await edit.tx.insertRevision({
    id: revisionId,
    courseId: edit.course.id,
    version,
    actorSub: edit.session.actor.sub,
    tool,
    summary,
    createdAt: now,
    changes: edit.changes,
  });
  return { version, revisionId };
}

function recordable(row: object): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(row)) if (!unrecordedFields.has(field)) copy[field] = value;
  return copy;
}

function sameValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  return JSON.stringify(left) === JSON.stringify(right);
}
