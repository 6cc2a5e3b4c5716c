/**
 * The files view's tools. begin_upload, upload_chunk, finish_upload and cancel_upload are for the view
 * only (MCP Apps visibility `app`: hosts do not show them to the model): the person's files travel in
 * ordered chunks without passing through the model, and become assets only when whole and recognised as
 * upload_asset recognises a file. A refused file is deleted with its chunks. upload_files is the
 * model's door to the view: it opens the files view for a course.
 */
import * as v from "valibot";
import { assetSchema } from "../../authoring/assets.ts";
import { limits } from "../../authoring/schemas/fields.ts";
import { writeAs, type AuthoringServices } from "../../authoring/services.ts";
import { openCourse } from "../../authoring/access.ts";
import { readAs } from "../../authoring/services.ts";
import { idField } from "../../authoring/schemas/fields.ts";
import {
  beginUpload,
  beginUploadArguments,
  cancelUpload,
  cancelUploadArguments,
  finishUpload,
  finishUploadArguments,
  uploadChunk,
  uploadChunkArguments,
  uploadLimits,
} from "../../authoring/uploads.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { filesViewUri } from "../apps/files-view.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";

/** MCP Apps: callable by the view, hidden from the model. */
const appOnly = { ui: { visibility: ["app"] } };

const progressSchema = v.object({
  uploadId: v.string(),
  filename: v.string(),
  byteSize: v.number(),
  bytesReceived: v.number(),
  chunksReceived: v.number(),
  chunkBytes: v.number(),
  chunkCount: v.number(),
  expiresAt: v.string(),
});

const beginUploadTool = defineTool<AuthoringServices, typeof beginUploadArguments>({
  name: "begin_upload",
  toolset: "assets",
  title: "Begin upload",
  description: `Files view only. Begins a chunked upload of one file (at most ${limits.assetBytes / 1024 / 1024} MB) to a course; send its chunks in order with upload_chunk.`,
  input: beginUploadArguments,
  output: progressSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  meta: appOnly,
  async handler(args, { user, services }) {
    const progress = await writeAs(services, user, (session) => beginUpload(session, args));
    return { structuredContent: progress, summary: `Upload ${progress.uploadId} of ${progress.filename}: send ${progress.chunkCount} chunk(s) of ${progress.chunkBytes} bytes.` };
  },
});

const uploadChunkTool = defineTool<AuthoringServices, typeof uploadChunkArguments>({
  name: "upload_chunk",
  toolset: "assets",
  title: "Upload chunk",
  description: `Files view only. Sends chunk number index (from 0, in order, ${uploadLimits.chunkBytes} bytes each but the last) of an upload, base64.`,
  input: uploadChunkArguments,
  output: progressSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  meta: appOnly,
  async handler(args, { user, services }) {
    const progress = await writeAs(services, user, (session) => uploadChunk(session, args));
    return { structuredContent: progress, summary: `${progress.filename}: ${progress.bytesReceived} of ${progress.byteSize} bytes.` };
  },
});

const finishUploadTool = defineTool<AuthoringServices, typeof finishUploadArguments>({
  name: "finish_upload",
  toolset: "assets",
  title: "Finish upload",
  description: "Files view only. Turns a complete upload into an asset, recognised from its bytes as upload_asset does; a refused file is deleted.",
  input: finishUploadArguments,
  output: v.object({ courseId: v.string(), version: v.number(), asset: assetSchema, image: v.optional(v.object({ width: v.number(), height: v.number() })) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  meta: appOnly,
  async handler(args, { user, services }) {
    try {
      const finished = await writeAs(services, user, (session) => finishUpload(session, args));
      const size = finished.image ? `, ${finished.image.width}×${finished.image.height} px` : "";
      return { structuredContent: finished, summary: `Uploaded ${finished.asset.id} "${finished.asset.filename}" (${finished.asset.mediaType}, ${finished.asset.byteSize} bytes${size}) to course ${finished.courseId}, now at version ${finished.version}.` };
    } catch (error) {
      // A file refused for what it is will not become acceptable: nothing of it is kept.
      if (error instanceof CourseAuthoringError && error.code === "invalid_arguments") {
        await writeAs(services, user, (session) => cancelUpload(session, { uploadId: args.uploadId })).catch(() => undefined);
        throw new CourseAuthoringError(error.code, `${error.message} The upload was deleted.`, error.details);
      }
      throw error;
    }
  },
});

const cancelUploadTool = defineTool<AuthoringServices, typeof cancelUploadArguments>({
  name: "cancel_upload",
  toolset: "assets",
  title: "Cancel upload",
  description: "Files view only. Stops an upload and deletes every chunk sent so far.",
  input: cancelUploadArguments,
  output: v.object({ uploadId: v.string(), cancelled: v.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  meta: appOnly,
  async handler(args, { user, services }) {
    const result = await writeAs(services, user, (session) => cancelUpload(session, args));
    return { structuredContent: result, summary: `Cancelled upload ${result.uploadId}; nothing of it was kept.` };
  },
});

const uploadFilesArguments = v.object({ courseId: idField("course") });

const uploadFilesTool = defineTool<AuthoringServices, typeof uploadFilesArguments>({
  name: "upload_files",
  toolset: "assets",
  title: "Upload files",
  description:
    "Opens the files view, where the person chooses or drops their own files (pictures, audio, video, captions, PDF, Word, PowerPoint, Excel, text, CSV) " +
    "for a course; they reach the course without passing through you, and you are told each asset's id, name, type, size and a thumbnail of each picture. " +
    "Use it whenever you need the person's file (an image block without an asset, import_course of a .docx or .pptx). Hosts without MCP Apps: upload_asset.",
  input: uploadFilesArguments,
  output: v.object({ courseId: v.string(), title: v.string(), maxBytes: v.number() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  meta: { ui: { resourceUri: filesViewUri } },
  async handler(args, { user, services }) {
    const course = await readAs(services, user, async (session) => (await openCourse(session, args.courseId, "edit")).course);
    return {
      structuredContent: { courseId: course.id, title: course.title, maxBytes: limits.assetBytes },
      summary: `The files view is open for course ${course.id} "${course.title}"; the person's uploads will be reported to you as they finish.`,
    };
  },
});

export const uploadTools: ToolDefinition<AuthoringServices>[] = [uploadFilesTool, beginUploadTool, uploadChunkTool, finishUploadTool, cancelUploadTool];
