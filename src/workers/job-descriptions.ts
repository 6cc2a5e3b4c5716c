/**
 * What each heavy-work job is called in the error that says it took too long, apart from the job table
 * (`jobs.ts`), which imports every parser and builder: the main thread needs the names at start, the
 * code only in the worker threads.
 */
import type { JobName } from "./jobs.ts";

/** What each job is, in the words of the error that says it took too long ("the import took more than 20 s…"). */
export const jobDescriptions: Record<JobName, string> = {
  planImport: "the import",
  readCheckedBank: "the question bank import",
  readXliff: "reading the XLIFF file",
  readReviewCopyFile: "reading the review copy",
  readReviewComments: "reading the review comments file",
  buildPackageJob: "the export",
  readStatementsJob: "reading the statements",
  pictureThumbnail: "the picture's thumbnail",
  auditCourseWithAxe: "the accessibility audit",
};
