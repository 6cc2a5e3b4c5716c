/**
 * The authoring services the MCP tools run against: the store, the clock, the ID source and the
 * folder of built export packages. Opening them picks the store from `DATABASE_URL`. `readAs`/`writeAs` run one tool call as one transaction,
 * so a call that fails part-way changes nothing.
 */
import { join } from "node:path";
import { dataDirectory } from "../config.ts";
import { ExportStore } from "../export/export-store.ts";
import { openSqliteStore } from "../store/sqlite/store.ts";
import type { AuthoringStore } from "../store/types.ts";
import type { Actor, AuthoringSession } from "./context.ts";
import { randomId, type IdGenerator } from "./ids.ts";

export interface AuthoringServices {
  store: AuthoringStore;
  now: () => Date;
  newId: IdGenerator;
  /** Built packages, kept as files beside the database until they expire. */
  exports: ExportStore;
}

export async function openAuthoringServices(databaseUrl: string): Promise<AuthoringServices & { close(): void }> {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error("DATABASE_URL: the PostgreSQL store is not available in this build yet; use sqlite://<path>");
  }
  const store = openSqliteStore(databaseUrl);
  const exports = new ExportStore({ directory: join(dataDirectory(databaseUrl), "exports") });
  return { store, now: monotonicClock(), newId: randomId, exports, close: () => store.close() };
}

/** Wall-clock time that never repeats or goes back within the process, so "newest first" is a total order. */
export function monotonicClock(): () => Date {
  let last = 0;
  return () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last);
  };
}

export function readAs<T>(services: AuthoringServices, actor: Actor, work: (session: AuthoringSession) => Promise<T>): Promise<T> {
  return services.store.read((tx) => work({ tx, actor, now: services.now, newId: services.newId }));
}

export function writeAs<T>(services: AuthoringServices, actor: Actor, work: (session: AuthoringSession) => Promise<T>): Promise<T> {
  return services.store.write((tx) => work({ tx, actor, now: services.now, newId: services.newId }));
}
