/**
 * The `AuthoringStore` on PostgreSQL (Bun's built-in SQL client, pooled), for several replicas on one
 * database. Each tool call is one transaction on one pooled connection: reads run REPEATABLE READ READ
 * ONLY (one consistent snapshot, never blocked), writes run SERIALIZABLE, so two replicas that edit the
 * same course at once behave as if one went first. The loser's serialisation failure or deadlock is
 * retried here from the start (its work only touches the transaction), where it meets the new version
 * and answers `conflict` or applies on top; it never surfaces as a 500. A lost connection is reported
 * as `DatabaseUnavailableError`.
 */
import type { SQL } from "bun";
import type { AuthoringStore, StoreTransaction } from "../types.ts";
import type { Bindings, SqlDialect, SqlRecord } from "../sql/statements.ts";
import { SqlTransaction } from "../sql/transaction.ts";
import { DatabaseUnavailableError, type DatabaseHealth } from "../unavailable.ts";
import { classify, isConnectionFailure, isRetryableConflict } from "./connect.ts";
import { allRows, runStatement } from "./statements.ts";

/**
 * Untyped parameters need their type for LIMIT and integer comparisons. strpos() matches `%` and `_`
 * literally; a text value cannot hold a NUL, so no title contains one and such a search finds nothing.
 */
const postgresDialect: SqlDialect = {
  integer: "?::int",
  contains: (column, needle) => (needle.includes("\u0000") ? { sql: "FALSE", bindings: [] } : { sql: `strpos(${column}, ?) > 0`, bindings: [needle] }),
};

/** Attempts of a write that keeps losing serialisation races before the failure is reported. */
const maxWriteAttempts = 12;

export class PostgresAuthoringStore implements AuthoringStore, DatabaseHealth {
  #available = true;
  /** Failures seen so far: a transaction begun before the latest one cannot mark the database up again. */
  #failures = 0;
  /** For metrics: transactions retried after a serialisation failure, and transactions open now. */
  retries = 0;
  active = 0;

  constructor(readonly sql: SQL) {}

  get available(): boolean {
    return this.#available;
  }

  /** Marks the database reachable or not; the service's probe calls this as it learns. */
  setAvailable(available: boolean): void {
    if (!available) this.#failures++;
    this.#available = available;
  }

  read<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.transaction("isolation level repeatable read read only", work);
  }

  async write<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transaction("isolation level serializable", work);
      } catch (error) {
        if (!isRetryableConflict(error) || attempt >= maxWriteAttempts) throw error;
        this.retries++;
        // A short, random pause so the racers do not collide again in lock-step.
        await Bun.sleep(Math.random() * 5 * attempt);
      }
    }
  }

  private async transaction<T>(mode: string, work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    this.active++;
    const failuresBefore = this.#failures;
    try {
      const result = await this.sql.begin(mode, (tx) => work(new PostgresTransaction(tx)));
      // Only news newer than the last failure says the database is back: a transaction whose answer was
      // already on its way when the connection dropped may finish after another one failed.
      if (this.#failures === failuresBefore) this.#available = true;
      return result as T;
    } catch (error) {
      if (error instanceof DatabaseUnavailableError || isConnectionFailure(error)) {
        this.setAvailable(false);
        throw classify(error);
      }
      throw error;
    } finally {
      this.active--;
    }
  }

  close(): void {
    void this.sql.close({ timeout: 5 });
  }
}

class PostgresTransaction extends SqlTransaction {
  protected readonly dialect = postgresDialect;

  constructor(private readonly sql: SQL) {
    super();
  }

  protected all(text: string, bindings: Bindings): Promise<SqlRecord[]> {
    return allRows(this.sql, text, bindings);
  }

  protected async get(text: string, bindings: Bindings): Promise<SqlRecord | undefined> {
    return (await allRows(this.sql, text, bindings))[0];
  }

  protected run(text: string, bindings: Bindings): Promise<number> {
    return runStatement(this.sql, text, bindings);
  }
}
