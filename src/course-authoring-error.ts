/**
 * The service's one error type, at the bottom of the layers: every use case (authoring, review,
 * export, import) fails by throwing `CourseAuthoringError` with a stable code from DESIGN.md section 6.
 * Adapters translate it: the MCP layer into a tool error, any other caller into its own form.
 */
import type * as v from "valibot";

export const errorCodes = ["not_found", "conflict", "invalid_arguments", "forbidden", "limit_exceeded", "invalid_state"] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** A failure the caller can act on: a stable code, a message naming the field, and optional details. */
export class CourseAuthoringError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "CourseAuthoringError";
  }
}

/** Renders valibot issues as one line per bad field: `modules[0].title: must not be empty`. */
/**
 * A missing key reads "is required", with `hintFor(key)` after it when given (valibot words it "Invalid
 * key: Expected … but received undefined", and ignores the field's own message).
 */
export function describeIssues(
  issues: readonly v.BaseIssue<unknown>[],
  hintFor: (key: string) => string | undefined = () => undefined,
): { message: string; fields: { path: string; message: string }[] } {
  const fields = issues.map((issue) => ({ path: issuePath(issue) || "(arguments)", message: missingKey(issue, hintFor) ?? issue.message }));
  return { message: fields.map((f) => `${f.path}: ${f.message}`).join("; "), fields };
}

function missingKey(issue: v.BaseIssue<unknown>, hintFor: (key: string) => string | undefined): string | undefined {
  if (issue.kind !== "schema" || issue.type !== "object" || issue.input !== undefined || !issue.expected?.startsWith('"')) return undefined;
  const key = (issue.path?.at(-1) as { key?: unknown } | undefined)?.key;
  const hint = typeof key === "string" ? hintFor(key) : undefined;
  return hint ? `is required (${hint})` : "is required";
}

function issuePath(issue: v.BaseIssue<unknown>): string {
  let path = "";
  for (const item of issue.path ?? []) {
    const key = (item as { key?: unknown }).key;
    if (typeof key === "number") path += `[${key}]`;
    else path += path ? `.${String(key)}` : String(key);
  }
  return path;
}
