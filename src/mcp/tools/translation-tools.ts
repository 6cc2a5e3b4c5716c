/**
 * The `translation` toolset: language versions of a course linked to their source. Agents that
 * translate themselves use get/set_translation_units; people with a CAT tool use export/import_translation
 * (XLIFF 2.0 or 1.2). The translation is a course of its own: preview, validate and export it as any.
 */
import * as v from "valibot";
import { readAs, writeAs, type AuthoringServices } from "../../authoring/services.ts";
import { appliedSchema, createTranslationArguments, exportTranslationArguments, getTranslationUnitsArguments, importTranslationArguments, setTranslationUnitsArguments, translationSummarySchema, unitPageSchema } from "../../authoring/translation/arguments.ts";
import { exportTranslationUnits, importTranslation, setTranslationUnits } from "../../authoring/translation/exchange.ts";
import { behindLine, createTranslation, readTranslationUnits, type ApplyResult, type UnitView } from "../../authoring/translation/translations.ts";
import { describeChanges } from "../../authoring/translation/source-changes.ts";
import { invalidArgument } from "../../authoring/errors.ts";
import { exportUri } from "../../export/export-store.ts";
import { humanSize } from "../../export/export-course.ts";
import { interfaceLanguage } from "../../render/index.ts";
import { importOverwrites } from "../../authoring/translation/import-overwrites.ts";
import { confirmField } from "../confirmations.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";

const write = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
const read = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

const createTranslationTool = defineTool<AuthoringServices, typeof createTranslationArguments>({
  name: "create_translation",
  toolset: "translation",
  title: "Create translation",
  description:
    "Creates your translation of courseId into language, mirroring it; untranslated text shows the source.",
  input: createTranslationArguments,
  output: translationSummarySchema,
  annotations: write,
  async handler(args, { user, services, log }) {
    const result = await writeAs(services, user, (session) => createTranslation(session, args));
    if (interfaceLanguage(result.language) === null) {
      await log?.([{ level: "notice", text: `Packages of the ${result.language} translation show the player's own buttons and messages in English: it has no ${result.language} interface text (it has en, fr, de and es).` }]);
    }
    return { structuredContent: { ...result }, summary: `Created the ${result.language} translation ${result.courseId} of course ${result.translationOf.courseId} (${result.translationOf.language}, version ${result.translationOf.sourceVersion}): ${result.units} units to translate.` };
  },
});

function encodeUnitCursor(index: number): string {
  return btoa(JSON.stringify({ unit: index })).replace(/=+$/, "");
}

function decodeUnitCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const index = (JSON.parse(atob(cursor)) as { unit?: unknown }).unit;
    if (typeof index === "number" && Number.isInteger(index) && index >= 0) return index;
  } catch {
    // Falls through to the error below.
  }
  throw invalidArgument("cursor", "is not a cursor returned by get_translation_units; pass nextCursor from the previous page, or omit it for the first page");
}

/** As many units from `start` as fit the budget (at least one). */
function unitPage(units: readonly UnitView[], start: number, budgetBytes: number): { page: UnitView[]; next: number | null } {
  const page: UnitView[] = [];
  let bytes = 1024;
  let index = start;
  for (; index < units.length; index++) {
    const unit = units[index] as UnitView;
    const size = JSON.stringify(unit).length + 1;
    if (page.length > 0 && bytes + size > budgetBytes) break;
    page.push(unit);
    bytes += size;
  }
  return { page, next: index < units.length ? index : null };
}

const getTranslationUnitsTool = defineTool<AuthoringServices, typeof getTranslationUnitsArguments>({
  name: "get_translation_units",
  toolset: "translation",
  title: "Get translation units",
  description:
    "A translation's units: id, source, target, state (outdated: source changed), note. Paged.",
  input: getTranslationUnitsArguments,
  output: unitPageSchema,
  annotations: read,
  async handler(args, { user, services, structuredBudgetBytes }) {
    const { translation, units } = await readAs(services, user, (session) => readTranslationUnits(session, args));
    const start = decodeUnitCursor(args.cursor);
    const { page, next } = unitPage(units, start, structuredBudgetBytes);
    const nextCursor = next === null ? null : encodeUnitCursor(next);
    return {
      structuredContent: { translation, units: page, nextCursor },
      summary: `${translation.language} translation ${translation.courseId}: ${translation.translated} translated, ${translation.untranslated} untranslated, ${translation.outdated} outdated${translation.outdatedMedia > 0 ? ` (and ${translation.outdatedMedia} media unit(s) whose source asset was swapped)` : ""}; units ${start + 1}-${start + page.length} of ${units.length}${nextCursor ? ", more with nextCursor" : ""}.${behindLine(translation.translationOf)}`,
    };
  },
});

