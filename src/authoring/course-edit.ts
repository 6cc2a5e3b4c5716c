/**
 * A unit of work on one course. Every row written through a `CourseEdit` is also recorded as a compact
 * change (inserted row, removed row, or changed fields only), and `commitCourseEdit` turns those
 * changes into exactly one revision and one version step. That is how revisions stay proportional to
 * the change and how a batch of operations becomes a single revision.
 */
import type { CourseRow, CourseUsage, EntityKind, EntityRows, RowChange } from "../store/types.ts";
import { openCourse, type CourseRole, type Permission } from "./access.ts";
import { timestamp, type AuthoringSession } from "./context.ts";
import { archivedCourse, staleVersion } from "./errors.ts";
import { assertWithinLimit } from "./limits.ts";
import { keepHistoryWithinBudget } from "./history-budget.ts";
import { utf8Length } from "../bytes.ts";
import { checkPictureHosts, PicturesToCheck } from "./picture-hosts.ts";

/** Bookkeeping columns that change on every write and are carried by the revision itself. */
const unrecordedFields = new Set(["version", "updatedAt"]);

export class CourseEdit {
  readonly changes: RowChange[] = [];
  /** What this edit adds to the course's running totals (negative for removals). */
  readonly usageDelta: CourseUsage = { lessons: 0, blocks: 0, contentBytes: 0 };
  /** Bytes of asset rows this edit added to the course (uploads, copies, imports). */
  addedAssetBytes = 0;
  /** Picture hosts the written blocks declare and the Markdown pictures they show, checked at commit. */
  readonly pictures = new PicturesToCheck();

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
    this.count(kind, row, 1);
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
    if (kind === "block" && "body" in after) {
      this.usageDelta.contentBytes += contentBytes(after.body) - contentBytes(before.body);
    }
    const updated = { ...current, ...after } as EntityRows[K];
    if (kind === "course") this.course = updated as CourseRow;
    return updated;
  }

  async remove<K extends EntityKind>(kind: K, row: EntityRows[K]): Promise<void> {
    await this.tx.remove(kind, row.id);
    this.changes.push({ kind, id: row.id, before: recordable(row) });
    this.count(kind, row, -1);
  }

  private count(kind: EntityKind, row: object, sign: 1 | -1): void {
    if (kind === "lesson") this.usageDelta.lessons += sign;
    if (kind !== "block") return;
    this.usageDelta.blocks += sign;
    this.usageDelta.contentBytes += sign * contentBytes((row as EntityRows["block"]).body);
  }
}

/** The measure `LIMIT_COURSE_CONTENT_BYTES` counts: a block body's UTF-8 JSON, as the store keeps it. */
export function contentBytes(body: unknown): number {
  return body === undefined ? 0 : utf8Length(JSON.stringify(body));
}

/**
 * Checks the course's and its owner's limits against what this edit adds, then moves the running
 * totals. Only growth is refused: an edit that shrinks a course over a (lowered) limit goes through.
 */
async function enforceLimits(edit: CourseEdit): Promise<void> {
  const { tx, limits } = edit.session;
  const course = edit.course;
  const delta = edit.usageDelta;
  if (delta.lessons !== 0 || delta.blocks !== 0 || delta.contentBytes !== 0) {
    const usage = edit.isNewCourse ? { lessons: 0, blocks: 0, contentBytes: 0 } : await tx.courseUsage(course.id);
    assertWithinLimit("courseLessons", limits.courseLessons, course.id, usage.lessons, delta.lessons);
    assertWithinLimit("courseBlocks", limits.courseBlocks, course.id, usage.blocks, delta.blocks);
    assertWithinLimit("courseContentBytes", limits.courseContentBytes, course.id, usage.contentBytes, delta.contentBytes);
  }
  if (edit.isNewCourse || edit.addedAssetBytes > 0) {
    // The rows are already written in this transaction, so the owner's totals include them.
    const owner = await tx.ownerUsage(course.ownerSub);
    if (edit.isNewCourse) assertWithinLimit("userCourses", limits.userCourses, course.ownerSub, owner.courses - 1, 1);
    assertWithinLimit("userAssetBytes", limits.userAssetBytes, course.ownerSub, owner.assetBytes - edit.addedAssetBytes, edit.addedAssetBytes);
  }
  // A new course gets its totals row even when empty, so later reads find it.
  if (edit.isNewCourse || delta.lessons !== 0 || delta.blocks !== 0 || delta.contentBytes !== 0) await tx.addCourseUsage(course.id, delta);
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
  await checkPictureHosts(edit.pictures, edit.tx, edit.course.id);
  await enforceLimits(edit);
  if (edit.changes.length === 0 && !edit.isNewCourse && !options.always) return { version: edit.course.version, revisionId: null };
  const now = edit.isNewCourse ? edit.course.updatedAt : timestamp(edit.session);
  const version = edit.isNewCourse ? edit.course.version : edit.course.version + 1;
  if (!edit.isNewCourse) {
    await edit.tx.update("course", edit.course.id, { version, updatedAt: now });
    edit.course = { ...edit.course, version, updatedAt: now };
  }
  const revisionId = edit.session.newId("revision");
  const stored = await edit.tx.insertRevision({
    id: revisionId,
    courseId: edit.course.id,
    version,
    actorSub: edit.session.actor.sub,
    tool,
    summary,
    createdAt: now,
    changes: edit.changes,
  });
  if (edit.session.writeMeter) edit.session.writeMeter.bytes += stored;
  await keepHistoryWithinBudget(edit.session, edit.course.id);
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
