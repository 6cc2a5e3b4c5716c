/**
 * MCP tasks (specification 2025-11-25, "Tasks"): a `tools/call` carrying `params.task` on a tool listed
 * with `execution.taskSupport: "optional"` is answered at once with the task; the call runs in the
 * background on this replica and its result (the same `CallToolResult` a plain call gives, errors
 * included) is stored with the task record. The records live in the store, so `tasks/get`,
 * `tasks/result`, `tasks/list` and `tasks/cancel` work on any replica.
 *
 * - Isolation is per user (the token's `sub`), not per session: another user's task ID is answered
 *   exactly like one that never existed (`not_found`).
 * - Lifetime: a task lives `ttl` milliseconds from its creation, result included; the requested `ttl`
 *   is clamped to [`taskTtl.minMs`, `taskTtl.maxMs`], `taskTtl.defaultMs` when none is asked for.
 *   Expired tasks are gone (`not_found`): every read ignores them, each new task deletes its owner's
 *   expired ones, and a sweep every `sweepIntervalMs` deletes everyone's.
 * - Cancelling stops the work on the replica running it: there at once, elsewhere when the runner next
 *   looks at the record (`watchIntervalMs`). Whatever it has not committed is not committed: its write
 *   transaction seals the task as its last statement, and a cancel only changes an unsealed task, so
 *   the two exclude each other in the database (see `taskServices` in task-work.ts).
 * - A replica that dies leaves its tasks working: on PostgreSQL the runner beats every few seconds and
 *   a working task whose beats stopped is answered as failed; a SQLite process marks its leftovers
 *   failed when it starts again.
 * - The requests themselves (`tasks/get` …) and their errors are in session-task-requests.ts.
 * - A status is `completed` for a successful result, `failed` for an `isError` one (the specification's
 *   rule for tool calls), `cancelled` once cancelled; cancelling a finished task is an error saying so.
 */
