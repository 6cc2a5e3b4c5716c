/**
 * Opens the SQLite database named by `DATABASE_URL` (`sqlite://<path>` or `sqlite::memory:`), creates
 * its folder, takes the file's ownership for this process (see ownership.ts), sets the pragmas a
 * single-node server needs (WAL, NORMAL sync, foreign keys, a busy time-out for readers such as a
 * backup) and brings the schema up to date.
 */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { sqlitePathFromUrl } from "../database-url.ts";
import { applyMigrations } from "./migrations.ts";
import { ownDatabaseFile, type Ownership } from "./ownership.ts";

export function openSqliteDatabase(databaseUrl: string): { database: Database; ownership: Ownership } {
  const path = sqlitePathFromUrl(databaseUrl);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path, { create: true, readwrite: true, strict: true });
  let ownership: Ownership;
  try {
    ownership = ownDatabaseFile(path);
  } catch (error) {
    database.close();
    throw error;
  }
  try {
    prepare(database);
  } catch (error) {
    database.close();
    ownership.release();
    throw error;
  }
  return { database, ownership };
}

function prepare(database: Database): void {
  database.run("PRAGMA busy_timeout = 5000");
  // Normal (shared) locking, although EXCLUSIVE made read calls faster (bench/NOTES.md): operators must
  // be able to read the live file (sqlite3 .backup, Litestream), which an exclusive lock forbids.
  database.run("PRAGMA journal_mode = WAL");
  database.run("PRAGMA synchronous = NORMAL");
  database.run("PRAGMA foreign_keys = ON");
  useIncrementalVacuum(database);
  applyMigrations(database);
}

/**
 * Deleted rows (swept upload chunks above all) leave free pages SQLite keeps for itself; with
 * incremental auto-vacuum the store hands them back to the file system when it deletes chunks
 * (`PRAGMA incremental_vacuum`). A new file takes the mode at once; a file made before it is rebuilt once
 * by VACUUM (which needs free disk space of about the file's size, and runs only this one time).
 */
function useIncrementalVacuum(database: Database): void {
  const incremental = 2;
  const mode = database.query<{ auto_vacuum: number }, []>("PRAGMA auto_vacuum").get()?.auto_vacuum;
  if (mode === incremental) return;
  database.run("PRAGMA auto_vacuum = INCREMENTAL");
  try {
    database.run("VACUUM");
  } catch {
    // Another process holds the file busy (a backup reading it): serving matters more than reclaiming
    // space, and the next start tries again. Until then incremental_vacuum does nothing.
  }
}
