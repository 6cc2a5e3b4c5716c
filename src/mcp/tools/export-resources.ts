/**
 * Export packages as MCP resources: `course://{courseId}/exports/{exportId}` answers `resources/read`
 * with the package as a base64 blob, its MIME type and file name. A package is a copy of the course, so
 * reading one needs the `copy` permission export_course needs; anyone else (a viewer, a reviewer, a
 * stranger) is told it was not found, in the words used for an export that does not exist.
 * `withExportResources` adds this to the course resources without touching them.
 */
import type { ReadResourceResult, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { openCourse } from "../../authoring/access.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import { defaultExportTtlMs, parseExportUri } from "../../export/export-store.ts";
import type { CallerIdentity } from "../registry.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { courseUriTemplates } from "../../course-uris.ts";
import type { ResourceProvider } from "../server.ts";
import { toBase64 } from "../../bytes.ts";

export const exportResourceTemplate: ResourceTemplate = {
  uriTemplate: courseUriTemplates.export,
  name: "course-export",
  title: "Course export package",
  description: `A package made by export_course (SCORM, cmi5, IMS CC, HTML zip or JSON), as a base64 blob, for those who may export the course (owner, editors). Available for ${defaultExportTtlMs / 3_600_000} hours after the export.`,
};

function exportNotFound(uri: string): CourseAuthoringError {
  return new CourseAuthoringError("not_found", `Export ${uri} was not found. Exports are kept for ${defaultExportTtlMs / 3_600_000} hours; run export_course again for a fresh one.`, { uri });
}

export async function readExportResource(services: AuthoringServices, user: CallerIdentity, uri: string): Promise<ReadResourceResult> {
  const parsed = parseExportUri(uri);
  if (!parsed) throw exportNotFound(uri);
  // Whoever may not make the package gets the same answer as for an export that does not exist.
  await readAs(services, user, (session) => openCourse(session, parsed.courseId, "copy")).catch((error: unknown) => {
    const denied = error instanceof CourseAuthoringError && (error.code === "not_found" || error.code === "forbidden");
    throw denied ? exportNotFound(uri) : error;
  });
  const record = await services.exports.find(parsed.courseId, parsed.exportId);
  if (!record) throw exportNotFound(uri);
  const bytes = await services.exports.readBytes(record);
  return {
    contents: [
      {
        uri,
        mimeType: record.mimeType,
        blob: toBase64(bytes),
        _meta: { fileName: record.fileName, size: record.size, format: record.format, expiresAt: record.expiresAt },
      },
    ],
  };
}

/** The course resources plus export packages; other URIs go to `base` unchanged. */
export function withExportResources(base: ResourceProvider<AuthoringServices>): ResourceProvider<AuthoringServices> {
  return {
    templates: [...base.templates, exportResourceTemplate],
    list: (services, user, cursor) => base.list(services, user, cursor),
    read: (services, user, uri, context) => (uri.includes("/exports/") ? readExportResource(services, user, uri) : base.read(services, user, uri, context)),
    complete: (services, user, argument, value, resolved) => base.complete(services, user, argument, value, resolved),
  };
}
