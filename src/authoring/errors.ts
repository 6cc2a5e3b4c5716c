/**
 * The authoring domain's failures, built on the service's `CourseAuthoringError` so a code from DESIGN.md
 * section 6 reaches the agent unchanged. Helpers keep messages uniform: they name the field and say
 * what is allowed. `notFound` never reveals whether a hidden course exists.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";

export { CourseAuthoringError };

export type EntityLabel = "course" | "module" | "lesson" | "block" | "objective" | "asset" | "revision" | "collaborator" | "comment";

/** The same text for "does not exist" and "exists but is not yours". */
export function notFound(label: EntityLabel, id: string, field?: string): CourseAuthoringError {
  const where = field ? `${field}: ` : "";
  return new CourseAuthoringError("not_found", `${where}${capitalise(label)} ${id} was not found.`, { [`${label}Id`]: id, ...(field ? { field } : {}) });
}

export function invalidArgument(field: string, message: string, details: Record<string, unknown> = {}): CourseAuthoringError {
  return new CourseAuthoringError("invalid_arguments", `${field}: ${message}`, { field, ...details });
}

export function forbidden(message: string): CourseAuthoringError {
  return new CourseAuthoringError("forbidden", message);
}

export function staleVersion(expectedVersion: number, currentVersion: number): CourseAuthoringError {
  return new CourseAuthoringError(
    "conflict",
    `expectedVersion: the course is at version ${currentVersion}, not ${expectedVersion}. Read it again, reapply your change and pass expectedVersion ${currentVersion}.`,
    { expectedVersion, currentVersion },
  );
}

/** Archived courses are read-only; the message says how to make them editable again. */
export function archivedCourse(courseId: string): CourseAuthoringError {
  return new CourseAuthoringError(
    "invalid_state",
    `Course ${courseId} is archived and read-only. The owner can make it editable again with set_status { status: "draft" }.`,
    { courseId, status: "archived" },
  );
}

export function limitExceeded(field: string, message: string, details: Record<string, unknown> = {}): CourseAuthoringError {
  return new CourseAuthoringError("limit_exceeded", `${field}: ${message}`, { field, ...details });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
