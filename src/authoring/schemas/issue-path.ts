/**
 * Cross-field rules found inside a `v.rawCheck` reported on the exact path an author must fix
 * (`regions[2].width`), which the tool error prefixes with the block's own path.
 */
import type * as v from "valibot";

type AddIssue = (info: { message: string; path: [v.IssuePathItem, ...v.IssuePathItem[]] }) => void;

/** A reporter of `(path, message)` for one rawCheck's `addIssue` over `input`. */
export function issueAt(addIssue: AddIssue, input: unknown): (path: readonly (string | number)[], message: string) => void {
  return (path, message) =>
    addIssue({
      message,
      path: path.map((key) => ({ type: "object", origin: "value", input, key, value: undefined }) as unknown as v.IssuePathItem) as [v.IssuePathItem, ...v.IssuePathItem[]],
    });
}
