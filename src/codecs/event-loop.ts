/**
 * Letting other requests run during long work (parsing, rendering, deflating): the one place the
 * service yields to the event loop. Work in slices awaits `yieldToEventLoop()` between them, counted
 * by units (`WorkSlicer`) or by the clock (`TimeSlicer`, and `timeSlicer()` for loops that should pay
 * nothing between slices), so `/api/health` and every other request answer meanwhile.
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

/**
 * Yields once `budgetMs` of work has passed since the last yield. For loops whose units cost anything
 * from nothing to a millisecond (a PDF's objects, each maybe a stream to inflate): a count of units
 * cannot bound the time between yields, the clock can. Reading it costs well under a microsecond, and
 * `due()` is synchronous, so a hot loop awaits only when it actually yields:
 * `if (slicer.due()) await slicer.pause();`
 */
export class TimeSlicer {
  private since = performance.now();

  constructor(private readonly budgetMs = 10) {}

  /** Whether the budget is spent and the loop should `pause()`. */
  due(): boolean {
    return performance.now() - this.since >= this.budgetMs;
  }

  /** Yields to the event loop and starts a new budget. */
  async pause(): Promise<void> {
    await yieldToEventLoop();
    this.since = performance.now();
  }

  /** Resolves at once, or after a yield when the budget is spent. */
  async check(): Promise<void> {
    if (this.due()) await this.pause();
  }
}

/** Long enough that yielding costs little; short enough that a waiting request is barely delayed. */
export const defaultSliceMs = 8;

/** A pause point: undefined while the slice's time lasts (nothing awaited), else a promise to await. */
export type SlicePause = () => Promise<void> | undefined;

/**
 * A clock-based pause point for hot loops (rendering a large course, deflating a package): between
 * slices nothing is awaited, so small work pays nothing.
 */
export function timeSlicer(sliceMs = defaultSliceMs): SlicePause {
  let sliceStarted = performance.now();
  return () => {
    if (performance.now() - sliceStarted < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        sliceStarted = performance.now();
        resolve();
      }),
    );
  };
}
