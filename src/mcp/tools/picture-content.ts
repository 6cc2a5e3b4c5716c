/**
 * Pictures shown to the model once, as they arrive (upload_asset, import_course): a small thumbnail per
 * picture as MCP image content, labelled with its asset ID, so the agent can write alt text. Only what
 * fits the room the rest of the answer leaves under the result cap is shown; the others are named.
 */
import type { ContentBlock } from "@modelcontextprotocol/server";
import type { Thumbnail } from "../../codecs/thumbnail.ts";
import { utf8Length } from "../../bytes.ts";

export interface ArrivedPicture {
  readonly fileName: string;
  readonly assetId?: string;
  readonly thumbnail: Thumbnail | null;
}

/** Named pictures listed at most; the rest are counted. */
const namedAtMost = 40;

/** Content items for the arrived pictures within `roomBytes` (serialised), or none. */
export function pictureContent(pictures: readonly ArrivedPicture[], roomBytes: number): ContentBlock[] {
  if (pictures.length === 0) return [];
  const name = (picture: ArrivedPicture) => (picture.assetId ? `${picture.assetId} (${picture.fileName})` : picture.fileName);
  const items: ContentBlock[] = [];
  const unseen: ArrivedPicture[] = [];
  let left = roomBytes - 1024;
  for (const picture of pictures) {
    const thumbnail = picture.thumbnail;
    const cost = thumbnail ? thumbnail.data.length + name(picture).length + 160 : Number.POSITIVE_INFINITY;
    if (!thumbnail || cost > left) {
      unseen.push(picture);
      continue;
    }
    left -= cost;
    items.push({ type: "text", text: `Picture ${name(picture)}:` }, { type: "image", data: thumbnail.data, mimeType: thumbnail.mimeType });
  }
  const shown = items.length / 2;
  const rest = unseen.length
    ? ` Not shown here (see them in preview_course): ${unseen.slice(0, namedAtMost).map(name).join(", ")}${unseen.length > namedAtMost ? ` and ${unseen.length - namedAtMost} more` : ""}.`
    : "";
  const intro = `${pictures.length} picture(s) arrived${shown ? `; ${shown} shown below, small, once: write each one's alt text from it` : ""}.${rest}`;
  return [{ type: "text", text: intro }, ...items];
}

/** Bytes an answer may still take for pictures: the result cap (twice the structured budget, about) less what it already holds. */
export function pictureRoom(structuredBudgetBytes: number, summary: string, structuredContent: unknown): number {
  const used = utf8Length(summary) + 2 * utf8Length(JSON.stringify(structuredContent));
  return Math.max(0, 2 * structuredBudgetBytes - used);
}
