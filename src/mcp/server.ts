/**
 * Builds the MCP server for one session (or one stateless request) on the SDK's low-level `Server`:
 * tools from the registry, resources, prompts, completions and logging. Arguments are validated with
 * each tool's valibot schema here, once, so tools receive typed input; every failure an agent can act
 * on comes back as an `isError` result with a code, never as a protocol error or a stack trace.
 */
import * as v from "valibot";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { setCallToolHandlerUnwrapped } from "./sdk-call-tool-seam.ts";
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  SetLevelRequestSchema,
  type CompleteResult,
  type GetPromptResult,
  type Implementation,
  type LoggingLevel,
  type ListResourcesResult,
  type Prompt,
  type ReadResourceResult,
  type ResourceTemplate,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../log.ts";
import { type CallerIdentity, type CompiledTool, type ToolContext } from "./registry.ts";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { isPackageAnswer, measuredWithin, resourceTooLarge } from "./resource-bounds.ts";
import { callTool, ProtocolError, structuredBudget } from "./call-tool.ts";
import { requestedToolsets, UnknownToolsetError } from "./toolsets.ts";
import type { McpTasks } from "./tasks.ts";
import { createToolLog } from "./tool-log.ts";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

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
  /** Task-augmented calls and the tasks/* requests (tasks.ts); absent, the server declares no tasks. */
  tasks?: McpTasks<Services>;
}

export interface ResourceSubscriptionHandlers {
  subscribe(sessionId: string, user: CallerIdentity, uri: string): Promise<void>;
  unsubscribe(sessionId: string, uri: string): Promise<void>;
}

/** The identity the HTTP auth layer verified, handed to the transport as `authInfo.extra`. */
export function callerOf(extra: Extra): CallerIdentity {
  const identity = extra.authInfo?.extra?.identity as CallerIdentity | undefined;
  if (!identity) throw new McpError(ErrorCode.InvalidRequest, "request is not authenticated");
  return identity;
}

