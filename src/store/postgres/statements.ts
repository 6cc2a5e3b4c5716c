/**
 * How the PostgreSQL store runs the shared statements: `?` placeholders (as written in `../sql/`)
 * numbered into `$1…$n`, rows with BIGINT positions turned back into numbers, and connection failures
 * reported as `DatabaseUnavailableError`.
 */
import type { SQL } from "bun";
import type { Bindings, SqlRecord } from "../sql/statements.ts";
import { classify } from "./connect.ts";

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

/** The rows a statement returns. */
export async function allRows(sql: SQL, text: string, bindings: Bindings): Promise<SqlRecord[]> {
  try {
    const rows = (await sql.unsafe(numberPlaceholders(text), bindings)) as SqlRecord[];
    return rows.map(normalise);
  } catch (error) {
    throw classify(error);
  }
}

/** Runs a statement and returns how many rows it changed. */
export async function runStatement(sql: SQL, text: string, bindings: Bindings): Promise<number> {
  try {
    const result = (await sql.unsafe(numberPlaceholders(text), bindings)) as unknown as { count: number | null };
    return Number(result.count ?? 0);
  } catch (error) {
    throw classify(error);
  }
}
