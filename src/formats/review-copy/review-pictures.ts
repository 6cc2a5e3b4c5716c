/**
 * The pictures a review copy embeds: every uploaded picture the course's blocks show (image blocks,
 * labelled graphics, process steps, timeline events, scenario scenes, choices), read once each, within a
 * budget (`reviewPictureLimits`): PNG, JPEG and GIF only, each and all together bounded in bytes and in
 * number. A picture left out (too large, past the budget, a format Word does not show, a URL outside the
 * course) is named where it would stand, and told to the author by the export's notices. Pictures are
 * shown at most a page wide; this service has no image encoder, so bytes are embedded as uploaded.
 */
import { pictureSize, type PictureSize } from "../../codecs/image-size.ts";
import type { ZipEntry } from "../../codecs/zip-write.ts";
import type { AssetBody, AssetSource, ExportCourse } from "../package/types.ts";

export const reviewPictureLimits = {
  /** Distinct pictures embedded in one copy. */
  pictures: 60,
  /** Bytes of one embedded picture. */
  pictureBytes: 4 * 1024 * 1024,
  /** Bytes of all embedded pictures together. */
  totalBytes: 24 * 1024 * 1024,
} as const;

export interface EmbeddedPicture {
  readonly relationshipId: string;
  readonly path: string;
  readonly size: PictureSize;
  readonly bytes: Uint8Array;
}

/** Why a picture is not in the copy, in words for the reader. */
export type PictureGap = string;

async function bytesOf(body: AssetBody): Promise<Uint8Array> {
  return body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer());
}

/** Asset IDs of pictures in the course's blocks, in reading order (attachments, media and captions are not pictures). */
function pictureAssetIds(course: ExportCourse): string[] {
  const found: string[] = [];
  const visit = (value: unknown, key: string, depth: number): void => {
    if (depth > 12 || typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, key, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    if (typeof record.assetId === "string" && (record.type === "image" || key === "image")) found.push(record.assetId);
    for (const [childKey, child] of Object.entries(record)) if (childKey !== "assetId") visit(child, childKey, depth + 1);
  };
  for (const module of course.modules) for (const lesson of module.lessons) for (const block of lesson.blocks ?? []) visit(block, "", 0);
  return [...new Set(found)];
}

export class ReviewPictures {
  private readonly embedded = new Map<string, EmbeddedPicture>();
  private readonly gaps = new Map<string, PictureGap>();

  /** Reads the course's pictures within the budget; `notice` is told each picture left out. */
  static async load(course: ExportCourse, source: AssetSource, notice?: (text: string) => void): Promise<ReviewPictures> {
    const pictures = new ReviewPictures();
    let total = 0;
    for (const assetId of pictureAssetIds(course)) {
      const info = await source.describe(assetId);
      const gap = (why: string) => {
        pictures.gaps.set(assetId, why);
        notice?.(`Review copy: picture ${assetId} is not embedded (${why}); the copy names it and its alt text instead.`);
      };
      if (!info) {
        gap("the asset no longer exists");
        continue;
      }
      if (pictures.embedded.size >= reviewPictureLimits.pictures) {
        gap(`a copy embeds at most ${reviewPictureLimits.pictures} pictures`);
        continue;
      }
      if (info.size !== undefined && info.size > reviewPictureLimits.pictureBytes) {
        gap(`it is ${megabytes(info.size)}; a copy embeds pictures of at most ${megabytes(reviewPictureLimits.pictureBytes)}`);
        continue;
      }
      if (!/^image\/(png|jpeg|gif)$/i.test(info.mimeType)) {
        gap(`${info.mimeType} pictures are not shown by Word; PNG, JPEG and GIF are`);
        continue;
      }
      const bytes = await bytesOf(await source.open(assetId));
      const size = pictureSize(bytes);
      if (!size) gap("its bytes are not a PNG, JPEG or GIF picture");
      else if (bytes.byteLength > reviewPictureLimits.pictureBytes) gap(`it is ${megabytes(bytes.byteLength)}; a copy embeds pictures of at most ${megabytes(reviewPictureLimits.pictureBytes)}`);
      else if (total + bytes.byteLength > reviewPictureLimits.totalBytes) gap(`the copy's pictures would pass ${megabytes(reviewPictureLimits.totalBytes)} together`);
      else {
        total += bytes.byteLength;
        const number = pictures.embedded.size + 1;
        pictures.embedded.set(assetId, { relationshipId: `rIdPicture${number}`, path: `media/picture${number}.${size.type === "jpeg" ? "jpeg" : size.type}`, size, bytes });
      }
    }
    return pictures;
  }

  picture(assetId: string): EmbeddedPicture | undefined {
    return this.embedded.get(assetId);
  }

  gap(assetId: string): PictureGap | undefined {
    return this.gaps.get(assetId);
  }

  get leftOut(): number {
    return this.gaps.size;
  }

  relationships(): [string, string][] {
    return [...this.embedded.values()].map((picture) => [picture.relationshipId, picture.path]);
  }

  entries(): ZipEntry[] {
    return [...this.embedded.values()].map((picture) => ({ path: `word/${picture.path}`, body: picture.bytes }));
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
