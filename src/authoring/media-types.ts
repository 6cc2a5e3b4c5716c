/**
 * Recognises an upload's real media type from its first bytes (magic numbers), never from the name or
 * the type the client claims. Only formats a course can safely embed are accepted; SVG is refused
 * because it is XML that can carry scripts and we do not sanitise it.
 */

export interface MediaType {
  mediaType: string;
  /** File name extensions that honestly describe this type. */
  extensions: readonly string[];
}

export const acceptedMediaTypes: readonly MediaType[] = [
  { mediaType: "image/png", extensions: ["png"] },
  { mediaType: "image/jpeg", extensions: ["jpg", "jpeg"] },
  { mediaType: "image/gif", extensions: ["gif"] },
  { mediaType: "image/webp", extensions: ["webp"] },
  { mediaType: "audio/mpeg", extensions: ["mp3"] },
  { mediaType: "audio/wav", extensions: ["wav"] },
  { mediaType: "audio/ogg", extensions: ["ogg", "oga", "opus"] },
  { mediaType: "audio/mp4", extensions: ["m4a", "mp4"] },
  { mediaType: "video/mp4", extensions: ["mp4", "m4v"] },
  { mediaType: "video/webm", extensions: ["webm"] },
  { mediaType: "application/pdf", extensions: ["pdf"] },
  { mediaType: "text/vtt", extensions: ["vtt"] },
];

export type SniffResult = { kind: "accepted"; type: MediaType } | { kind: "svg" } | { kind: "unknown" };

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function byType(mediaType: string): MediaType {
  const found = acceptedMediaTypes.find((type) => type.mediaType === mediaType);
  if (!found) throw new Error(`unknown media type ${mediaType}`);
  return found;
}

function detect(bytes: Uint8Array): string | "svg" | null {
  const head = ascii(bytes, 0, 16);
  if (bytes[0] === 0x89 && head.slice(1, 8) === "PNG\r\n\x1a\n") return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (head.startsWith("GIF87a") || head.startsWith("GIF89a")) return "image/gif";
  if (head.startsWith("RIFF") && ascii(bytes, 8, 4) === "WEBP") return "image/webp";
  if (head.startsWith("RIFF") && ascii(bytes, 8, 4) === "WAVE") return "audio/wav";
  if (head.startsWith("OggS")) return "audio/ogg";
  if (head.startsWith("ID3") || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return "audio/mpeg";
  if (ascii(bytes, 4, 4) === "ftyp") return /^M4A |^M4B /.test(ascii(bytes, 8, 4)) ? "audio/mp4" : "video/mp4";
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return ascii(bytes, 0, 64).includes("webm") ? "video/webm" : null;
  if (head.startsWith("%PDF-")) return "application/pdf";
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 512)).replace(/^\uFEFF/, "");
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(text)) return "text/vtt";
  if (/^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text)) return "svg";
  return null;
}

export function sniffMediaType(bytes: Uint8Array): SniffResult {
  const detected = detect(bytes);
  if (detected === "svg") return { kind: "svg" };
  return detected ? { kind: "accepted", type: byType(detected) } : { kind: "unknown" };
}

/** True when a claimed type names the same format (`image/jpg` for JPEG, `audio/mp3` for MP3, `video/mp4` for an M4A box are accepted). */
export function claimMatches(claimed: string, actual: MediaType): boolean {
  const normalised = claimed.split(";")[0]?.trim().toLowerCase() ?? "";
  const aliases: Record<string, string[]> = {
    "image/jpeg": ["image/jpg", "image/pjpeg"],
    "audio/mpeg": ["audio/mp3", "audio/mpeg3"],
    "audio/wav": ["audio/wave", "audio/x-wav"],
    "audio/mp4": ["audio/x-m4a", "video/mp4"],
    "video/mp4": ["audio/mp4"],
    "audio/ogg": ["application/ogg", "video/ogg"],
  };
  return normalised === actual.mediaType || (aliases[actual.mediaType] ?? []).includes(normalised);
}

export function acceptedTypesText(): string {
  return "PNG, JPEG, GIF, WebP, MP3, WAV, Ogg, MP4, WebM, PDF and WebVTT captions";
}
