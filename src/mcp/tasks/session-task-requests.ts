/**
 * The four task requests on one session's server (specification 2025-11-25, "Tasks"): `tasks/get`,
 * `tasks/result` (blocks until the task ends), `tasks/list` (the caller's own, newest first, paged) and
 * `tasks/cancel`. Their answers and errors are written here once: a task that does not exist, has
 * expired or is another user's is the same -32602 `not_found`; cancelling a finished task is -32602
 * naming its status; a database outage met part-way is "retry shortly" like a tool call's.
 */
import * as v from "valibot";
import { ProtocolErrorCode, RELATED_TASK_META_KEY, type CallToolResult, type Server, type ServerContext, type Task } from "@modelcontextprotocol/server";
import type { TaskRow } from "../../store/task-records.ts";
import { DatabaseUnavailableError } from "../../store/unavailable.ts";
import { fromBase64url, toBase64url, utf8Bytes, utf8Text } from "../../bytes.ts";
import { ProtocolError } from "../call-tool.ts";
import type { CallerIdentity } from "../registry.ts";
import { outageRetryAfterSeconds } from "../store-outage.ts";

type Extra = ServerContext;

/**
 * The 2025-11-25 task requests are no longer in the SDK's method map ("Task methods are excluded from the
 * typed method maps"), so they are registered as custom methods with their own parameter schemas.
 */
const taskIdParams = v.looseObject({ taskId: v.pipe(v.string(), v.maxLength(100)) });
const listParams = v.optional(v.looseObject({ cursor: v.optional(v.pipe(v.string(), v.maxLength(500))) }), {});

/** What a stored task holds once it ends: the call's result, or the JSON-RPC error the call answered. */
export type StoredOutcome = { result: CallToolResult } | { error: { code: number; message: string; data?: Record<string, unknown> } };

/** What the requests need of the tasks (task-runs.ts); every lookup is the caller's own. */
export interface TaskOperations {
  /** The caller's live task; throws `taskNotFound` otherwise. */
  find(taskId: string, user: CallerIdentity): Promise<TaskRow>;
  list(user: CallerIdentity, after: { createdAt: string; id: string } | undefined, limit: number): Promise<TaskRow[]>;
  /** The stored outcome (JSON), once the task has one. */
  result(taskId: string, user: CallerIdentity): Promise<string | undefined>;
  /** Whether the task was working, unsealed and is now cancelled. */
  cancel(taskId: string, user: CallerIdentity): Promise<boolean>;
  /** Settles when the task ends, if it runs in this process. */
  endedHere(taskId: string): Promise<void> | undefined;
  /** Stops the caller's task if it runs in this process and nothing has stopped it yet; whether it did. */
  stopHere(taskId: string, user: CallerIdentity): boolean;
  now(): string;
}

const listPageSize = 50;
/** How often `tasks/result` looks again at a task another replica runs. */
const resultPollMs = 250;
/**
 * `tasks/result` blocks until the task ends, but no longer than an answer may stay silent on the
 * HTTP connection (service.ts, `requestDeadlines.answerSeconds`); past this it asks to be called again.
 */
const maxResultWaitMs = 200_000;