function contextFor<Services>(
  services: Services,
  extra: Extra,
  resultMaxBytes: number,
  log?: { tool: string; minimum: () => LoggingLevel | undefined | Promise<LoggingLevel | undefined> },
): ToolContext<Services> {
  const progressToken = extra._meta?.progressToken;
  return {
    ...(log && {
      log: createToolLog({ logger: log.tool, minimum: log.minimum, send: (params) => extra.sendNotification({ method: "notifications/message", params }) }),
    }),
    user: callerOf(extra),
    services,
    signal: extra.signal,
    resultMaxBytes,
    structuredBudgetBytes: structuredBudget(resultMaxBytes),
    progress: async (progress, total, message) => {
      if (progressToken === undefined) return;
      await extra.sendNotification({
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

export function createMcpServer<Services>(deps: McpServerDeps<Services>): Server {
  const server = new Server(
    { ...deps.identity, name: deps.name, version: deps.version },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false, subscribe: deps.subscriptions !== undefined },
        prompts: { listChanged: false },
        completions: {},
        logging: {},
        ...(deps.tasks ? { tasks: deps.tasks.capability } : {}),
      },
      instructions: deps.instructions,
      jsonSchemaValidator: sharedJsonSchemaValidator,
    },
  );
  const allTools = [...deps.tools.values()];

  // One server serves one session (or one stateless request), so the level logging/setLevel chose lives
  // here; with shared sessions it is also recorded, and read back when a message is about to go out, since
  // the next request of the session may reach another replica.
  let logLevel: LoggingLevel | undefined;
  server.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
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

  // The listing depends only on the chosen toolsets; the request names them (URL or header).
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
    try {
      const chosen = requestedToolsets(extra.requestInfo);
      return { tools: allTools.filter((tool) => chosen.has(tool.definition.toolset as never)).map((tool) => tool.listing) };
    } catch (error) {
      if (error instanceof UnknownToolsetError) throw new ProtocolError(ErrorCode.InvalidParams, error.message, { toolsets: error.names });
      throw error;
    }
  });

  // Results are built in CallToolResult's shape by callTool; the seam skips the SDK re-validating them.
  // A call carrying params.task is answered with the task at once and runs in the background (tasks.ts).
  setCallToolHandlerUnwrapped(server, (request, extra) => {
    const context = contextFor(deps.services, extra, deps.resultMaxBytes, { tool: request.params.name, minimum: logLevelFor(extra) });
    const run = (within: ToolContext<Services>) =>
      callTool(deps.tools, request.params.name, request.params.arguments, within, { resultMaxBytes: deps.resultMaxBytes, logger: deps.logger });
    if (deps.tasks && request.params.task) return deps.tasks.start(request.params.name, request.params.task.ttl, context, run) as Promise<never>;
    return run(context);
  });
  deps.tasks?.register(server, callerOf);

  const resources = deps.resources;
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: resources?.templates ?? [] }));
  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) =>
    resources ? resources.list(deps.services, callerOf(extra), request.params?.cursor) : { resources: [] },
  );
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra): Promise<ReadResourceResult> => {
    if (!resources) throw new ProtocolError(resourceNotFound, `Resource ${request.params.uri} was not found`, { uri: request.params.uri });
    try {
      const result = await resources.read(deps.services, callerOf(extra), request.params.uri, contextFor(deps.services, extra, deps.resultMaxBytes));
      // Providers name narrower reads themselves; this catches any answer that did not (packages aside).
      if (isPackageAnswer(result)) return result;
      const { size, fits } = measuredWithin(result, deps.resultMaxBytes);
      if (!fits) throw resourceTooLarge(request.params.uri, size, deps.resultMaxBytes, { how: "", uris: [], templates: [], otherwise: "read a narrower resource (see resources/templates/list)" });
      return result;
    } catch (error) {
      throw asProtocolError(error, deps.logger, resourceNotFound);
    }
  });

  const subscriptions = deps.subscriptions;
  if (subscriptions) {
    const sessionOf = (extra: Extra) => {
      if (!extra.sessionId) throw new ProtocolError(ErrorCode.InvalidRequest, "subscriptions need a session (Mcp-Session-Id)");
      return extra.sessionId;
    };
    server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
      try {
        await subscriptions.subscribe(sessionOf(extra), callerOf(extra), request.params.uri);
        return {};
      } catch (error) {
        throw asProtocolError(error, deps.logger, resourceNotFound);
      }
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (request, extra) => {
      try {
        await subscriptions.unsubscribe(sessionOf(extra), request.params.uri);
        return {};
      } catch (error) {
        throw asProtocolError(error, deps.logger, resourceNotFound);
      }
    });
  }

  const prompts = deps.prompts;
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: prompts?.prompts ?? [] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const known = prompts?.prompts.map((prompt) => prompt.name) ?? [];
    if (!prompts || !known.includes(request.params.name)) {
      throw new ProtocolError(ErrorCode.InvalidParams, `Unknown prompt "${request.params.name}"; prompts: ${known.join(", ") || "none"}`);
    }
    try {
      return await prompts.get(deps.services, callerOf(extra), request.params.name, request.params.arguments ?? {});
    } catch (error) {
      throw asProtocolError(error, deps.logger, ErrorCode.InvalidParams);
    }
  });

  server.setRequestHandler(CompleteRequestSchema, async (request, extra): Promise<CompleteResult> => {
    const { ref, argument, context } = request.params;
    const user = callerOf(extra);
    let values: string[] = [];
    if (ref.type === "ref/resource" && resources) values = await resources.complete(deps.services, user, argument.name, argument.value, context?.arguments);
    if (ref.type === "ref/prompt" && prompts?.complete) values = await prompts.complete(deps.services, user, ref.name, argument.name, argument.value);
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
  });

  return server;
}

/** MCP's code for a resource that does not exist (or that the caller may not see). */
const resourceNotFound = -32002;

/**
 * Resource and prompt reads have no `isError` result: their failures travel as JSON-RPC errors, with
 * our code in `data`. `not_found` uses the code of what was read; bad arguments are invalid params.
 */
function asProtocolError(error: unknown, logger: Logger, notFoundCode: number): Error {
  if (error instanceof McpError || error instanceof ProtocolError) return error;
  if (error instanceof CourseAuthoringError) {
    const code = error.code === "not_found" ? notFoundCode : error.code === "invalid_arguments" ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
    return new ProtocolError(code, `${error.code}: ${error.message}`, { code: error.code, ...error.details });
  }
  logger.error("resource read failed", { error: error instanceof Error ? error.message : String(error) });
  return new ProtocolError(ErrorCode.InternalError, "the read failed unexpectedly");
}
