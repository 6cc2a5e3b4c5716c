/**
 * The 2025-11-25 task-augmented `tools/call` (`params.task`) of a session or a stateless request,
 * answered beside the SDK's server, which admits only a `CallToolResult` as the answer to `tools/call`:
 * the call is recognised in the POST body and answered with its task (server.ts, `answerTaskCall`).
 */
import { ProtocolError as SdkProtocolError } from "@modelcontextprotocol/server";
import type { CallerIdentity } from "../registry.ts";

export interface TaskCallParams {
  name: string;
  arguments?: Record<string, unknown>;
  task: { ttl?: number };
}

export type StartTaskCall = (params: TaskCallParams, user: CallerIdentity) => Promise<unknown>;

/** The one `tools/call` carrying `params.task` in a POST body, if that is what it is. */
function taskCallOf(parsedBody: unknown): { id: string | number; params: TaskCallParams } | undefined {
  if (typeof parsedBody !== "object" || parsedBody === null || Array.isArray(parsedBody)) return undefined;
  const message = parsedBody as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown; task?: unknown } };
  if (message.method !== "tools/call" || (typeof message.id !== "string" && typeof message.id !== "number")) return undefined;
  const params = message.params;
  if (typeof params?.name !== "string" || typeof params.task !== "object" || params.task === null || Array.isArray(params.task)) return undefined;
  const args = typeof params.arguments === "object" && params.arguments !== null && !Array.isArray(params.arguments) ? (params.arguments as Record<string, unknown>) : undefined;
  const ttl = (params.task as { ttl?: unknown }).ttl;
  return { id: message.id, params: { name: params.name, ...(args ? { arguments: args } : {}), task: typeof ttl === "number" ? { ttl } : {} } };
}

async function answeredTaskCall(start: StartTaskCall, call: { id: string | number; params: TaskCallParams }, user: CallerIdentity): Promise<Response> {
  try {
    return Response.json({ jsonrpc: "2.0", id: call.id, result: await start(call.params, user) });
  } catch (error) {
    if (!(error instanceof SdkProtocolError)) throw error;
    const data = error.data === undefined ? {} : { data: error.data };
    return Response.json({ jsonrpc: "2.0", id: call.id, error: { code: error.code, message: error.message, ...data } });
  }
}

/** The answer to a POST body that is a task-augmented `tools/call`; undefined for any other body. */
export function taskCallAnswers(start: StartTaskCall) {
  return (parsedBody: unknown, user: CallerIdentity): Promise<Response> | undefined => {
    const call = taskCallOf(parsedBody);
    return call && answeredTaskCall(start, call, user);
  };
}