import type { CallToolResult, Server, ServerCapabilities, ServerContext, Task } from "@modelcontextprotocol/server";
import { ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { Logger } from "../../log.ts";
import type { AuthoringStore } from "../../store/types.ts";
import type { TaskRow } from "../../store/task-records.ts";
import { DatabaseUnavailableError } from "../../store/unavailable.ts";
import { CourseAuthoringError } from "../../course-authoring-error.ts";
import { ProtocolError, toolErrorResult } from "../call-tool.ts";
import type { CallerIdentity, CompiledTool, ToolContext } from "../registry.ts";
import { outageRetryAfterSeconds } from "../store-outage.ts";
import { guarded, pause, registerTaskRequests, taskNotFound, taskOf, unavailable, type StoredOutcome, type TaskOperations } from "./session-task-requests.ts";

type Extra = ServerContext;

/** How long a task and its result are kept, from its creation (the README's "Tasks"). */
export const taskTtl = { defaultMs: 60 * 60_000, minMs: 60_000, maxMs: 24 * 60 * 60_000 } as const;
/** The `pollInterval` suggested to clients. */
export const taskPollIntervalMs = 1000;
/** Tasks one user may have working at once, on all replicas together. */
export const maxWorkingTasksPerUser = 10;
const sweepIntervalMs = 10 * 60_000;
/** How often the replica running a task looks for a cancel made on another replica. */
const watchIntervalMs = 500;
const beatIntervalMs = 5000;
/** How long a stopping service waits for its tasks to notice before marking them failed itself. */
const stopGraceMs = 3000;
/** The default `staleAfterMs`: six beats missed. */
export const defaultStaleAfterMs = 30_000;
const cancelledMessage = "The task was cancelled by request; nothing was changed.";
const lostMessage = "the replica running the task stopped before it finished, so nothing was changed; run it again";

export const taskCapability: NonNullable<ServerCapabilities["tasks"]> = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** Why a task's work was stopped: `AbortSignal.reason` of its signal. */
export type TaskStopReason = "cancelled" | "service stopping";

/** What a stopped task's work answers; nothing it did was committed. */
export function stoppedTaskError(reason: unknown): CourseAuthoringError {
  return reason === "service stopping"
    ? new CourseAuthoringError("invalid_state", "the service stopped before the task finished, so nothing was changed; run it again", { retryable: true })
    : new CourseAuthoringError("invalid_state", "the task was cancelled (or has expired), so nothing was changed");
}

export interface McpTasksOptions<Services> {
  /** Task records live in the authoring store (`StoreTransaction`'s task statements). */
  store: AuthoringStore;
  now: () => Date;
  logger: Logger;
  /** Tools that accept task-augmented calls; the others are listed and answered as before. */
  taskTools: readonly string[];
  /** The services a task's work runs with: its writes commit only while the task is still wanted (task-work.ts). */
  servicesFor(services: Services, taskId: string, signal: AbortSignal): Services;
  /** Removes what a call kept (a saved package) when its task was cancelled as it finished. */
  discard?(services: Services, result: CallToolResult): Promise<void>;
  /** A single process (SQLite): tasks left working by a previous run will never finish; mark them failed at start. */
  failLeftoversAtStart?: boolean;
  /**
   * Several replicas (PostgreSQL): the replica running a task beats every `beatIntervalMs`; a working
   * task without a beat for this long was lost with its replica and is answered as failed.
   */
  staleAfterMs?: number;
}

export type McpTasks<Services> = ReturnType<typeof createMcpTasks<Services>>;

/** A task running in this process, so a cancel or a stop made here reaches it at once. */
interface RunningTask {
  ownerSub: string;
  controller: AbortController;
  done: Promise<void>;
  cancelRequested: boolean;
}

/** What this replica's task functions share: the options, the tasks running here, whether the service is stopping. */
interface TasksHere<Services> {
  readonly options: McpTasksOptions<Services>;
  readonly nowIso: () => string;
  readonly running: Map<string, RunningTask>;
  stopping: boolean;
}

export function createMcpTasks<Services>(options: McpTasksOptions<Services>) {
  const taskTools = new Set(options.taskTools);
  const here: TasksHere<Services> = { options, nowIso: () => options.now().toISOString(), running: new Map(), stopping: false };
  const sweep = startSweeping(here);
  const operations = taskOperations(here);

  return {
    capability: taskCapability,

    /** The same catalogue, the task tools listed with `execution: { taskSupport: "optional" }`. */
    withTaskSupport<S>(tools: Map<string, CompiledTool<S>>): Map<string, CompiledTool<S>> {
      const listed = new Map<string, CompiledTool<S>>();
      for (const [name, tool] of tools) {
        listed.set(name, taskTools.has(name) ? { ...tool, listing: { ...tool.listing, execution: { taskSupport: "optional" } } } : tool);
      }
      return listed;
    },

    /**
     * A task-augmented `tools/call`: records the task, starts `run` in the background and answers the
     * `CreateTaskResult`. A tool that does not take tasks is -32601, as the specification asks.
     */
    start(name: string, requestedTtl: number | undefined, context: ToolContext<Services>, run: (context: ToolContext<Services>) => Promise<CallToolResult>): Promise<{ task: Task }> {
      return startTask(here, taskTools, name, requestedTtl, context, run);
    },

    /** Registers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` on one session's server. */
    register(server: Server, callerOf: (extra: Extra) => CallerIdentity): void {
      registerTaskRequests(server, callerOf, operations);
    },

    /** What both eras' task requests do with the records (session-task-requests.ts, tasks-extension.ts). */
    operations,

    /** Whether `name` runs as a task when asked (2025) or when the client takes tasks (2026-07-28). */
    runsAsTask: (name: string) => taskTools.has(name),

    /**
     * Stops the tasks running here and the sweep: they end `failed` with nothing committed (unless their
     * work was already sealed). Work stuck where the signal cannot reach it (waiting on a lock) is marked
     * failed after a grace period; its seal then fails, so it cannot commit either.
     */
    stop(): Promise<void> {
      return stopTasks(here, sweep);
    },
  };
}

/** The sweep of everyone's expired tasks, and (a single process) the leftovers of a previous run marked failed. */
function startSweeping<Services>({ options, nowIso }: TasksHere<Services>): ReturnType<typeof setInterval> {
  const { store, logger } = options;
  const sweep = setInterval(() => {
    store.write((tx) => tx.removeExpiredTasks(nowIso())).catch((error: unknown) => logger.warn("sweeping expired tasks failed", { error: String(error) }));
  }, sweepIntervalMs);
  sweep.unref?.();
  if (options.failLeftoversAtStart) {
    void store
      .write((tx) => tx.failWorkingTasks("the service restarted before the task finished, so nothing was changed; run it again", nowIso()))
      .catch((error: unknown) => logger.warn("marking unfinished tasks failed", { error: String(error) }));
  }
  return sweep;
}

/** Records the task (within the owner's limit of working tasks), starts its run here and answers the task. */
async function startTask<Services>(
  here: TasksHere<Services>,
  taskTools: ReadonlySet<string>,
  name: string,
  requestedTtl: number | undefined,
  context: ToolContext<Services>,
  run: (context: ToolContext<Services>) => Promise<CallToolResult>,
): Promise<{ task: Task }> {
  const { options } = here;
  if (!taskTools.has(name)) {
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `${name} does not run as a task: call it without params.task. Tools that do: ${[...taskTools].join(", ")}`, { tools: [...taskTools] });
  }
  if (here.stopping) throw unavailable("the service is stopping");
  const user = context.user;
  const created = options.now();
  const ttlMs = clampTtl(requestedTtl);
  const row: TaskRow = {
    taskId: crypto.randomUUID(),
    ownerSub: user.sub,
    tool: name,
    status: "working",
    statusMessage: null,
    sealed: false,
    createdAt: created.toISOString(),
    lastUpdatedAt: created.toISOString(),
    expiresAt: new Date(created.getTime() + ttlMs).toISOString(),
    ttlMs,
    pollIntervalMs: taskPollIntervalMs,
  };
  await guarded(() =>
    options.store.write(async (tx) => {
      await tx.removeExpiredTasks(row.createdAt, user.sub);
      const working = await tx.countWorkingTasks(user.sub, row.createdAt);
      if (working >= maxWorkingTasksPerUser) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `limit_exceeded: you already have ${working} tasks working (at most ${maxWorkingTasksPerUser}); wait for one to end (tasks/get) or cancel one (tasks/cancel)`,
          { code: "limit_exceeded", limit: maxWorkingTasksPerUser, current: working },
        );
      }
      await tx.insertTask(row);
    }),
  );
  void runInBackground(here, row, context.services, context, run);
  return { task: taskOf(row) };
}

