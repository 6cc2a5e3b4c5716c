/**
 * `export_course`: packages a course as SCORM 1.2, SCORM 2004 4th Edition, cmi5, IMS Common Cartridge
 * 1.3, a self-contained HTML site or the lossless JSON document (the use case is `export/export-course.ts`).
 * The answer is a resource link by default, so a package never floods the agent's context; a small
 * package comes inline as base64 only when the caller asks for `delivery: "embedded"`. Hosts with MCP
 * Apps show the linked export view (`_meta.ui.resourceUri`), which hands the package to the person as a
 * file through the host; the result itself is the same for every host.
 */
import type { ContentBlock } from "@modelcontextprotocol/server";
import type { AuthoringServices } from "../../authoring/services.ts";
import { exportCourse, exportCourseArguments, exportResultSchema, formatNames, humanSize, type ExportResult } from "../../export/export-course.ts";
import { defaultExportTtlMs } from "../../export/export-store.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { toBase64 } from "../../bytes.ts";
import { exportViewUri } from "../apps/export-view.ts";

export { exportCourseArguments, exportResultSchema };

/** Room kept for the rest of the result beside an embedded package's base64. */
const embedOverheadBytes = 8 * 1024;

/** The largest package embedded: the export store's limit, and never more than the result cap allows once in base64. */
export function embedLimit(storeLimitBytes: number, resultMaxBytes: number): number {
  return Math.min(storeLimitBytes, Math.floor(((resultMaxBytes - embedOverheadBytes) * 3) / 4));
}

function deliveryContent(result: ExportResult, embedded: Uint8Array | undefined): ContentBlock[] {
  if (embedded) {
    const blob = toBase64(embedded);
    return [{ type: "resource", resource: { uri: result.uri, mimeType: result.mimeType, blob, _meta: { fileName: result.fileName } } }];
  }
  return [
    {
      type: "resource_link",
      uri: result.uri,
      name: result.fileName,
      title: result.fileName,
      description: `${formatNames[result.format]} package of course ${result.courseId}, ${humanSize(result.size)}; available until ${result.expiresAt}.`,
      mimeType: result.mimeType,
      size: result.size,
    },
  ];
}

export const exportCourseTool = defineTool<AuthoringServices, typeof exportCourseArguments>({
  name: "export_course",
  toolset: "exchange",
  title: "Export course",
  description:
    "Packages a course for an LMS, for reviewers or for safekeeping, in the format you name (format lists them). Assets are embedded in the package. Answers with a resource_link to " +
    "course://{courseId}/exports/{exportId} (read it with resources/read; kept " + `${defaultExportTtlMs / 3_600_000} hours` + "); delivery: \"embedded\" returns a small package inline as base64 " +
    "instead (too large is an error that names the link). Sends progress per packed file. A block pointing at a missing asset is an error naming the block.",
  input: exportCourseArguments,
  output: exportResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  // Only the current key: every tools/list carries it, and ext-apps hosts read it (the flat "ui/resourceUri" is deprecated).
  meta: { ui: { resourceUri: exportViewUri } },
  async handler(args, context) {
    const limit = embedLimit(context.services.exports.embedLimitBytes, context.resultMaxBytes);
    const { result, embedded, notices: told } = await exportCourse(context.services, context, args, { embedLimitBytes: limit });
    // The notices are in the result too; as log messages they reach a host that shows the user its server's log.
    await context.log?.(told);
    const where = embedded ? "embedded below" : `read ${result.uri} with resources/read`;
    const notices = result.notices.length ? ` Notes: ${result.notices.join(" ")}` : "";
    return {
      structuredContent: result,
      summary: `Exported course ${result.courseId} (${result.variant}, version ${result.courseVersion}) as ${formatNames[result.format]}: ${result.fileName}, ${humanSize(result.size)}, ${where}; available until ${result.expiresAt}.${notices}`,
      content: deliveryContent(result, embedded),
    };
  },
});

export const exportTools: ToolDefinition<AuthoringServices>[] = [exportCourseTool];
