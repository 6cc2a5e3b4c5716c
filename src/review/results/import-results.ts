/**
 * `import_results` and `delete_results`: xAPI statements into the course's results store, and out again.
 * The file is read off the request loop (`formats/xapi/statements-job.ts`); what it holds is written in
 * one transaction or not at all. Learners arrive as salted hashes (a deployment secret joined with the
 * course id), so the same learner is one pseudonym within a course and unlinkable across courses.
 */
import { courseIriField } from "../../formats/xapi/course-iri.ts";
import * as v from "valibot";
import { openCourse } from "../../authoring/access.ts";
import type { Actor } from "../../authoring/context.ts";
import { idField } from "../../authoring/schemas/fields.ts";
import { defaultResultsSettings, readAs, writeAs, type AuthoringServices, type ResultsSettings } from "../../authoring/services.ts";
import { readUploadedFile } from "../../authoring/uploaded-files.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { maxStatementsFileBytes, type ReadStatementsResult, type SkipReport } from "../../formats/xapi/statements-read.ts";
import type { StoreTransaction } from "../../store/types.ts";
import { toBase64 } from "../../bytes.ts";

/** The most results kept for one course. */
export const maxResultsPerCourse = 1_000_000;

/** The IRI our packages give the course (`export/build-package.ts` defaultCourseIri). */
export function courseIriOf(courseId: string): string {
  return `urn:course-authoring-service:course:${courseId}`;
}

/** The IRIs whose statements count as the course's: its own, and the one its packages were exported with, if given. */
export function courseIrisOf(courseId: string, exportedWith: string | undefined): string[] {
  return [...new Set([courseIriOf(courseId), ...(exportedWith === undefined ? [] : [exportedWith])])];
}


export const importResultsArguments = v.strictObject({
  courseId: idField("course"),
  content: v.optional(v.string()),
  assetId: v.optional(idField("asset")),
  courseIri: courseIriField,
});

export type ImportResultsArguments = v.InferOutput<typeof importResultsArguments>;

export interface ImportedResults {
  courseId: string;
  /** Statements in the input. */
  read: number;
  /** New results stored. */
  added: number;
  /** Kept already (the same statement id brought in before). */
  alreadyStored: number;
  /** Statements voided by voiding statements in the input. */
  voided: number;
  skipped: SkipReport[];
  /** Results the course holds now. */
  stored: number;
}

export function resultsSettings(services: AuthoringServices): ResultsSettings {
  return services.results ?? defaultResultsSettings;
}

/** The course's salt for learner hashes: the deployment's secret (made once, shared by replicas) and the course id. */
export async function learnerSalt(tx: StoreTransaction, courseId: string, now: Date): Promise<string> {
  const fresh = toBase64(crypto.getRandomValues(new Uint8Array(32)));
  const secret = await tx.serviceSecret("results-learner-salt", fresh, now.toISOString());
  return `${secret}:${courseId}`;
}

/** Opens the course for a results write and returns its salt. */
export async function prepareResults(services: AuthoringServices, actor: Actor, courseId: string): Promise<string> {
  return writeAs(services, actor, async (session) => {
    await openCourse(session, courseId, "edit");
    return learnerSalt(session.tx, courseId, session.now());
  });
}

/** Writes what was read, in one transaction: the new results, the voids, the retention sweep. */
export async function storeStatements(services: AuthoringServices, actor: Actor, courseId: string, read: ReadStatementsResult): Promise<ImportedResults> {
  const settings = resultsSettings(services);
  return writeAs(services, actor, async (session) => {
    await openCourse(session, courseId, "edit");
    const now = session.now();
    await session.tx.dropResultsBefore(new Date(now.getTime() - settings.retentionDays * 86_400_000).toISOString());
    const before = await session.tx.countResults(courseId);
    if (before + read.facts.length > maxResultsPerCourse) {
      throw new CourseAuthoringError("limit_exceeded", `courseId: course ${courseId} holds ${before} results and this would add up to ${read.facts.length}; at most ${maxResultsPerCourse} are kept per course. Remove old ones with delete_results.`, { field: "courseId", limit: maxResultsPerCourse });
    }
    const importedAt = now.toISOString();
    const added = await session.tx.putResults(read.facts.map(({ id, ...fact }) => ({ ...fact, statementId: id, courseId, importedAt })));
    const voided = read.voided.length > 0 ? await session.tx.voidResults(courseId, read.voided, importedAt) : 0;
    const stored = await session.tx.countResults(courseId);
    return { courseId, read: read.total, added, alreadyStored: read.facts.length - added, voided, skipped: read.skipped, stored };
  });
}

export async function importResults(services: AuthoringServices, actor: Actor, args: ImportResultsArguments): Promise<ImportedResults> {
  if ((args.content === undefined) === (args.assetId === undefined)) {
    throw new CourseAuthoringError("invalid_arguments", "content, assetId: give exactly one: the statements file's text in content, or an uploaded file's assetId.", { fields: ["content", "assetId"] });
  }
  const salt = await prepareResults(services, actor, args.courseId);
  const file = args.assetId !== undefined ? await readAs(services, actor, (session) => readUploadedFile(session, args.assetId as string, maxStatementsFileBytes)) : undefined;
  const courseIris = courseIrisOf(args.courseId, args.courseIri);
  const read = await services.heavyWork.run("readStatementsJob", {
    ...(file ? { bytes: file.bytes } : { text: args.content ?? "" }),
    courseIris,
    salt,
    field: file ? "assetId" : "content",
  });
  return storeStatements(services, actor, args.courseId, read);
}

export const deleteResultsArguments = v.strictObject({ courseId: idField("course") });

export async function deleteResults(services: AuthoringServices, actor: Actor, courseId: string): Promise<{ courseId: string; deleted: number }> {
  return writeAs(services, actor, async (session) => {
    await openCourse(session, courseId, "edit");
    return { courseId, deleted: await session.tx.deleteResults(courseId) };
  });
}