/** Runs the call in the background and stores its outcome; never throws. */
async function runInBackground<Services>(
  here: TasksHere<Services>,
  row: TaskRow,
  services: Services,
  context: ToolContext<Services>,
  run: (context: ToolContext<Services>) => Promise<CallToolResult>,
): Promise<void> {
  const { options, nowIso, running } = here;
  const { store, logger } = options;
  const controller = new AbortController();
  let settle = () => {};
  const done = new Promise<void>((resolve) => (settle = resolve));
  const entry: RunningTask = { ownerSub: row.ownerSub, controller, done, cancelRequested: false };
  running.set(row.taskId, entry);
  const watch = watchForCancel(here, row.taskId, controller);
  const beat =
    options.staleAfterMs === undefined
      ? undefined
      : setInterval(() => void store.write((tx) => tx.beatTask(row.taskId, nowIso())).catch(() => undefined), beatIntervalMs);
  beat?.unref?.();
  try {
    const taskServices = options.servicesFor(services, row.taskId, controller.signal);
    // Progress and log messages have no request left to travel with once the task is answered; clients
    // poll tasks/get, and the stored result keeps its notices.
    const taskContext: ToolContext<Services> = { ...context, services: taskServices, signal: controller.signal, progress: async () => {}, log: undefined };
    const outcome = await outcomeOf(here, row, () => run(taskContext));
    const failed = "error" in outcome || outcome.result.isError === true;
    // Stopped by a cancel made here: the task ends cancelled (whichever of this and the cancel's own write comes first).
    if (failed && entry.cancelRequested && (await persistently(() => store.write((tx) => tx.cancelTask(row.taskId, row.ownerSub, cancelledMessage, nowIso()))))) return;
    const finished = await persistently(() =>
      store.write((tx) => tx.finishTask(row.taskId, failed ? "failed" : "completed", failed ? failureMessage(outcome) : null, JSON.stringify(outcome), nowIso())),
    );
    // Cancelled while its last step (a package saved outside any transaction) completed: keep nothing.
    if (!finished && "result" in outcome && !failed) await options.discard?.(services, outcome.result);
  } catch (error) {
    logger.error("task outcome not stored", { tool: row.tool, error: error instanceof Error ? error.message : String(error) });
  } finally {
    clearInterval(watch);
    clearInterval(beat);
    running.delete(row.taskId);
    settle();
  }
}

/** Looks at the record every `watchIntervalMs` and stops the work once the task is no longer working (a cancel made elsewhere). */
function watchForCancel<Services>({ options, nowIso }: TasksHere<Services>, taskId: string, controller: AbortController): ReturnType<typeof setInterval> {
  let looking = false;
  const watch = setInterval(() => {
    if (looking || controller.signal.aborted) return;
    looking = true;
    options.store
      .read((tx) => tx.taskStatus(taskId, nowIso()))
      .then((status) => {
        if (status !== "working") controller.abort("cancelled" satisfies TaskStopReason);
      })
      .catch(() => undefined)
      .finally(() => (looking = false));
  }, watchIntervalMs);
  watch.unref?.();
  return watch;
}

/** The call's outcome as stored: its result, its JSON-RPC error, or a tool error for anything unexpected. */
async function outcomeOf<Services>({ options }: TasksHere<Services>, row: TaskRow, call: () => Promise<CallToolResult>): Promise<StoredOutcome> {
  try {
    return { result: await call() };
  } catch (error) {
    if (error instanceof ProtocolError) return { error: { code: error.code, message: error.message, ...(error.data ? { data: error.data } : {}) } };
    options.logger.error("task failed", { tool: row.tool, error: error instanceof Error ? error.message : String(error) });
    return { result: toolErrorResult(new CourseAuthoringError("invalid_state", "the operation failed unexpectedly and changed nothing; try again or report it")) };
  }
}

