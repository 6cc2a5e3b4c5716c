/**
 * One `tools/call`, from raw arguments to the `CallToolResult` a host receives: unknown tool names are
 * protocol errors (-32602, naming the closest tool); unknown argument names and invalid values are
 * `invalid_arguments` tool errors naming each field; the handler runs on typed input; its answer goes
 * out as `structuredContent` and as text (a one-line summary, then the same JSON, for hosts that read
 * only text); and no answer is larger than the configured cap. Tests call this same function.
 */
import * as v from "valibot";
import { ProtocolError as SdkProtocolError, ProtocolErrorCode, type CallToolResult } from "@modelcontextprotocol/server";
import { CourseAuthoringError, describeIssues } from "../course-authoring-error.ts";
import { rememberedJson } from "../authoring/document-json.ts";
import { ownFileHint } from "../authoring/schemas/fields.ts";
import type { Logger } from "../log.ts";
import type { CompiledTool, ToolContext } from "./registry.ts";
import { closestName, describeUnknownArguments, findUnknownArguments } from "../unknown-arguments.ts";
import { utf8Length } from "../bytes.ts";
import { committedAnswer } from "./committed-answer.ts";

/**
 * A JSON-RPC error whose message and data travel as written: the SDK's own error class, so its
 * encoder writes code, message and data unchanged on both eras.
 */
export class ProtocolError extends SdkProtocolError {
  constructor(code: number, message: string, override readonly data?: Record<string, unknown>) {
    super(code, message, data);
  }
}

/** Room kept for the summary line and the envelope; the rest is shared by structuredContent and its copy in the text. */
const envelopeBytes = 4096;

/** The largest structuredContent (serialised) that still fits the cap once it is also in the text. */
export function structuredBudget(resultMaxBytes: number): number {
  return Math.floor((resultMaxBytes - envelopeBytes) / 2);
}

/**
 * Errors carry no `structuredContent`: SDK clients check it against the tool's output schema even
 * when `isError` is set. The code, message and details travel as a readable line and a JSON text.
 */
export function toolErrorResult(error: CourseAuthoringError): CallToolResult {
  const payload = { error: { code: error.code, message: error.message, ...error.details } };
  return {
    isError: true,
    content: [
      { type: "text", text: `${error.code}: ${error.message}` },
      { type: "text", text: JSON.stringify(payload) },
    ],
  };
}

function byteLength(text: string): number {
  return utf8Length(text);
}

export async function callTool<Services>(
  tools: ReadonlyMap<string, CompiledTool<Services>>,
  name: string,
  rawArguments: Record<string, unknown> | undefined,
  context: ToolContext<Services>,
  options: { resultMaxBytes: number; logger: Logger },
): Promise<CallToolResult> {
  const tool = tools.get(name);
  if (!tool) {
    const names = [...tools.keys()];
    const suggestion = closestName(name, names);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      // A name is echoed only as long as a real one: the request may carry megabytes of it.
      `Unknown tool "${name.slice(0, 100)}${name.length > 100 ? "…" : ""}".${suggestion ? ` Did you mean ${suggestion}?` : ""} Tools: ${names.join(", ")}`,
      suggestion ? { suggestion } : undefined,
    );
  }
  const args = rawArguments ?? {};
  const unknown = findUnknownArguments(tool.definition.input, args);
  if (unknown.length > 0) {
    return toolErrorResult(
      new CourseAuthoringError("invalid_arguments", `invalid arguments for ${name}: ${describeUnknownArguments(unknown)}`, {
        fields: unknown.map((item) => item.path),
        unknownArguments: unknown,
      }),
    );
  }
  const parsed = v.safeParse(tool.definition.input, args);
  if (!parsed.success) {
    const { message, fields } = describeIssues(parsed.issues, (key) => (key === "assetId" ? ownFileHint : undefined));
    return toolErrorResult(new CourseAuthoringError("invalid_arguments", `invalid arguments for ${name}: ${message}`, { fields }));
  }
  try {
    const result = await tool.definition.handler(parsed.output, context);
    // A course document's text was usually made already, when the read measured it to page it.
    const known = rememberedJson(result.structuredContent);
    const data = known?.text ?? JSON.stringify(result.structuredContent);
    const text = `${result.summary}\n${data}`;
    const dataBytes = known?.bytes ?? byteLength(data);
    const size = byteLength(result.summary) + 1 + 2 * dataBytes + (result.content ? byteLength(JSON.stringify(result.content)) : 0);
    if (size > options.resultMaxBytes) {
      // A write has committed by now: its answer must say so, never that it was refused.
      if (tool.definition.annotations.readOnlyHint !== true) return committedAnswer(tool.definition, result, size, options.resultMaxBytes, structuredBudget(options.resultMaxBytes));
      const narrow = tool.definition.narrow ?? "ask for less";
      return toolErrorResult(
        new CourseAuthoringError("limit_exceeded", `the answer of ${name} would be ${size} bytes, over this server's ${options.resultMaxBytes}-byte cap per result; ${narrow}.`, {
          size,
          limit: options.resultMaxBytes,
        }),
      );
    }
    return { content: [{ type: "text", text }, ...(result.content ?? [])], structuredContent: result.structuredContent };
  } catch (error) {
    if (error instanceof CourseAuthoringError) return toolErrorResult(error);
    options.logger.error("tool failed", { tool: name, error: error instanceof Error ? error.message : String(error) });
    return toolErrorResult(new CourseAuthoringError("invalid_state", "the operation failed unexpectedly and changed nothing; try again or report it"));
  }
}
