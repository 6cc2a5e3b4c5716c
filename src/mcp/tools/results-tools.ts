/**
 * Learners' results (issue 43): `import_results` (a statements file), `connect_lrs` (a learning record
 * store), `get_course_results` (statistics and diagnoses with proposed edit_course steps) and
 * `delete_results`. The use cases are in `review/results/`. No learner is ever named in an answer.
 */
import * as v from "valibot";
import type { AuthoringServices } from "../../authoring/services.ts";
import { deleteResults, deleteResultsArguments, importResults, importResultsArguments, type ImportedResults } from "../../review/results/import-results.ts";
import { getCourseResults, getCourseResultsArguments } from "../../review/results/get-results.ts";
import { connectLrs, connectLrsArguments } from "../../review/results/lrs-read.ts";
import { maxStatementsPerImport } from "../../formats/xapi/statements-read.ts";
import { confirmField } from "../confirmations.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { resultsViewUri } from "../apps/results-view.ts";

/** Kept short: every tools/list carries it (the fields are described in the summary and DESIGN). */
const importedEntries = { courseId: v.string() };

function importedSummary(result: ImportedResults, from: string): string {
  const skipped = result.skipped.reduce((sum, entry) => sum + entry.count, 0);
  const reasons = result.skipped.slice(0, 3).map((entry) => `${entry.count} ${entry.reason}`).join("; ");
  return `Read ${result.read} statement(s) from ${from} for course ${result.courseId}: ${result.added} new, ${result.alreadyStored} already stored, ${result.voided} voided, ${skipped} skipped${reasons ? ` (${reasons})` : ""}; the course holds ${result.stored} result(s).`;
}

const importResultsTool = defineTool<AuthoringServices, typeof importResultsArguments>({
  name: "import_results",
  toolset: "results",
  title: "Import results",
  description:
    `Adds xAPI statements (content or an uploaded file) to the course's results, learners anonymised; invalid ones skipped. At most ${maxStatementsPerImport}.`,
  input: importResultsArguments,
  output: v.looseObject(importedEntries),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { user, services }) {
    const result = await importResults(services, user, args);
    return { structuredContent: { ...result }, summary: importedSummary(result, args.assetId ? `file ${args.assetId}` : "content") };
  },
});

const connectLrsTool = defineTool<AuthoringServices, typeof connectLrsArguments>({
  name: "connect_lrs",
  toolset: "results",
  title: "Read an LRS",
  description:
    "import_results from an LRS (allowed hosts only); pass the since returned to resume.",
  input: connectLrsArguments,
  output: v.looseObject({ ...importedEntries, since: v.nullable(v.string()) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async handler(args, { user, services, signal, progress }) {
    const result = await connectLrs(services, user, args, { signal, progress: (read, message) => progress(read, undefined, message) });
    const early = result.stoppedEarly ? ` Stopped early: ${result.stoppedEarly}.` : "";
    return { structuredContent: { ...result }, summary: `${importedSummary(result, `the LRS at ${result.host} (${result.pages} page(s))`)} Next since: ${result.since ?? "none"}.${early}` };
  },
});

const getCourseResultsTool = defineTool<AuthoringServices, typeof getCourseResultsArguments>({
  name: "get_course_results",
  toolset: "results",
  title: "Course results",
  description:
    "Moodle's item statistics (first and all attempts), choice rates, drop-off, pass rates; diagnoses propose edit_course steps (only if the author agrees).",
  input: getCourseResultsArguments,
  output: v.looseObject({ courseId: v.string() }),
  narrow: "pass lessonIds",
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  meta: { ui: { resourceUri: resultsViewUri } },
  async handler(args, { user, services }) {
    const result = await getCourseResults(services, user, args);
    const head = result.withheld
      ? `Course ${result.courseId}: ${result.statements} result(s); ${result.withheld}.`
      : `Course ${result.courseId}: ${result.course?.learners} learners, ${result.course?.quizAttempts} quiz attempt(s), completion ${Math.round((result.course?.completionRate ?? 0) * 100)}%${result.course?.passRate === null || result.course?.passRate === undefined ? "" : `, pass rate ${Math.round(result.course.passRate * 100)}%`}; ${result.questions.length} question(s), ${result.diagnoses.length} diagnosis(es).`;
    const findings = result.diagnoses.slice(0, 10).map((diagnosis) => `- ${diagnosis.kind} ${diagnosis.target}: ${diagnosis.evidence}`).join("\n");
    return { structuredContent: { ...result }, summary: findings ? `${head}\n${findings}` : head };
  },
});

const deleteResultsInput = v.object({ ...deleteResultsArguments.entries, confirm: confirmField });
const deleteResultsTool = defineTool<AuthoringServices, typeof deleteResultsInput>({
  name: "delete_results",
  toolset: "results",
  title: "Delete results",
  description: "Removes every learner result imported for the course; asks to confirm.",
  input: deleteResultsInput,
  output: v.object({ courseId: v.string(), deleted: v.number() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async confirm(args) {
    return `Delete every imported learner result of course ${args.courseId}? Its statistics will be gone until the statements are imported again.`;
  },
  async handler(args, { user, services }) {
    const result = await deleteResults(services, user, args.courseId);
    return { structuredContent: result, summary: `Deleted ${result.deleted} result(s) of course ${result.courseId}.` };
  },
});

export const resultsTools: ToolDefinition<AuthoringServices>[] = [importResultsTool, connectLrsTool, getCourseResultsTool, deleteResultsTool];
