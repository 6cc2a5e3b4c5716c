/**
 * The files view's tools. begin_upload, upload_chunk and finish_upload (which also cancels) are for the view
 * only (MCP Apps visibility `app`: hosts do not show them to the model): the person's files travel in
 * ordered chunks without passing through the model, and become assets only when whole and recognised as
 * upload_asset recognises a file. A refused file is deleted with its chunks. The model's door to the
 * view is list_assets, which links it (asset-tools.ts).
 */
import * as v from "valibot";
import { writeAs, type AuthoringServices } from "../../authoring/services.ts";
import {
  beginUpload,
  beginUploadArguments,
  cancelUpload,
  finishUpload,
  finishUploadArguments as finishArguments,
  uploadChunk,
  uploadChunkArguments,
  uploadLifetimeMs,
  type UploadProgress,
} from "../../authoring/uploads.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";

/** MCP Apps: callable by the view, hidden from the model. */
const appOnly = { ui: { visibility: ["app"] } };
/** Nothing of the course is destroyed (a cancel deletes only an unfinished upload), so no host asks to confirm a chunk. */
const appAnnotations = { destructiveHint: false, openWorldHint: false };

const progressSchema = v.object({ uploadId: v.string(), bytesReceived: v.number(), chunkBytes: v.number() });
const progressOf = ({ uploadId, bytesReceived, chunkBytes }: UploadProgress) => ({ uploadId, bytesReceived, chunkBytes });

const beginUploadTool = defineTool<AuthoringServices, typeof beginUploadArguments>({
  name: "begin_upload",
  toolset: "assets",
  title: "Begin upload",
  description: "Files view only: begins a chunked upload to a course, or without courseId to the person's library.",
  input: beginUploadArguments,
  output: progressSchema,
  annotations: appAnnotations,
  meta: appOnly,
  async handler(args, { user, services }) {
    const progress = await writeAs(services, user, (session) => beginUpload(session, args, uploadLifetimeMs(services)));
    return { structuredContent: progressOf(progress), summary: `Upload ${progress.uploadId} of ${progress.filename}: send ${progress.chunkCount} chunk(s) of ${progress.chunkBytes} bytes.` };
  },
});

const uploadChunkTool = defineTool<AuthoringServices, typeof uploadChunkArguments>({
  name: "upload_chunk",
  toolset: "assets",
  title: "Upload chunk",
  description: "Files view only: the next chunk (index from 0), base64.",
  input: uploadChunkArguments,
  output: v.object({ bytesReceived: v.number() }),
  annotations: appAnnotations,
  meta: appOnly,
  async handler(args, { user, services }) {
    const progress = await writeAs(services, user, (session) => uploadChunk(session, args));
    return { structuredContent: progressOf(progress), summary: `${progress.filename}: ${progress.bytesReceived} of ${progress.byteSize} bytes.` };
  },
});

const finishUploadArguments = v.object({ ...finishArguments.entries, cancel: v.optional(v.literal(true)) });

const finishUploadTool = defineTool<AuthoringServices, typeof finishUploadArguments>({
  name: "finish_upload",
  toolset: "assets",
  title: "Finish upload",
  description: "Files view only: a complete upload becomes an asset, checked as upload_asset does; cancel: true deletes it.",
  input: finishUploadArguments,
  output: v.object({
    courseId: v.optional(v.nullable(v.string())),
    keptInLibrary: v.optional(v.string()),
    version: v.optional(v.number()),
    assetId: v.optional(v.string()),
    mediaType: v.optional(v.string()),
    width: v.optional(v.number()),
    height: v.optional(v.number()),
  }),
  annotations: appAnnotations,
  meta: appOnly,
  async handler(args, { user, services }) {
    if (args.cancel) {
      const cancelled = await writeAs(services, user, (session) => cancelUpload(session, { uploadId: args.uploadId }));
      return { structuredContent: {}, summary: `Cancelled upload ${cancelled.uploadId}; nothing of it was kept.` };
    }
    try {
      const finished = await finishUpload(services, user, args);
      const { asset } = finished;
      const size = finished.image ? `, ${finished.image.width}×${finished.image.height} px` : "";
      return {
        structuredContent: { courseId: finished.courseId, ...(finished.version !== undefined ? { version: finished.version } : {}), assetId: asset.id, mediaType: asset.mediaType, byteSize: asset.byteSize, ...finished.image, ...(finished.keptInLibrary ? { keptInLibrary: finished.keptInLibrary } : {}) },
        summary:
          finished.courseId === null
            ? `Uploaded ${asset.id} "${asset.filename}" (${asset.mediaType}, ${asset.byteSize} bytes${size}) to the person's library${finished.keptInLibrary ? `: ${finished.keptInLibrary}` : ""}.`
            : `Uploaded ${asset.id} "${asset.filename}" (${asset.mediaType}, ${asset.byteSize} bytes${size}) to course ${finished.courseId}, now at version ${finished.version}.`,
      };
    } catch (error) {
      // A file refused for what it is will not become acceptable: nothing of it is kept.
      if (error instanceof CourseAuthoringError && error.code === "invalid_arguments") {
        await writeAs(services, user, (session) => cancelUpload(session, { uploadId: args.uploadId })).catch(() => undefined);
        throw new CourseAuthoringError(error.code, `${error.message.replace(/\.?$/, ".")} The upload was deleted.`, error.details);
      }
      throw error;
    }
  },
});

export const uploadTools: ToolDefinition<AuthoringServices>[] = [beginUploadTool, uploadChunkTool, finishUploadTool];
