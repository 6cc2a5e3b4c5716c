/**
 * Decoded pixels as a PNG file (8-bit greyscale, RGB or RGBA, no interlace), for pictures taken out of a
 * document that holds them as raw samples (a PDF's images, as pdf.js decodes them), and the thumbnails
 * shown to the model (`thumbnail.ts`).
 */
import { zlibSync } from "fflate";

const crcTable = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** `channels`: 1 grey, 3 RGB, 4 RGBA; `pixels` holds width × height × channels bytes, row by row. */
export function encodePng(width: number, height: number, channels: 1 | 3 | 4, pixels: Uint8Array): Uint8Array {
  const stride = width * channels;
  const raw = new Uint8Array((stride + 1) * height);
  for (let row = 0; row < height; row += 1) raw.set(pixels.subarray(row * stride, row * stride + stride), row * (stride + 1) + 1);
  return pngOfRows(width, height, channels, raw);
}

/** A PNG of rows that already carry their filter byte (the thumbnail's, filter 0), compressed at `level`. */
export function pngOfRows(width: number, height: number, channels: 1 | 3 | 4, rows: Uint8Array, level: 6 | 9 = 6): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = 8;
  header[9] = channels === 1 ? 0 : channels === 3 ? 2 : 6;
  const parts = [Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", zlibSync(rows, { level })), chunk("IEND", new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
