/**
 * Export packages as MCP resources: `course://{courseId}/exports/{exportId}` answers `resources/read`
 * with the package as a base64 blob, its MIME type and file name, and `…/files` with the list of files
 * inside it as JSON (no package bytes). A package is a copy of the course, so reading either needs the
 * `copy` permission export_course needs; anyone else (a viewer, a reviewer, a stranger) is told it was
 * not found, in the words used for an export that does not exist. `withExportResources` adds these, and
 * the MCP Apps export view export_course links to, to the course resources without touching them.
 */
import type { ReadResourceResult, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/server";
import { openCourse } from "../../authoring/access.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import { defaultExportTtlMs, exportUri, parseExportUri } from "../../export/export-store.ts";
import { listedPackageFiles, packageFiles } from "../../export/package-files.ts";
import type { StoredExport } from "../../store/packages.ts";
import type { CallerIdentity } from "../registry.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { courseUriTemplates, matchCourseUri } from "../../course-uris.ts";
import { exportViewUri, readExportView } from "../apps/export-view.ts";
import { filesViewUri, readFilesView } from "../apps/files-view.ts";
import { readResultsView, resultsViewUri } from "../apps/results-view.ts";
import type { ResourceProvider } from "../server.ts";
import { toBase64 } from "../../bytes.ts";

export const exportResourceTemplate: ResourceTemplate = {
  uriTemplate: courseUriTemplates.export,
  name: "course-export",
  title: "Course export package",
  description: `A package made by export_course (SCORM, cmi5, IMS CC, HTML zip or JSON), as a base64 blob, for those who may export the course (owner, editors). Available for ${defaultExportTtlMs / 3_600_000} hours after the export.`,
};

export const exportFilesResourceTemplate: ResourceTemplate = {
  uriTemplate: courseUriTemplates.exportFiles,
  name: "course-export-files",
  title: "Files in a course export",
  description: `The files inside an export package (path and bytes, the first ${listedPackageFiles}, and how many in all) as JSON, without the package itself.`,
  mimeType: "application/json",
};

function exportNotFound(uri: string): CourseAuthoringError {
  return new CourseAuthoringError("not_found", `Export ${uri} was not found. Exports are kept for ${defaultExportTtlMs / 3_600_000} hours; run export_course again for a fresh one.`, { uri });
}

/** The stored export behind `courseId`/`exportId`, for a caller who may copy the course; else `not_found` naming `uri`. */
async function readableExport(services: AuthoringServices, user: CallerIdentity, uri: string, ids: { courseId: string; exportId: string } | null): Promise<StoredExport> {
  if (!ids) throw exportNotFound(uri);
  // Whoever may not make the package gets the same answer as for an export that does not exist.
  await readAs(services, user, (session) => openCourse(session, ids.courseId, "copy")).catch((error: unknown) => {
    const denied = error instanceof CourseAuthoringError && (error.code === "not_found" || error.code === "forbidden");
    throw denied ? exportNotFound(uri) : error;
  });
  const record = await services.exports.find(ids.courseId, ids.exportId);
  if (!record) throw exportNotFound(uri);
  return record;
}

export async function readExportResource(services: AuthoringServices, user: CallerIdentity, uri: string): Promise<ReadResourceResult> {
  const record = await readableExport(services, user, uri, parseExportUri(uri));
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

/** The files in an export, as JSON within `limit` bytes: a long list is cut short, and `count` still says how many there are. */
export async function readExportFilesResource(services: AuthoringServices, user: CallerIdentity, uri: string, limit: number): Promise<ReadResourceResult> {
  const match = matchCourseUri("exportFiles", uri);
  const record = await readableExport(services, user, uri, match?.courseId && match.exportId ? { courseId: match.courseId, exportId: match.exportId } : null);
  const { count, files } = packageFiles(record, await services.exports.readBytes(record));
  const { fileName, format, mimeType, size, expiresAt } = record;
  const answer = (listed: typeof files) => JSON.stringify({ uri: exportUri(record.courseId, record.exportId), fileName, format, mimeType, size, expiresAt, count, files: listed });
  const bytesOf = (text: string) => new TextEncoder().encode(text).byteLength;
  let listed = files;
  let text = answer(listed);
  // Room is kept for the JSON-RPC envelope around the text.
  while (bytesOf(text) > limit - 1024 && listed.length > 0) {
    listed = listed.slice(0, Math.floor(listed.length / 2));
    text = answer(listed);
  }
  return { contents: [{ uri, mimeType: "application/json", text }] };
}

/** The course resources plus export packages, their file lists and the export, files and results views; other URIs go to `base` unchanged. */
export function withExportResources(base: ResourceProvider<AuthoringServices>): ResourceProvider<AuthoringServices> {
  return {
    templates: [...base.templates, exportResourceTemplate, exportFilesResourceTemplate],
    list: (services, user, cursor) => base.list(services, user, cursor),
    read: async (services, user, uri, context) => {
      if (uri === exportViewUri) return readExportView();
      if (uri === filesViewUri) return readFilesView();
      if (uri === resultsViewUri) return readResultsView();
      if (!uri.includes("/exports/")) return base.read(services, user, uri, context);
      return uri.endsWith("/files") ? readExportFilesResource(services, user, uri, context.resultMaxBytes) : readExportResource(services, user, uri);
    },
    complete: (services, user, argument, value, resolved) => base.complete(services, user, argument, value, resolved),
  };
}
