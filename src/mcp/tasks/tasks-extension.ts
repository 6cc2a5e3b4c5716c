/**
 * Tasks for 2026-07-28 clients: the `io.modelcontextprotocol/tasks` extension (SEP-2663) on the same
 * task records as the 2025 tasks (task-runs.ts), so a task started on one replica is polled, updated and
 * cancelled on any other. The server decides: a client whose request declares the extension gets a task
 * (`resultType: "task"`) from the tools that run as tasks; any other client gets the plain answer.
 * `tasks/get` inlines the outcome (a tool error is `completed` with `result.isError`; `failed` carries the
 * JSON-RPC error); `tasks/cancel` and `tasks/update` answer an empty ack; there is no `tasks/list` or
 * `tasks/result` in this era. A request that did not declare the extension is refused (-32021, HTTP 400).
 *
 * These are answered here, beside the SDK's per-request server, once the SDK's own inbound ladder has
 * passed the request (`classifyInboundRequest`): SDK v2 "does not implement the tasks extension" and
 * admits only a `CallToolResult` as the answer to `tools/call`.
 */
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError as SdkProtocolError, ProtocolErrorCode, SERVER_INFO_META_KEY, type Implementation, type JSONRPCRequest, type Task } from "@modelcontextprotocol/server";
import type { TaskRow } from "../../store/task-records.ts";
import { ProtocolError } from "../call-tool.ts";
import type { CallerIdentity } from "../registry.ts";
import { guarded, taskOf, type StoredOutcome, type TaskOperations } from "./session-task-requests.ts";

export const tasksExtensionId = "io.modelcontextprotocol/tasks";

export interface ModernTasksDeps {
  operations: TaskOperations;
  runsAsTask(name: string): boolean;
  /** Records the task and starts the call in the background (server.ts, `answerTaskCall`). */
  start(name: string, args: Record<string, unknown> | undefined, user: CallerIdentity): Promise<{ task: unknown }>;
  serverInfo: Implementation;
}

const taskMethods = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

/** Whether the request's own `_meta` declares the tasks extension among the client's capabilities. */
function declaresTasks(message: JSONRPCRequest): boolean {
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const capabilities = meta?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  const declared = capabilities?.extensions?.[tasksExtensionId];
  return typeof declared === "object" && declared !== null;
}

/** The Task fields under this era's names (`ttlMs`, `pollIntervalMs`). */
function modernTask(task: Task): Record<string, unknown> {
  const { ttl, pollInterval, ...rest } = task as Task & { ttl?: number | null; pollInterval?: number };
  return { ...rest, ttlMs: ttl ?? null, ...(pollInterval === undefined ? {} : { pollIntervalMs: pollInterval }) };
}

export function createModernTasks(deps: ModernTasksDeps) {
  const respond = (id: JSONRPCRequest["id"], result: Record<string, unknown>) =>
    Response.json({ jsonrpc: "2.0", id, result: { ...result, _meta: { [SERVER_INFO_META_KEY]: deps.serverInfo } } });

  const refuse = (id: JSONRPCRequest["id"], error: { code: number; message: string; data?: unknown }, status = 200) =>
    Response.json({ jsonrpc: "2.0", id, error }, { status });

  /** The DetailedTask of `tasks/get`: the task, and once it has ended its result or its error. */
  async function detailed(row: TaskRow, user: CallerIdentity): Promise<Record<string, unknown>> {
    const base = modernTask(taskOf(row));
    if (row.status === "working" || row.status === "cancelled") return base;
    const stored = await guarded(() => deps.operations.result(row.taskId, user));
    if (stored === undefined) return base;
    const outcome = JSON.parse(stored) as StoredOutcome;
    if ("error" in outcome) return { ...base, status: "failed", error: outcome.error };
    // A tool that ran and answered an error is completed with result.isError (SEP-2663's error semantics).
    return { ...base, status: "completed", result: outcome.result };
  }

  async function answerTaskRequest(message: JSONRPCRequest, user: CallerIdentity): Promise<Record<string, unknown>> {
    const taskId = (message.params as { taskId?: unknown } | undefined)?.taskId;
    if (typeof taskId !== "string" || taskId.length === 0 || taskId.length > 100) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "invalid_arguments: taskId is required: the taskId a tools/call answered with resultType task", { code: "invalid_arguments", fields: ["taskId"] });
    }
    if (message.method === "tasks/get") return detailed(await guarded(() => deps.operations.find(taskId, user)), user);
    if (message.method === "tasks/update") {
      // No task of this server ever waits for input, so there is nothing to hand over; the task must be the caller's.
      await guarded(() => deps.operations.find(taskId, user));
      return {};
    }
    // tasks/cancel: stopped here first (see session-task-requests.ts), then recorded; a finished task is acknowledged as it is.
    await guarded(() => deps.operations.find(taskId, user));
    deps.operations.stopHere(taskId, user);
    await guarded(() => deps.operations.cancel(taskId, user));
    return {};
  }

  return {
    /** Its own methods, and a `tools/call` of a task tool from a client that declares the extension. */
    claims: (body: { method: string; params?: unknown }) =>
      taskMethods.has(body.method) || (body.method === "tools/call" && declaresTasks(body as JSONRPCRequest) && deps.runsAsTask(String((body.params as { name?: unknown } | undefined)?.name))),

    /**
     * The answer to a 2026-07-28 request the extension owns (a task-run `tools/call`, `tasks/get`,
     * `tasks/update`, `tasks/cancel`); undefined sends the request on to the SDK.
     */
    async answer(message: JSONRPCRequest, user: CallerIdentity): Promise<Response | undefined> {
      const taskRequest = taskMethods.has(message.method);
      const taskCall = message.method === "tools/call" && declaresTasks(message) && deps.runsAsTask(String((message.params as { name?: unknown })?.name));
      if (!taskRequest && !taskCall) return undefined;
      if (taskRequest && !declaresTasks(message)) {
        return refuse(
          message.id,
          {
            code: ProtocolErrorCode.MissingRequiredClientCapability,
            message: `${message.method} belongs to the ${tasksExtensionId} extension: declare it in _meta["${CLIENT_CAPABILITIES_META_KEY}"].extensions`,
            data: { requiredCapabilities: { extensions: { [tasksExtensionId]: {} } } },
          },
          400,
        );
      }
      try {
        if (taskRequest) return respond(message.id, { resultType: "complete", ...(await answerTaskRequest(message, user)) });
        const params = message.params as { name: string; arguments?: Record<string, unknown> };
        const { task } = await deps.start(params.name, params.arguments, user);
        return respond(message.id, { resultType: "task", ...modernTask(task as Task) });
      } catch (error) {
        if (!(error instanceof SdkProtocolError)) throw error;
        return refuse(message.id, { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) });
      }
    },
  };
}

export type ModernTasks = ReturnType<typeof createModernTasks>;