function appliedAnswer(result: ApplyResult, verb: string) {
  const structured = { ...result, untranslated: result.translation.untranslated, outdated: result.translation.outdated };
  const taken = result.takenFromSource.changes.length > 0 ? ` Took ${describeChanges(result.takenFromSource).replace(/ not taken yet/, "")}.` : "";
  return {
    structuredContent: structured,
    summary: `${verb} ${result.applied} unit(s), ${result.unchanged} unchanged; ${structured.untranslated} still untranslated, ${structured.outdated} outdated. Translation ${result.translation.courseId} is at version ${result.version}.${taken}`,
  };
}

const setTranslationUnitsTool = defineTool<AuthoringServices, typeof setTranslationUnitsArguments>({
  name: "set_translation_units",
  toolset: "translation",
  title: "Set translation units",
  description:
    "Sets units' translated Markdown (keep its links, emphasis, code, {{n}}) as one revision; takes the source's structure changes too (units: [] takes only those).",
  input: setTranslationUnitsArguments,
  output: appliedSchema,
  annotations: write,
  async handler(args, { user, services }) {
    return appliedAnswer(await writeAs(services, user, (session) => setTranslationUnits(session, args)), "Set");
  },
});

const exportTranslationTool = defineTool<AuthoringServices, typeof exportTranslationArguments>({
  name: "export_translation",
  toolset: "translation",
  title: "Export translation",
  description:
    "The units as an XLIFF file for CAT tools, Markdown as inline codes: a resource_link.",
  input: exportTranslationArguments,
  output: v.looseObject({ uri: v.string() }),
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, { user, services }) {
    const { record, units } = await readAs(services, user, (session) => exportTranslationUnits(session, services.exports, args));
    const uri = exportUri(record.courseId, record.exportId);
    const result = { exportId: record.exportId, courseId: record.courseId, language: args.language, format: args.format, units, fileName: record.fileName, mimeType: record.mimeType, size: record.size, uri, expiresAt: record.expiresAt };
    return {
      structuredContent: result,
      summary: `Wrote ${units} unit(s) as ${args.format === "xliff20" ? "XLIFF 2.0" : "XLIFF 1.2"}: ${record.fileName}, ${humanSize(record.size)}; read ${uri} with resources/read until ${record.expiresAt}.`,
      content: [{ type: "resource_link", uri, name: record.fileName, title: record.fileName, mimeType: record.mimeType, size: record.size, description: `XLIFF of ${units} unit(s) toward ${args.language}.` }],
    };
  },
});

const importTranslationInput = v.object({ ...importTranslationArguments.entries, confirm: confirmField });

const importTranslationTool = defineTool<AuthoringServices, typeof importTranslationInput>({
  name: "import_translation",
  toolset: "translation",
  title: "Import translation",
  description:
    "Imports a translated XLIFF file as one revision; inline codes must be kept.",
  input: importTranslationInput,
  output: appliedSchema,
  annotations: write,
  async confirm(args, { user, services }) {
    const overwrites = await importOverwrites(services, user, args);
    if (!overwrites) return undefined;
    return `Import over the ${overwrites.language} translation of course "${overwrites.title}" (${overwrites.courseId})? ${overwrites.replaced} unit(s) already translated will take the file's text instead (restore_revision can bring them back).`;
  },
  async handler(args, { user, services }) {
    return appliedAnswer(await importTranslation(services, user, args), "Imported");
  },
});

export const translationTools: ToolDefinition<AuthoringServices>[] = [
  createTranslationTool,
  getTranslationUnitsTool,
  setTranslationUnitsTool,
  exportTranslationTool,
  importTranslationTool,
];
