/**
 * The authoring domain's failures, built on the MCP layer's `ToolError` so a code from DESIGN.md
 * section 6 reaches the agent unchanged. Helpers keep messages uniform: they name the field and say
 * what is allowed. `notFound` never reveals whether a hidden course exists.
 */
import { ToolError } from "../mcp/registry.ts";

export { ToolError };

export type EntityLabel = "course" | "module" | "lesson" | "block" | "objective" | "asset" | "revision" | "collaborator" | "comment";

/** The same text for "does not exist" and "exists but is not yours". */
export function notFound(label: EntityLabel, id: string, field?: string): ToolError {
  const where = field ? `${field}: ` : "";
  return new ToolError("not_found", `${where}${capitalise(label)} ${id} was not found.`, { [`${label}Id`]: id, ...(field ? { field } : {}) });
}

export function invalidArgument(field: string, message: string, details: Record<string, unknown> = {}): ToolError {
  return new ToolError("invalid_arguments", `${field}: ${message}`, { field, ...details });
}

export function forbidden(message: string): ToolError {
  return new ToolError("forbidden", message);
}

export function staleVersion(expectedVersion: number, currentVersion: number): ToolError {
  return new ToolError(
    "conflict",
    `expectedVersion: the course is at version ${currentVersion}, not ${expectedVersion}. Read it again, reapply your change and pass expectedVersion ${currentVersion}.`,
    { expectedVersion, currentVersion },
  );
}

/** Archived courses are read-only; the message says how to make them editable again. */
export function archivedCourse(courseId: string): ToolError {
  return new ToolError(
    "invalid_state",
    `Course ${courseId} is archived and read-only. The owner can make it editable again with set_status { status: "draft" }.`,
    { courseId, status: "archived" },
  );
}

export function limitExceeded(field: string, message: string, details: Record<string, unknown> = {}): ToolError {
  return new ToolError("limit_exceeded", `${field}: ${message}`, { field, ...details });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
