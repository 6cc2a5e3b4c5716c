/**
 * MCP task records (the 2025-11-25 specification's tasks): a task-augmented tool call is answered at
 * once, its work runs in the background, and its record (status, then result) lives in the store, so
 * any replica answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`. Every lookup is by
 * owner: another user's task ID finds nothing. Times are ISO 8601 strings, compared as text.
 */

export const taskStatuses = ["working", "completed", "failed", "cancelled"] as const;
export type TaskStatus = (typeof taskStatuses)[number];

export interface TaskRow {
  taskId: string;
  /** The `sub` of the user who started it; nobody else may see it. */
  ownerSub: string;
  tool: string;
  status: TaskStatus;
  statusMessage: string | null;
  /**
   * Set in the same transaction as the work's writes: from then on the work has happened, so the task
   * can no longer be cancelled (a cancel and the commit of the work exclude each other).
   */
  sealed: boolean;
  createdAt: string;
  lastUpdatedAt: string;
  /** `createdAt` + `ttlMs`: after it the task and its result are gone. */
  expiresAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** When the replica running it last said it still does (read only; see `beatTask`). */
  beatAt?: string | null;
}

/** The statements on task records, run inside a store transaction (`StoreTransaction` has them). */
export interface TaskRecordStatements {
  insertTask(row: TaskRow): Promise<void>;
  /** The owner's task, unless it has expired at `now`. */
  findTask(taskId: string, ownerSub: string, now: string): Promise<TaskRow | undefined>;
  /** The stored result (JSON text) of the owner's task, when it has one and has not expired. */
  taskResult(taskId: string, ownerSub: string, now: string): Promise<string | undefined>;
  /** The owner's live tasks, newest first, strictly after the keyset `after`; at most `limit`. */
  listTasks(ownerSub: string, now: string, after: { createdAt: string; id: string } | undefined, limit: number): Promise<TaskRow[]>;
  countWorkingTasks(ownerSub: string, now: string): Promise<number>;
  /** Cancels the owner's task if it is still working and not sealed; whether it did. */
  cancelTask(taskId: string, ownerSub: string, message: string, now: string): Promise<boolean>;
  /** Seals a task that is still working and live; whether it did (false: cancelled, finished or expired). */
  sealTask(taskId: string, now: string): Promise<boolean>;
  /** Records the final status and result of a task that is still working; whether it did. */
  finishTask(taskId: string, status: "completed" | "failed", message: string | null, result: string, now: string): Promise<boolean>;
  /** A task's status whoever owns it (the replica running it watches for a cancel), or undefined once it is gone. */
  taskStatus(taskId: string, now: string): Promise<TaskStatus | undefined>;
  /** The replica running the task says it still does; a working task whose beats stop was lost with its replica. */
  beatTask(taskId: string, now: string): Promise<void>;
  /** Marks the task failed if it is still working and its last beat is before `staleBefore`; whether it did. */
  failStaleTask(taskId: string, staleBefore: string, message: string, result: string, now: string): Promise<boolean>;
  /** Deletes expired tasks (only `ownerSub`'s when given); returns how many. */
  removeExpiredTasks(now: string, ownerSub?: string): Promise<number>;
  /** Marks every working task failed (a single process starting again: none of them runs any more). */
  failWorkingTasks(message: string, now: string): Promise<number>;
  /**
   * The shared secret called `name`: the stored one, or `fresh` stored now when there is none yet
   * (insert-if-absent, so every replica ends up with the same value).
   */
  serviceSecret(name: string, fresh: string, now: string): Promise<string>;
  /**
   * Marks a confirmation's nonce used (forgetting those expired at `now`); false when it already was, so
   * a replayed confirmation acts no second time on any replica.
   */
  claimConfirmation(nonce: string, expiresAt: string, now: string): Promise<boolean>;
}
