/**
 * `export_course`: packages a course (draft or published snapshot) as SCORM 1.2, SCORM 2004 4th
 * Edition, cmi5, IMS Common Cartridge 1.3, a self-contained HTML site or the lossless JSON document.
 * The package is streamed to the export store while progress notifications go out per entry; a small
 * one comes back embedded in the result (base64 blob), a large one as a resource link that
 * `resources/read` serves. Everything that can be wrong with the course fails before a byte is written.
 */
import * as v from "valibot";
import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { courseVariantField, getCourse } from "../../authoring/courses.ts";
import { idField } from "../../authoring/schemas/fields.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import { buildPackage } from "../../export/build-package.ts";
import { courseAssetSource } from "../../export/course-assets.ts";
import { exportUri, type StoredExport } from "../../export/export-store.ts";
import { exportFormats, scoModes, type ExportFormat } from "../../export/types.ts";
import { renderCourseHtmlChunks } from "../../render/index.ts";
import { defineTool, type ProgressReporter, type ToolDefinition } from "../registry.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";


const formatNames: Record<ExportFormat, string> = {
  scorm12: "SCORM 1.2",
  scorm2004: "SCORM 2004 4th Edition",
  cmi5: "cmi5",
  imscc: "IMS Common Cartridge 1.3",
  html: "HTML site",
  json: "JSON (lossless)",
};

export const exportCourseArguments = v.object({
  courseId: idField("course"),
  format: v.pipe(
    v.picklist(exportFormats, `must be one of ${exportFormats.join(", ")}`),
    v.description(
      "scorm12 or scorm2004 (4th Edition) for most LMSs; cmi5 for xAPI LMSs; imscc (IMS Common Cartridge 1.3, quizzes as QTI) for Canvas, Moodle, " +
        "Blackboard, Brightspace; html: a self-contained site to host anywhere; json: the lossless course document that import_course reads back.",
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
    v.description("embedded: the package is in this result as an embedded resource (base64 blob). link: too large to embed; read uri."),
  ),
  expiresAt: v.string(),
  notices: v.pipe(v.array(v.string()), v.description("Content the format could not carry, in words for the author.")),
});
export type ExportResult = v.InferOutput<typeof exportResultSchema>;

/** Sends progress in order without holding up the build: each notification waits for the one before. */
function progressChain(progress: ProgressReporter): { report(done: number, total: number | undefined, message: string): void; settled(): Promise<void> } {
  let last = Promise.resolve();
  return {
    report(done, total, message) {
      last = last.then(() => progress(done, total, message)).catch(() => {});
    },
    settled: () => last,
  };
}

function humanSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function deliveryContent(store: AuthoringServices["exports"], record: StoredExport, uri: string): Promise<{ delivery: "embedded" | "link"; content: ContentBlock[] }> {
  if (record.size <= store.embedLimitBytes) {
    const bytes = await store.readBytes(record);
    const blob = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
    return { delivery: "embedded", content: [{ type: "resource", resource: { uri, mimeType: record.mimeType, blob, _meta: { fileName: record.fileName } } }] };
  }
  return {
    delivery: "link",
    content: [
      {
        type: "resource_link",
        uri,
        name: record.fileName,
        title: record.fileName,
        description: `${formatNames[record.format]} package of course ${record.courseId}, ${humanSize(record.size)}; available until ${record.expiresAt}.`,
        mimeType: record.mimeType,
        size: record.size,
      },
    ],
  };
}

export async function exportCourse(
  services: AuthoringServices,
  context: { user: { sub: string; email?: string }; progress: ProgressReporter; signal: AbortSignal },
  args: v.InferOutput<typeof exportCourseArguments>,
): Promise<{ result: ExportResult; content: ContentBlock[] }> {
  const { course, assets } = await readAs(services, context.user, async (session) => {
    const document = await getCourse(session, { courseId: args.courseId, includeBlocks: true, variant: args.variant });
    return { course: document, assets: await session.tx.listAllAssets(document.id) };
  });
  const notices: string[] = [];
  const progress = progressChain(context.progress);
  const built = await buildPackage(course, {
    format: args.format,
    scoMode: args.scoMode,
    assets: courseAssetSource(services.store, course.id, assets),
    renderer: renderCourseHtmlChunks,
    onProgress: (done, total, message) => progress.report(done, total, message),
    onNotice: (notice) => notices.push(notice),
  });
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
  await progress.settled();
  const uri = exportUri(record.courseId, record.exportId);
  const { delivery, content } = await deliveryContent(services.exports, record, uri);
  const { exportId, courseId, format, variant, courseVersion, fileName, mimeType, size, expiresAt } = record;
  return { result: { exportId, courseId, format, variant, courseVersion, fileName, mimeType, size, uri, delivery, expiresAt, notices }, content };
}

const exportCourseTool = defineTool<AuthoringServices, typeof exportCourseArguments>({
  name: "export_course",
  toolset: "exchange",
  title: "Export course",
  description:
    "Packages a course for an LMS or for safekeeping: format scorm12, scorm2004 (4th Edition), cmi5, imscc (Common Cartridge 1.3, quizzes as QTI), " +
    "html (a self-contained site) or json (lossless; import_course reads it back). variant: draft (default) or published (the last published snapshot). " +
    "scoMode: one SCO for the course (default) or one per module. Assets are embedded. A package up to 1 MB is returned in this result as an " +
    "embedded resource (base64 blob with its MIME type and file name); a larger one as a resource_link to course://{courseId}/exports/{exportId} " +
    "to fetch with resources/read. Exports expire after 24 hours. Sends progress notifications while building. A block pointing at a missing asset " +
    "is an error naming the block, and nothing is exported.",
  input: exportCourseArguments,
  output: exportResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, context) {
    const { result, content } = await exportCourse(context.services, context, args);
    const where = result.delivery === "embedded" ? "embedded below" : `too large to embed: read ${result.uri}`;
    const notices = result.notices.length ? ` Notes: ${result.notices.join(" ")}` : "";
    return {
      structuredContent: result,
      summary: `Exported course ${result.courseId} (${result.variant}, version ${result.courseVersion}) as ${formatNames[result.format]}: ${result.fileName}, ${humanSize(result.size)}, ${where}; available until ${result.expiresAt}.${notices}`,
      content,
    };
  },
});

export const exportTools: ToolDefinition<AuthoringServices>[] = [exportCourseTool];