/** Retries a store write through a short outage, so a finished task is not left working. */
async function persistently<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof DatabaseUnavailableError) || attempt >= 12) throw error;
      await pause(outageRetryAfterSeconds * 1000);
    }
  }
}

/** What the task requests (`tasks/get`, `tasks/list`, `tasks/result`, `tasks/cancel`) do with the records and the tasks running here. */
function taskOperations<Services>(here: TasksHere<Services>): TaskOperations {
  const { options, nowIso, running } = here;
  const { store } = options;

  /** The caller's task, or the error that says it does not exist (also for another user's). */
  async function ownTask(taskId: string, user: CallerIdentity): Promise<TaskRow> {
    const row = await store.read((tx) => tx.findTask(taskId, user.sub, nowIso()));
    if (!row) throw taskNotFound(taskId);
    return (await settledIfLost(here, [row], user))[0]!;
  }

  return {
    find: ownTask,
    async list(user, after, limit) {
      return settledIfLost(here, await store.read((tx) => tx.listTasks(user.sub, nowIso(), after, limit)), user);
    },
    result: (taskId, user) => store.read((tx) => tx.taskResult(taskId, user.sub, nowIso())),
    cancel: (taskId, user) => store.write((tx) => tx.cancelTask(taskId, user.sub, cancelledMessage, nowIso())),
    endedHere: (taskId) => running.get(taskId)?.done,
    now: nowIso,
    stopHere(taskId, user) {
      const entry = running.get(taskId);
      if (!entry || entry.ownerSub !== user.sub || entry.controller.signal.aborted) return false;
      entry.cancelRequested = true;
      entry.controller.abort("cancelled" satisfies TaskStopReason);
      return true;
    },
  };
}

/** The rows, any working task whose replica stopped beating marked failed first (so it never stays working). */
async function settledIfLost<Services>({ options, nowIso, running }: TasksHere<Services>, rows: TaskRow[], user: CallerIdentity): Promise<TaskRow[]> {
  const { store } = options;
  const staleAfterMs = options.staleAfterMs;
  if (staleAfterMs === undefined) return rows;
  const staleBefore = new Date(options.now().getTime() - staleAfterMs).toISOString();
  const lost = rows.filter((row) => row.status === "working" && !running.has(row.taskId) && row.beatAt && row.beatAt < staleBefore);
  if (lost.length === 0) return rows;
  const outcome: StoredOutcome = { result: toolErrorResult(new CourseAuthoringError("invalid_state", lostMessage, { retryable: true })) };
  await store.write(async (tx) => {
    for (const row of lost) await tx.failStaleTask(row.taskId, staleBefore, `invalid_state: ${lostMessage}`, JSON.stringify(outcome), nowIso());
  });
  return Promise.all(rows.map(async (row) => (lost.includes(row) ? ((await store.read((tx) => tx.findTask(row.taskId, user.sub, nowIso()))) ?? row) : row)));
}

/** Stops the sweep and the tasks running here; those that do not notice within `stopGraceMs` are marked failed. */
async function stopTasks<Services>(here: TasksHere<Services>, sweep: ReturnType<typeof setInterval>): Promise<void> {
  const { options, nowIso, running } = here;
  here.stopping = true;
  clearInterval(sweep);
  for (const { controller } of running.values()) controller.abort("service stopping" satisfies TaskStopReason);
  await Promise.race([Promise.all([...running.values()].map((task) => task.done)), pause(stopGraceMs)]);
  const stuck = [...running.keys()];
  if (stuck.length === 0) return;
  const error = stoppedTaskError("service stopping");
  const outcome: StoredOutcome = { result: toolErrorResult(error) };
  await options.store
    .write(async (tx) => {
      for (const taskId of stuck) await tx.finishTask(taskId, "failed", `${error.code}: ${error.message}`, JSON.stringify(outcome), nowIso());
    })
    .catch((failure: unknown) => options.logger.warn("marking stopped tasks failed", { error: String(failure) }));
}

function clampTtl(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return taskTtl.defaultMs;
  return Math.min(taskTtl.maxMs, Math.max(taskTtl.minMs, Math.round(requested)));
}

/** A failed task's `statusMessage`: the tool error's first line, or the JSON-RPC error's message. */
function failureMessage(outcome: StoredOutcome): string {
  if ("error" in outcome) return outcome.error.message.slice(0, 500);
  const first = outcome.result.content.find((item) => item.type === "text");
  return (first?.type === "text" ? first.text : "the call failed").slice(0, 500);
}

