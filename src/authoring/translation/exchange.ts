/**
 * The XLIFF round trip and the JSON unit writes: export_translation saves the XLIFF to package storage
 * (served by resources/read like an export package), import_translation reads a CAT tool's file back,
 * set_translation_units takes Markdown targets from an agent. Every target is checked against its
 * source (inline codes, blanks) before anything is written.
 */
import type { PackageStorage, StoredExport } from "../../store/packages.ts";
import type { AuthoringSession } from "../context.ts";
import { CourseAuthoringError } from "../errors.ts";
import { codeMismatch, rebuildMarkdown, segmentMarkdown } from "./inline-codes.ts";
import { timeSlicer } from "../../render/time-slicer.ts";
import { describeStructureProblems, structureAdded, structureProblemsListed, type StructureProblem } from "./target-structure.ts";
import { sameLanguage } from "./access.ts";
import { applyTranslationUnits, unitsForExport, type ApplyResult, type UnitTable, type UnitView } from "./translations.ts";
import { readXliff } from "./xliff-read.ts";
import { writeXliff, type XliffFormat } from "./xliff-write.ts";

export interface XliffExport {
  record: StoredExport;
  units: number;
  sourceLanguage: string;
}

/** The XLIFF of a course's units toward `language`, saved to package storage under the translation (or the source before one exists). */
export async function exportTranslationUnits(
  session: AuthoringSession,
  storage: PackageStorage,
  args: { courseId: string; language: string; format: XliffFormat; onlyOutdated?: boolean | undefined },
): Promise<XliffExport> {
  const { source, link, units } = await unitsForExport(session, args);
  const chosen: UnitView[] = args.onlyOutdated ? units.filter((unit) => unit.state === "outdated") : units;
  const language = link?.language ?? args.language;
  const pieces = writeXliff(args.format, { courseId: source.id, srcLang: source.language, trgLang: language, units: chosen });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  const safeTitle = source.title.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60) || "course";
  const record = await storage.save(
    {
      courseId: link?.courseId ?? source.id,
      format: args.format,
      variant: "draft",
      courseVersion: source.version,
      fileName: `${safeTitle}.${source.language}-${language}.${args.format === "xliff20" ? "xliff2" : "xliff12"}.xlf`,
      mimeType: "application/xliff+xml",
      createdBy: session.actor.sub,
    },
    stream,
  );
  return { record, units: chosen.length, sourceLanguage: source.language };
}

/** import_translation: the file's targets as one revision of the translation. */
export async function importTranslationUnits(session: AuthoringSession, args: { courseId: string; language: string; xliff: string }): Promise<ApplyResult> {
  const file = await readXliff(args.xliff);
  if (!sameLanguage(file.trgLang, args.language)) {
    const field = file.format === "xliff20" ? "trgLang" : "target-language";
    throw new CourseAuthoringError("invalid_arguments", `xliff: ${field} is "${file.trgLang}" but language is "${args.language}"; import the file for its own language, or export again.`, {
      field: "xliff",
      attribute: field,
      found: file.trgLang,
      expected: args.language,
    });
  }
  return applyTranslationUnits(
    session,
    args,
    {
      field: "xliff",
      unitIds: file.unitIds,
      targets: async (table) => {
        if (!sameLanguage(file.srcLang, table.source.language)) {
          const field = file.format === "xliff20" ? "srcLang" : "source-language";
          throw new CourseAuthoringError("invalid_arguments", `xliff: ${field} is "${file.srcLang}" but course ${table.source.id} is written in "${table.source.language}".`, {
            field: "xliff",
            attribute: field,
            found: file.srcLang,
            expected: table.source.language,
          });
        }
        const sources = new Map(table.units.map((unit) => [unit.id, unit.source]));
        const built = new Map<string, string>();
        for (const [id, tokens] of file.targets) {
          const source = segmentMarkdown(sources.get(id) as string);
          const mismatch = codeMismatch(source, tokens);
          if (mismatch) {
            throw new CourseAuthoringError("invalid_arguments", `xliff: unit ${id}: ${mismatch}. Keep every inline code of the source exactly once; nothing was imported.`, { field: "xliff", unitId: id });
          }
          built.set(id, rebuildMarkdown(source, tokens));
        }
        await assertSameStructure("xliff", sources, built, () => "xliff");
        return built;
      },
    },
    "import_translation",
  );
}

/** Most characters one unit's target may have. */
export const unitTargetMaxCharacters = 100_000;

/** set_translation_units: Markdown targets; the blanks `{{1}}`… of a source must all stay in its target. */
export async function setTranslationUnits(
  session: AuthoringSession,
  args: { courseId: string; language: string; units: readonly { id: string; target: string }[] },
): Promise<ApplyResult> {
  const seen = new Set<string>();
  args.units.forEach((unit, index) => {
    if (seen.has(unit.id)) throw new CourseAuthoringError("invalid_arguments", `units[${index}].id: ${unit.id} is given twice.`, { field: `units[${index}].id`, unitId: unit.id });
    seen.add(unit.id);
  });
  return applyTranslationUnits(
    session,
    args,
    {
      field: "units",
      unitIds: args.units.map((unit) => unit.id),
      targets: async (table: UnitTable) => {
        const sources = new Map(table.units.map((unit) => [unit.id, unit.source]));
        const built = new Map<string, string>();
        args.units.forEach((unit, index) => {
          const missing = blanksOf(sources.get(unit.id) as string).filter((blank) => !unit.target.includes(blank));
          if (missing.length > 0) {
            throw new CourseAuthoringError("invalid_arguments", `units[${index}].target: unit ${unit.id} must keep ${missing.join(", ")} where the learner types.`, {
              field: `units[${index}].target`,
              unitId: unit.id,
            });
          }
          built.set(unit.id, unit.target);
        });
        const fields = new Map(args.units.map((unit, index) => [unit.id, `units[${index}].target`]));
        await assertSameStructure("units", sources, built, (id) => fields.get(id) as string);
        return built;
      },
    },
    "set_translation_units",
  );
}

/**
 * Refuses the whole write when any target adds links, pictures, HTML or block syntax its source lacks,
 * naming every such unit (a bounded list), so one round of fixes clears them all.
 */
async function assertSameStructure(field: string, sources: ReadonlyMap<string, string>, targets: ReadonlyMap<string, string>, fieldOf: (unitId: string) => string): Promise<void> {
  const problems: StructureProblem[] = [];
  // A file of many large units is a lot of parsing: let health checks and other calls in between units.
  const slice = timeSlicer();
  for (const [id, target] of targets) {
    await slice();
    const added = structureAdded(sources.get(id) as string, target);
    if (added.length > 0) problems.push({ unitId: id, field: fieldOf(id), added });
  }
  if (problems.length === 0) return;
  throw new CourseAuthoringError(
    "invalid_arguments",
    `${field}: ${problems.length} unit(s) add structure their source does not have; translators change words, not structure: ${describeStructureProblems(problems)}. Translate the words only (links, pictures, HTML, headings, lists, quotes, code and tables come from the source); text that merely looks like markup takes a backslash ("1\\. Januar", "\\# 1"). Nothing was written.`,
    { field, units: problems.slice(0, structureProblemsListed).map(({ unitId, field: unitField, added }) => ({ unitId, field: unitField, added: added.slice(0, 5) })), unitCount: problems.length },
  );
}

function blanksOf(text: string): string[] {
  return text.match(/\{\{\d+\}\}/g) ?? [];
}
