/**
 * Waiting for an event instead of sleeping: `waitFor` awaits a promise and, when a loaded machine is
 * far slower than usual, fails after a generous time-out with a message naming what it waited for.
 */

/** Awaits `event`, or rejects after `timeoutMs` saying what it was waiting for. */
export async function waitFor<T>(event: Promise<T>, timeoutMs: number, what: string | (() => string)): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "string" ? what : what()}`)), timeoutMs);
  });
  try {
    return await Promise.race([event, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `condition` until it holds, failing with `what` after `timeoutMs`. */
export async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  let stop = false;
  try {
    await waitFor(
      (async () => {
        while (!stop && !(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
      })(),
      timeoutMs,
      what,
    );
  } finally {
    stop = true;
  }
}

/** Polls `probe` until `ready` holds for its value, and returns that value; fails naming `what` after `timeoutMs`. */
export async function waitForValue<T>(what: string, probe: () => T, ready: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
  let value = probe();
  await waitUntil(async () => ready((value = probe())), what, timeoutMs);
  return value;
}
