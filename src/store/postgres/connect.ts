/**
 * Opens the PostgreSQL pool named by `DATABASE_URL` and proves it works before the service starts:
 * an unreachable server, a wrong password or a missing database fails within seconds with one line
 * that says which, never the password. Errors met later are classified here too: a lost connection
 * becomes `DatabaseUnavailableError` (answered as 503), and serialisation failures are retryable.
 */
import { SQL } from "bun";
import { DatabaseUnavailableError } from "../unavailable.ts";

export class DatabaseConnectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseConnectError";
  }
}

export interface PostgresPoolOptions {
  /** Connections in the pool. */
  max?: number;
  /** Seconds to wait for the first connection at start-up. */
  connectTimeoutSeconds?: number;
}

/** `host:port/database` of a URL, for messages: never the user's password. */
export function describeTarget(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || "5432"}${url.pathname}`;
  } catch {
    return "(unparsable URL)";
  }
}

function errorCode(error: unknown): { code: string; errno: string } {
  const record = (error ?? {}) as { code?: unknown; errno?: unknown };
  return { code: String(record.code ?? ""), errno: String(record.errno ?? "") };
}

/** Server error classes that mean "the database is not there right now" rather than "your query is wrong". */
const unavailableStates = new Set(["57P01", "57P02", "57P03", "53300", "08000", "08003", "08006", "08001", "08004"]);

export function isConnectionFailure(error: unknown): boolean {
  const { code, errno } = errorCode(error);
  if (unavailableStates.has(errno)) return true;
  return /^ERR_POSTGRES_(CONNECTION|CONNECTION_CLOSED|CONNECTION_REFUSED|CONNECTION_TIMEOUT|IDLE_TIMEOUT|LIFETIME_TIMEOUT|SOCKET|TLS)/.test(code) || code === "ECONNREFUSED" || code === "ECONNRESET";
}

/** Serialisation failures and deadlocks: the transaction can simply run again. */
export function isRetryableConflict(error: unknown): boolean {
  const { errno } = errorCode(error);
  return errno === "40001" || errno === "40P01";
}

/** Rethrows a connection failure as `DatabaseUnavailableError`; anything else unchanged. */
export function classify(error: unknown): unknown {
  return isConnectionFailure(error) ? new DatabaseUnavailableError("the database cannot be reached", { cause: error }) : error;
}

/** Runs one statement (`$n` placeholders), a connection failure rethrown as `DatabaseUnavailableError`. */
export async function classifiedQuery<T = Record<string, unknown>>(sql: SQL, text: string, bindings: unknown[] = []): Promise<T[] & { count: number | null }> {
  try {
    return (await sql.unsafe(text, bindings)) as T[] & { count: number | null };
  } catch (error) {
    throw classify(error);
  }
}

function startupMessage(error: unknown, target: string, timeoutSeconds: number): string {
  const { code, errno } = errorCode(error);
  if (error instanceof DatabaseConnectError) return error.message;
  if (errno === "28P01") return `password authentication failed connecting to ${target}`;
  if (errno === "28000") return `the server at ${target} rejected the user (${(error as Error).message})`;
  if (errno === "3D000") return `database does not exist at ${target}`;
  if (code === "ERR_POSTGRES_CONNECTION_REFUSED") return `cannot connect to ${target}: connection refused`;
  if (code === "ERR_POSTGRES_CONNECTION_TIMEOUT") return `cannot connect to ${target}: no answer within ${timeoutSeconds} s`;
  return `cannot connect to ${target}: ${(error as Error)?.message ?? String(error)}`;
}

/** A pooled client that has answered one query, or a `DatabaseConnectError` saying why not. */
export async function connectPostgres(databaseUrl: string, options: PostgresPoolOptions = {}): Promise<SQL> {
  const target = describeTarget(databaseUrl);
  const timeoutSeconds = options.connectTimeoutSeconds ?? 5;
  let sql: SQL;
  try {
    sql = new SQL(databaseUrl, { max: options.max ?? 10, connectionTimeout: timeoutSeconds, idleTimeout: 60 });
  } catch (error) {
    throw new DatabaseConnectError(`not a usable PostgreSQL URL (${(error as Error).message})`);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      sql.unsafe("SELECT 1"),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new DatabaseConnectError(`cannot connect to ${target}: no answer within ${timeoutSeconds} s`)), timeoutSeconds * 1000 + 500);
      }),
    ]);
    return sql;
  } catch (error) {
    await sql.close({ timeout: 0 }).catch(() => undefined);
    throw new DatabaseConnectError(startupMessage(error, target, timeoutSeconds));
  } finally {
    clearTimeout(timer);
  }
}
