/**
 * JSON from outside, bounded: its length is checked first, then its shape by one flat scan (brackets,
 * commas and quotes counted outside strings, no recursion, no allocation per token), and only then is
 * it parsed. Deep nesting, objects or arrays of very many members and over-long strings or member
 * names are refused before any code that costs more per member (the parser, schema checks, the SDK's
 * message schemas, serialisers) sees them, so they cannot exhaust the stack or stall the event loop.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { yieldToEventLoop } from "./event-loop.ts";

/** What the flat scan bounds. */
export interface JsonShapeLimits {
  /** Objects and arrays open at once. */
  maxDepth: number;
  /** Members of one object, or items of one array. */
  maxMembers: number;
  /** Members of all objects and items of all arrays together (an empty object or array counts as one). */
  maxMembersInAll: number;
  /** UTF-16 code units of one string value, as written (escapes counted as sent). */
  maxStringLength: number;
  /** UTF-16 code units of one member name, as written. */
  maxKeyLength: number;
}

export interface JsonLimits extends JsonShapeLimits {
  /** UTF-16 characters of the text. */
  maxLength: number;
}

/** Limits for JSON read by the import tools: an export nests about a dozen deep and lists up to a course's 20,000 blocks in one array. */
export const defaultJsonLimits: JsonLimits = {
  maxLength: 32 * 1024 * 1024,
  maxDepth: 64,
  maxMembers: 100_000,
  maxMembersInAll: Number.POSITIVE_INFINITY,
  maxStringLength: 32 * 1024 * 1024,
  maxKeyLength: 64 * 1024,
};

export type JsonShapeLimit = keyof JsonShapeLimits;

/** The first place the text passes one of the limits: which, its value, and the character index. */
export interface JsonShapeProblem {
  limit: JsonShapeLimit;
  max: number;
  at: number;
}

/** Where a scan stands between two slices of one text (a class, so every scan sees one shape). */
class ScanState {
  /** Where the next slice begins. */
  position = 0;
  depth = 0;
  /** Commas and containers seen in all: at least the members of all containers together. */
  membersInAll = 0;
  /** The next string opens a member name. */
  expectKey = false;
  /** Index of the opening quote of the string being read, or -1 outside strings. */
  stringStart = -1;
  stringIsKey = false;
  /** Commas seen in each open container: its members are that plus one. */
  readonly commas: Int32Array;
  /** Whether each open container is an object (its strings alternate name, value) or an array. */
  readonly inObject: Uint8Array;

  constructor(maxDepth: number) {
    this.commas = new Int32Array(maxDepth + 2);
    this.inObject = new Uint8Array(maxDepth + 2);
  }

  /** Ready for a new text; each container's slots are set when it opens, so they need no clearing. */
  reset(): this {
    this.position = 0;
    this.depth = 0;
    this.membersInAll = 0;
    this.expectKey = false;
    this.stringStart = -1;
    this.stringIsKey = false;
    return this;
  }
}

/** The state of the synchronous scan, reused by every call (nothing can interleave with one): a request's scan allocates nothing. */
let syncState: ScanState | undefined;

function stringProblem(limits: JsonShapeLimits, isKey: boolean, at: number): JsonShapeProblem {
  const limit = isKey ? "maxKeyLength" : "maxStringLength";
  return { limit, max: limits[limit], at };
}

/**
 * Scans `text` from `state.position` to `to`, one tight loop over the characters with the state in
 * locals (the cost is a few nanoseconds a character, a fraction of JSON.parse); the first problem, or
 * null with `state` ready for the next slice. Invalid JSON is left for the parser to refuse.
 */
