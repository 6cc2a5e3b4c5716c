/**
 * JSON from outside, bounded: its length is checked first, then its nesting depth by a flat scan
 * (brackets counted outside strings, in slices with yields to the event loop), and only then is it
 * parsed. Deep nesting is refused before any recursive code (the parser, schema checks, serialisers)
 * sees it, so it cannot exhaust the stack or stall the event loop.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { yieldToEventLoop } from "./event-loop.ts";

export interface JsonLimits {
  /** UTF-16 characters of the text. */
  maxLength: number;
  /** Objects and arrays open at once. Our course export nests about a dozen. */
  maxDepth: number;
}

export const defaultJsonLimits: JsonLimits = { maxLength: 32 * 1024 * 1024, maxDepth: 64 };

const sliceLength = 1024 * 1024;

/** The first place the text nests deeper than `maxDepth`, or null; strings are skipped, escapes honoured. */
export async function jsonTooDeepAt(text: string, maxDepth: number): Promise<number | null> {
  let depth = 0;
  let inString = false;
  for (let start = 0; start < text.length; start += sliceLength) {
    const end = Math.min(text.length, start + sliceLength);
    for (let index = start; index < end; index++) {
      const code = text.charCodeAt(index);
      if (inString) {
        if (code === 0x5c) index += 1;
        else if (code === 0x22) inString = false;
      } else if (code === 0x22) inString = true;
      else if (code === 0x7b || code === 0x5b) {
        depth += 1;
        if (depth > maxDepth) return index;
      } else if (code === 0x7d || code === 0x5d) depth -= 1;
    }
    if (end < text.length) await yieldToEventLoop();
  }
  return null;
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
  const deepAt = await jsonTooDeepAt(text, limits.maxDepth);
  if (deepAt !== null) {
    throw new CourseAuthoringError("limit_exceeded", `${field}: the JSON nests objects and arrays more than ${limits.maxDepth} deep (at character ${deepAt}); the limit is ${limits.maxDepth} (maxDepth).`, {
      field,
      limit: "maxDepth",
      max: limits.maxDepth,
      at: deepAt,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CourseAuthoringError("invalid_arguments", `${field}: is not valid JSON (${error instanceof Error ? error.message : String(error)}).`, { field });
  }
}
