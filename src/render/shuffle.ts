/**
 * Deterministic shuffling for matching options and ordering items: seeded by the block ID, so the same
 * course always renders the same page (stable previews, cacheable exports) while the order still
 * differs from the answer.
 */

function seedFrom(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a tiny, well-distributed PRNG; cryptographic strength is not needed here. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The indices 0..count-1 in a seeded order that, for two or more, is never the identity. */
export function shuffledIndices(count: number, seed: string): number[] {
  const indices = Array.from({ length: count }, (_, index) => index);
  const random = randomSource(seedFrom(seed));
  for (let index = count - 1; index > 0; index--) {
    const swapWith = Math.floor(random() * (index + 1));
    [indices[index], indices[swapWith]] = [indices[swapWith] ?? index, indices[index] ?? swapWith];
  }
  const isIdentity = indices.every((value, index) => value === index);
  return isIdentity && count > 1 ? [...indices.slice(1), indices[0] ?? 0] : indices;
}
