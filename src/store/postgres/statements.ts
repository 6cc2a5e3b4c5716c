/**
 * The statement helpers every PostgreSQL transaction class shares: `?` placeholders (as in the SQLite
 * store, so the two read alike) numbered into `$1…$n`, rows with BIGINT positions and counts turned
 * back into numbers, and connection failures reported as `DatabaseUnavailableError`.
 */
import type { SQL } from "bun";
import { classify } from "./connect.ts";

export type Bindings = unknown[];
export type SqlRecord = Record<string, unknown>;

const numbered = new Map<string, string>();

/** `a = ? AND b = ?` → `a = $1 AND b = $2`; cached, since the statements are a fixed set. */
export function numberPlaceholders(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let index = 0;
    text = sql.replace(/\?/g, () => `$${++index}`);
    numbered.set(sql, text);
  }
  return text;
}

/** BIGINT arrives as a string; every integer the domain sees is well inside a double's exact range. */
function normalise(record: SqlRecord): SqlRecord {
  if (typeof record.position === "string") record.position = Number(record.position);
  return record;
}

export class PostgresStatements {
  constructor(protected readonly sql: SQL) {}

  protected async all(text: string, bindings: Bindings): Promise<SqlRecord[]> {
    try {
      const rows = (await this.sql.unsafe(numberPlaceholders(text), bindings)) as SqlRecord[];
      return rows.map(normalise);
    } catch (error) {
      throw classify(error);
    }
  }

  protected async get(text: string, bindings: Bindings): Promise<SqlRecord | undefined> {
    return (await this.all(text, bindings))[0];
  }

  /** Runs a statement and returns how many rows it changed. */
  protected async run(text: string, bindings: Bindings): Promise<number> {
    try {
      const result = (await this.sql.unsafe(numberPlaceholders(text), bindings)) as unknown as { count: number | null };
      return Number(result.count ?? 0);
    } catch (error) {
      throw classify(error);
    }
  }
}
