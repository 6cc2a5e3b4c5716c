/**
 * Every course operation, and running one as a single tool call: open the course for editing, check
 * `expectedVersion`, apply, record one revision. The batch (`edit_course`) reuses the same list.
 */
import type * as v from "valibot";
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
  const outcome = await operation.apply(edit, operationArgs);
  const committed = await commitCourseEdit(edit, operation.name, outcome.summary);
  return {
    structured: { courseId, version: committed.version, ...outcome.result },
    summary: `${outcome.summary}. Course ${courseId} is now at version ${committed.version}${committed.revisionId ? "" : " (nothing changed)"}.`,
  };
}
