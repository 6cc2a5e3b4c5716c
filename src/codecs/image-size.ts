/**
 * The pixel size of a PNG, JPEG, GIF or WebP from its header, without decoding it, for the files view's
 * answer to the agent. Reads only the bytes it needs and stops at a bounded number of JPEG segments.
 */

export interface ImageSize {
  width: number;
  height: number;
}

function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  let at = 2;
  for (let segments = 0; segments < 1_000 && at + 9 < bytes.length; segments++) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    const length = view.getUint16(at + 2);
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

function webpSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunk === "VP8X" && bytes.length >= 30) return { width: 1 + (view.getUint32(24, true) & 0xffffff), height: 1 + (view.getUint32(27, true) & 0xffffff) };
  if (chunk === "VP8 " && bytes.length >= 30) return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === "VP8L" && bytes.length >= 25) {
    const bits = view.getUint32(21, true);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return null;
}

export function imageSize(bytes: Uint8Array, mediaType: string): ImageSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    switch (mediaType) {
      case "image/png":
        return bytes.length >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : null;
      case "image/gif":
        return bytes.length >= 10 ? { width: view.getUint16(6, true), height: view.getUint16(8, true) } : null;
      case "image/jpeg":
        return jpegSize(bytes, view);
      case "image/webp":
        return webpSize(bytes, view);
      default:
        return null;
    }
  } catch {
    return null;
  }
}
