/**
 * SHA-256 (FIPS 180-4) over the UTF-8 bytes of a string, synchronous, so the same code
 * hashes answer keys while the page renders (the renderer is synchronous) and, in the player, in a page where WebCrypto is missing (`crypto.subtle` needs a secure context).
 */
export function createSha256(): (text: string) => Uint8Array {
  // The round constants and the initial hash are the first 32 bits of the fractional parts of the cube
  // roots of the first 64 primes and of the square roots of the first 8 (FIPS 180-4, 4.2.2 and 5.3.3),
  // computed here rather than listed: each lies at least 0.005 from the next integer once scaled by 2^32,
  // far more than a double's rounding, so every engine finds the same words (test/sha256.test.ts).
  const primes: number[] = [];
  for (let candidate = 2; primes.length < 64; candidate++) if (primes.every((prime) => candidate % prime !== 0)) primes.push(candidate);
  const fraction = (root: number): number => ((root % 1) * 0x100000000) >>> 0;
  const constants = new Uint32Array(primes.map((prime) => fraction(Math.cbrt(prime))));
  const initialHash = primes.slice(0, 8).map((prime) => fraction(Math.sqrt(prime)));
  const rotate = (value: number, bits: number): number => (value >>> bits) | (value << (32 - bits));

  return (text: string): Uint8Array => {
    const message = new TextEncoder().encode(text);
    const length = Math.ceil((message.length + 9) / 64) * 64;
    const padded = new Uint8Array(length);
    padded.set(message);
    padded[message.length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(length - 8, Math.floor((message.length * 8) / 0x100000000));
    view.setUint32(length - 4, (message.length * 8) >>> 0);
    const hash = new Uint32Array(initialHash);
    const words = new Uint32Array(64);
    for (let offset = 0; offset < length; offset += 64) {
      for (let index = 0; index < 16; index++) words[index] = view.getUint32(offset + index * 4);
      for (let index = 16; index < 64; index++) {
        const w15 = words[index - 15] as number;
        const w2 = words[index - 2] as number;
        const s0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >>> 3);
        const s1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >>> 10);
        words[index] = ((words[index - 16] as number) + s0 + (words[index - 7] as number) + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, h] = Array.from(hash) as [number, number, number, number, number, number, number, number];
      for (let index = 0; index < 64; index++) {
        const t1 = (h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + (constants[index] as number) + (words[index] as number)) >>> 0;
        const t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        h = g;
        g = f;
        f = e;
        e = (d + t1) >>> 0;
        d = c;
        c = b;
        b = a;
        a = (t1 + t2) >>> 0;
      }
      const next = [a, b, c, d, e, f, g, h];
      for (let index = 0; index < 8; index++) hash[index] = ((hash[index] as number) + (next[index] as number)) >>> 0;
    }
    const digest = new Uint8Array(32);
    const out = new DataView(digest.buffer);
    for (let index = 0; index < 8; index++) out.setUint32(index * 4, hash[index] as number);
    return digest;
  };
}
