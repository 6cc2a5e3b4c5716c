/**
 * What every domain function receives besides its arguments: the open store transaction, who is
 * acting, and the clock and ID source (injected so tests can pin them). Domain functions never see a
 * Request or an MCP message.
 */
import type { StoreTransaction } from "../store/types.ts";
import type { CourseRowsCache } from "./course-rows-cache.ts";
import type { IdGenerator } from "./ids.ts";
import type { AuthoringLimits } from "./limits.ts";

/** The verified caller; structurally the MCP layer's `CallerIdentity`. */
export interface Actor {
  sub: string;
  email?: string | undefined;
  /** True only when the identity provider vouched for `email` (`email_verified: true`). */
  emailVerified?: boolean | undefined;
  /** Display name from the token, when present (shown on comments). */
  name?: string | undefined;
}

export interface AuthoringSession {
  tx: StoreTransaction;
  actor: Actor;
  now: () => Date;
  newId: IdGenerator;
  /** How much one course or one user may hold; checked when an edit commits. */
  limits: AuthoringLimits;
  /** Content rows of recently read courses, by version; present in read transactions only (`readAs`). */
  courseRows?: CourseRowsCache | undefined;
  /** Bytes this write stored in history so far (write transactions only). */
  writeMeter?: { bytes: number } | undefined;
}

export function timestamp(session: AuthoringSession): string {
  return session.now().toISOString();
}

/**
 * The address an e-mail share is matched against: only a verified one, since anyone can put any
 * address in an unverified claim. Normalised as share_course stores addresses: trimmed, lower-cased.
 */
export function actorEmail(actor: Actor): string | null {
  if (actor.emailVerified !== true || !actor.email) return null;
  const email = actor.email.trim().toLowerCase();
  return email === "" ? null : email;
}
