/**
 * `edit_course`: an ordered list of operations applied atomically as one revision. If any step fails,
 * the whole transaction rolls back and the error names the failing step (`operations[4] (move_block)`).
 */
import { refuseTranslationEdit } from "./translation/access.ts";
import * as v from "valibot";
import type { AuthoringSession } from "./context.ts";
import { beginCourseEdit, commitCourseEdit } from "./course-edit.ts";
import { CourseAuthoringError } from "./errors.ts";
import { courseEditOperations, withCommittedCourse } from "./operations/index.ts";
import { expectedVersionField, idField, limits } from "./schemas/fields.ts";

const operationsByName = new Map(courseEditOperations.map((operation) => [operation.name, operation]));

/** One step: `{ op: "<tool name>", ...that tool's arguments without courseId and expectedVersion }`. */
export const batchStepSchema = v.variant(
  "op",
  courseEditOperations.map((operation) => v.object({ op: v.literal(operation.name), ...operation.arguments.entries })) as [
    v.ObjectSchema<{ op: v.LiteralSchema<string, undefined> }, undefined>,
  ],
);

export const editCourseArguments = v.object({
  courseId: idField("course"),
  expectedVersion: expectedVersionField,
  operations: v.pipe(
    v.array(batchStepSchema),
    v.minLength(1, "must have at least 1 operation"),
    v.maxLength(limits.operationsPerBatch, `must have at most ${limits.operationsPerBatch} operations`),
  ),
});

export const editCourseResultEntries = {
  courseId: v.string(),
  version: v.number(),
  results: v.array(v.looseObject({ op: v.string() })),
};

export async function editCourse(
  session: AuthoringSession,
  args: v.InferOutput<typeof editCourseArguments>,
): Promise<{ structured: { courseId: string; version: number; results: Record<string, unknown>[] }; summary: string }> {
  const edit = await beginCourseEdit(session, args.courseId, args.expectedVersion);
  await refuseTranslationEdit(session, args.courseId);
  const results: Record<string, unknown>[] = [];
  const summaries: string[] = [];
  for (const [index, step] of args.operations.entries()) {
    const { op, ...stepArgs } = step as { op: string } & Record<string, unknown>;
    const operation = operationsByName.get(op);
    if (!operation) throw new CourseAuthoringError("invalid_arguments", `operations[${index}].op: unknown operation ${op}`);
    try {
      const outcome = await operation.apply(edit, stepArgs);
      results.push({ op, ...outcome.result });
      summaries.push(outcome.summary);
    } catch (error) {
      if (!(error instanceof CourseAuthoringError)) throw error;
      throw new CourseAuthoringError(error.code, `operations[${index}] (${op}): ${error.message} Nothing was changed.`, {
        ...error.details,
        operationIndex: index,
        operation: op,
      });
    }
  }
  const summary = `Applied ${results.length} operation(s): ${summaries.join("; ")}`;
  const committed = await commitCourseEdit(edit, "edit_course", summary.length > 2000 ? `${summary.slice(0, 1999)}…` : summary);
  return {
    structured: { courseId: args.courseId, version: committed.version, results: results.map((result) => withCommittedCourse(result, edit.course)) },
    summary: `${summary.length > 500 ? `${summary.slice(0, 499)}…` : summary}. Course ${args.courseId} is now at version ${committed.version}.`,
  };
}
