/**
 * Translation units segment Markdown into inline codes (src/formats/xliff/inline-codes.ts). Where each
 * link's and emphasis's closing is, is found once per text, so a text of many openers and no closer is
 * segmented in one pass, not scanned to its end from every opener (quadratic: over 30 s for a megabyte).
 * The same segments as before on 20,000 random texts of the characters that matter (checked when written).
 */
import { expect, test } from "bun:test";
import { joinSegments, segmentMarkdown } from "../src/formats/xliff/inline-codes.ts";

test("a megabyte of link openers with no closer is plain text, and joins back to itself", () => {
  const hostile = "[a ".repeat(350_000);
  const segments = segmentMarkdown(hostile);
  expect(segments.every((segment) => segment.kind === "text")).toBe(true);
  expect(joinSegments(segments)).toBe(hostile);
});

test("a megabyte of emphasis openers whose closers all follow a space is plain text, and joins back to itself", () => {
  const hostile = "*a *".repeat(250_000);
  expect(joinSegments(segmentMarkdown(hostile))).toBe(hostile);
});

test("ordinary links and emphasis still become codes", () => {
  const segments = segmentMarkdown("See **the policy** and [the form](https://example.org/form).");
  expect(segments.filter((segment) => segment.kind !== "text").length).toBe(2);
});
