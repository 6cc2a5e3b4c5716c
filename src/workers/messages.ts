/** The messages between the pool and a worker thread (`pool.ts`, `worker-entry.ts`). */
import type { WireError } from "./heavy-work.ts";

export type ToWorker =
  | { kind: "job"; id: number; job: string; input: unknown }
  /** The caller's answer to a job's `host.call` (an asset's bytes, a chunk taken). */
  | { kind: "answer"; id: number; call: number; ok: true; value: unknown }
  | { kind: "answer"; id: number; call: number; ok: false; error: WireError };

export type FromWorker =
  /** Sent once at start: the thread's `/proc/thread-self` target ("pid/task/tid"), or null where there is none. */
  | { kind: "ready"; thread: string | null }
  | { kind: "done"; id: number; output: unknown }
  | { kind: "failed"; id: number; error: WireError }
  /** A job asks its caller for something and waits for the answer. */
  | { kind: "call"; id: number; call: number; method: string; args: unknown }
  /** A job tells its caller something (progress, a notice) without waiting. */
  | { kind: "event"; id: number; event: unknown };
