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

/** Whether the store's database answered its last attempt; adapters consult it before new work. */
export interface DatabaseHealth {
  readonly available: boolean;
}
