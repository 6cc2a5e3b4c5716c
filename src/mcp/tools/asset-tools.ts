/**
 * MCP tools for course assets: upload (base64, type recognised from the bytes) and list. list_assets links
 * the files view (MCP Apps), where the person adds their own files without the model writing their bytes.
 */
import * as v from "valibot";
import { assetSchema, listAssets, listAssetsArguments, uploadAsset, uploadAssetArguments } from "../../authoring/assets.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import { limits } from "../../authoring/schemas/fields.ts";
import { filesViewUri } from "../apps/files-view.ts";
import { defineTool, type ToolDefinition } from "../registry.ts";
import { pictureContent, pictureRoom } from "./picture-content.ts";

const uploadAssetTool = defineTool<AuthoringServices, typeof uploadAssetArguments>({
  name: "upload_asset",
  toolset: "assets",
  title: "Upload asset",
  description:
    `Uploads a file for a course, or without courseId to your own library (base64 in dataBase64, at most ${limits.assetBytes / 1024 / 1024} MB decoded; dataBase64 lists the types accepted). ` +
    "The type is recognised from the bytes; a filename extension or mediaType that disagrees is refused, and SVG is refused. " +
    "Returns the asset; put its id in an image, video or audio block's assetId (or captions.assetId for .vtt). " +
    "An upload to a course is a course write: it returns the course's new version, the expectedVersion of your next write. " +
    "A library file is no course's content: use it by its ID in any course you can edit, or import it.",
  input: uploadAssetArguments,
  output: v.object({ courseId: v.nullable(v.string()), version: v.optional(v.number()), asset: assetSchema, keptInLibrary: v.optional(v.string()) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, { user, services, structuredBudgetBytes }) {
    const { thumbnail, ...result } = await uploadAsset(services, user, args);
    const asset = result.asset;
    const content = thumbnail === undefined ? [] : pictureContent([{ fileName: asset.filename, assetId: asset.id, thumbnail }], pictureRoom(structuredBudgetBytes, "", result));
    return {
      ...(content.length ? { content } : {}),
      structuredContent: result,
      summary:
        result.courseId === null
          ? `Uploaded ${asset.id} "${asset.filename}" (${asset.mediaType}, ${asset.byteSize} bytes) to your library${result.keptInLibrary ? ` and not to course ${args.courseId}: ${result.keptInLibrary}` : "; use its ID in any course you can edit"}.`
          : `Uploaded ${asset.id} "${asset.filename}" (${asset.mediaType}, ${asset.byteSize} bytes) to course ${result.courseId}, now at version ${result.version}.`,
    };
  },
});

const listAssetsTool = defineTool<AuthoringServices, typeof listAssetsArguments>({
  name: "list_assets",
  toolset: "assets",
  title: "List assets",
  description:
    "Lists a course's uploaded assets, or without courseId your own library (id, filename, mediaType, byteSize), oldest first, paged with nextCursor. Also opens the files view (MCP Apps): " +
    "the person adds files; you get their ids and thumbnails.",
  input: listAssetsArguments,
  output: v.object({ courseId: v.nullable(v.string()), assets: v.array(assetSchema), nextCursor: v.nullable(v.string()) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  meta: { ui: { resourceUri: filesViewUri } },
  async handler(args, { user, services }) {
    const page = await readAs(services, user, (session) => listAssets(session, args));
    const where = page.courseId === null ? "your library" : `course ${page.courseId}`;
    return { structuredContent: page, summary: `${page.assets.length} asset(s) in ${where}${page.nextCursor ? "; more with nextCursor" : ""}.` };
  },
});

export const assetTools: ToolDefinition<AuthoringServices>[] = [uploadAssetTool, listAssetsTool];
