/**
 * The arguments and answers of the translation tools, one valibot schema each: validation, the
 * advertised JSON Schema and the TypeScript types all come from here.
 */
import * as v from "valibot";
import { idPattern } from "../ids.ts";
import { languageTagPattern } from "../schemas/fields.ts";
import { xliffFormats } from "../../formats/xliff/xliff-write.ts";

// The same rules as idField and languageField, checked without listing their patterns: five tools
// repeating two regular expressions cost more of the agent's context than they tell it.
const sourceField = v.pipe(v.string(), v.check((id) => idPattern("course").test(id), "must be a course ID (crs_…)"));
const targetLanguageField = v.pipe(v.string(), v.check((tag) => languageTagPattern.test(tag), "must be a BCP 47 language tag such as fr, de or pt-BR"));

export const translationTarget = { courseId: sourceField, language: targetLanguageField };

export const createTranslationArguments = v.object(translationTarget);

const onlyOutdatedField = v.optional(v.boolean());

export const getTranslationUnitsArguments = v.object({
  ...translationTarget,
  onlyOutdated: onlyOutdatedField,
  cursor: v.optional(v.string()),
});

export const setTranslationUnitsArguments = v.object({
  ...translationTarget,
  units: v.pipe(
    v.array(
      v.object({
        id: v.string(),
        target: v.pipe(v.string(), v.trim(), v.check((text) => text.length > 0 && text.length <= 100_000, "must be 1 to 100000 characters of Markdown")),
      }),
    ),
    v.check((units) => units.length <= 1000, "must list at most 1000 units ([] only takes the source's changes)"),
  ),
});

export const exportTranslationArguments = v.object({
  ...translationTarget,
  format: v.picklist(xliffFormats, "must be xliff20 or xliff12"),
  onlyOutdated: onlyOutdatedField,
});

export const importTranslationArguments = v.object({
  ...translationTarget,
  xliff: v.pipe(v.string(), v.check((text) => text.length > 0, "must not be empty")),
});

/**
 * Answers are listed loosely (a field or two agents act on; the summary line and the JSON carry the
 * rest): the toolset must fit the agent-context budget beside every other one (mcp-agent-context test).
 */
export const translationOfSchema = v.looseObject({ courseId: v.string(), language: v.string(), sourceVersion: v.number() });

export const translationSummarySchema = v.looseObject({ courseId: v.string(), translationOf: translationOfSchema });

export const unitPageSchema = v.looseObject({ units: v.array(v.looseObject({ id: v.string() })), nextCursor: v.nullable(v.string()) });

export const appliedSchema = v.looseObject({ applied: v.number(), version: v.number() });
