/**
 * Opaque, prefixed identifiers (`crs_…`, `blk_…`). The prefix tells an agent and a log reader what an
 * ID names; the rest is 100 random bits in lowercase base32, so IDs never leak order or count.
 */
export const idPrefixes = {
  course: "crs",
  objective: "obj",
  module: "mod",
  lesson: "les",
  block: "blk",
  asset: "ast",
  revision: "rev",
  comment: "cmt",
  /** A chunked upload in progress (the files view). */
  upload: "upl",
  /** A review round: one html_review export sent to reviewers. */
  reviewRound: "rnd",
  /** A stored export package; the package storage assigns these. */
  export: "exp",
} as const;

export type IdKind = keyof typeof idPrefixes;

export type IdGenerator = (kind: IdKind) => string;

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

/** What follows `<prefix>_` in an ID we accept: lowercase base32-ish, as generated (20) or longer from elsewhere. */
export const idSuffixPattern = "[0-9a-z]{1,64}";

/** An anchored pattern for IDs of the given kinds (`^(crs|mod)_[0-9a-z]{1,64}$`). */
export function idPattern(...kinds: readonly IdKind[]): RegExp {
  const prefixes = kinds.map((kind) => idPrefixes[kind]);
  return new RegExp(`^${prefixes.length === 1 ? prefixes[0] : `(${prefixes.join("|")})`}_${idSuffixPattern}$`);
}

/** 20 base32 characters from a cryptographic source. */
export const randomId: IdGenerator = (kind) => {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  let suffix = "";
  for (const byte of bytes) suffix += alphabet[byte & 31];
  return `${idPrefixes[kind]}_${suffix}`;
};

/** True when `id` looks like an ID of the given kind; used to give precise "wrong kind of ID" errors. */
export function hasIdPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${idPrefixes[kind]}_`);
}
