/**
 * Everything a replica keeps in PostgreSQL, opened together from one `DATABASE_URL`: the pool (proved
 * to answer), the schema brought up to date under the migration lock, the authoring store, the export
 * packages, the MCP session records, stream events and resource subscriptions. A probe re-checks
 * the database while it is marked down, so the service recovers by itself when it comes back.
 */
import type { SQL } from "bun";
import { connectPostgres, type PostgresPoolOptions } from "./connect.ts";
import { applyPostgresMigrations } from "./migrations.ts";
import { PostgresAuthoringStore } from "./store.ts";
import { PostgresExportStore, type PostgresExportStoreOptions } from "./export-packages.ts";
import { PostgresSessionRecords } from "./session-records.ts";
import { PostgresStreamEvents } from "./stream-events.ts";
import { PostgresResourceSubscriptions } from "./resource-subscriptions.ts";

export interface PostgresDatabase {
  sql: SQL;
  store: PostgresAuthoringStore;
  exports: PostgresExportStore;
  sessions: PostgresSessionRecords;
  /** Events of MCP streams, for resuming them on any replica. */
  events: PostgresStreamEvents;
  subscriptions: PostgresResourceSubscriptions;
  /** Pool size, for the pool-use metric. */
  poolSize: number;
  close(): Promise<void>;
}

export async function openPostgresDatabase(databaseUrl: string, options: PostgresPoolOptions, packages: PostgresExportStoreOptions): Promise<PostgresDatabase> {
  const poolSize = options.max ?? 10;
  const sql = await connectPostgres(databaseUrl, { ...options, max: poolSize });
  try {
    await applyPostgresMigrations(sql);
  } catch (error) {
    await sql.close({ timeout: 0 }).catch(() => undefined);
    throw error;
  }
  const store = new PostgresAuthoringStore(sql);
  // While the database is marked down, try it every second; the first answer marks it up again.
  const probe = setInterval(() => {
    if (store.available) return;
    sql.unsafe("SELECT 1").then(
      () => store.setAvailable(true),
      () => undefined,
    );
  }, 1000);
  probe.unref?.();
  const events = new PostgresStreamEvents(sql, store);
  return {
    sql,
    store,
    exports: new PostgresExportStore(sql, packages),
    sessions: new PostgresSessionRecords(sql, store),
    events,
    subscriptions: new PostgresResourceSubscriptions(sql),
    poolSize,
    async close() {
      clearInterval(probe);
      events.close();
      await sql.close({ timeout: 5 });
    },
  };
}
