/**
 * Field schemas and limits shared by every authoring tool. Each schema's messages say what is allowed,
 * because the agent reads them verbatim (`modules[0].title: must not be empty`). Limits live here once.
 */
import * as v from "valibot";
import { idPattern, idPrefixes, type IdKind } from "../ids.ts";

export const limits = {
  titleCharacters: 200,
  shortTextCharacters: 2_000,
  /** Markdown of one text block, and code of one code block. */
  blockTextBytes: 100_000,
  /** Smaller Markdown fields: descriptions, feedback, card faces, tab bodies. */
  markdownBytes: 20_000,
  tagsPerCourse: 30,
  objectivesPerCourse: 100,
  modulesPerCall: 100,
  lessonsPerModule: 200,
  blocksPerCall: 500,
  operationsPerBatch: 200,
  assetBytes: 10 * 1024 * 1024,
  listPageSize: 100,
} as const;

export function titleField(what = "title") {
  return v.pipe(
    v.string(`${what} must be a string`),
    v.trim(),
    v.nonEmpty(`must not be empty`),
    v.maxLength(limits.titleCharacters, `must be at most ${limits.titleCharacters} characters`),
  );
}

export function shortTextField(maxCharacters: number = limits.shortTextCharacters) {
  return v.pipe(v.string(), v.trim(), v.maxLength(maxCharacters, `must be at most ${maxCharacters} characters`));
}

export function requiredTextField(maxCharacters: number = limits.shortTextCharacters) {
  return v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty"), v.maxLength(maxCharacters, `must be at most ${maxCharacters} characters`));
}

/** Markdown with a byte limit (UTF-8), so a 10 MB paste is refused by name. */
export function markdownField(maxBytes: number = limits.markdownBytes) {
  return v.pipe(
    v.string(),
    v.nonEmpty("must not be empty"),
    v.maxBytes(maxBytes, `must be at most ${maxBytes} bytes of UTF-8 (split long content into several blocks)`),
  );
}

/** Markdown that may be empty (descriptions, summaries). */
export function optionalMarkdownField(maxBytes: number = limits.markdownBytes) {
  return v.pipe(v.string(), v.maxBytes(maxBytes, `must be at most ${maxBytes} bytes of UTF-8`));
}

export function idField(kind: IdKind) {
  const prefix = idPrefixes[kind];
  return v.pipe(v.string(), v.regex(idPattern(kind), `must be a ${kind} ID (${prefix}_…)`));
}

/** Where a file the agent does not have comes from: the person adds it in the files view. Said in errors and findings, not descriptions. */
export const ownFileHint = "for the person's own file, open the files view (list_assets) and use the assetId it returns";

/** A media source's rule, with where a file comes from. */
export const exactlyOneSourceMessage = `give exactly one of assetId or url (${ownFileHint})`;

export const httpUrlField = v.pipe(
  v.string(),
  v.maxLength(2048, "must be at most 2048 characters"),
  v.url("must be an absolute URL"),
  v.regex(/^https?:\/\//i, "must be an http or https URL"),
);

/** The shape of a BCP 47 language tag such as `en`, `en-GB`, `pt-BR`, `zh-Hant`: the one pattern the schemas, the renderer and the review rules use. */
export const languageTagPattern = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/** BCP 47 language tag such as `en`, `en-GB`, `pt-BR`, `zh-Hant`. */
export const languageField = v.pipe(v.string(), v.regex(languageTagPattern, "must be a BCP 47 language tag such as en, en-GB or pt-BR"));

export const expectedVersionField = v.optional(
  v.pipe(
    v.number(),
    v.integer("must be a whole number"),
    v.minValue(1, "must be at least 1"),
    v.description("The version you last read; if the course has changed, nothing is written (conflict)."),
  ),
);

export const positionField = v.optional(
  v.pipe(
    v.number(),
    v.integer("must be a whole number"),
    v.minValue(0, "must be 0 or more"),
    v.description("0-based index among the siblings; omit to append at the end."),
  ),
);

export const tagsField = v.pipe(
  v.array(requiredTextField(50)),
  v.maxLength(limits.tagsPerCourse, `must have at most ${limits.tagsPerCourse} tags`),
);

export const courseLevels = ["beginner", "intermediate", "advanced", "all_levels"] as const;
export const levelField = v.picklist(courseLevels, `must be one of ${courseLevels.join(", ")}`);

export const pageSizeField = v.optional(
  v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1, "must be at least 1"), v.maxValue(limits.listPageSize, `must be at most ${limits.listPageSize}`)),
);

export const cursorField = v.optional(v.pipe(v.string(), v.description("The nextCursor from the previous page.")));
