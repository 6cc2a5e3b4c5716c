/**
 * What every domain function receives besides its arguments: the open store transaction, who is
 * acting, and the clock and ID source (injected so tests can pin them). Domain functions never see a
 * Request or an MCP message.
 */
import type { StoreTransaction } from "../store/types.ts";
import type { IdGenerator } from "./ids.ts";
import type { AuthoringLimits } from "./limits.ts";

/** The verified caller; structurally the MCP layer's `CallerIdentity`. */
export interface Actor {
  sub: string;
  email?: string | undefined;
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
}

export function timestamp(session: AuthoringSession): string {
  return session.now().toISOString();
}

export function actorEmail(actor: Actor): string | null {
  return actor.email ? actor.email.trim().toLowerCase() : null;
}
