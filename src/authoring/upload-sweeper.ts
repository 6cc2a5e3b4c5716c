/**
 * Deletes expired uploads with their chunks at start-up and then on a timer (and, in the same sweep,
 * learners' results older than `RESULTS_RETENTION_DAYS`). Sweeping only when someone
 * next began an upload left abandoned chunks on disk for as long as nobody did, through restarts too.
 * The timer never keeps the process alive, and stopping waits for a sweep under way, so the store is
 * closed only after it. Every replica sweeps; the delete is the same whoever runs it first.
 */
import type { AuthoringStore } from "../store/types.ts";

export interface UploadSweeperOptions {
  store: AuthoringStore;
  now: () => Date;
  /** How long uploads live: the sweep runs as often as that, at least every second, at most every minute. */
  lifetimeMs: number;
  /** How long learners' results are kept (`RESULTS_RETENTION_DAYS`); none: not swept here. */
  resultsRetentionMs?: number;
  /** Told how many uploads a sweep deleted (none: not told). */
  onSwept?: (count: number) => void;
  onError: (error: unknown) => void;
}

export interface UploadSweeper {
  /** Stops the timer and waits for a sweep under way. */
  stop(): Promise<void>;
}

export function sweepIntervalMs(lifetimeMs: number): number {
  return Math.max(1000, Math.min(60_000, lifetimeMs));
}

export function startUploadSweeper(options: UploadSweeperOptions): UploadSweeper {
  let running: Promise<void> | undefined;
  let stopped = false;
  const sweep = () => {
    // One sweep at a time: a slow store must not pile sweeps up behind each other.
    if (stopped || running) return;
    running = options.store
      .write(async (tx) => {
        const now = options.now();
        if (options.resultsRetentionMs !== undefined) await tx.dropResultsBefore(new Date(now.getTime() - options.resultsRetentionMs).toISOString());
        return tx.deleteExpiredUploads(now.toISOString());
      })
      .then((count) => {
        if (count > 0) options.onSwept?.(count);
      })
      .catch(options.onError)
      .finally(() => (running = undefined));
  };
  sweep();
  const timer = setInterval(sweep, sweepIntervalMs(options.lifetimeMs));
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
