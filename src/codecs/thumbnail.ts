/**
 * Small thumbnails of pictures, for the model to see what arrived and write alt text: a PNG is decoded a
 * row at a time (never held whole), averaged down to at most `thumbnailLimits.pixels` on its longer side
 * and written again as a small RGBA PNG; any other picture small enough in bytes is given as it is.
 * Bounded in pixels and bytes, and paused between compressed chunks so a large picture does not hold the
 * event loop; anything else (interlaced PNG, a large JPEG) gets no thumbnail and the caller names it.
 */
import { inflateSync } from "node:zlib";
import { pngOfRows } from "./png-write.ts";
import { toBase64 } from "../bytes.ts";
import { TimeSlicer } from "./event-loop.ts";

export const thumbnailLimits = {
  /** The longer side of a thumbnail, in pixels. */
  pixels: 160,
  /** A picture at most this large in bytes is sent as it is when it cannot be made smaller here. */
  originalBytes: 24 * 1024,
  /** Larger pictures are not decoded (width × height). */
  sourcePixels: 40_000_000,
  /** Nor those whose pixel data inflates to more bytes than this. */
  inflatedBytes: 64 * 1024 * 1024,
} as const;

export interface Thumbnail {
  readonly mimeType: string;
  /** Base64. */
  readonly data: string;
}

const sentAsIs = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** A thumbnail of the picture, or null when none can be made within the limits. */
export async function pictureThumbnail(bytes: Uint8Array, mediaType: string): Promise<Thumbnail | null> {
  if (mediaType === "image/png") {
    const small = await pngThumbnail(bytes).catch(() => null);
    if (small) return { mimeType: "image/png", data: toBase64(small) };
  }
  if (sentAsIs.has(mediaType) && bytes.byteLength <= thumbnailLimits.originalBytes) return { mimeType: mediaType, data: toBase64(bytes) };
  return null;
}

interface Header {
  width: number;
  height: number;
  depth: number;
  colour: number;
  interlaced: boolean;
}

