/**
 * The heavy-work jobs: CPU work on untrusted input (parsing imported files, rendering and packaging
 * exports) named once, so the worker thread dispatches by name and every caller's input and output
 * types come from this table. Each body is the parser's or builder's own function, wrapped only where
 * it needs plain input; only parsing and rendering modules are imported here (no store, no MCP),
 * since every worker thread loads what this file imports.
 */
import { readXliff } from "../formats/xliff/xliff-read.ts";
import { buildPackageJob } from "../export/package-job.ts";
import { readCheckedBank } from "../formats/question-bank/read-bank.ts";
import { planImport } from "../import/plan-import.ts";
import { readReviewCopyFile } from "../review/review-copy-file.ts";
import { readStatementsJob } from "../formats/xapi/statements-job.ts";
import { readReviewComments } from "../formats/review-package/review-package-read.ts";
import { auditCourseWithAxe } from "../review/accessibility/axe-audit.ts";
import type { HeavyWork } from "./heavy-work.ts";
import { pictureThumbnail } from "../codecs/thumbnail.ts";

export const jobs = {
  /** import_course (not banks): source decoded, planned as a course and validated. */
  planImport,
  /** import_course of a question bank: read in its claimed format, every question checked. */
  readCheckedBank,
  /** import_translation (and its overwrite check): the XLIFF file's targets. */
  readXliff,
  /** import_review_copy: the copy's notes. */
  readReviewCopyFile,
  /** import_review_copy of a review package's comments file: read and checked whole. */
  readReviewComments,
  /** export_course: the package rendered, written and streamed back chunk by chunk. */
  buildPackageJob,
  /** import_results and connect_lrs: xAPI statements checked, this course's kept, learners hashed. */
  readStatementsJob,
  /** upload_asset: a picture's small thumbnail for the model. */
  pictureThumbnail: (input: { bytes: Uint8Array; mediaType: string }) => pictureThumbnail(input.bytes, input.mediaType),
  /** export_course acr: axe-core on the rendered lessons in happy-dom. */
  auditCourseWithAxe,
} as const;

export type Jobs = typeof jobs;
export type JobName = keyof Jobs;

/** The heavy work every use case may ask for. */
export type CourseHeavyWork = HeavyWork<Jobs>;
