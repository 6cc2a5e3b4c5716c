/**
 * The shared record of an MCP session, for deployments where any replica may serve any request of a
 * session: who owns it and what was negotiated at `initialize`, so a replica that has not seen the
 * session can rebuild its transport. Only PostgreSQL provides one; a single SQLite process keeps its
 * sessions in memory and needs none.
 */
import type { JsonObject } from "./types.ts";

export interface McpSessionRecord {
  id: string;
  /** The `sub` of the user who opened it; nobody else may use it. */
  ownerSub: string;
  protocolVersion: string;
  clientCapabilities: JsonObject;
  /** The client's `clientInfo` (name, version). */
  clientInfo: JsonObject;
  /** The level the client chose with `logging/setLevel`; absent until it chooses one. */
  logLevel?: string;
}

export interface SessionRecordStore {
  save(record: McpSessionRecord): Promise<void>;
  find(id: string): Promise<McpSessionRecord | undefined>;
  /** Notes that the session was used now, so the idle sweep keeps it. */
  touch(id: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** Records the session's `logging/setLevel` choice, for every replica serving it. */
  setLogLevel(id: string, level: string): Promise<void>;
  /** Deletes sessions unused since `cutoff`; returns how many. */
  removeIdleSince(cutoff: Date): Promise<number>;
  /** Sessions in the shared record (a metric). */
  count(): Promise<number>;
}
