/**
 * SHA-256 (FIPS 180-4) over the UTF-8 bytes of a string, synchronous, for the page: it opens sealed
 * answers, and checks responses where WebCrypto is missing (`crypto.subtle` needs a secure context).
 * Written for size, not speed (the page hashes a few short strings per question); the server hashes
 * with `node:crypto` (`render/answer-key.ts`), and `test/sha256.test.ts` holds the two to the same digests.
 */
export function createSha256(): (text: string) => Uint8Array {
  // The round constants and the initial hash are the first 32 bits of the fractional parts of the cube
  // roots of the first 64 primes and of the square roots of the first 8 (FIPS 180-4, 4.2.2 and 5.3.3),
  // computed here rather than listed: each lies at least 0.005 from the next integer once scaled by 2^32,
  // far more than a double's rounding, so every engine finds the same words (test/sha256.test.ts).
  const primes: number[] = [];
  for (let candidate = 2; primes.length < 64; candidate++) if (primes.every((prime) => candidate % prime !== 0)) primes.push(candidate);
  const fraction = (root: number): number => ((root % 1) * 0x100000000) | 0;
  const constants = primes.map((prime) => fraction(Math.cbrt(prime)));
  const initialHash = primes.slice(0, 8).map((prime) => fraction(Math.sqrt(prime)));
  const rotate = (value: number, bits: number): number => (value >>> bits) | (value << (32 - bits));

  return (text: string): Uint8Array => {
    const message = new TextEncoder().encode(text);
    // The message, a 1 bit, zeros up to 56 bytes past a multiple of 64, the length in bits as 64 bits big-endian.
    const bytes = [...message, 0x80];
    while (bytes.length % 64 !== 56) bytes.push(0);
    for (let shift = 56; shift >= 0; shift -= 8) bytes.push(Math.floor((message.length * 8) / 2 ** shift) & 255);
    // Words are kept as signed 32-bit integers (`| 0` after each sum).
    const hash = [...initialHash];
    for (let offset = 0; offset < bytes.length; offset += 64) {
      const words: number[] = [];
      for (let index = 0; index < 64; index++) {
        const w15 = words[index - 15] as number;
        const w2 = words[index - 2] as number;
        const at = offset + index * 4;
        words[index] =
          index < 16
            ? ((bytes[at] as number) << 24) | ((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number)
            : ((words[index - 16] as number) + (rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >>> 3)) + (words[index - 7] as number) + (rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >>> 10))) | 0;
      }
      // The working variables a..h; each round drops h, puts the new a in front and adds t1 to d (now e).
      const state = [...hash];
      for (let index = 0; index < 64; index++) {
        const [a, b, c, , e, f, g, h] = state as [number, number, number, number, number, number, number, number];
        const t1 = h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + (constants[index] as number) + (words[index] as number);
        state.pop();
        state.unshift((t1 + (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0);
        state[4] = ((state[4] as number) + t1) | 0;
      }
      hash.forEach((word, index) => (hash[index] = (word + (state[index] as number)) | 0));
    }
    // A Uint8Array keeps the low 8 bits of each value, so each word's bytes need no mask.
    return new Uint8Array(hash.flatMap((word) => [word >>> 24, word >>> 16, word >>> 8, word]));
  };
}
