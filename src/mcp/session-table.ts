/**
 * The sessions open in this process and the policy that bounds them. Per user: a new session closes
 * that user's least recently used idle session. In all: nothing of anyone else's is closed; beyond the
 * cap a new session is refused (503 with Retry-After) until idle ones expire. A session in use (a
 * request being handled, an event stream open) is never evicted: use is taken as a lease, released
 * exactly once, and `during` holds one for the length of a piece of work whatever way it ends.
 */
import type { Server } from "@modelcontextprotocol/server";
import type { Logger } from "../log.ts";
import type { SessionHttpTransport } from "./session-transport.ts";
import { jsonRpcErrorResponse } from "../http/jsonrpc-error.ts";

export interface OpenSession {
  transport: SessionHttpTransport;
  server: Server;
  sub: string;
}

interface Entry extends OpenSession {
  lastUsed: number;
  /** Leases held: requests being handled plus open event streams. */
  leases: number;
}

export interface SessionTablePolicy {
  logger: Logger;
  idleTimeoutMs: number;
  /** Sessions in all; beyond it a new session is refused. */
  maxSessions: number;
  /** Sessions of one user; beyond it the user's least recently used idle session is closed. */
  maxSessionsPerUser: number;
}

/** A place taken for a session being opened; `release` gives it back (idempotent). */
export interface Place {
  release(): void;
}

export function createSessionTable(policy: SessionTablePolicy) {
  // Map order is recency order: `touch` re-inserts.
  const sessions = new Map<string, Entry>();
  // Sessions admitted but not yet registered (the transport registers one mid-request): they hold a
  // place, so concurrent opens cannot overshoot either cap.
  const opening = new Map<string, number>();
  let openingTotal = 0;

  // The sweep ends every expired session, even one with a stream still open; admission spares those.
  const sweep = setInterval(() => closeExpired({ evenInUse: true }), Math.min(60_000, policy.idleTimeoutMs));
  sweep.unref?.();

  async function close(id: string, reason: string): Promise<void> {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    policy.logger.debug("mcp session closed", { session: id, reason });
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  }

  function closeExpired({ evenInUse = false } = {}): void {
    const cutoff = Date.now() - policy.idleTimeoutMs;
    for (const [id, session] of sessions) if (session.lastUsed < cutoff && (evenInUse || session.leases === 0)) void close(id, "idle");
  }

  function refusal(message: string, retryAfterSeconds: number): Response {
    policy.logger.warn("mcp session refused", { reason: message });
    return jsonRpcErrorResponse(503, -32000, `Service Unavailable: ${message}`, { "Retry-After": String(retryAfterSeconds) });
  }

  /** When the least recently used session expires, a place is free for certain (sooner if one is closed). */
  function secondsUntilOneExpires(): number {
    const oldest = sessions.values().next().value;
    const waitMs = oldest === undefined ? 1000 : oldest.lastUsed + policy.idleTimeoutMs - Date.now();
    return Math.min(300, Math.max(1, Math.ceil(waitMs / 1000)));
  }

  /** Makes room for one more session of `sub` (closing the user's own idle ones), or says why not. */
  function admit(sub: string): Response | undefined {
    const own = [...sessions].filter(([, session]) => session.sub === sub);
    let ownCount = own.length + (opening.get(sub) ?? 0);
    for (const [id, session] of own) {
      if (ownCount < policy.maxSessionsPerUser) break;
      if (session.leases > 0) continue;
      void close(id, "evicted: per-user limit");
      ownCount--;
    }
    if (ownCount >= policy.maxSessionsPerUser) {
      return refusal(`you have ${policy.maxSessionsPerUser} MCP sessions open, all busy; close one (DELETE /mcp) or retry later`, 5);
    }
    if (sessions.size + openingTotal >= policy.maxSessions) closeExpired();
    if (sessions.size + openingTotal >= policy.maxSessions) {
      return refusal(`the server has reached its limit of ${policy.maxSessions} MCP sessions; retry later`, secondsUntilOneExpires());
    }
    return undefined;
  }

  function holdPlace(sub: string, delta: 1 | -1): void {
    openingTotal += delta;
    const count = (opening.get(sub) ?? 0) + delta;
    if (count === 0) opening.delete(sub);
    else opening.set(sub, count);
  }

  function lease(entry: Entry): () => void {
    entry.leases++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.leases--;
    };
  }

  return {
    get size() {
      return sessions.size;
    },

    /** The session `id` when it exists and belongs to `sub`; anyone else is told it does not exist. */
    find(id: string, sub: string): OpenSession | undefined {
      const session = sessions.get(id);
      return session?.sub === sub ? session : undefined;
    },

    /** Admits a session of `sub` and holds its place until it is registered or given up. */
    reserve(sub: string): Place | Response {
      const refused = admit(sub);
      if (refused) return refused;
      holdPlace(sub, 1);
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          holdPlace(sub, -1);
        },
      };
    },

    register(id: string, session: OpenSession): void {
      sessions.set(id, { ...session, lastUsed: Date.now(), leases: 0 });
    },

    /** Marks the session used now, and the most recently used of all. */
    touch(id: string): void {
      const session = sessions.get(id);
      if (!session) return;
      session.lastUsed = Date.now();
      sessions.delete(id);
      sessions.set(id, session);
    },

    /** Takes a lease on the session: it is not evicted until the returned release (idempotent) runs. */
    lease(id: string): () => void {
      const session = sessions.get(id);
      return session ? lease(session) : () => undefined;
    },

    /** Runs `work` holding a lease on the session, released however `work` ends. */
    async during<T>(id: string, work: () => Promise<T>): Promise<T> {
      const release = this.lease(id);
      try {
        return await work();
      } finally {
        release();
      }
    },

    close,

    async closeAll(): Promise<void> {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map((id) => close(id, "shutdown")));
    },
  };
}

export type SessionTable = ReturnType<typeof createSessionTable>;
