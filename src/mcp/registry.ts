/**
 * The tool registry: every MCP tool is one `ToolDefinition` whose valibot schema is the single source
 * of its argument type, its validation and its advertised JSON Schema. Tools never see HTTP or auth
 * details; they get the verified user and the store through `ToolContext`, and fail by throwing
 * `CourseAuthoringError` (the service's own error type), which the server translates into a tool error.
 */
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import type { ContentBlock, Icon, Tool, ToolAnnotations } from "@modelcontextprotocol/server";
import type { CallerIdentity } from "../auth/identity.ts";
import type { ToolLog } from "./tool-log.ts";

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
  /** Log messages to the client about this call (`tool-log.ts`); absent where no client listens. */
  log?: ToolLog;
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
  /**
   * Shared definitions this tool lists in their `brief` form, pointing to a tool of the same toolset
   * that lists them whole: every host that lists this tool lists that one too.
   */
  briefDefinitions?: readonly string[];
  /**
   * Shared definitions listed brief only when `tool`, which lists them whole, is listed too (it is of
   * another toolset): `add_blocks` beside `edit_course`, so a listing of both carries `Block` once.
   */
  briefDefinitionsBeside?: { tool: string; definitions: readonly string[] };
  /** Listed as the tool's `_meta`, e.g. an MCP Apps UI link `{ ui: { resourceUri } }`. */
  meta?: Record<string, unknown>;
  /**
   * For a tool that destroys: what this call would lose, as the question put to the user before it runs
   * (confirmations.ts), or undefined when it loses nothing. The tool's input then has `confirm`.
   */
  confirm?: (args: v.InferOutput<Input>, context: ToolContext<Services>) => Promise<string | undefined>;
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
  /** A few words naming where `listed` is, for tools that ask for it (`briefDefinitions`). */
  brief?: Record<string, unknown>;
}
export type SharedDefinitions = Record<string, SharedDefinition>;

function objectJsonSchema(schema: v.GenericSchema, where: string, shared: SharedDefinitions, brief: readonly string[] = []): JsonObjectSchema {
  const definitions = Object.fromEntries(Object.entries(shared).map(([name, definition]) => [name, definition.schema]));
  const json = toJsonSchema(schema, { errorMode: "ignore", typeMode: "input", definitions }) as Record<string, unknown>;
  if (json.type !== "object") throw new Error(`${where} must be a valibot object schema`);
  delete json.$schema;
  compactInputSchema(json);
  const defs = json.$defs as Record<string, unknown> | undefined;
  if (defs) {
    for (const name of Object.keys(defs)) {
      const definition = shared[name];
      if (definition) defs[name] = (brief.includes(name) && definition.brief) || definition.listed;
    }
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

/**
 * An input schema as listed, shorter where it only repeats: the ID patterns of the server's own IDs
 * (`^crs_[0-9a-z]{1,64}$`: an agent copies IDs, it never makes one up, and the server still checks
 * them), `type: "string"` beside a list of string values, an empty `required` and a `default` of `[]`
 * (an omitted list is empty). Other patterns, defaults and every bound stay.
 */
function compactInputSchema(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) compactInputSchema(item);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    // `properties` and `$defs` map names to schemas; a field may well be called "type" or "pattern".
    if (key === "properties" || key === "$defs") {
      if (isObject(value)) for (const entry of Object.values(value)) compactInputSchema(entry);
    } else if (typeof value === "object") compactInputSchema(value);
  }
  if (typeof node.pattern === "string" && serverIdPattern.test(node.pattern)) delete node.pattern;
  if (node.type === "string" && Array.isArray(node.enum) && node.enum.every((value) => typeof value === "string")) delete node.type;
  if (Array.isArray(node.required) && node.required.length === 0) delete node.required;
  if (Array.isArray(node.default) && node.default.length === 0) delete node.default;
}

/** The pattern of an ID the server issues (`src/course-uris.ts`): a prefix or a choice of prefixes, `_`, then base-36. */
const serverIdPattern = /^\^(?:[a-z]{3}|\([a-z]{3}(?:\|[a-z]{3})*\))_\[0-9a-z\]\{1,64\}\$$/;

/**
 * An output schema as listed: what a client checks results against, not what the model reads, so it
 * keeps types, fields and what they mean, and leaves out what only repeats or costs: `anyOf` of bare
 * types becomes a type list, the ID patterns of the server's own answers go, and so do long value lists
 * (block types, rule IDs) that the input schemas and descriptions already teach.
 */
