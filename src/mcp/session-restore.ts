/**
 * Restoring a shared session (PostgreSQL) that another replica opened: its record is looked up for
 * the caller and, when it exists and is theirs, the session is rebuilt here. Concurrent first requests
 * of one user for one session share a single restore; restores in flight are keyed by user and
 * session, so another user presenting the same id at the same moment runs a restore of their own
 * (which finds nothing of theirs) and never changes the outcome of the owner's.
 */
import type { McpSessionRecord } from "../store/session-records.ts";

export interface SessionRestoreParts<S> {
  /** The session's record when it exists and belongs to `sub`; otherwise undefined. */
  lookup(id: string, sub: string): Promise<McpSessionRecord | undefined>;
  /** Rebuilds the session from its record, or refuses (e.g. the caps are reached). */
  rebuild(record: McpSessionRecord): Promise<S | Response>;
}

export function createSessionRestore() {
  const inFlight = new Map<string, Promise<unknown>>();

  return {
    /** The restored session, a refusal, or undefined when `sub` has no such session. */
    restore<S>(id: string, sub: string, parts: SessionRestoreParts<S>): Promise<S | Response | undefined> {
      // JSON keeps the key unambiguous whatever characters a `sub` or a session id holds.
      const key = JSON.stringify([sub, id]);
      let pending = inFlight.get(key) as Promise<S | Response | undefined> | undefined;
      if (!pending) {
        pending = (async () => {
          const record = await parts.lookup(id, sub);
          return record && parts.rebuild(record);
        })().finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },

    /** Restores running now (for tests and metrics). */
    get inFlight(): number {
      return inFlight.size;
    },
  };
}

export type SessionRestore = ReturnType<typeof createSessionRestore>;
