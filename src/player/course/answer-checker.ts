/**
 * The page's side of `answer-key.ts`:
 * hashes a learner's response to one part the way the key was hashed, with WebCrypto where the page is a
 * secure context (file:// is one in Chromium) and the bundled SHA-256 elsewhere, and opens a question's
 * sealed right answer once it may be shown.
 */
export interface AnswerChecker {
  /** "webcrypto" or "script": which SHA-256 the page uses. */
  readonly engine: "webcrypto" | "script";
  /** The response's hash, comparable with the entries of the question's `data-key`. */
  hash(salt: string, questionId: string, part: number, response: string): Promise<string>;
  /** The sealed value, or null when it cannot be opened (a damaged page). */
  open(sealKey: string, questionId: string, sealed: string): unknown;
}

export function createAnswerChecker(sha256: (text: string) => Uint8Array): AnswerChecker {
  const separator = "\u001f";
  const subtle = typeof crypto !== "undefined" && crypto.subtle && window.isSecureContext ? crypto.subtle : null;
  const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

  async function digest(text: string): Promise<Uint8Array> {
    if (subtle) {
      try {
        return new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(text)));
      } catch {
        // Fall through to the bundled implementation.
      }
    }
    return sha256(text);
  }

  return {
    engine: subtle ? "webcrypto" : "script",
    async hash(salt, questionId, part, response) {
      return hex((await digest([salt, questionId, String(part), response].join(separator))).subarray(0, 16));
    },
    open(sealKey, questionId, sealed) {
      try {
        const binary = atob(sealed);
        const bytes = new Uint8Array(binary.length);
        for (let offset = 0; offset < binary.length; offset += 32) {
          const block = sha256([sealKey, questionId, String(offset / 32)].join(separator));
          for (let index = 0; index < 32 && offset + index < binary.length; index++) bytes[offset + index] = binary.charCodeAt(offset + index) ^ (block[index] as number);
        }
        return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
      } catch {
        return null;
      }
    },
  };
}
