/**
 * Cooperative time slicing for long synchronous work (rendering a large course, deflating a package):
 * the worker calls the slicer between small steps, and once a slice's budget of milliseconds has been
 * used it gets a promise that resolves after the event loop has served whatever is waiting (health
 * checks, other users' calls). Between slices nothing is awaited, so small renders pay nothing.
 */

/** Long enough that yielding costs little; short enough that a waiting request is barely delayed. */
export const defaultSliceMs = 8;

export type TimeSlicer = () => Promise<void> | undefined;

export function timeSlicer(sliceMs = defaultSliceMs): TimeSlicer {
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