const channelsOf: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function readChunks(bytes: Uint8Array): { header: Header; palette: Uint8Array | null; alpha: Uint8Array | null; data: Uint8Array[] } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.byteLength < 33 || signature.some((byte, index) => bytes[index] !== byte)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header: Header | null = null;
  let palette: Uint8Array | null = null;
  let alpha: Uint8Array | null = null;
  const data: Uint8Array[] = [];
  for (let at = 8; at + 8 <= bytes.byteLength; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const body = bytes.subarray(at + 8, Math.min(bytes.byteLength, at + 8 + length));
    if (type === "IHDR" && body.byteLength >= 13) {
      const bodyView = new DataView(body.buffer, body.byteOffset, body.byteLength);
      header = { width: bodyView.getUint32(0), height: bodyView.getUint32(4), depth: body[8] ?? 0, colour: body[9] ?? 0, interlaced: body[12] !== 0 };
    } else if (type === "PLTE") palette = body;
    else if (type === "tRNS") alpha = body;
    else if (type === "IDAT") data.push(body);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  return header ? { header, palette, alpha, data } : null;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function unfilter(filter: number, row: Uint8Array, previous: Uint8Array, step: number): void {
  if (filter === 0) return;
  for (let index = 0; index < row.length; index++) {
    const left = index >= step ? (row[index - step] as number) : 0;
    const up = previous[index] as number;
    const upLeft = index >= step ? (previous[index - step] as number) : 0;
    const add = filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : 0;
    row[index] = ((row[index] as number) + add) & 0xff;
  }
}

/** The picture's PNG thumbnail, or null: not a PNG this reads (interlaced, odd depth), or too large. */
async function pngThumbnail(bytes: Uint8Array): Promise<Uint8Array | null> {
  const read = readChunks(bytes);
  if (!read) return null;
  const { header, palette, alpha, data } = read;
  const channels = channelsOf[header.colour];
  const { width, height, depth } = header;
  if (!channels || header.interlaced || ![1, 2, 4, 8, 16].includes(depth) || width < 1 || height < 1 || width * height > thumbnailLimits.sourcePixels) return null;
  if (header.colour === 3 && !palette) return null;
  const scale = Math.min(1, thumbnailLimits.pixels / Math.max(width, height));
  const targetWidth = Math.max(1, Math.round(width * scale));
  const targetHeight = Math.max(1, Math.round(height * scale));
  const sums = new Float64Array(targetWidth * targetHeight * 4);
  const counts = new Uint32Array(targetWidth * targetHeight);
  const rowBytes = Math.ceil((width * channels * depth) / 8);
  const step = Math.max(1, (channels * depth) >> 3);
  let row = new Uint8Array(rowBytes);
  let previous = new Uint8Array(rowBytes);
  let filter = -1;
  let filled = 0;
  let y = 0;
  const rgba = new Uint8Array(4);
  const sample = (x: number, channel: number): number => {
    if (depth === 8) return row[x * channels + channel] as number;
    if (depth === 16) return row[(x * channels + channel) * 2] as number;
    const bit = (x * channels + channel) * depth;
    return ((row[bit >> 3] as number) >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
  };
  const pixel = (x: number): void => {
    const max = depth >= 8 ? 255 : (1 << depth) - 1;
    if (header.colour === 3) {
      const index = sample(x, 0);
      rgba[0] = palette?.[index * 3] ?? 0;
      rgba[1] = palette?.[index * 3 + 1] ?? 0;
      rgba[2] = palette?.[index * 3 + 2] ?? 0;
      rgba[3] = alpha?.[index] ?? 255;
      return;
    }
    const level = (value: number) => Math.round((value * 255) / max);
    if (channels <= 2) rgba[0] = rgba[1] = rgba[2] = level(sample(x, 0));
    else for (let channel = 0; channel < 3; channel++) rgba[channel] = level(sample(x, channel));
    rgba[3] = channels === 2 ? level(sample(x, 1)) : channels === 4 ? level(sample(x, 3)) : 255;
  };
  const cellOfColumn = Uint32Array.from({ length: width }, (_, x) => Math.min(targetWidth - 1, Math.floor((x * targetWidth) / width)));
  const finishRow = (): void => {
    unfilter(filter, row, previous, step);
    const cellRow = Math.min(targetHeight - 1, Math.floor((y * targetHeight) / height)) * targetWidth;
    const direct = depth === 8 && channels >= 3;
    for (let x = 0; x < width; x++) {
      const cell = cellRow + (cellOfColumn[x] as number);
      const at = cell * 4;
      if (direct) {
        // The common case (8-bit RGB or RGBA), read straight from the row.
        const from = x * channels;
        sums[at] = (sums[at] as number) + (row[from] as number);
        sums[at + 1] = (sums[at + 1] as number) + (row[from + 1] as number);
        sums[at + 2] = (sums[at + 2] as number) + (row[from + 2] as number);
        sums[at + 3] = (sums[at + 3] as number) + (channels === 4 ? (row[from + 3] as number) : 255);
      } else {
        pixel(x);
        for (let channel = 0; channel < 4; channel++) sums[at + channel] = (sums[at + channel] as number) + (rgba[channel] as number);
      }
      counts[cell] = (counts[cell] as number) + 1;
    }
    [previous, row] = [row, previous];
    y += 1;
    filter = -1;
    filled = 0;
  };
  const expected = height * (rowBytes + 1);
  if (expected > thumbnailLimits.inflatedBytes) return null;
  // Native inflation, stopped at the bytes the header promises: a picture is never inflated past its size.
  const inflated = inflateSync(concat(data), { maxOutputLength: expected });
  if (inflated.byteLength < expected) return null;
  const slicer = new TimeSlicer();
  for (let at = 0; y < height; at += rowBytes + 1) {
    filter = inflated[at] as number;
    row.set(inflated.subarray(at + 1, at + 1 + rowBytes));
    filled = rowBytes;
    finishRow();
    if (slicer.due()) await slicer.pause();
  }
  const pixels = new Uint8Array(targetHeight * (targetWidth * 4 + 1));
  for (let cell = 0; cell < counts.length; cell++) {
    const at = Math.floor(cell / targetWidth) * (targetWidth * 4 + 1) + 1 + (cell % targetWidth) * 4;
    for (let channel = 0; channel < 4; channel++) pixels[at + channel] = Math.round((sums[cell * 4 + channel] as number) / Math.max(1, counts[cell] as number));
  }
  return pngOfRows(targetWidth, targetHeight, 4, pixels, 9);
}

