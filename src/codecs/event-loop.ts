/**
 * Letting other requests run during long parsing work. A parser that reads a large input in one go
 * holds the event loop for its whole length; the bounded parsers here work in slices and await
 * `yieldToEventLoop()` between them, so `/api/health` and every other request answer meanwhile.
 */

/** Resolves on a later turn of the event loop, after the I/O and timers that are ready now. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Counts work and yields whenever `every` units have passed since the last yield. */
export class WorkSlicer {
  private since = 0;

  constructor(private readonly every: number) {}

  /** Adds `units` of work done; resolves at once or after a yield. */
  async done(units: number): Promise<void> {
    this.since += units;
    if (this.since < this.every) return;
    this.since = 0;
    await yieldToEventLoop();
  }
}
