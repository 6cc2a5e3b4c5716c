/**
 * Media per language: every asset a learner sees or hears (an image, a video or audio file, its
 * captions, a poster, a labelled graphic's or a pictured choice's picture, an attachment, the theme's
 * logo and cover) is a unit `<entity ID>/<path>/assetId` whose source is the asset's name and type and
 * whose target, when a translator gives one, is an asset uploaded to the translation. Without a target
 * the translation keeps its copy of the source's asset. Asset units are not counted as text to translate.
 */
import type { AssetRow, JsonObject } from "../../store/types.ts";

export type AssetKind = "image" | "video" | "audio" | "captions" | "any";

export interface AssetSlot {
  /** Slash path to the `assetId` inside the block body or the course theme (`captions/assetId`). */
  path: string;
  assetId: string;
  expected: AssetKind;
}

/** What an asset field takes, from its path and the block type. */
function expectedKind(blockType: string, path: readonly string[]): AssetKind {
  const parent = path[path.length - 2];
  if (parent === "captions" || path[0] === "captionTracks") return "captions";
  if (path.length === 1 && (blockType === "video" || blockType === "audio")) return blockType;
  if (path.length === 1 && blockType === "attachment") return "any";
  return "image";
}

/** Every `assetId` of a block body, in document order. */
export function blockAssetSlots(blockType: string, body: JsonObject): AssetSlot[] {
  const slots: AssetSlot[] = [];
  const walk = (value: unknown, at: string[]) => {
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...at, String(index)]));
    else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        if (key === "assetId" && typeof item === "string") slots.push({ path: [...at, key].join("/"), assetId: item, expected: expectedKind(blockType, [...at, key]) });
        else walk(item, [...at, key]);
      }
    }
  };
  walk(body, []);
  return slots;
}

/** The theme's logo and cover image. */
export function themeAssetSlots(theme: JsonObject | null): AssetSlot[] {
  const slots: AssetSlot[] = [];
  for (const field of ["logo", "coverImage"]) {
    const image = theme?.[field];
    if (image !== null && typeof image === "object" && !Array.isArray(image) && typeof image.assetId === "string") {
      slots.push({ path: `theme/${field}/assetId`, assetId: image.assetId, expected: "image" });
    }
  }
  return slots;
}

/** A unit's source text for an asset: what a translator recognises it by. */
export function assetUnitSource(asset: AssetRow | undefined, assetId: string): string {
  return asset ? `${asset.filename} (${asset.mediaType})` : assetId;
}

export function fitsKind(mediaType: string, expected: AssetKind): boolean {
  if (expected === "any") return true;
  if (expected === "captions") return mediaType === "text/vtt";
  return mediaType.startsWith(`${expected}/`);
}

export function kindWords(expected: AssetKind): string {
  return expected === "captions" ? "a WebVTT (text/vtt) captions file" : expected === "any" ? "a file" : `an ${expected}/* asset`;
}

export const isAssetUnitId = (unitId: string) => unitId.endsWith("/assetId");
