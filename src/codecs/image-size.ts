/**
 * A picture's pixel size read from its header, for the formats Word shows (PNG, JPEG, GIF): a fixed
 * number of bytes for PNG and GIF, and for JPEG a walk over its segment headers that stops at the first
 * frame header or after `maxJpegSegments`, so a hostile file costs no more than its length.
 */
export interface PictureSize {
  readonly type: "png" | "jpeg" | "gif";
  readonly width: number;
  readonly height: number;
}

const maxJpegSegments = 1_000;

function jpegSize(bytes: Uint8Array, view: DataView): PictureSize | null {
  let offset = 2;
  for (let segment = 0; segment < maxJpegSegments && offset + 9 < bytes.length; segment++) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1] as number;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = view.getUint16(offset + 2);
    // SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC), carry the frame's height and width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = view.getUint16(offset + 5);
      const width = view.getUint16(offset + 7);
      return width > 0 && height > 0 ? { type: "jpeg", width, height } : null;
    }
    if (length < 2) return null;
    offset += 2 + length;
  }
  return null;
}

export function pictureSize(bytes: Uint8Array): PictureSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && view.getUint32(0) === 0x89504e47 && view.getUint32(4) === 0x0d0a1a0a) {
    const width = view.getUint32(16);
    const height = view.getUint32(20);
    return width > 0 && height > 0 ? { type: "png", width, height } : null;
  }
  if (bytes.length >= 10 && bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) {
    const width = view.getUint16(6, true);
    const height = view.getUint16(8, true);
    return width > 0 && height > 0 ? { type: "gif", width, height } : null;
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes, view);
  return null;
}
