/**
 * Confirm before destroying, with a multi round-trip request: a tool that would lose something
 * (`ToolDefinition.confirm` says what) answers an `input_required` elicitation naming it, unless the call
 * already says `confirm: true`. The client asks its user and calls again with the answer and the
 * `requestState` it was given, which is sealed (HMAC over the user, the tool, the arguments and an
 * expiry: the SDK's `createRequestStateCodec`), so a tampered, expired or another user's state, or one
 * from another call, is refused and nothing is written. A client that cannot elicit gets the tool as it
 * always was (and the documented `confirm` argument). 2025 clients that can elicit are asked the same
 * question through the SDK's legacy shim, on their session's stream.
 */
import * as v from "valibot";
import { acceptedContent, createRequestStateCodec, inputRequired, ProtocolErrorCode, type CallToolResult, type InputRequiredResult, type ServerContext } from "@modelcontextprotocol/server";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { ProtocolError, toolErrorResult } from "./call-tool.ts";
import type { CallerIdentity, CompiledTool, ToolContext } from "./registry.ts";

/** The `confirm` argument of the tools that ask first. */
export const confirmField = v.optional(
  v.pipe(v.boolean(), v.description("true: the user agreed to the loss; do not ask (needed for a task)")),
);

/** What a sealed state holds: whose call, of which tool, with which arguments, and a nonce so it acts once. */
interface ConfirmationState {
  sub: string;
  tool: string;
  arguments: string;
  nonce: string;
}

const stateTtlSeconds = 10 * 60;

const answerSchema = v.object({ confirm: v.boolean() });
const requestedSchema = {
  type: "object" as const,
  properties: { confirm: { type: "boolean" as const, title: "Go ahead", description: "Yes: do it, and lose what is named above." } },
  required: ["confirm"],
};

/** SHA-256 of the arguments as sent, `confirm` left out: the state is for this call and no other. */
async function argumentsDigest(args: Record<string, unknown>): Promise<string> {
  const { confirm: _confirm, ...rest } = args;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(rest)));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Whether the client can answer an elicitation: the modern request's own capabilities, or the 2025 session's. */
function canElicit(extra: ServerContext, sessionCapabilities: Record<string, unknown> | undefined): boolean {
  const envelope = extra.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope ? (envelope["io.modelcontextprotocol/clientCapabilities"] as Record<string, unknown> | undefined) : sessionCapabilities;
  return typeof capabilities?.elicitation === "object" && capabilities.elicitation !== null;
}

export function createConfirmations(options: {
  key: string;
  callerOf: (extra: ServerContext) => CallerIdentity;
  /** Marks a state's nonce used until `expiresAt`; false when it already was (any replica). */
  claim: (nonce: string, expiresAt: Date) => Promise<boolean>;
}) {
  const codec = createRequestStateCodec<ConfirmationState>({
    key: options.key,
    ttlSeconds: stateTtlSeconds,
    // The user is sealed in as well as written in: another user's state fails verification outright.
    bind: (extra) => `tools/call\0${options.callerOf(extra).sub}`,
  });

  return {
    /** The hook the SDK runs on every echoed `requestState` (`ServerOptions.requestState.verify`). */
    verify: codec.verify,

    /**
     * For a call of a tool that asks first: the question (`input_required`), the refusal of an answer that
     * was no or does not belong to this call, or undefined to run the call.
     */
    async before<Services>(
      tool: CompiledTool<Services> | undefined,
      args: Record<string, unknown>,
      context: ToolContext<Services>,
      extra: ServerContext,
      sessionCapabilities: Record<string, unknown> | undefined,
    ): Promise<InputRequiredResult | CallToolResult | undefined> {
      const confirm = tool?.definition.confirm;
      if (!tool || !confirm || args.confirm === true || !canElicit(extra, sessionCapabilities)) return undefined;
      const name = tool.definition.name;
      const state = extra.mcpReq.requestState<ConfirmationState>();
      if (state !== undefined) {
        if (typeof state !== "object" || state.sub !== context.user.sub || state.tool !== name || state.arguments !== (await argumentsDigest(args))) {
          return toolErrorResult(
            new CourseAuthoringError("invalid_arguments", `the confirmation answered belongs to another call than this ${name}; call it again to be asked afresh. Nothing was changed.`, {
              fields: ["requestState"],
            }),
          );
        }
        const answer = acceptedContent(extra.mcpReq.inputResponses, "confirm", answerSchema);
        if (answer?.confirm === true) {
          // A yes acts once: the same state and answer sent again (a replay) are refused on every replica.
          if (typeof state.nonce === "string" && (await options.claim(state.nonce, new Date(Date.now() + (stateTtlSeconds + 60) * 1000)))) return undefined;
          return toolErrorResult(
            new CourseAuthoringError("invalid_state", `this confirmation of ${name} was already used; call it again to be asked afresh. Nothing was changed by this call.`, {
              fields: ["requestState"],
            }),
          );
        }
        return toolErrorResult(new CourseAuthoringError("invalid_state", `${name} was not confirmed, so nothing was changed.`, { confirmed: false }));
      }
      const question = await questionFor(tool, args, context);
      if (question === undefined) return undefined;
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: question, requestedSchema }) },
        requestState: await codec.mint({ sub: context.user.sub, tool: name, arguments: await argumentsDigest(args), nonce: crypto.randomUUID() }, extra),
      });
    },

    /**
     * Before a task-augmented call starts: a task runs on after its call is answered, so there is no
     * turn left to ask in. A call that would lose something must say `confirm: true` up front; otherwise
     * it is refused (-32602, naming `confirm` and what would be lost) and no task is started.
     */
    async beforeTask<Services>(tool: CompiledTool<Services> | undefined, args: Record<string, unknown>, context: ToolContext<Services>): Promise<void> {
      if (!tool?.definition.confirm || args.confirm === true) return;
      const question = await questionFor(tool, args, context);
      if (question === undefined) return;
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `invalid_arguments: confirm: ${tool.definition.name} as a task cannot ask first, and this call loses something (${question}). Call it again with confirm: true to go ahead, or without a task to be asked. No task was started and nothing was changed.`,
        { code: "invalid_arguments", fields: ["confirm"], question },
      );
    },
  };
}

/** What the call would lose, as the question to ask; undefined when nothing, or when the call itself will fail. */
async function questionFor<Services>(tool: CompiledTool<Services>, args: Record<string, unknown>, context: ToolContext<Services>): Promise<string | undefined> {
  const confirm = tool.definition.confirm;
  if (!confirm) return undefined;
  const parsed = v.safeParse(tool.definition.input, args);
  // Invalid arguments are answered by the call itself, naming each field.
  if (!parsed.success) return undefined;
  try {
    return await confirm(parsed.output, context);
  } catch (error) {
    // What cannot be read to ask about (no such course, no access) the call itself answers, as it would unasked.
    if (error instanceof CourseAuthoringError) return undefined;
    throw error;
  }
}

export type Confirmations = ReturnType<typeof createConfirmations>;
