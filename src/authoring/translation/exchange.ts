/**
 * The XLIFF round trip and the JSON unit writes: export_translation saves the XLIFF to package storage
 * (served by resources/read like an export package), import_translation reads a CAT tool's file back,
 * set_translation_units takes Markdown targets from an agent. Every target is checked against its
 * source (inline codes, blanks) before anything is written.
 */
import type { PackageStorage, StoredExport } from "../../store/packages.ts";
import type { Actor, AuthoringSession } from "../context.ts";
import { CourseAuthoringError } from "../errors.ts";
import { alignToSource, codeMismatch, rebuildMarkdown, segmentMarkdown, tokensOf, type Segment, type TargetToken } from "../../formats/xliff/inline-codes.ts";
import { timeSlicer } from "../../codecs/event-loop.ts";
import { structureAdded } from "./target-structure.ts";
import type { UnitProblems } from "./unit-problems.ts";
import { sameLanguage } from "./access.ts";
import { applyTranslationUnits, unitsForExport, type ApplyResult, type UnitTable, type UnitView } from "./translations.ts";
import type { XliffTargets } from "../../formats/xliff/xliff-read.ts";
import { writeAs, type AuthoringServices } from "../services.ts";
import { writeXliff, type XliffFormat } from "../../formats/xliff/xliff-write.ts";

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

/** import_translation: the file read off the request loop, then its targets stored as one revision of the translation. */
export async function importTranslation(services: AuthoringServices, actor: Actor, args: { courseId: string; language: string; xliff: string }): Promise<ApplyResult> {
  const file = await services.heavyWork.run("readXliff", args.xliff);
  return writeAs(services, actor, (session) => importTranslationUnits(session, args, file));
}

/** The read file's targets as one revision of the translation. */
export async function importTranslationUnits(session: AuthoringSession, args: { courseId: string; language: string }, file: XliffTargets): Promise<ApplyResult> {
  // po2xliff writes no target-language: then the import's language decides.
  if (file.trgLang !== "" && !sameLanguage(file.trgLang, args.language)) {
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
      unitField: () => "xliff",
      advice: "Keep every inline code of the source exactly once, translate words not structure, and send only units export_translation wrote.",
      unitIds: file.unitIds,
      targets: async (table, problems) => {
        // po2xliff (XLIFF 1.1) writes its own default source-language, not the file's: only 2.0 and 1.2 are checked.
        if (file.version !== "1.1" && !sameLanguage(file.srcLang, table.source.language)) {
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
          const sourceText = sources.get(id);
          if (sourceText === undefined) continue;
          const source = segmentMarkdown(sourceText);
          const read = withCodes(source, tokens);
          const mismatch = codeMismatch(source, read);
          if (mismatch) problems.add({ unitId: id, field: "xliff", reason: `: ${mismatch}` });
          else built.set(id, rebuildMarkdown(source, read));
        }
        await checkSameStructure(sources, built, () => "xliff", problems);
        return built;
      },
      notes: file.notes,
    },
    "import_translation",
  );
}

/**
 * A target that arrived as plain text while its source has codes (a PO round trip flattens tags to
 * their markup: `**fett**`) is read as Markdown: its codes, matched to the source's by their markup,
 * become the tokens. Otherwise the tokens are as read.
 */
function withCodes(source: readonly Segment[], tokens: readonly TargetToken[]): TargetToken[] {
  if (tokens.some((token) => token.kind !== "text")) return [...tokens];
  const aligned = alignToSource(source, segmentMarkdown(tokens.map((token) => (token.kind === "text" ? token.text : "")).join("")));
  return aligned ? tokensOf(aligned) : [...tokens];
}

/** Most characters one unit's target may have. */
export const unitTargetMaxCharacters = 100_000;

/** set_translation_units: Markdown targets; the blanks `{{1}}`… of a source must all stay in its target. */
export async function setTranslationUnits(
  session: AuthoringSession,
  args: { courseId: string; language: string; units: readonly { id: string; target: string }[] },
): Promise<ApplyResult> {
  return applyTranslationUnits(
    session,
    args,
    {
      field: "units",
      unitField: (index) => `units[${index}].id`,
      advice: "Fix or leave out these units and send them again.",
      unitIds: args.units.map((unit) => unit.id),
      targets: async (table: UnitTable, problems) => {
        const sources = new Map(table.units.map((unit) => [unit.id, unit.source]));
        const built = new Map<string, string>();
        const seen = new Set<string>();
        args.units.forEach((unit, index) => {
          if (seen.has(unit.id)) problems.add({ unitId: unit.id, field: `units[${index}].id`, reason: "is given twice" });
          seen.add(unit.id);
          const source = sources.get(unit.id);
          if (source === undefined) return;
          const missing = blanksOf(source).filter((blank) => !unit.target.includes(blank));
          if (missing.length > 0) problems.add({ unitId: unit.id, field: `units[${index}].target`, reason: `must keep ${missing.join(", ")} where the learner types` });
          else built.set(unit.id, unit.target);
        });
        const fields = new Map(args.units.map((unit, index) => [unit.id, `units[${index}].target`]));
        await checkSameStructure(sources, built, (id) => fields.get(id) as string, problems);
        return built;
      },
    },
    "set_translation_units",
  );
}

/**
 * A target that adds links, pictures, HTML or block syntax its source lacks is a bad unit (the whole
 * write is then refused with every other bad unit): translators change words, not structure.
 */
async function checkSameStructure(sources: ReadonlyMap<string, string>, targets: Map<string, string>, fieldOf: (unitId: string) => string, problems: UnitProblems): Promise<void> {
  // A file of many large units is a lot of parsing: let health checks and other calls in between units.
  const slice = timeSlicer();
  for (const [id, target] of targets) {
    await slice();
    const added = structureAdded(sources.get(id) as string, target);
    if (added.length === 0) continue;
    problems.add({
      unitId: id,
      field: fieldOf(id),
      reason: `adds ${added.slice(0, 5).join(", ")}, which its source does not have (translate the words only; text that merely looks like markup takes a backslash: "1\\. Januar", "\\# 1")`,
    });
    targets.delete(id);
  }
}

function blanksOf(text: string): string[] {
  return text.match(/\{\{\d+\}\}/g) ?? [];
}
