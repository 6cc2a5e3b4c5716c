/**
 * What a SQL dialect supplies to the statements written once in this folder: how it runs a statement
 * (synchronously on SQLite, awaited on PostgreSQL; the shared code awaits either), how a bound integer
 * is spelled, and how a folded title is searched for a literal piece of text.
 */

export type Bindings = unknown[];
export type SqlRecord = Record<string, unknown>;

export interface SqlDialect {
  /**
   * A bound integer, for LIMIT, OFFSET and comparisons with a bound number: SQLite plans a bare bound
   * LIMIT badly (`CAST(? AS INTEGER)`), PostgreSQL needs the type of an untyped parameter (`?::int`).
   */
  readonly integer: string;
  /** A condition that `column` contains `needle` character for character (no wildcards), and its bindings. */
  contains(column: string, needle: string): { sql: string; bindings: Bindings };
}

/** The executor each dialect's transaction implements; `?` placeholders throughout. */
export abstract class SqlStatements {
  protected abstract readonly dialect: SqlDialect;
  protected abstract all(sql: string, bindings: Bindings): SqlRecord[] | Promise<SqlRecord[]>;
  protected abstract get(sql: string, bindings: Bindings): SqlRecord | undefined | Promise<SqlRecord | undefined>;
  /** Runs a statement and returns how many rows it changed. */
  protected abstract run(sql: string, bindings: Bindings): number | Promise<number>;
}
