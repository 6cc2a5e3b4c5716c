/**
 * Bytes, text and hashes through web standards only (TextEncoder/TextDecoder, the base64 methods of
 * `Uint8Array`, `crypto.subtle`), so the use cases, the renderer and the adapters above them run on any
 * runtime. The store, the composition root and the metrics may use Bun's own APIs; the core uses these.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** UTF-8 of `text`. */
export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Text of UTF-8 bytes; malformed sequences become U+FFFD. */
export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** `encodeInto` a reused buffer counts without allocating; larger texts are counted in slices of it. */
const largestScratch = 1 << 22;
let scratch = new Uint8Array(1 << 12);

/** The length of `text` in UTF-8, as `LIMIT_*` byte limits and result sizes count it. */
export function utf8Length(text: string): number {
  const worstCase = text.length * 3;
  if (worstCase > scratch.length) scratch = new Uint8Array(Math.min(largestScratch, Math.max(worstCase, scratch.length * 2)));
  if (worstCase <= scratch.length) return encoder.encodeInto(text, scratch).written;
  const step = scratch.length / 3;
  let bytes = 0;
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + step, text.length);
    // Never split a surrogate pair: its halves would each count as a replacement character.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    bytes += encoder.encodeInto(text.slice(start, end), scratch).written;
    start = end;
  }
  return bytes;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  return bytes.toBase64();
}

/** Decodes standard base64 (callers check the alphabet first); throws `SyntaxError` on bad input. */
export function fromBase64(text: string): Uint8Array {
  return Uint8Array.fromBase64(text);
}

/** URL-safe base64 without padding, the spelling of JWT segments and of our page cursors. */
export function toBase64url(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

/** Decodes URL-safe base64 (padding optional); throws `SyntaxError` on characters outside its alphabet. */
export function fromBase64url(text: string): Uint8Array {
  return Uint8Array.fromBase64(text, { alphabet: "base64url" });
}

/** Lower-case hex SHA-256 of the bytes, or of a text's UTF-8. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return digest.toHex();
}
