/**
 * The flat scan that bounds JSON before it is parsed (src/parse/json.ts): each limit is found where it
 * is passed and nowhere else, strings (escaped quotes, brackets and commas inside them) are skipped,
 * and the sliced scan of a long text (yielding between 1 MiB slices) finds exactly what the one-pass
 * scan finds, an escape or a string split across a slice boundary included.
 */
import { describe, expect, test } from "bun:test";
import { jsonShapeProblem, jsonShapeProblemSliced, type JsonShapeLimit, type JsonShapeLimits } from "../src/codecs/json.ts";

const small: JsonShapeLimits = { maxDepth: 3, maxMembers: 3, maxMembersInAll: 8, maxStringLength: 5, maxKeyLength: 3 };

describe("one limit at a time, at the place it is passed", () => {
  const cases: [string, string, JsonShapeLimit | null][] = [
    ["three members", '{"a":1,"b":2,"c":3}', null],
    ["four members", '{"a":1,"b":2,"c":3,"d":4}', "maxMembers"],
    ["four items", "[1,2,3,4]", "maxMembers"],
    ["depth 3", "[[[1]]]", null],
    ["depth 4", "[[[[1]]]]", "maxDepth"],
    ["nine in all", "[[1,2],[3,4],[5,6]]", "maxMembersInAll"],
    ["a name of 3", '{"abc":1}', null],
    ["a name of 4", '{"abcd":1}', "maxKeyLength"],
    ["a value of 5 as a name would be too long, as a value is not", '{"a":"abcde"}', null],
    ["a value of 6", '{"a":"abcdef"}', "maxStringLength"],
    ["an item of 6 in an array", '["abcdef"]', "maxStringLength"],
    ["brackets, commas and escaped quotes inside strings are text", '{"a":"[,{\\"","b":"\\\\"}', null],
    ["a name after an escaped quote in a value", '{"a":"\\"","bcde":1}', "maxKeyLength"],
    ["a string never closed", '{"a":"abcdefgh', "maxStringLength"],
  ];
  for (const [name, text, limit] of cases) {
    test(`${name}: ${limit ?? "passes"}`, () => {
      expect(jsonShapeProblem(text, small)?.limit ?? null).toBe(limit);
    });
  }
});

describe("the sliced scan of a long text finds what the one-pass scan finds", () => {
  const limits: JsonShapeLimits = { maxDepth: 64, maxMembers: 10_000, maxMembersInAll: 100_000, maxStringLength: 4 * 1024 * 1024, maxKeyLength: 1_024 };
  const slice = 1024 * 1024;
  const texts: [string, string][] = [
    // `"x":"` puts the string's content at 6; padding brings an escaped quote onto the slice boundary.
    ["an escaped quote across the boundary", `{"x":"${"a".repeat(slice - 7)}\\"${"b".repeat(100)}","k":1}`],
    ["an escaped backslash before the boundary", `{"x":"${"a".repeat(slice - 8)}\\\\","${"k".repeat(2_000)}":1}`],
    ["a string longer than a slice", `["${"z".repeat(3 * slice)}"]`],
    ["a string over the limit across slices", `["${"z".repeat(5 * slice)}"]`],
    ["members across the boundary", `[${"0,".repeat(slice / 2 + 20_000)}0]`],
  ];
  for (const [name, text] of texts) {
    test(name, async () => {
      expect(await jsonShapeProblemSliced(text, limits)).toEqual(jsonShapeProblem(text, limits));
    });
  }

  test("the escaped quote on the boundary does not end the string: the long name after it is found", () => {
    expect(jsonShapeProblem(`{"x":"${"a".repeat(slice - 8)}\\\\","${"k".repeat(2_000)}":1}`, limits)?.limit).toBe("maxKeyLength");
  });
});
