/**
 * The one failure a store reports that is nobody's fault and passes by itself: the database cannot be
 * reached right now. Adapters answer it as "temporarily unavailable, retry shortly" (503 with
 * `Retry-After`), never as a bad request or a crash; nothing was changed when it is thrown.
 */

export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
  }
}

/** How long an adapter tells a client to wait after an outage. */
export const outageRetryAfterSeconds = 5;

/** The outage as an HTTP answer's detail says it. */
export const outageDetail = "The database is temporarily unavailable; retry shortly";

/** The outage as a tool or subscription refusal says it: nothing changed, when to retry. */
export function outageRefusalMessage(what: string): string {
  return `the database is temporarily unavailable, so ${what} changed nothing; retry in ${outageRetryAfterSeconds} seconds`;
}

/** Whether the store's database answered its last attempt; adapters consult it before new work. */
export interface DatabaseHealth {
  readonly available: boolean;
}
