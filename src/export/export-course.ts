/**
 * The export use case: read a course (draft or published snapshot), build the package in any format
 * while reporting progress per packed file, save it to the export store, and answer with the record
 * and, when asked for and small enough, the bytes to embed. Adapters (the MCP tool) only translate.
 * Everything that can be wrong with the course fails before a byte is written.
 */
import { exportCourseIriField } from "../formats/xapi/course-iri.ts";
import * as v from "valibot";
import { courseVariantField, getCourseForExport } from "../authoring/courses.ts";
import { assetIdsIn, assetsUsedBy } from "../authoring/asset-access.ts";
import { idField } from "../authoring/schemas/fields.ts";
import { behindLine, untranslatedBlocks } from "../authoring/translation/translations.ts";
import { readAs, writeAs, type AuthoringServices } from "../authoring/services.ts";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import type { Notice } from "../notice.ts";
import { assetInfos, courseAssetSource } from "./course-assets.ts";
import { packageOffThread } from "./package-off-thread.ts";
import { exportUri } from "./export-store.ts";
import { bankFormats, exportFormats, isBankFormat, scoModes, type ExportFormat } from "../formats/package/types.ts";
import { prepareReviewRound, recordReviewRound, reviewRoundFields } from "../review/review-rounds.ts";
import type { ReviewRoundInfo } from "../page-contract/review.ts";

/** Sends one progress notification; a no-op when the caller did not ask for progress. */
export type ExportProgressReporter = (progress: number, total?: number, message?: string) => Promise<void>;

export const formatNames: Record<ExportFormat, string> = {
  scorm12: "SCORM 1.2",
  scorm2004: "SCORM 2004 4th Edition",
  cmi5: "cmi5",
  imscc: "IMS Common Cartridge 1.3",
  html: "HTML site",
  json: "JSON (lossless)",
  qti3: "QTI 3.0 question bank",
  qti21: "QTI 2.1 question bank",
  moodle_xml: "Moodle XML question bank",
  gift: "GIFT question bank",
  docx_review: "Word review copy",
  xapi: "xAPI (Tin Can)",
  html_review: "HTML review package",
  acr: "Accessibility conformance report (OpenACR + VPAT 2.5)",
  pdf_handout: "PDF handout",
  pdf_job_aid: "PDF job aid",
};

export const exportDeliveries = ["link", "embedded"] as const;

export const exportCourseArguments = v.object({
  courseId: idField("course"),
  format: v.pipe(
    v.picklist(exportFormats, `must be one of ${exportFormats.join(", ")}`),
    v.description(
      "scorm12 or scorm2004 (4th Edition) for most LMSs; cmi5 for xAPI LMSs; xapi (Tin Can) for LRSs; imscc (IMS Common Cartridge 1.3, quizzes as QTI) for Canvas, Moodle, " +
        "Blackboard, Brightspace; html: a self-contained site to host anywhere; json: the lossless course document that import_course reads back. " +
        "qti3, qti21 (QTI packages), moodle_xml, gift: the questions only, a pool per lesson. docx_review: a Word copy for reviewers, answers shown. " +
        "html_review: the course with a comment layer for reviewers; opens a review round. acr: accessibility conformance report (OpenACR YAML, VPAT 2.5 HTML, evidence). pdf_handout: the whole course as a tagged, printable PDF; pdf_job_aid: its key points on 1-2 pages.",
    ),
  ),
  variant: courseVariantField,
  scoMode: v.optional(
    v.pipe(
      v.picklist(scoModes, "must be course or module"),
      v.description("scorm12, scorm2004 and cmi5: one SCO (cmi5: AU) for the whole course (default), or one per module so the LMS tracks each module."),
    ),
    "course",
  ),
  scope: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(100, "must be a module or lesson ID"),
      v.description("Question banks: a module or lesson ID to export only its questions."),
    ),
  ),
  answerKey: v.optional(
    v.pipe(v.boolean("must be true or false"), v.description("pdf_handout: print the questions' answers at the end (default false: a worksheet).")),
  ),
  delivery: v.optional(
    v.pipe(
      v.picklist(exportDeliveries, "must be link or embedded"),
      v.description("link (default): a resource link to read the package with resources/read. embedded: the package inline as base64, only for small packages."),
    ),
    "link",
  ),
  courseIri: exportCourseIriField,
  ...reviewRoundFields,
});

export const exportResultSchema = v.object({
  exportId: v.string(),
  courseId: v.string(),
  format: v.picklist(exportFormats),
  variant: v.picklist(["draft", "published"]),
  courseVersion: v.pipe(v.number(), v.description("The course version the package was built from.")),
  fileName: v.string(),
  mimeType: v.string(),
  size: v.pipe(v.number(), v.description("Bytes.")),
  uri: v.pipe(v.string(), v.description("course://{courseId}/exports/{exportId}: read it with resources/read until expiresAt.")),
  delivery: v.pipe(
    v.picklist(["embedded", "link"]),
    v.description("link: read uri with resources/read. embedded: the package is in this result as an embedded resource (base64 blob)."),
  ),
  expiresAt: v.string(),
  notices: v.pipe(v.array(v.string()), v.description("Content the format could not carry, in words for the author.")),
  reviewRoundId: v.optional(v.pipe(v.string(), v.description("html_review: the round opened."))),
});
export type ExportResult = v.InferOutput<typeof exportResultSchema>;

