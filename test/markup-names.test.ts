/**
 * The page's short class and `data-` names (`page-contract/markup-names.ts`) must stay distinct: two keys
 * sharing a token would let one block's rules or script reach another's elements.
 */
import { expect, test } from "bun:test";
import { ClassName, DataName } from "../src/page-contract/markup-names.ts";

const tokens = (names: Record<string, string>): string[] => Object.values(names);

test("no two class names share a token, and none is a name the page keeps long", () => {
  const classes = tokens(ClassName);
  expect(new Set(classes).size).toBe(classes.length);
  // Classes written as they are: the Markdown's code languages and the ones nothing styles or scripts.
  for (const kept of ["course-ready", "course-logo", "cover-image", "block-text", "block-heading", "image", "media", "tabs", "intro", "previous"]) expect(classes).not.toContain(kept);
  for (const token of classes) expect(token).toMatch(/^[a-z][a-z0-9]*$/);
});

test("no two data- names share a token, each is its own dataset key, and none is an attribute kept long", () => {
  const data = tokens(DataName);
  expect(new Set(data).size).toBe(data.length);
  // One lower-case word: `data-${token}` reads back as `dataset[token]`, with no camel-casing between.
  for (const token of data) expect(token).toMatch(/^[a-z][a-z0-9]*$/);
  for (const kept of ["key", "sealed", "x", "y", "mode", "player-bundle", "preview-of", "lms-notice", "course-length"]) expect(data).not.toContain(kept);
});
