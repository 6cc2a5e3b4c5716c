/**
 * Builds the MCP server for one session (or one stateless request) on the SDK's low-level `Server`:
 * tools from the registry, resources, prompts, completions and logging. Arguments are validated with
 * each tool's valibot schema here, once, so tools receive typed input; every failure an agent can act
 * on comes back as an `isError` result with a code, never as a protocol error or a stack trace.
 */
import { LOG_LEVEL_META_KEY, ProtocolError as SdkProtocolError, ProtocolErrorCode, Server, type CacheHint, type ServerContext } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { EXTENSION_ID as appsExtensionId, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  Implementation,
  LoggingLevel,
  ListResourcesResult,
  Prompt,
  ReadResourceResult,
  ResourceTemplateType as ResourceTemplate,
} from "@modelcontextprotocol/server";
import type { Logger } from "../log.ts";
import { tasksExtensionId } from "./tasks/tasks-extension.ts";
import { listingsOf, type CallerIdentity, type CompiledTool, type ToolContext } from "./registry.ts";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { isPackageAnswer, measuredWithin, resourceTooLarge } from "./resource-bounds.ts";
import { callTool, ProtocolError, structuredBudget } from "./call-tool.ts";
import { requestedToolsets, UnknownToolsetError } from "./toolsets.ts";
import type { McpTasks } from "./tasks/task-runs.ts";
import type { Confirmations } from "./confirmations.ts";
import { createToolLog } from "./tool-log.ts";

type Extra = ServerContext;

/** Resources offered to agents; read failures are CourseAuthoringErrors (mapped to JSON-RPC errors). */
export interface ResourceProvider<Services> {
  templates: ResourceTemplate[];
  list(services: Services, user: CallerIdentity, cursor: string | undefined): Promise<ListResourcesResult>;
  read(services: Services, user: CallerIdentity, uri: string, context: ToolContext<Services>): Promise<ReadResourceResult>;
  /** Values completing `argument` of a resource template, for the caller; `resolved` holds the template's arguments already filled in. */
  complete(services: Services, user: CallerIdentity, argument: string, value: string, resolved?: Record<string, string>): Promise<string[]>;
}

export interface PromptProvider<Services> {
  prompts: Prompt[];
  get(services: Services, user: CallerIdentity, name: string, args: Record<string, string>): Promise<GetPromptResult>;
  complete?(services: Services, user: CallerIdentity, prompt: string, argument: string, value: string): Promise<string[]>;
}

export interface McpServerDeps<Services> {
  name: string;
  version: string;
  /** The rest of `serverInfo`: title, description, websiteUrl, icons. */
  identity?: Omit<Implementation, "name" | "version">;
  instructions: string;
  tools: Map<string, CompiledTool<Services>>;
  services: Services;
  resources?: ResourceProvider<Services>;
  prompts?: PromptProvider<Services>;
  logger: Logger;
  /** Largest tool result in bytes (`MCP_RESULT_MAX_BYTES`). */
  resultMaxBytes: number;
  /** Resource subscriptions (resource-subscriptions.ts); absent (stateless), `subscribe` is not offered. */
  subscriptions?: ResourceSubscriptionHandlers;
  /** Where shared sessions keep their `logging/setLevel` choice (session-sharing.ts); absent, it lives in this server only. */
  logLevels?: { get(sessionId: string): Promise<string | undefined>; set(sessionId: string, level: string): Promise<void> };
  /** Questions before destroying (confirmations.ts); absent, tools run when called, as before. */
  confirmations?: Confirmations;
  /** Task-augmented calls and the tasks/* requests (tasks/task-runs.ts); absent, the server declares no tasks. */
  tasks?: McpTasks<Services>;
}

export interface ResourceSubscriptionHandlers {
  subscribe(sessionId: string, user: CallerIdentity, uri: string): Promise<void>;
  unsubscribe(sessionId: string, uri: string): Promise<void>;
}

/** The identity the HTTP auth layer verified, handed to the transport as `authInfo.extra`. */
export function callerOf(extra: Extra): CallerIdentity {
  const identity = extra.http?.authInfo?.extra?.identity as CallerIdentity | undefined;
  if (!identity) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "request is not authenticated");
  return identity;
}

