/**
 * The arguments and answers of the translation tools, one valibot schema each: validation, the
 * advertised JSON Schema and the TypeScript types all come from here.
 */
import * as v from "valibot";
import { idField, languageField } from "../schemas/fields.ts";
import { unitStates } from "./translations.ts";
import { xliffFormats } from "./xliff-write.ts";

const sourceField = v.pipe(idField("course"), v.description("The SOURCE course (a translation's own ID is accepted too)."));
const targetLanguageField = v.pipe(languageField, v.description("The translation's language, BCP 47 (fr, de, es, pt-BR)."));

export const translationTarget = { courseId: sourceField, language: targetLanguageField };

export const createTranslationArguments = v.object(translationTarget);

const onlyOutdatedField = v.optional(v.pipe(v.boolean(), v.description("Only units whose source text changed since they were translated.")), false);

export const getTranslationUnitsArguments = v.object({
  ...translationTarget,
  onlyOutdated: onlyOutdatedField,
  cursor: v.optional(v.pipe(v.string(), v.description("nextCursor of the previous page."))),
});

export const setTranslationUnitsArguments = v.object({
  ...translationTarget,
  units: v.pipe(
    v.array(
      v.object({
        id: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.description("A unit ID from get_translation_units, e.g. les_…/title or blk_…/choices/2/text.")),
        target: v.pipe(v.string(), v.trim(), v.minLength(1, "must not be empty"), v.maxLength(100_000, "must be at most 100000 characters"), v.description("The translated Markdown.")),
      }),
    ),
    v.minLength(1, "must list at least 1 unit"),
    v.maxLength(1000, "must list at most 1000 units per call"),
  ),
});

export const exportTranslationArguments = v.object({
  ...translationTarget,
  format: v.pipe(v.picklist(xliffFormats, "must be xliff20 or xliff12"), v.description("xliff20 (XLIFF 2.0) or xliff12 (XLIFF 1.2, for older CAT tools).")),
  onlyOutdated: onlyOutdatedField,
});

export const importTranslationArguments = v.object({
  ...translationTarget,
  xliff: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.description("The XLIFF 2.0 or 1.2 file's text, as a CAT tool saved it.")),
});

export const translationSummarySchema = v.object({
  courseId: v.pipe(v.string(), v.description("The translation's own course ID (read, preview or export it like any course).")),
  language: v.string(),
  sourceCourseId: v.string(),
  sourceLanguage: v.string(),
  sourceVersion: v.pipe(v.number(), v.description("The source version the translation last took its structure from.")),
  currentSourceVersion: v.number(),
  units: v.number(),
  translated: v.number(),
  untranslated: v.number(),
  outdated: v.number(),
});

export const unitViewSchema = v.object({
  id: v.string(),
  source: v.string(),
  target: v.pipe(v.nullable(v.string()), v.description("null while untranslated: the translation shows the source text.")),
  state: v.picklist(unitStates),
  note: v.string(),
});

export const appliedSchema = v.object({
  translation: translationSummarySchema,
  applied: v.number(),
  unchanged: v.number(),
  untranslated: v.number(),
  outdated: v.number(),
  version: v.pipe(v.number(), v.description("The translation course's version after this write.")),
  created: v.pipe(v.boolean(), v.description("True when this call created the translation.")),
});
