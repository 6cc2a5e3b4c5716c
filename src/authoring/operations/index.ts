/**
 * Every course operation, and running one as a single tool call: open the course for editing, check
 * `expectedVersion`, apply, record one revision. The batch (`edit_course`) reuses the same list.
 */
import { refuseTranslationEdit } from "../translation/access.ts";
import type * as v from "valibot";
import type { CourseRow } from "../../store/types.ts";
import type { AuthoringSession } from "../context.ts";
import { beginCourseEdit, commitCourseEdit } from "../course-edit.ts";
import { blockOperations } from "./block-ops.ts";
import { courseOperations } from "./course-ops.ts";
import { lessonOperations } from "./lesson-ops.ts";
import { moduleOperations } from "./module-ops.ts";
import type { CourseOperation, OperationArguments } from "./operation.ts";

export const courseEditOperations: CourseOperation<OperationArguments>[] = [
  ...courseOperations,
  ...moduleOperations,
  ...lessonOperations,
  ...blockOperations,
];

export interface OperationTarget {
  courseId: string;
  expectedVersion?: number | undefined;
}

export interface AppliedOperation {
  structured: Record<string, unknown> & { courseId: string; version: number };
  summary: string;
}

/** One operation as one tool call: one transaction (the caller's), one revision. */
export async function runOperation(
  session: AuthoringSession,
  operation: CourseOperation<OperationArguments>,
  args: OperationTarget & v.InferOutput<OperationArguments>,
): Promise<AppliedOperation> {
  const { courseId, expectedVersion, ...operationArgs } = args;
  const edit = await beginCourseEdit(session, courseId, expectedVersion);
  await refuseTranslationEdit(session, courseId);
  const outcome = await operation.apply(edit, operationArgs);
  const committed = await commitCourseEdit(edit, operation.name, outcome.summary);
  return {
    structured: { courseId, version: committed.version, ...withCommittedCourse(outcome.result, edit.course) },
    summary: `${outcome.summary}. Course ${courseId} is now at version ${committed.version}${committed.revisionId ? "" : " (nothing changed)"}.`,
  };
}

/**
 * A result that carries the course itself (update_course) was shaped before the commit stepped the
 * version; it reports the course as committed, so its `version` and `updatedAt` match get_course.
 */
export function withCommittedCourse<Result extends Record<string, unknown>>(result: Result, committed: CourseRow): Result {
  const course = result.course as { id?: unknown } | undefined;
  if (!course || course.id !== committed.id) return result;
  return { ...result, course: { ...course, version: committed.version, updatedAt: committed.updatedAt } };
}