/** The translation's untranslated blocks carry the source language, which the renderer marks with `lang`. */
function markUntranslated<Course extends { modules: { lessons: { blocks?: { id: string }[] | undefined }[] }[] }>(
  course: Course,
  untranslated: { sourceLanguage: string; blockIds: ReadonlySet<string> },
): Course {
  return {
    ...course,
    modules: course.modules.map((module) => ({
      ...module,
      lessons: module.lessons.map((lesson) => ({
        ...lesson,
        ...(lesson.blocks ? { blocks: lesson.blocks.map((block) => (untranslated.blockIds.has(block.id) ? { ...block, lang: untranslated.sourceLanguage } : block)) } : {}),
      })),
    })),
  };
}

/** Sends progress in order without holding up the build: each notification waits for the one before. */
function progressChain(progress: ExportProgressReporter): { report(done: number, total: number | undefined, message: string): void; settled(): Promise<void> } {
  let last = Promise.resolve();
  return {
    report(done, total, message) {
      last = last.then(() => progress(done, total, message)).catch(() => {});
    },
    settled: () => last,
  };
}

export function humanSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Reads the course, builds the package (progress per packed file), saves it to the export store and
 * answers with its record and its notices (each with a level, for adapters that forward them; the
 * record lists their text); `embedded` carries the bytes when the caller asked for them and they fit
 * `embedLimitBytes`. Asking to embed a package that does not fit is `limit_exceeded`, naming the
 * link that already serves it, so nothing is built twice.
 */