function contextFor<Services>(
  services: Services,
  extra: Extra,
  resultMaxBytes: number,
  log?: { tool: string; minimum: () => LoggingLevel | undefined | Promise<LoggingLevel | undefined> },
): ToolContext<Services> {
  const progressToken = extra.mcpReq._meta?.progressToken;
  return {
    ...(log && {
      log: createToolLog({ logger: log.tool, minimum: log.minimum, send: (params) => extra.mcpReq.notify({ method: "notifications/message", params }) }),
    }),
    user: callerOf(extra),
    services,
    signal: extra.mcpReq.signal,
    resultMaxBytes,
    structuredBudgetBytes: structuredBudget(resultMaxBytes),
    progress: async (progress, total, message) => {
      if (progressToken === undefined) return;
      await extra.mcpReq.notify({
        method: "notifications/progress",
        params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) },
      });
    },
  };
}

/**
 * One JSON Schema validator for every server: left out, the SDK builds a new Ajv instance (with its
 * meta-schemas) in each Server's constructor, about half of a stateless request's time. Ajv keeps its
 * compiled schemas by schema, so sharing it is safe.
 */
const sharedJsonSchemaValidator = new AjvJsonSchemaValidator();

/**
 * A 2025-11-25 task-augmented `tools/call` (`params.task`), answered with the task at once while the call
 * runs in the background (tasks/task-runs.ts). It is answered beside the SDK's server, which admits only a
 * `CallToolResult` as the answer to `tools/call`; the task's progress and log have nowhere to go.
 */
export async function answerTaskCall<Services>(
  deps: McpServerDeps<Services>,
  params: { name: string; arguments?: Record<string, unknown>; task: { ttl?: number } },
  user: CallerIdentity,
): Promise<{ task: unknown }> {
  if (!deps.tasks) throw new ProtocolError(ProtocolErrorCode.InvalidParams, "this server runs no tasks: call the tool without params.task");
  const context: ToolContext<Services> = {
    user,
    services: deps.services,
    signal: new AbortController().signal,
    resultMaxBytes: deps.resultMaxBytes,
    structuredBudgetBytes: structuredBudget(deps.resultMaxBytes),
    progress: async () => {},
  };
  await deps.confirmations?.beforeTask(deps.tools.get(params.name), params.arguments ?? {}, context);
  const run = (within: ToolContext<Services>): Promise<CallToolResult> =>
    callTool(deps.tools, params.name, params.arguments, within, { resultMaxBytes: deps.resultMaxBytes, logger: deps.logger });
  return deps.tasks.start(params.name, params.task.ttl, context, run);
}

/** The protocol revision served per request, beside the 2025 revisions the SDK serves in sessions. */
export const modernProtocolVersion = "2026-07-28";

/**
 * The extensions a 2026-07-28 client is told of in `server/discover`: MCP Apps (the preview and export
 * views) and tasks. (2025 clients learn of tasks from the `tasks` capability and of the views from the tools.)
 */
export const modernExtensions = {
  [appsExtensionId]: { mimeTypes: [RESOURCE_MIME_TYPE] },
  [tasksExtensionId]: {},
};

/**
 * What a 2026-07-28 client may cache, and for how long (the specification's caching utility). Each is
 * what is true here: the catalogue of tools depends on the toolsets the request names, so it is the
 * caller's (`private`), though it changes only with a deployment; prompts, templates and discovery are
 * the same for everyone; the resources listed and read depend on the caller's access and on writes, so
 * they are private and not kept. (The views' HTML, the same for everyone, says so itself on read.)
 */
export const modernCacheHints = {
  "tools/list": { ttlMs: 5 * 60_000, cacheScope: "private" },
  "prompts/list": { ttlMs: 60 * 60_000, cacheScope: "public" },
  "resources/templates/list": { ttlMs: 60 * 60_000, cacheScope: "public" },
  "server/discover": { ttlMs: 60 * 60_000, cacheScope: "public" },
  "resources/list": { ttlMs: 0, cacheScope: "private" },
  "resources/read": { ttlMs: 0, cacheScope: "private" },
} as const satisfies Record<string, CacheHint>;

/** A view's HTML (`ui://`) is the same for every caller and changes only with a deployment. */
const viewCacheFields = { ttlMs: 60 * 60_000, cacheScope: "public" } as const;

/** Which protocol era the server answers: a 2025 session (or stateless request), or one 2026-07-28 request. */
export type McpEra = "legacy" | "modern";

/**
 * The server of a 2025 session or a stateless request, or of one 2026-07-28 request. `only`: the one
 * method that request calls (its `Mcp-Method` header, which the SDK checks against the body before any
 * handler runs); a per-request server then registers that method's handler alone, not all ten.
 */
