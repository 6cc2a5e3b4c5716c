/** The messages between the pool and a worker thread (`pool.ts`, `worker-entry.ts`). */
import type { WireError } from "./heavy-work.ts";

export type ToWorker = { id: number; job: string; input: unknown };

export type FromWorker =
  /** Sent once at start: the thread's `/proc/thread-self` target ("pid/task/tid"), or null where there is none. */
  | { kind: "ready"; thread: string | null }
  | { kind: "done"; id: number; output: unknown }
  | { kind: "failed"; id: number; error: WireError };
