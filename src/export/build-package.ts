/**
 * `buildPackage`: one course document in, one streamed package out, in any export format. Everything
 * that can fail on bad input (unknown format, a block pointing at a missing asset) fails before the
 * stream is returned, so a tool error is all the caller sees and nothing half-written escapes.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { cartridgeEntries } from "./common-cartridge-package.ts";
import { reviewCopyEntries } from "../formats/review-copy/review-docx.ts";
import { jsonExportChunks } from "../formats/course-json/json-write.ts";
import { cmi5Entries, htmlSiteEntries, scorm12Entries, scorm2004Entries, xapiEntries, htmlReviewEntries, type WebPackageInput } from "./web-packages.ts";
import { bankCourse, questionBank } from "../formats/question-bank/bank.ts";
import { giftText } from "../formats/gift/gift-write.ts";
import { moodleXml } from "../formats/moodle-xml/moodle-write.ts";
import { qtiPackageEntries, qtiPackageNotices } from "../formats/qti/qti-package.ts";
import { resolveAssets, scoUnits, type PackagedAsset } from "../formats/package/plan.ts";
import { bankFormats, exportFormats, isBankFormat, type BankFormat, type BuildPackageOptions, type ExportCourse, type ExportFormat, type ExportPackage } from "../formats/package/types.ts";
import { buildPdfExport } from "../formats/pdf/pdf-export.ts";
import { pulledStream, zipStream, type ZipEntry } from "../codecs/zip-write.ts";

const fileSuffixes: Record<ExportFormat, string> = {
  scorm12: "-scorm12.zip",
  scorm2004: "-scorm2004.zip",
  cmi5: "-cmi5.zip",
  imscc: ".imscc",
  html: "-html.zip",
  json: ".json",
  qti3: "-qti3.zip",
  qti21: "-qti21.zip",
  moodle_xml: "-moodle.xml",
  gift: "-gift.txt",
  docx_review: "-review.docx",
  xapi: "-xapi.zip",
  html_review: "-review-html.zip",
  acr: "-accessibility-report.zip",
  pdf_handout: "-handout.pdf",
  pdf_job_aid: "-job-aid.pdf",
};

export { bankFormats, isBankFormat, type BankFormat };

/** A file name from the course title: ASCII letters, digits and dashes, never empty. */
export function packageFileName(title: string, format: ExportFormat): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${slug || "course"}${fileSuffixes[format]}`;
}

export function isExportFormat(format: string): format is ExportFormat {
  return (exportFormats as readonly string[]).includes(format);
}

function assertFormat(format: string): asserts format is ExportFormat {
  if (!isExportFormat(format)) {
    throw new CourseAuthoringError("invalid_arguments", `format: "${format}" is not an export format; use one of ${exportFormats.join(", ")}.`, { field: "format", allowed: exportFormats });
  }
}

/** The course's IRI for cmi5; a URN keeps it stable wherever the package is imported. */
export function defaultCourseIri(courseId: string): string {
  return `urn:course-authoring-service:course:${courseId}`;
}

function modifiedAt(course: ExportCourse): Date {
  const parsed = course.updatedAt ? new Date(course.updatedAt) : new Date();
  return Number.isNaN(parsed.getTime()) || parsed.getFullYear() < 1980 ? new Date() : parsed;
}

function packageEntries(format: Exclude<ExportFormat, "json" | "docx_review" | "acr" | "pdf_handout" | "pdf_job_aid" | BankFormat>, course: ExportCourse, options: BuildPackageOptions, assets: Map<string, PackagedAsset>): ZipEntry[] {
  if (format === "imscc") {
    const onSkippedQuestions = (lessonId: string, blockIds: readonly string[], asWebContent: boolean): void =>
      options.onNotice?.(
        asWebContent
          ? `Quiz lesson ${lessonId}: blocks ${blockIds.join(", ")} have no IMS Common Cartridge QTI 1.2 equivalent (scenario, sorting, matching, ordering, several blanks, or a teaching block); the QTI assessment carries the other questions and the whole lesson is also included as web content.`
          : `Quiz lesson ${lessonId}: questions ${blockIds.join(", ")} have no IMS Common Cartridge QTI equivalent (matching, ordering or several blanks) and were left out of the assessment.`,
      );
    return cartridgeEntries({ course, assets, source: options.assets, renderer: options.renderer, onSkippedQuestions, ...(options.onNotice ? { onNotice: options.onNotice } : {}) });
  }
  const units = scoUnits(course, format === "html" || format === "xapi" || format === "html_review" ? "course" : (options.scoMode ?? "course"));
  const input: WebPackageInput = { course, units, assets, source: options.assets, renderer: options.renderer };
  switch (format) {
    case "scorm12":
      return scorm12Entries(input);
    case "scorm2004":
      return scorm2004Entries(input);
    case "cmi5":
      return cmi5Entries(input, { courseIri: options.courseIri ?? defaultCourseIri(course.id), lrsOrigins: options.lrsOrigins ?? ["https:", "http:"] });
    case "xapi":
      return xapiEntries(input, { courseIri: options.courseIri ?? defaultCourseIri(course.id), lrsOrigins: options.lrsOrigins ?? ["https:", "http:"] });
    case "html":
      return htmlSiteEntries(input);
    case "html_review":
      if (!options.reviewRound) throw new CourseAuthoringError("invalid_arguments", "format: html_review needs the review round it opens.", { field: "format" });
      return htmlReviewEntries(input, options.reviewRound);
  }
}

async function* byteChunks(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.byteLength; offset += 256 * 1024) yield bytes.subarray(offset, offset + 256 * 1024);
}

async function* textChunks(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

/** A question bank: QTI packages stream as zips; Moodle XML and GIFT are one text file each. */
async function buildBank(course: ExportCourse, format: BankFormat, options: BuildPackageOptions): Promise<ExportPackage> {
  const bank = questionBank(course, options.scope);
  const assets = await resolveAssets(bankCourse(course, bank), options.assets);
  const fileName = packageFileName(options.scope ? `${course.title} ${bank.pools.length === 1 ? (bank.pools[0]?.title ?? "") : options.scope}` : course.title, format);
  if (format === "moodle_xml" || format === "gift") {
    const written = format === "gift" ? giftText(bank) : await moodleXml(bank, assets, options.assets);
    for (const notice of written.notices) options.onNotice?.(notice);
    options.onProgress?.(1, 1, `Wrote ${fileName}`);
    return { fileName, mimeType: format === "gift" ? "text/plain" : "application/xml", stream: pulledStream(textChunks(written.text)) };
  }
  for (const notice of qtiPackageNotices(bank, format)) options.onNotice?.(notice);
  const entries = qtiPackageEntries({ bank, version: format, assets, source: options.assets });
  const stream = zipStream(entries, { modifiedAt: modifiedAt(course), onEntry: (path, written) => options.onProgress?.(written, entries.length, `Packed ${path}`) });
  return { fileName, mimeType: "application/zip", stream };
}

export async function buildPackage(course: ExportCourse, options: BuildPackageOptions): Promise<ExportPackage> {
  assertFormat(options.format);
  const format = options.format;
  if (isBankFormat(format)) return buildBank(course, format, options);
  const assets = await resolveAssets(course, options.assets);
  const fileName = packageFileName(course.title, format);

  if (format === "json") {
    const stream = pulledStream(jsonExportChunks(course, assets, options.assets, new Date().toISOString()));
    return { fileName, mimeType: "application/json", stream };
  }
  if (format === "docx_review") {
    const entries = await reviewCopyEntries(course, { variant: options.variant ?? "draft", version: course.version ?? 0, exportedAt: new Date().toISOString() }, options.assets, options.onNotice);
    const stream = zipStream(entries, { modifiedAt: modifiedAt(course), onEntry: (path, written) => options.onProgress?.(written, entries.length, `Wrote ${path}`) });
    return { fileName, mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", stream };
  }
  // The accessibility report is built from validation, reviews and an axe audit (export/accessibility-report.ts), not from the course alone.
  if (format === "acr") throw new CourseAuthoringError("invalid_arguments", "format: acr is built by the accessibility report, not as a package", { field: "format" });
  if (format === "pdf_handout" || format === "pdf_job_aid") {
    const bytes = await buildPdfExport(course, { format, answerKey: options.answerKey === true, assets: options.assets, ...(options.onNotice ? { onNotice: options.onNotice } : {}) });
    options.onProgress?.(1, 1, `Wrote ${fileName}`);
    return { fileName, mimeType: "application/pdf", stream: pulledStream(byteChunks(bytes)) };
  }
  const entries = packageEntries(format, course, options, assets);
  const total = entries.length;
  const stream = zipStream(entries, {
    modifiedAt: modifiedAt(course),
    onEntry: (path, written) => options.onProgress?.(written, total, `Packed ${path}`),
  });
  return { fileName, mimeType: "application/zip", stream };
}
