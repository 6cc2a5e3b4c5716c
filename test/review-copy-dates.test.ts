/**
 * Dates a returned review copy does not carry are left out (issue 41): LibreOffice writes a placeholder
 * for a comment with no date, which showed as "0-00-00T00:" in the imported comment.
 */
import { expect, test } from "bun:test";
test("a review copy's dates: real ISO dates are kept, a writer's placeholder (LibreOffice's 0-00-00T00:00:00) is left out", async () => {
  const { carriedDate } = await import("../src/formats/review-copy/read-review-copy.ts");
  expect(carriedDate("2026-11-29T09:00:00Z")).toBe("2026-11-29T09:00:00Z");
  for (const placeholder of ["0-00-00T00:00:00", "0000-00-00T00:00:00Z", "", undefined, "yesterday", "2026-13-01T00:00:00Z"]) expect(carriedDate(placeholder)).toBeNull();
});
