/**
 * A course operation is one edit an agent can make either as its own tool or as a step of
 * `edit_course`: a valibot schema for its arguments (besides `courseId` and `expectedVersion`), the
 * entries of its result, and an `apply` that writes through a `CourseEdit`. Defining each edit once
 * keeps the single tool and the batch step identical.
 */
import * as v from "valibot";
import type { CourseRow, EntityRows, OrderedKind } from "../../store/types.ts";
import type { CourseEdit } from "../course-edit.ts";
import { notFound, type EntityLabel } from "../errors.ts";

export interface OperationOutcome<Result> {
  result: Result;
  /** One line for the revision log and the tool's text answer. */
  summary: string;
}

export interface CourseOperation<Arguments extends v.GenericSchema = v.GenericSchema, Result extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  arguments: Arguments;
  /** Entries of the result object, merged into the tool's output schema. */
  result: v.ObjectEntries;
  apply(edit: CourseEdit, args: v.InferOutput<Arguments>): Promise<OperationOutcome<Result>>;
}

/** Arguments schema of an operation: a plain object schema so it can join the batch variant. */
export type OperationArguments = v.ObjectSchema<v.ObjectEntries, undefined>;

/** Keeps each operation's argument type precise while lists of operations are stored uniformly. */
export function defineOperation<Arguments extends OperationArguments, Result extends Record<string, unknown>>(
  operation: CourseOperation<Arguments, Result>,
): CourseOperation<OperationArguments> {
  return operation as unknown as CourseOperation<OperationArguments>;
}

/** Loads a row that must belong to the course being edited; otherwise it does not exist for the caller. */
export async function findInCourse<K extends OrderedKind>(
  edit: { tx: CourseEdit["tx"]; course: CourseRow },
  kind: K,
  id: string,
  field: string,
): Promise<EntityRows[K]> {
  const row = await edit.tx.find(kind, id);
  if (!row || row.courseId !== edit.course.id) throw notFound(kind as EntityLabel, id, field);
  return row;
}

/** A written lesson as a write returns it: its blocks as { id, type }, not an echo of the content just sent. */
export function blockIdsOnly<Lesson extends { blocks?: { id: string; type: string }[] | undefined }>(lesson: Lesson): Lesson {
  return lesson.blocks ? { ...lesson, blocks: lesson.blocks.map((block) => ({ id: block.id, type: block.type })) } : lesson;
}
