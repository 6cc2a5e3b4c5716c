/**
 * `JSON.stringify(value, null, 2)` as a sequence of pieces, byte for byte the same text: objects and
 * arrays are opened and walked down to `depth` levels, and only the values below are stringified whole.
 * For a course that means one block at a time, so a JSON export never holds the whole document as one
 * string and its encoded copy.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The same text as the whole `JSON.stringify`, indented to sit `indent` deep in its parent. */
function whole(value: unknown, indent: string): string {
  return (JSON.stringify(value, null, 2) ?? "null").replace(/\n/g, `\n${indent}`);
}

/** Object members JSON.stringify keeps: undefined, functions and symbols are left out. */
function kept(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}

export function* jsonPieces(value: unknown, depth: number, indent = ""): Generator<string, void, undefined> {
  const isContainer = typeof value === "object" && value !== null && !("toJSON" in value && typeof value.toJSON === "function");
  if (depth <= 0 || !isContainer) {
    yield whole(value, indent);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield "[]";
      return;
    }
    yield "[";
    for (const [index, item] of value.entries()) {
      yield `${index === 0 ? "" : ","}\n${inner}`;
      yield* jsonPieces(kept(item) ? (item as Json) : null, depth - 1, inner);
    }
    yield `\n${indent}]`;
    return;
  }
  const entries = Object.entries(value).filter(([, item]) => kept(item));
  if (entries.length === 0) {
    yield "{}";
    return;
  }
  yield "{";
  for (const [index, [key, item]] of entries.entries()) {
    yield `${index === 0 ? "" : ","}\n${inner}${JSON.stringify(key)}: `;
    yield* jsonPieces(item, depth - 1, inner);
  }
  yield `\n${indent}}`;
}