function scanSlice(text: string, to: number, limits: JsonShapeLimits, state: ScanState): JsonShapeProblem | null {
  const { maxDepth, maxMembers, maxMembersInAll, maxKeyLength, maxStringLength } = limits;
  const { commas, inObject } = state;
  let { depth, membersInAll, expectKey, stringStart, stringIsKey } = state;
  let index = state.position;
  while (index < to) {
    if (stringStart >= 0) {
      // Through a string's content in a loop of its own; an escape steps over the character it escapes
      // (past `to` too: the next slice goes on from there).
      let code = 0;
      while (index < to && (code = text.charCodeAt(index)) !== 0x22) index += code === 0x5c ? 2 : 1;
      if (index >= to) break;
      if (index - stringStart - 1 > (stringIsKey ? maxKeyLength : maxStringLength)) return stringProblem(limits, stringIsKey, stringStart);
      stringStart = -1;
      index += 1;
      continue;
    }
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      stringStart = index;
      stringIsKey = expectKey;
      expectKey = false;
    } else if (code === 0x2c) {
      commas[depth] = (commas[depth] as number) + 1;
      if ((commas[depth] as number) >= maxMembers) return { limit: "maxMembers", max: maxMembers, at: index };
      if (++membersInAll > maxMembersInAll) return { limit: "maxMembersInAll", max: maxMembersInAll, at: index };
      expectKey = inObject[depth] === 1;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > maxDepth) return { limit: "maxDepth", max: maxDepth, at: index };
      if (++membersInAll > maxMembersInAll) return { limit: "maxMembersInAll", max: maxMembersInAll, at: index };
      commas[depth] = 0;
      inObject[depth] = code === 0x7b ? 1 : 0;
      expectKey = code === 0x7b;
    } else if (code === 0x7d || code === 0x5d) {
      if (depth > 0) depth -= 1;
      expectKey = false;
    }
    index += 1;
  }
  // A string still open where the slice ends is at least this long already.
  if (stringStart >= 0 && Math.min(index, text.length) - stringStart - 1 > (stringIsKey ? maxKeyLength : maxStringLength)) return stringProblem(limits, stringIsKey, stringStart);
  state.position = index;
  state.depth = depth;
  state.membersInAll = membersInAll;
  state.expectKey = expectKey;
  state.stringStart = stringStart;
  state.stringIsKey = stringIsKey;
  return null;
}

const sliceLength = 1024 * 1024;

/** The first place `text` passes a limit, or null; one synchronous pass, for texts already bounded in size. */
export function jsonShapeProblem(text: string, limits: JsonShapeLimits): JsonShapeProblem | null {
  if (syncState === undefined || syncState.commas.length < limits.maxDepth + 2) syncState = new ScanState(limits.maxDepth);
  return scanSlice(text, text.length, limits, syncState.reset());
}

/** As `jsonShapeProblem`, yielding to the event loop between slices of a long text. */
export async function jsonShapeProblemSliced(text: string, limits: JsonShapeLimits): Promise<JsonShapeProblem | null> {
  const state = new ScanState(limits.maxDepth);
  for (;;) {
    const problem = scanSlice(text, Math.min(text.length, state.position + sliceLength), limits, state);
    if (problem || state.position >= text.length) return problem;
    await yieldToEventLoop();
  }
}

/** "nests objects and arrays more than 64 deep": what a problem means, in words, for an error message. */
export function describeJsonShapeProblem(problem: JsonShapeProblem): string {
  const where = `at character ${problem.at}; the limit is ${problem.max} (${problem.limit})`;
  switch (problem.limit) {
    case "maxDepth":
      return `nests objects and arrays more than ${problem.max} deep (${where})`;
    case "maxMembers":
      return `has an object or array of more than ${problem.max} members (${where})`;
    case "maxMembersInAll":
      return `has more than ${problem.max} members and items in all its objects and arrays together (${where})`;
    case "maxStringLength":
      return `has a string longer than ${problem.max} characters (${where})`;
    case "maxKeyLength":
      return `has a member name longer than ${problem.max} characters (${where})`;
  }
}

/** `text` parsed, or a typed error naming `field` and, for a limit, the limit. */
export async function readJson(text: string, options: { field: string; limits?: Partial<JsonLimits> }): Promise<unknown> {
  const limits = { ...defaultJsonLimits, ...options.limits };
  const { field } = options;
  if (text.length > limits.maxLength) {
    throw new CourseAuthoringError("limit_exceeded", `${field}: the JSON is ${text.length} characters, more than the ${limits.maxLength} read (maxLength).`, {
      field,
      limit: "maxLength",
      max: limits.maxLength,
    });
  }
  const problem = await jsonShapeProblemSliced(text, limits);
  if (problem !== null) {
    throw new CourseAuthoringError("limit_exceeded", `${field}: the JSON ${describeJsonShapeProblem(problem)}.`, { field, ...problem });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CourseAuthoringError("invalid_arguments", `${field}: is not valid JSON (${error instanceof Error ? error.message : String(error)}).`, { field });
  }
}