export function registerTaskRequests(server: Server, callerOf: (extra: Extra) => CallerIdentity, tasks: TaskOperations): void {
  server.setRequestHandler("tasks/get", { params: taskIdParams }, async (params, extra) => {
    const row = await guarded(() => tasks.find(params.taskId, callerOf(extra)));
    return taskOf(row) as never;
  });

  server.setRequestHandler("tasks/result", { params: taskIdParams }, async (params, extra) => {
    const user = callerOf(extra);
    const taskId = params.taskId;
    const deadline = Date.now() + maxResultWaitMs;
    const cancelled = aborted(extra.mcpReq.signal);
    for (;;) {
      const row = await guarded(() => tasks.find(taskId, user));
      if (row.status === "cancelled") {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `invalid_state: task ${taskId} was cancelled, so it has no result`, { code: "invalid_state", taskId, status: "cancelled" });
      }
      if (row.status !== "working") {
        const stored = await guarded(() => tasks.result(taskId, user));
        if (stored === undefined) throw taskNotFound(taskId);
        const outcome = JSON.parse(stored) as StoredOutcome;
        if ("error" in outcome) throw new ProtocolError(outcome.error.code, outcome.error.message, outcome.error.data);
        return { ...outcome.result, _meta: { ...outcome.result._meta, [RELATED_TASK_META_KEY]: { taskId } } } as never;
      }
      if (Date.now() >= deadline) {
        throw new ProtocolError(ProtocolErrorCode.InternalError, `task ${taskId} is still working; call tasks/result again (or poll tasks/get)`, {
          code: "invalid_state",
          taskId,
          status: "working",
          retryable: true,
        });
      }
      // Woken by the end of a task running here; a task on another replica is looked at again shortly.
      await Promise.race([tasks.endedHere(taskId) ?? pause(resultPollMs), pause(resultPollMs * 4), cancelled]);
      if (extra.mcpReq.signal.aborted) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "the request was cancelled");
    }
  });

  server.setRequestHandler("tasks/list", { params: listParams }, async (params, extra) => {
    const after = decodeTaskCursor(params.cursor);
    const rows = await guarded(() => tasks.list(callerOf(extra), after, listPageSize + 1));
    const page = rows.slice(0, listPageSize);
    const last = page[page.length - 1];
    return { tasks: page.map(taskOf), ...(rows.length > listPageSize && last ? { nextCursor: encodeTaskCursor(last) } : {}) } as never;
  });

  server.setRequestHandler("tasks/cancel", { params: taskIdParams }, async (params, extra) => {
    const user = callerOf(extra);
    const taskId = params.taskId;
    // Stopped here first: its write may hold the store (SQLite runs one transaction at a time), and a
    // stopped write rolls back instead of sealing. Its runner or this request then records the cancel.
    const asked = tasks.now();
    const stoppedHere = tasks.stopHere(taskId, user);
    const cancelled = await guarded(() => tasks.cancel(taskId, user));
    const row = await guarded(() => tasks.find(taskId, user));
    // Cancelled by this request's write, or by its runner's once stopped here; an earlier cancel is an error below.
    if (cancelled || (stoppedHere && row.status === "cancelled" && row.lastUpdatedAt >= asked)) return taskOf(row) as never;
    const data = { code: "invalid_state", taskId, status: row.status };
    if (row.status !== "working") throw new ProtocolError(ProtocolErrorCode.InvalidParams, `invalid_state: task ${taskId} has already finished (${row.status}), so it cannot be cancelled`, data);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `invalid_state: task ${taskId} is finishing: its changes are already committed, so it cannot be cancelled; fetch its result with tasks/result`,
      data,
    );
  });
}

export function taskOf(row: TaskRow): Task {
  return {
    taskId: row.taskId,
    status: row.status,
    ...(row.statusMessage ? { statusMessage: row.statusMessage } : {}),
    createdAt: row.createdAt,
    lastUpdatedAt: row.lastUpdatedAt,
    ttl: row.ttlMs,
    pollInterval: row.pollIntervalMs,
  };
}

/** The same answer for a task that never existed, has expired, or is another user's: it reveals nothing. */
export function taskNotFound(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `not_found: task ${taskId} was not found (it does not exist or has expired)`, { code: "not_found", taskId });
}

export function unavailable(reason: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InternalError, `${reason}; retry in ${outageRetryAfterSeconds} seconds`, {
    code: "invalid_state",
    retryable: true,
    retryAfterSeconds: outageRetryAfterSeconds,
  });
}

/** A database outage met part-way answers "retry shortly", like a tool call's (store-outage.ts); the next request gets the 503. */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) throw unavailable("the database is temporarily unavailable");
    throw error;
  }
}

function encodeTaskCursor(row: TaskRow): string {
  return toBase64url(utf8Bytes(JSON.stringify({ createdAt: row.createdAt, id: row.taskId })));
}

function decodeTaskCursor(cursor: string | undefined): { createdAt: string; id: string } | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(utf8Text(fromBase64url(cursor))) as { createdAt?: unknown; id?: unknown };
    if (typeof parsed.createdAt === "string" && typeof parsed.id === "string") return { createdAt: parsed.createdAt, id: parsed.id };
  } catch {
    // Answered below.
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, "invalid_arguments: cursor is not one tasks/list returned; pass nextCursor from the previous page, or omit it", {
    code: "invalid_arguments",
    field: "cursor",
  });
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
}
