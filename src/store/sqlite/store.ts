/**
 * The `AuthoringStore` on embedded SQLite (bun:sqlite). One connection per process; transactions are
 * queued so the awaits inside one tool call never interleave with another call's statements. Writes
 * take the lock up front (`BEGIN IMMEDIATE`) so a version check and its write are never split. The
 * statements themselves are shared with PostgreSQL (`../sql/transaction.ts`); this file runs them.
 *
 * Read transactions take course rows and translation links from a memo that every write ends by
 * clearing (`CourseRowMemo`, shared by the stores of this process on the file, which no other process
 * writes: ownership.ts).
 * Every tool call opens its course first, so a cached read then runs no statement at all.
 */
import type { Database, SQLQueryBindings } from "bun:sqlite";
import type { AuthoringStore, CourseRow, EntityKind, EntityRows, StoreTransaction, TranslationRow } from "../types.ts";
import type { Bindings, SqlDialect, SqlRecord } from "../sql/statements.ts";
import { SqlTransaction } from "../sql/transaction.ts";
import { openSqliteDatabase } from "./open.ts";
import type { CourseRowMemo, Ownership } from "./ownership.ts";

/**
 * A bare bound LIMIT makes SQLite plan these queries several times slower, hence the cast. instr()
 * compares exactly the characters it is given: a NUL (which would end a LIKE pattern early, turning it
 * into "match all"), % and _ match only themselves.
 */
const sqliteDialect: SqlDialect = {
  integer: "CAST(? AS INTEGER)",
  contains: (column, needle) => ({ sql: `instr(${column}, ?) > 0`, bindings: [needle] }),
};

export function openSqliteStore(databaseUrl: string): AuthoringStore {
  const { database, ownership } = openSqliteDatabase(databaseUrl);
  return new SqliteAuthoringStore(database, ownership);
}

class SqliteAuthoringStore implements AuthoringStore {
  private queue: Promise<void> = Promise.resolve();
  private readonly transaction: SqliteTransaction;

  constructor(
    private readonly database: Database,
    private readonly ownership: Ownership,
  ) {
    this.transaction = new SqliteTransaction(database, ownership.memo);
  }

  read<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.serialised("BEGIN DEFERRED", work);
  }

  write<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.serialised("BEGIN IMMEDIATE", work);
  }

  /** Transaction control through cached statements: `database.run(sql)` would prepare them on every call. */
  private control(sql: "BEGIN DEFERRED" | "BEGIN IMMEDIATE" | "COMMIT" | "ROLLBACK"): void {
    this.database.query(sql).run();
  }

  close(): void {
    this.database.close();
    this.ownership.release();
  }

  private async serialised<T>(begin: "BEGIN DEFERRED" | "BEGIN IMMEDIATE", work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    const previous = this.queue;
    let release = () => {};
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    const writing = begin === "BEGIN IMMEDIATE";
    try {
      // A read begins at its first statement (DEFERRED takes no lock or snapshot before one anyway),
      // so a read answered from memory (the memo, the course cache) runs no statement at all.
      if (writing) this.control(begin);
      this.transaction.began(writing ? undefined : () => this.control(begin));
      try {
        const result = await work(this.transaction);
        if (writing || this.database.inTransaction) this.control("COMMIT");
        return result;
      } catch (error) {
        // SQLite may already have rolled back (e.g. after SQLITE_FULL); the original error is the one to report.
        if (this.database.inTransaction) this.control("ROLLBACK");
        throw error;
      }
    } finally {
      this.transaction.ended();
      if (writing) this.transaction.memo.forgetAll();
      release();
    }
  }
}

class SqliteTransaction extends SqlTransaction {
  protected readonly dialect = sqliteDialect;
  /** The memo's generation when the current read transaction began; undefined in a write. */
  private readingSince: number | undefined;
  /** A read's BEGIN, run before its first statement. */
  private pendingBegin: (() => void) | undefined;

  constructor(
    private readonly database: Database,
    readonly memo: CourseRowMemo,
  ) {
    super();
  }

  /** A write has begun (no argument), or a read, whose `begin` waits for its first statement. */
  began(begin?: () => void): void {
    this.pendingBegin = begin;
    this.readingSince = begin === undefined ? undefined : this.memo.generation;
  }

  ended(): void {
    this.pendingBegin = undefined;
  }

  /** The prepared statement for `sql` (bun:sqlite caches each by its SQL), after a pending read's BEGIN. */
  private statement(sql: string) {
    const begin = this.pendingBegin;
    if (begin !== undefined) {
      this.pendingBegin = undefined;
      begin();
    }
    return this.database.query<SqlRecord, SQLQueryBindings[]>(sql);
  }

  protected all(sql: string, bindings: Bindings): SqlRecord[] {
    return this.statement(sql).all(...(bindings as SQLQueryBindings[]));
  }

  protected get(sql: string, bindings: Bindings): SqlRecord | undefined {
    return this.statement(sql).get(...(bindings as SQLQueryBindings[])) ?? undefined;
  }

  protected run(sql: string, bindings: Bindings): number {
    return this.statement(sql).run(...(bindings as SQLQueryBindings[])).changes;
  }

  /**
   * The database uses incremental auto-vacuum (open.ts): freed pages are moved to the end of the file
   * and cut off within this transaction, so swept chunks leave the file smaller, not full of free pages.
   */
  protected override async reclaimFreedSpace(): Promise<void> {
    this.statement("PRAGMA incremental_vacuum").run();
  }

  override async find<K extends EntityKind>(kind: K, id: string): Promise<EntityRows[K] | undefined> {
    if (kind !== "course" || this.readingSince !== this.memo.generation) return super.find(kind, id);
    const known = this.memo.get(id);
    if (known) return known as EntityRows[K];
    const row = await super.find(kind, id);
    return row && (this.memo.remember(row as CourseRow) as EntityRows[K]);
  }

  override async listTranslationLinks(courseId: string): Promise<TranslationRow[]> {
    if (this.readingSince !== this.memo.generation) return super.listTranslationLinks(courseId);
    const known = this.memo.translationLinks(courseId);
    if (known) return known as TranslationRow[];
    return this.memo.rememberTranslationLinks(courseId, await super.listTranslationLinks(courseId));
  }
}
