/**
 * The tool registry: every MCP tool is one `ToolDefinition` whose valibot schema is the single source
 * of its argument type, its validation and its advertised JSON Schema. Tools never see HTTP or auth
 * details; they get the verified user and the store through `ToolContext`, and fail by throwing
 * `CourseAuthoringError` (the service's own error type), which the server translates into a tool error.
 */
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import type { ContentBlock, Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { CallerIdentity } from "../auth/identity.ts";

export type { CallerIdentity };

export interface ProgressReporter {
  (progress: number, total?: number, message?: string): Promise<void>;
}

export interface ToolContext<Services> {
  user: CallerIdentity;
  services: Services;
  signal: AbortSignal;
  /** The cap on a whole result, in bytes (`MCP_RESULT_MAX_BYTES`). */
  resultMaxBytes: number;
  /** Largest serialised structuredContent that fits the result cap; reads that can page stop there. */
  structuredBudgetBytes: number;
  /** Sends `notifications/progress` when the client asked for it; a no-op otherwise. */
  progress: ProgressReporter;
}

export interface ToolResult {
  /** Machine-readable result; must match the tool's output schema. */
  structuredContent: Record<string, unknown>;
  /** A short human/model-readable summary. */
  summary: string;
  /** Further content after the summary, e.g. an embedded resource or a resource link (export_course). */
  content?: ContentBlock[];
}

export interface ToolDefinition<Services, Input extends v.GenericSchema = v.GenericSchema> {
  name: string;
  /** The toolset that lists it (see `toolsets.ts`); hosts choose toolsets to keep their context small. */
  toolset: string;
  title: string;
  /** Written for the model: what it does, when to use it, what it returns. */
  description: string;
  input: Input;
  output: v.GenericSchema;
  annotations: Omit<ToolAnnotations, "title">;
  /** How to ask for less when an answer would pass the result cap ("pass moduleIds or lessonIds"). */
  narrow?: string;
  /** Listed as the tool's `_meta`, e.g. an MCP Apps UI link `{ ui: { resourceUri } }`. */
  meta?: Record<string, unknown>;
  handler: (args: v.InferOutput<Input>, context: ToolContext<Services>) => Promise<ToolResult>;
}

/** Keeps the input type of each tool precise while the registry stores them uniformly. */
export function defineTool<Services, Input extends v.GenericSchema>(
  definition: ToolDefinition<Services, Input>,
): ToolDefinition<Services, v.GenericSchema> {
  return definition as unknown as ToolDefinition<Services, v.GenericSchema>;
}

type JsonObjectSchema = Tool["inputSchema"];

/**
 * Schemas that many tools embed (the block union, a batch step) become one `$defs` entry per tool that
 * uses them, listed as `listed`: a compact summary instead of the full JSON Schema. The server still
 * validates against `schema`, so what is accepted does not change, only how much the listing costs.
 */
export interface SharedDefinition {
  schema: v.GenericSchema;
  listed: Record<string, unknown>;
}
export type SharedDefinitions = Record<string, SharedDefinition>;

function objectJsonSchema(schema: v.GenericSchema, where: string, shared: SharedDefinitions): JsonObjectSchema {
  const definitions = Object.fromEntries(Object.entries(shared).map(([name, definition]) => [name, definition.schema]));
  const json = toJsonSchema(schema, { errorMode: "ignore", typeMode: "input", definitions }) as Record<string, unknown>;
  if (json.type !== "object") throw new Error(`${where} must be a valibot object schema`);
  delete json.$schema;
  const defs = json.$defs as Record<string, unknown> | undefined;
  if (defs) {
    for (const name of Object.keys(defs)) if (shared[name]) defs[name] = shared[name].listed;
    // Keep a definition only while the schema or another kept definition still refers to it.
    for (let pruned = true; pruned; ) {
      pruned = false;
      for (const name of Object.keys(defs)) {
        const rest = JSON.stringify({ ...json, $defs: { ...defs, [name]: undefined } });
        if (!rest.includes(`"#/$defs/${name}"`)) {
          delete defs[name];
          pruned = true;
        }
      }
    }
    if (Object.keys(defs).length === 0) delete json.$defs;
  }
  return json as JsonObjectSchema;
}

export interface CompiledTool<Services> {
  definition: ToolDefinition<Services>;
  listing: Tool;
}

/** Converts the definitions once at start-up, so `tools/list` is a constant answer. */
export function compileTools<Services>(definitions: ToolDefinition<Services>[], shared: SharedDefinitions = {}): Map<string, CompiledTool<Services>> {
  const tools = new Map<string, CompiledTool<Services>>();
  for (const definition of definitions) {
    if (tools.has(definition.name)) throw new Error(`tool ${definition.name} is registered twice`);
    tools.set(definition.name, {
      definition,
      listing: {
        name: definition.name,
        title: definition.title,
        description: definition.description,
        inputSchema: objectJsonSchema(definition.input, `${definition.name} input`, shared),
        outputSchema: objectJsonSchema(definition.output, `${definition.name} output`, shared),
        annotations: { title: definition.title, ...definition.annotations },
        ...(definition.meta ? { _meta: definition.meta } : {}),
      },
    });
  }
  return tools;
}

export type ToolHandler<Services> = ToolDefinition<Services>["handler"];

/** The same catalogue with each handler wrapped (outage answers, metrics); listings stay as compiled. */
export function wrapToolHandlers<Services>(
  tools: Map<string, CompiledTool<Services>>,
  wrap: (name: string, handler: ToolHandler<Services>) => ToolHandler<Services>,
): Map<string, CompiledTool<Services>> {
  const wrapped = new Map<string, CompiledTool<Services>>();
  for (const [name, tool] of tools) {
    wrapped.set(name, { ...tool, definition: { ...tool.definition, handler: wrap(name, tool.definition.handler) } });
  }
  return wrapped;
}