export async function exportCourse(
  services: AuthoringServices,
  context: { user: { sub: string; email?: string }; progress: ExportProgressReporter; signal: AbortSignal },
  args: v.InferOutput<typeof exportCourseArguments>,
  options: { embedLimitBytes: number },
): Promise<{ result: ExportResult; embedded?: Uint8Array; notices: Notice[] }> {
  const bank = isBankFormat(args.format);
  if (args.answerKey !== undefined && args.format !== "pdf_handout") {
    throw new CourseAuthoringError("invalid_arguments", `answerKey: only pdf_handout prints an answer key; omit answerKey for ${args.format}.`, { field: "answerKey" });
  }
  if (args.scope !== undefined && !bank) {
    throw new CourseAuthoringError("invalid_arguments", `scope: only the question-bank formats (${bankFormats.join(", ")}) export part of a course; omit scope for ${args.format}.`, { field: "scope" });
  }
  const review = args.format === "html_review";
  for (const field of ["dueDate", "reviewers", "note"] as const) {
    if (args[field] !== undefined && !review) throw new CourseAuthoringError("invalid_arguments", `${field}: only format html_review opens a review round; omit ${field} for ${args.format}.`, { field });
  }
  const { course, assets, untranslated, roundId } = await readAs(services, context.user, async (session) => {
    const roundId = review ? await prepareReviewRound(session, args.courseId) : undefined;
    const document = await getCourseForExport(session, { courseId: args.courseId, variant: args.variant });
    const row = args.format === "json" || bank ? undefined : await session.tx.find("course", document.id);
    const untranslated = row ? await untranslatedBlocks(session, row) : null;
    return { course: untranslated ? markUntranslated(document, untranslated) : document, assets: await assetsUsedBy(session.tx, document.id, assetIdsIn(document)), untranslated, roundId };
  });
  const notices: Notice[] = [];
  if (untranslated && untranslated.blockIds.size > 0) {
    notices.push({ level: "warning", text: `${untranslated.blockIds.size} block(s) are not translated yet and show the source text, marked as ${untranslated.sourceLanguage}.` });
  }
  // A translation behind its source, or with texts whose source changed, says so: nothing stale goes out unannounced.
  if (untranslated && !untranslated.translationOf.upToDate) notices.push({ level: "warning", text: `This translation is behind its source.${behindLine(untranslated.translationOf)}` });
  if (untranslated && untranslated.outdated > 0) {
    notices.push({ level: "warning", text: `${untranslated.outdated} translated unit(s) are outdated: their source text changed since (get_translation_units { onlyOutdated: true }).` });
  }
  if (untranslated && untranslated.outdatedMedia > 0) {
    notices.push({ level: "warning", text: `${untranslated.outdatedMedia} of the translation's own media replace a source asset the source has since swapped; they are still used: check them (get_translation_units { onlyOutdated: true }) and give the asset again, or a new one.` });
  }
  // The interface texts, the report's and the review layer's code are loaded on first use, not at start.
  const { fallbackStrings, interfaceLanguage } = await import("../render/ui-text.ts");
  if (args.format !== "json" && !bank && args.format !== "docx_review" && !args.format.startsWith("pdf_") && interfaceLanguage(course.language) === null) {
    notices.push({ level: "notice", text: `The player's own buttons and messages are in English: it has no ${course.language} interface text (it has en, fr, de and es).` });
  } else if (args.format !== "json" && !bank && !args.format.startsWith("pdf_")) {
    const fallback = fallbackStrings(course.language ?? "en");
    if (fallback.length > 0) {
      const named = fallback.slice(0, 12).join(", ") + (fallback.length > 12 ? ` and ${fallback.length - 12} more` : "");
      notices.push({ level: "notice", text: `${fallback.length} of the player's own strings show in English: the ${course.language} language pack has no text for ${named}.` });
    }
  }
  const reviewRound: ReviewRoundInfo | undefined = roundId
    ? { id: roundId, courseId: course.id, courseTitle: course.title, courseVersion: course.version, variant: args.variant, dueDate: args.dueDate ?? null, note: args.note || null, reviewers: args.reviewers ?? [] }
    : undefined;
  const progress = progressChain(context.progress);
  // Rendering, writing and deflating run on a worker thread; asset bytes are read here and handed over.
  if (args.courseIri !== undefined && args.format !== "cmi5" && args.format !== "xapi") {
    throw new CourseAuthoringError("invalid_arguments", `courseIri: only the cmi5 and xapi packages name a course IRI; omit it for ${args.format}.`, { field: "courseIri" });
  }
  if (args.format === "acr" && args.variant === "published") {
    throw new CourseAuthoringError("invalid_arguments", "variant: the accessibility report (acr) is built from the draft, which validate_course checks; omit variant or give draft.", { field: "variant" });
  }
  const built = args.format === "acr"
    ? await (await import("./accessibility-report.ts")).accessibilityReportPackage(services, { course, untranslatedBlockIds: untranslated?.blockIds ?? new Set(), user: context.user }, (text) => notices.push({ level: "warning", text }))
    : await packageOffThread(
    services.heavyWork,
    {
      course,
      assets: assetInfos(assets),
      options: { format: args.format, scoMode: args.scoMode, variant: args.variant, ...(args.scope !== undefined ? { scope: args.scope } : {}), ...(reviewRound ? { reviewRound } : {}), ...(args.answerKey !== undefined ? { answerKey: args.answerKey } : {}), ...(args.courseIri !== undefined ? { courseIri: args.courseIri } : {}) },
    },
    courseAssetSource(services.store, course.id, assets),
    { onProgress: (done, total, message) => progress.report(done, total, message), onNotice: (notice) => notices.push({ level: "warning", text: notice }) },
  );
  let reportedBytes = 0;
  const record = await services.exports.save(
    { courseId: course.id, format: args.format, variant: args.variant, courseVersion: course.version, fileName: built.fileName, mimeType: built.mimeType, createdBy: context.user.sub },
    built.stream,
    (written) => {
      if (context.signal.aborted) throw new CourseAuthoringError("invalid_state", "the export was cancelled; nothing was kept");
      // The JSON document has no entries to count, so its progress is in bytes.
      if (args.format === "json" && written - reportedBytes >= 256 * 1024) {
        reportedBytes = written;
        progress.report(written, undefined, `Wrote ${humanSize(written)}`);
      }
    },
  );
  if (args.format === "json") progress.report(record.size, record.size, `Wrote ${humanSize(record.size)}`);
  if (reviewRound) {
    const round = reviewRound;
    const { reviewBlockAnchors } = await import("../formats/review-package/review-package-write.ts");
    await writeAs(services, context.user, (session) =>
      recordReviewRound(session, {
        id: round.id, courseId: course.id, courseVersion: course.version, variant: args.variant, exportId: record.exportId,
        dueDate: round.dueDate, reviewers: [...round.reviewers], note: round.note,
        anchors: Object.fromEntries(Object.entries(reviewBlockAnchors(course)).map(([blockId, anchor]) => [blockId, anchor.hash])),
      }),
    );
  }
  await progress.settled();
  const uri = exportUri(record.courseId, record.exportId);
  const { exportId, courseId, variant, courseVersion, fileName, mimeType, size, expiresAt } = record;
  const result: ExportResult = {
    exportId, courseId, format: args.format, variant, courseVersion, fileName, mimeType, size, uri, delivery: args.delivery, expiresAt, notices: notices.map((notice) => notice.text),
    ...(reviewRound ? { reviewRoundId: reviewRound.id } : {}),
  };
  if (args.delivery === "link") return { result, notices };
  if (record.size > options.embedLimitBytes) {
    throw new CourseAuthoringError(
      "limit_exceeded",
      `delivery: the package is ${humanSize(record.size)}, more than the ${humanSize(options.embedLimitBytes)} that can be embedded in a result. It is saved: read ${uri} with resources/read (until ${record.expiresAt}), or export again with delivery: "link" (the default).`,
      { field: "delivery", size: record.size, limit: options.embedLimitBytes, uri },
    );
  }
  return { result, embedded: await services.exports.readBytes(record), notices };
}