export function createMcpServer<Services>(deps: McpServerDeps<Services>, era: McpEra = "legacy", only?: string): Server {
  const modern = era === "modern";
  const handles = (method: string) => only === undefined || only === method;
  // Every 2026-07-28 result names its server in `_meta` ("server name and version", basic/index.mdx);
  // the rest of the identity (title, description, website, icon: ~450 bytes) belongs to
  // server/discover, as to a 2025 initialize, not to every tool result an agent pays for.
  const identity = modern && only !== undefined && only !== "server/discover" ? {} : deps.identity;
  const server = new Server(
    { ...identity, name: deps.name, version: deps.version },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false, subscribe: deps.subscriptions !== undefined },
        prompts: { listChanged: false },
        completions: {},
        logging: {},
        ...(deps.tasks && !modern ? { tasks: deps.tasks.capability } : {}),
        ...(modern ? { extensions: modernExtensions } : {}),
      },
      instructions: deps.instructions,
      jsonSchemaValidator: sharedJsonSchemaValidator,
      ...(modern ? { cacheHints: modernCacheHints } : {}),
      ...(deps.confirmations ? { requestState: { verify: deps.confirmations.verify } } : {}),
    },
  );

  // One server serves one session (or one stateless request), so the level logging/setLevel chose lives
  // here; with shared sessions it is also recorded, and read back when a message is about to go out, since
  // the next request of the session may reach another replica.
  let logLevel: LoggingLevel | undefined;
  if (handles("logging/setLevel")) server.setRequestHandler("logging/setLevel", async (request, extra) => {
    logLevel = request.params.level;
    if (deps.logLevels && extra.sessionId) await deps.logLevels.set(extra.sessionId, logLevel);
    return {};
  });
  // A record that cannot be read (a database outage) leaves this replica's own copy of the level: a log
  // message never fails the call it belongs to.
  const logLevelFor = (extra: Extra) => async () => {
    if (!deps.logLevels || !extra.sessionId) return logLevel;
    const recorded = await deps.logLevels.get(extra.sessionId).catch(() => logLevel);
    return recorded as LoggingLevel | undefined;
  };
  /** A 2026-07-28 request names its level in `_meta`; without one it gets no log messages at all. */
  const toolLogFor = (name: string, extra: Extra) => {
    const envelope = extra.mcpReq.envelope as Record<string, unknown> | undefined;
    if (!envelope) return { tool: name, minimum: logLevelFor(extra) };
    const level = envelope[LOG_LEVEL_META_KEY] as LoggingLevel | undefined;
    return level ? { tool: name, minimum: () => level } : undefined;
  };

  // The listing depends only on the chosen toolsets; the request names them (URL or header).
  if (handles("tools/list")) server.setRequestHandler("tools/list", (_request, extra) => {
    try {
      const chosen = requestedToolsets(extra.http?.req);
      return { tools: listingsOf([...deps.tools.values()].filter((tool) => chosen.has(tool.definition.toolset as never))) };
    } catch (error) {
      if (error instanceof UnknownToolsetError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { toolsets: error.names });
      throw error;
    }
  });

  // A task-augmented call never reaches this server (the SDK checks every tools/call result against
  // CallToolResult): tasks/task-call.ts answers it with `answerTaskCall` below.
  // A tool that destroys asks first (confirmations.ts); the same handler serves both eras.
  if (handles("tools/call")) server.setRequestHandler("tools/call", async (request, extra) => {
    const context = contextFor(deps.services, extra, deps.resultMaxBytes, toolLogFor(request.params.name, extra));
    const args = request.params.arguments ?? {};
    const sessionCapabilities = modern ? undefined : (server.getClientCapabilities() as Record<string, unknown> | undefined);
    const asked = await deps.confirmations?.before(deps.tools.get(request.params.name), args, context, extra, sessionCapabilities);
    if (asked) return asked as CallToolResult;
    return callTool(deps.tools, request.params.name, args, context, { resultMaxBytes: deps.resultMaxBytes, logger: deps.logger });
  });
  if (!modern) deps.tasks?.register(server, callerOf);

  const resources = deps.resources;
  if (handles("resources/templates/list")) server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: resources?.templates ?? [] }));
  if (handles("resources/list")) server.setRequestHandler("resources/list", async (request, extra) =>
    resources ? resources.list(deps.services, callerOf(extra), request.params?.cursor) : { resources: [] },
  );
  if (handles("resources/read")) server.setRequestHandler("resources/read", async (request, extra): Promise<ReadResourceResult> => {
    if (!resources) throw new ProtocolError(resourceNotFound, `Resource ${request.params.uri} was not found`, { uri: request.params.uri });
    try {
      const result = await resources.read(deps.services, callerOf(extra), request.params.uri, contextFor(deps.services, extra, deps.resultMaxBytes));
      // Providers name narrower reads themselves; this catches any answer that did not (packages aside).
      if (isPackageAnswer(result)) return result;
      const { size, fits } = measuredWithin(result, deps.resultMaxBytes);
      if (!fits) throw resourceTooLarge(request.params.uri, size, deps.resultMaxBytes, { how: "", uris: [], templates: [], otherwise: "read a narrower resource (see resources/templates/list)" });
      return modern && request.params.uri.startsWith("ui://") ? { ...result, ...viewCacheFields } : result;
    } catch (error) {
      throw asProtocolError(error, deps.logger, resourceNotFound, request.params.uri);
    }
  });

  // A 2026-07-28 client listens with subscriptions/listen instead (modern-listen.ts, beside the SDK: modern-leg.ts).
  const subscriptions = modern ? undefined : deps.subscriptions;
  if (subscriptions) {
    const sessionOf = (extra: Extra) => {
      if (!extra.sessionId) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "subscriptions need a session (Mcp-Session-Id)");
      return extra.sessionId;
    };
    if (handles("resources/subscribe")) server.setRequestHandler("resources/subscribe", async (request, extra) => {
      try {
        await subscriptions.subscribe(sessionOf(extra), callerOf(extra), request.params.uri);
        return {};
      } catch (error) {
        throw asProtocolError(error, deps.logger, resourceNotFound);
      }
    });
    if (handles("resources/unsubscribe")) server.setRequestHandler("resources/unsubscribe", async (request, extra) => {
      try {
        await subscriptions.unsubscribe(sessionOf(extra), request.params.uri);
        return {};
      } catch (error) {
        throw asProtocolError(error, deps.logger, resourceNotFound);
      }
    });
  }

  const prompts = deps.prompts;
  if (handles("prompts/list")) server.setRequestHandler("prompts/list", () => ({ prompts: prompts?.prompts ?? [] }));
  if (handles("prompts/get")) server.setRequestHandler("prompts/get", async (request, extra) => {
    const known = prompts?.prompts.map((prompt) => prompt.name) ?? [];
    if (!prompts || !known.includes(request.params.name)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt "${request.params.name}"; prompts: ${known.join(", ") || "none"}`);
    }
    try {
      return await prompts.get(deps.services, callerOf(extra), request.params.name, request.params.arguments ?? {});
    } catch (error) {
      throw asProtocolError(error, deps.logger, ProtocolErrorCode.InvalidParams);
    }
  });

  if (handles("completion/complete")) server.setRequestHandler("completion/complete", async (request, extra): Promise<CompleteResult> => {
    const { ref, argument, context } = request.params;
    const user = callerOf(extra);
    let values: string[] = [];
    if (ref.type === "ref/resource" && resources) values = await resources.complete(deps.services, user, argument.name, argument.value, context?.arguments);
    if (ref.type === "ref/prompt" && prompts?.complete) values = await prompts.complete(deps.services, user, ref.name, argument.name, argument.value);
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
  });

  return server;
}

/** A resource that does not exist (or that the caller may not see): -32602 on both eras, as SDK v2 "can no longer emit -32002 on the wire". */
const resourceNotFound = ProtocolErrorCode.InvalidParams;

/**
 * Resource and prompt reads have no `isError` result: their failures travel as JSON-RPC errors, with
 * our code in `data`. `not_found` uses the code of what was read; bad arguments are invalid params.
 */
function asProtocolError(error: unknown, logger: Logger, notFoundCode: number, uri?: string): Error {
  if (error instanceof SdkProtocolError) return error;
  if (error instanceof CourseAuthoringError) {
    const code = error.code === "not_found" ? notFoundCode : error.code === "invalid_arguments" ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InvalidRequest;
    // A resource that is not there names its URI in data, as the specification's resource errors do.
    const named = error.code === "not_found" && uri !== undefined ? { uri } : {};
    return new ProtocolError(code, `${error.code}: ${error.message}`, { code: error.code, ...named, ...error.details });
  }
  logger.error("resource read failed", { error: error instanceof Error ? error.message : String(error) });
  return new ProtocolError(ProtocolErrorCode.InternalError, "the read failed unexpectedly");
}
