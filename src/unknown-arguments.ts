/**
 * Finds argument names a tool does not know, at any depth (`modules[0].lessons[2].blocks[1].altText`),
 * by walking the tool's own valibot schema beside the arguments. valibot's `v.object` drops unknown
 * keys silently, which turns a typo (`update_course {titel}`) into a successful no-op; checking at
 * the MCP edge makes every tool strict without changing the domain schemas. It sits below the layers
 * because the domain needs it too, where the schema is known only once a stored row is read (the block
 * `update_block { changes }` merges into). Each unknown name comes with the closest valid name, so the
 * agent can correct itself in one step.
 */
import type * as v from "valibot";

export interface UnknownArgument {
  /** Dotted path of the unknown key, e.g. `operations[0].titel`. */
  path: string;
  /** The valid names at that place. */
  allowed: string[];
  /** The most likely intended name, when one is close enough. */
  suggestion?: string;
}

type AnySchema = v.GenericSchema & { type: string; [key: string]: unknown };

/** Names agents reach for that mean one of ours; used only when that name is valid at the place. */
const synonyms: Record<string, string[]> = {
  search: ["query", "q", "filter", "text", "term", "keyword", "keywords"],
  title: ["name", "heading"],
  markdown: ["body", "content", "md"],
  limit: ["pageSize", "page_size", "max", "count", "size"],
  cursor: ["nextCursor", "page", "pageToken", "next"],
  courseId: ["course_id", "course", "id"],
  moduleId: ["module_id", "module"],
  lessonId: ["lesson_id", "lesson"],
  blockId: ["block_id", "block"],
  expectedVersion: ["version", "expected_version", "ifVersion"],
  objectives: ["learningObjectives", "learning_objectives", "goals"],
  modules: ["sections", "chapters", "units"],
  lessons: ["pages", "topics"],
  operations: ["ops", "edits", "steps", "changes"],
  op: ["operation", "action", "type"],
  passingScore: ["passing_score", "passMark", "passScore"],
  estimatedMinutes: ["estimated_minutes", "minutes", "duration"],
};

function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (;;) {
    if (current.type === "optional" || current.type === "nullable" || current.type === "nullish" || current.type === "exact_optional") {
      current = current.wrapped as AnySchema;
    } else if (Array.isArray(current.pipe)) {
      current = current.pipe[0] as AnySchema;
    } else {
      return current;
    }
  }
}

function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = current;
  }
  return previous[right.length] as number;
}

/** Longer than any name a person or model means: no suggestion, and no edit distance over a huge string. */
const longestGuessedName = 100;

/** The valid name an unknown one most likely meant: a known synonym, else the nearest by edit distance. */
export function closestName(unknown: string, allowed: readonly string[]): string | undefined {
  if (unknown.length > longestGuessedName) return undefined;
  for (const name of allowed) if (synonyms[name]?.some((alias) => alias.toLowerCase() === unknown.toLowerCase())) return name;
  // altText → alt, courseID → courseId: one name inside the other is the likeliest intent; of several, the
  // nearest in length (get_cours → get_course, not get_course_results).
  const lower = unknown.toLowerCase();
  const contained = allowed.filter((name) => name.length >= 3 && (lower.includes(name.toLowerCase()) || name.toLowerCase().includes(lower)));
  if (contained.length > 0) return contained.sort((a, b) => Math.abs(a.length - lower.length) - Math.abs(b.length - lower.length))[0];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of allowed) {
    const distance = editDistance(unknown, name);
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  const tolerated = Math.max(2, Math.floor(unknown.length / 3));
  return bestDistance <= tolerated ? best : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Unknown names reported at most: enough for an agent to correct itself, and the walk stops there, so
 * arguments of thousands of unknown names cost no more than twenty.
 */
export const maxReportedUnknownArguments = 20;

function walk(schema: AnySchema, value: unknown, path: string, found: UnknownArgument[]): void {
  if (found.length >= maxReportedUnknownArguments) return;
  const inner = unwrap(schema);
  switch (inner.type) {
    case "object":
    case "strict_object": {
      if (!isPlainObject(value)) return;
      const entries = inner.entries as Record<string, AnySchema>;
      const allowed = Object.keys(entries);
      for (const [key, item] of Object.entries(value)) {
        const entry = entries[key];
        const where = path ? `${path}.${key}` : key;
        if (entry) walk(entry, item, where, found);
        else {
          const suggestion = closestName(key, allowed);
          found.push({ path: where, allowed, ...(suggestion ? { suggestion } : {}) });
        }
        if (found.length >= maxReportedUnknownArguments) return;
      }
      return;
    }
    case "array": {
      if (!Array.isArray(value)) return;
      for (let index = 0; index < value.length && found.length < maxReportedUnknownArguments; index++) walk(inner.item as AnySchema, value[index], `${path}[${index}]`, found);
      return;
    }
    case "variant": {
      if (!isPlainObject(value)) return;
      const key = inner.key as string;
      const option = (inner.options as AnySchema[]).find((candidate) => {
        const entries = unwrap(candidate).entries as Record<string, AnySchema> | undefined;
        const discriminator = entries?.[key] ? unwrap(entries[key]) : undefined;
        return discriminator?.type === "literal" && discriminator.literal === value[key];
      });
      // An unknown discriminator is valibot's to report, with the allowed values.
      if (option) walk(option, value, path, found);
      return;
    }
    case "union": {
      // The option that fits best: the one that leaves the fewest unknown names.
      let best: UnknownArgument[] | undefined;
      for (const option of inner.options as AnySchema[]) {
        const attempt: UnknownArgument[] = [];
        walk(option, value, path, attempt);
        if (!best || attempt.length < best.length) best = attempt;
      }
      found.push(...(best ?? []).slice(0, maxReportedUnknownArguments - found.length));
      return;
    }
    default:
      // loose_object, record and scalars accept what they get; valibot checks the values.
      return;
  }
}

/** The argument names in `value` that `schema` does not define, in document order, the first `maxReportedUnknownArguments` of them. */
export function findUnknownArguments(schema: v.GenericSchema, value: unknown): UnknownArgument[] {
  const found: UnknownArgument[] = [];
  walk(schema as AnySchema, value, "", found);
  return found;
}

/** "unknown argument titel (did you mean title?)", one clause per name. */
export function describeUnknownArguments(unknown: readonly UnknownArgument[]): string {
  return unknown
    .map((item) => {
      const hint = item.suggestion ? `did you mean ${item.suggestion}?` : `allowed here: ${item.allowed.join(", ")}`;
      return `${item.path}: unknown argument (${hint})`;
    })
    .join("; ")
    .concat(unknown.length >= maxReportedUnknownArguments ? `; only the first ${maxReportedUnknownArguments} unknown names are listed` : "");
}