function compactOutputSchema(node: Record<string, unknown>): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // `properties` and `$defs` map names to schemas; a field may well be called "type" or "pattern".
    if ((key === "properties" || key === "$defs") && isObject(value)) schema[key] = mapValues(value, compactOutputSchema);
    else if ((key === "anyOf" || key === "oneOf" || key === "allOf") && Array.isArray(value)) schema[key] = value.map((item) => (isObject(item) ? compactOutputSchema(item) : item));
    else if ((key === "items" || key === "additionalProperties") && isObject(value)) schema[key] = compactOutputSchema(value);
    else schema[key] = value;
  }
  const options = schema.anyOf as Record<string, unknown>[] | undefined;
  if (options?.every((option) => Object.keys(option).length === 1 && typeof option.type === "string")) {
    delete schema.anyOf;
    schema.type = options.map((option) => option.type);
  }
  if (typeof schema.pattern === "string") delete schema.pattern;
  // Output fields are described in the result's own text; in the listing their words cost every agent step.
  if (typeof schema.description === "string") delete schema.description;
  if (Array.isArray(schema.enum)) {
    if (schema.enum.length > longestListedEnum) delete schema.enum;
    else if (schema.type === "string" && schema.enum.every((value) => typeof value === "string")) delete schema.type;
  }
  if (isObject(schema.properties) && Object.keys(schema.properties).length === 0) delete schema.properties;
  if (Array.isArray(schema.required) && schema.required.length === 0) delete schema.required;
  return schema;
}

const longestListedEnum = 8;

/** MCP's defaults for the behaviour hints (a tool may write, destructively, not idempotently, in an open world). */
const defaultHints: Readonly<Record<string, boolean>> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/** The annotations without the hints that say what a client assumes anyway: the same meaning in fewer bytes. */
function withoutDefaultHints(annotations: ToolAnnotations | undefined): ToolAnnotations {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(annotations ?? {})) if (defaultHints[key] !== value) kept[key] = value;
  // A read-only tool's destructive and idempotent hints mean nothing (the specification ignores them).
  if (kept.readOnlyHint === true) {
    delete kept.destructiveHint;
    delete kept.idempotentHint;
  }
  return kept as ToolAnnotations;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function mapValues(object: Record<string, unknown>, map: (value: Record<string, unknown>) => Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, isObject(value) ? map(value) : value]));
}

export interface CompiledTool<Services> {
  definition: ToolDefinition<Services>;
  listing: Tool;
  /** The input schema listed instead when the tool `beside` is listed too (`briefDefinitionsBeside`). */
  briefInput?: { beside: string; inputSchema: JsonObjectSchema };
}

/** The listings of the tools a host chose, each shared definition whole once where `briefDefinitionsBeside` allows. */
export function listingsOf<Services>(tools: readonly CompiledTool<Services>[]): Tool[] {
  const names = new Set(tools.map((tool) => tool.definition.name));
  return tools.map((tool) => (tool.briefInput && names.has(tool.briefInput.beside) ? { ...tool.listing, inputSchema: tool.briefInput.inputSchema } : tool.listing));
}

/**
 * Converts the definitions once at start-up, so `tools/list` is a constant answer. `icons` are listed
 * per toolset: every tool of a toolset shows its toolset's icon.
 */
export function compileTools<Services>(
  definitions: ToolDefinition<Services>[],
  shared: SharedDefinitions = {},
  icons: Readonly<Record<string, Icon[]>> = {},
): Map<string, CompiledTool<Services>> {
  const tools = new Map<string, CompiledTool<Services>>();
  for (const definition of definitions) {
    if (tools.has(definition.name)) throw new Error(`tool ${definition.name} is registered twice`);
    tools.set(definition.name, {
      definition,
      listing: {
        name: definition.name,
        title: definition.title,
        description: definition.description,
        inputSchema: objectJsonSchema(definition.input, `${definition.name} input`, shared, definition.briefDefinitions),
        outputSchema: compactOutputSchema(objectJsonSchema(definition.output, `${definition.name} output`, shared)) as JsonObjectSchema,
        // The title is listed once, at the top: MCP prefers it to annotations.title.
        annotations: withoutDefaultHints(definition.annotations),
        ...(icons[definition.toolset] ? { icons: icons[definition.toolset] } : {}),
        ...(definition.meta ? { _meta: definition.meta } : {}),
      },
      ...(definition.briefDefinitionsBeside
        ? {
            briefInput: {
              beside: definition.briefDefinitionsBeside.tool,
              inputSchema: objectJsonSchema(definition.input, `${definition.name} input`, shared, [...(definition.briefDefinitions ?? []), ...definition.briefDefinitionsBeside.definitions]),
            },
          }
        : {}),
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
