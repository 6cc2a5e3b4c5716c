/**
 * Builds the MCP server for one session (or one stateless request) on the SDK's low-level `Server`:
 * tools from the registry, resources, prompts, completions and logging. Arguments are validated with
 * each tool's valibot schema here, once, so tools receive typed input; every failure an agent can act
 * on comes back as an `isError` result with a code, never as a protocol error or a stack trace.
 */
import * as v from "valibot";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type CompleteResult,
  type GetPromptResult,
  type ListResourcesResult,
  type Prompt,
  type ReadResourceResult,
  type ResourceTemplate,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../log.ts";
import { type CallerIdentity, type CompiledTool, type ToolContext } from "./registry.ts";
import { CourseAuthoringError, describeIssues } from "../course-authoring-error.ts";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Resources offered to agents; read failures are CourseAuthoringErrors (mapped to JSON-RPC errors). */
export interface ResourceProvider<Services> {
  templates: ResourceTemplate[];
  list(services: Services, user: CallerIdentity, cursor: string | undefined): Promise<ListResourcesResult>;
  read(services: Services, user: CallerIdentity, uri: string, context: ToolContext<Services>): Promise<ReadResourceResult>;
  /** Values completing `argument` of a resource template, for the caller. */
  complete(services: Services, user: CallerIdentity, argument: string, value: string): Promise<string[]>;
}

export interface PromptProvider<Services> {
  prompts: Prompt[];
  get(services: Services, user: CallerIdentity, name: string, args: Record<string, string>): Promise<GetPromptResult>;
  complete?(services: Services, user: CallerIdentity, prompt: string, argument: string, value: string): Promise<string[]>;
}

export interface McpServerDeps<Services> {
  name: string;
  version: string;
  instructions: string;
  tools: Map<string, CompiledTool<Services>>;
  services: Services;
  resources?: ResourceProvider<Services>;
  prompts?: PromptProvider<Services>;
  logger: Logger;
}

/** The identity the HTTP auth layer verified, handed to the transport as `authInfo.extra`. */
export function callerOf(extra: Extra): CallerIdentity {
  const identity = extra.authInfo?.extra?.identity as CallerIdentity | undefined;
  if (!identity) throw new McpError(ErrorCode.InvalidRequest, "request is not authenticated");
  return identity;
}

/**
 * Errors carry no `structuredContent`: SDK clients check it against the tool's output schema even
 * when `isError` is set. The code, message and details travel as a readable line and a JSON text.
 */
function toolErrorResult(error: CourseAuthoringError): CallToolResult {
  const payload = { error: { code: error.code, message: error.message, ...error.details } };
  return {
    isError: true,
    content: [
      { type: "text", text: `${error.code}: ${error.message}` },
      { type: "text", text: JSON.stringify(payload) },
    ],
  };
}

function contextFor<Services>(services: Services, extra: Extra): ToolContext<Services> {
  const progressToken = extra._meta?.progressToken;
  return {
    user: callerOf(extra),
    services,
    signal: extra.signal,
    progress: async (progress, total, message) => {
      if (progressToken === undefined) return;
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) },
      });
    },
  };
}

export function createMcpServer<Services>(deps: McpServerDeps<Services>): Server {
  const server = new Server(
    { name: deps.name, version: deps.version },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false, subscribe: false },
        prompts: { listChanged: false },
        completions: {},
        logging: {},
      },
      instructions: deps.instructions,
    },
  );
  const listing = { tools: [...deps.tools.values()].map((tool) => tool.listing) };

  server.setRequestHandler(ListToolsRequestSchema, () => listing);

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = deps.tools.get(request.params.name);
    if (!tool) {
      const names = [...deps.tools.keys()].join(", ");
      return toolErrorResult(new CourseAuthoringError("invalid_arguments", `unknown tool "${request.params.name}"; available tools: ${names}`));
    }
    const parsed = v.safeParse(tool.definition.input, request.params.arguments ?? {});
    if (!parsed.success) {
      const { message, fields } = describeIssues(parsed.issues);
      return toolErrorResult(new CourseAuthoringError("invalid_arguments", `invalid arguments for ${tool.definition.name}: ${message}`, { fields }));
    }
    try {
      const result = await tool.definition.handler(parsed.output, contextFor(deps.services, extra));
      return { content: [{ type: "text", text: result.summary }, ...(result.content ?? [])], structuredContent: result.structuredContent };
    } catch (error) {
      if (error instanceof CourseAuthoringError) return toolErrorResult(error);
      deps.logger.error("tool failed", { tool: tool.definition.name, error: error instanceof Error ? error.message : String(error) });
      return toolErrorResult(new CourseAuthoringError("invalid_state", "the operation failed unexpectedly and changed nothing; try again or report it"));
    }
  });

  const resources = deps.resources;
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: resources?.templates ?? [] }));
  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) =>
    resources ? resources.list(deps.services, callerOf(extra), request.params?.cursor) : { resources: [] },
  );
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra): Promise<ReadResourceResult> => {
    if (!resources) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${request.params.uri}`);
    try {
      return await resources.read(deps.services, callerOf(extra), request.params.uri, contextFor(deps.services, extra));
    } catch (error) {
      throw asProtocolError(error, deps.logger);
    }
  });

  const prompts = deps.prompts;
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: prompts?.prompts ?? [] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    if (!prompts) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${request.params.name}`);
    try {
      return await prompts.get(deps.services, callerOf(extra), request.params.name, request.params.arguments ?? {});
    } catch (error) {
      throw asProtocolError(error, deps.logger);
    }
  });

  server.setRequestHandler(CompleteRequestSchema, async (request, extra): Promise<CompleteResult> => {
    const { ref, argument } = request.params;
    const user = callerOf(extra);
    let values: string[] = [];
    if (ref.type === "ref/resource" && resources) values = await resources.complete(deps.services, user, argument.name, argument.value);
    if (ref.type === "ref/prompt" && prompts?.complete) values = await prompts.complete(deps.services, user, ref.name, argument.name, argument.value);
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
  });

  return server;
}

/** Resource and prompt reads have no `isError` result: their failures travel as JSON-RPC errors with our code in `data`. */
function asProtocolError(error: unknown, logger: Logger): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof CourseAuthoringError) {
    const code = error.code === "not_found" ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
    return new McpError(code, `${error.code}: ${error.message}`, { code: error.code, ...error.details });
  }
  logger.error("resource read failed", { error: error instanceof Error ? error.message : String(error) });
  return new McpError(ErrorCode.InternalError, "the read failed unexpectedly");
}
