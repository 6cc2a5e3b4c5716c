/**
 * The question-bank import: a QTI 3.0 or 2.1 package, a Moodle XML file or a GIFT file becomes quiz
 * lessons, one pool each, in a new draft course, in a new lesson of a module, or added to an existing
 * lesson. The file is checked to be what its format claims, every question is checked with the block
 * schemas (an error names the item), pictures become assets, and everything is written in one
 * transaction and one revision, or nothing at all. The answer carries a report per item.
 */
import * as v from "valibot";
import { editCourseArguments } from "../authoring/batch.ts";
import { beginCourseEdit, commitCourseEdit } from "../authoring/course-edit.ts";
import { courseEditOperations } from "../authoring/operations/index.ts";
import { refuseTranslationEdit } from "../authoring/translation/access.ts";
import type { Actor } from "../authoring/context.ts";
import { limits } from "../authoring/schemas/fields.ts";
import type { CourseDocument } from "../authoring/schemas/course.ts";
import { writeAs, type AuthoringServices } from "../authoring/services.ts";
import { CourseAuthoringError, describeIssues } from "../course-authoring-error.ts";
import { createImportedCourse, insertAssets, withNewAssetIds } from "./create-course.ts";
import { validateImportedCourse } from "../formats/draft-course.ts";
import { type ImportedBank, type ImportedPool, type ItemReport } from "../formats/question-bank/bank-plan.ts";
import type { BankImportFormat } from "../formats/question-bank/bank-formats.ts";

export { bankImportFormats, type BankImportFormat } from "../formats/question-bank/bank-formats.ts";

export const bankFormatNames: Record<BankImportFormat, string> = { qti3: "a QTI 3.0 package", qti21: "a QTI 2.1 package", moodle_xml: "a Moodle XML file", gift: "a GIFT file" };

export interface BankTarget {
  readonly courseId: string;
  readonly lessonId?: string | undefined;
  readonly moduleId?: string | undefined;
  readonly expectedVersion?: number | undefined;
}

export interface ImportedBankResult {
  /** The new course, when the bank was not imported into one. */
  readonly course?: CourseDocument;
  readonly into?: { courseId: string; version: number };
  readonly pools: { title: string; questions: number; drawCount?: number }[];
  readonly assetCount: number;
  readonly report: ItemReport[];
}

function quizSettings(pool: ImportedPool): Record<string, unknown> {
  return {
    ...(pool.drawCount !== undefined ? { drawCount: pool.drawCount } : {}),
    ...(pool.shuffleChoices !== undefined ? { shuffleChoices: pool.shuffleChoices } : {}),
    ...(pool.passingScore !== undefined ? { passingScore: pool.passingScore } : {}),
  };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let at = 0; at < items.length; at += size) result.push(items.slice(at, at + size));
  return result;
}

/** The steps that add the bank to an existing course: new quiz lessons in a module, or blocks added to a lesson. */
function editSteps(bank: ImportedBank, target: BankTarget, assetIds: ReadonlyMap<string, string>): Record<string, unknown>[] {
  const blocksOf = (pool: ImportedPool): Record<string, unknown>[] => withNewAssetIds(pool.blocks, assetIds);
  if (target.moduleId) {
    return bank.pools.flatMap((pool) => {
      const [first = [], ...rest] = chunks(blocksOf(pool), limits.blocksPerCall);
      if (rest.length > 0) throw new CourseAuthoringError("limit_exceeded", `content: pool "${pool.title}" has more than ${limits.blocksPerCall} questions, more than one lesson takes; nothing was imported.`, { field: "content" });
      return [{ op: "add_lesson", moduleId: target.moduleId, title: pool.title, kind: "quiz", ...quizSettings(pool), blocks: first }];
    });
  }
  const lessonId = target.lessonId as string;
  const all = bank.pools.flatMap(blocksOf);
  const steps: Record<string, unknown>[] = chunks(all, limits.blocksPerCall).map((blocks) => ({ op: "add_blocks", lessonId, blocks }));
  // One pool brings its draw, shuffle and pass mark to the lesson; several pools merged keep the lesson's own.
  const [only] = bank.pools;
  if (bank.pools.length === 1 && only && Object.keys(quizSettings(only)).length > 0) steps.push({ op: "update_lesson", lessonId, kind: "quiz", ...quizSettings(only) });
  return steps;
}

export async function importBank(services: AuthoringServices, actor: Actor, format: BankImportFormat, bytes: Uint8Array, options: { title?: string | undefined; into?: BankTarget | undefined }): Promise<ImportedBankResult> {
  // Reading and checking run off the request loop, before any transaction opens.
  const bank = await services.heavyWork.run("readCheckedBank", { format, bytes });
  const pools = bank.pools.map((pool) => ({ title: pool.title, questions: pool.blocks.length, ...(pool.drawCount !== undefined ? { drawCount: pool.drawCount } : {}) }));
  const sourceName = bankFormatNames[format];
  const into = options.into;
  if (!into) {
    const outline = {
      title: options.title ?? "Imported question bank",
      modules: [{ title: "Question bank", lessons: bank.pools.map((pool) => ({ title: pool.title, kind: "quiz", ...quizSettings(pool), blocks: pool.blocks })) }],
    };
    const labels = new Map(bank.pools.flatMap((pool, lesson) => pool.items.map((item, block) => [`modules[0].lessons[${lesson}].blocks[${block}]`, `item ${item}`] as const)));
    const validated = validateImportedCourse({ outline, assets: bank.assets, labels, notices: [] });
    const course = await writeAs(services, actor, (session) => createImportedCourse(session, validated, bank.assets, labels, sourceName));
    return { course, pools, assetCount: bank.assets.length, report: bank.report };
  }
  if ((into.lessonId === undefined) === (into.moduleId === undefined)) {
    throw new CourseAuthoringError("invalid_arguments", "into: give exactly one of lessonId (add the questions to that lesson) or moduleId (a new quiz lesson per pool in that module).", { field: "into" });
  }
  const edited = await writeAs(services, actor, async (session) => {
    // Access and version first, then the pictures (counted against the owner's storage), then the steps.
    const edit = await beginCourseEdit(session, into.courseId, into.expectedVersion);
    await refuseTranslationEdit(session, into.courseId);
    const assetIds = await insertAssets(session, into.courseId, bank.assets);
    edit.addedAssetBytes += bank.assets.reduce((sum, asset) => sum + asset.bytes.byteLength, 0);
    const parsed = v.safeParse(editCourseArguments, { courseId: into.courseId, operations: editSteps(bank, into, assetIds) });
    if (!parsed.success) {
      const { fields } = describeIssues(parsed.issues);
      throw new CourseAuthoringError("invalid_arguments", `content: the bank cannot be added: ${fields.slice(0, 3).map((field) => `${field.path}: ${field.message}`).join("; ")}; nothing was imported.`, { field: "content" });
    }
    for (const step of parsed.output.operations) {
      const { op, ...stepArgs } = step as { op: string } & Record<string, unknown>;
      const operation = courseEditOperations.find((candidate) => candidate.name === op);
      if (operation) await operation.apply(edit, stepArgs);
    }
    return commitCourseEdit(edit, "import_course", `Imported ${pools.reduce((sum, pool) => sum + pool.questions, 0)} question(s) from ${sourceName}`);
  });
  return { into: { courseId: into.courseId, version: edited.version }, pools, assetCount: bank.assets.length, report: bank.report };
}
