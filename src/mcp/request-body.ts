/**
 * Reading an MCP request's body: `application/json` in UTF-8 only, at most `maxBytes` (declared or
 * actually sent), and all of it within `deadlineMs`, so a client trickling bytes cannot hold the
 * request open. Every refusal is a JSON-RPC error response, never problem+json.
 */
import { jsonRpcErrorResponse } from "../http/jsonrpc-error.ts";
import { describeJsonShapeProblem, jsonShapeProblem, type JsonShapeLimits } from "../codecs/json.ts";

export interface BodyPolicy {
  maxBytes: number;
  /** The whole body must arrive within this many milliseconds of starting to read it. */
  deadlineMs: number;
  /** Told when a client stopped sending mid-body: its business, not a server fault. */
  onIncomplete?: (reason: string) => void;
  /** The JSON's shape, checked before it is parsed; `mcpBodyShape` unless told. */
  shape?: JsonShapeLimits;
}

/**
 * The shape of any /mcp body, checked by one flat scan before JSON.parse. Parsing many distinct member
 * names, then the SDK's message schemas, argument checks and serialisers, cost microseconds a member,
 * so a body of a few MB of members held the event loop for seconds; these bounds hold it to a fraction
 * of a second. No legitimate request comes near them: the largest argument arrays hold 1,000 items
 * (set_translation_units), a whole edit_course batch or create_course outline an agent writes is a few
 * thousand members, tool arguments nest about a dozen deep, member names are field and `_meta` names,
 * and the longest value, a base64 upload or import (10 MB decoded), is bounded only by the body cap.
 */
export const mcpBodyShape = (maxBytes: number): JsonShapeLimits => ({
  maxDepth: 64,
  maxMembers: 10_000,
  maxMembersInAll: 100_000,
  maxStringLength: maxBytes,
  maxKeyLength: 1_024,
});

export type BodyResult = { ok: true; body: unknown } | { ok: false; response: Response };

/**
 * Why a POST body's `Content-Type` is refused, or undefined when it is `application/json` in UTF-8:
 * the body is decoded as UTF-8 (RFC 8259 §8.1), so another declared charset would be misread.
 */
export function unsupportedContentType(contentType: string): string | undefined {
  const [mediaType = "", ...parameters] = contentType.split(";");
  if (mediaType.trim().toLowerCase() !== "application/json") return "Content-Type must be application/json";
  for (const parameter of parameters) {
    const [name = "", value = ""] = parameter.split("=", 2);
    if (name.trim().toLowerCase() !== "charset") continue;
    const charset = value.trim().replace(/^"(.*)"$/, "$1");
    if (charset.toLowerCase() !== "utf-8") return `Content-Type charset "${charset.slice(0, 40)}" is not supported: send UTF-8 (charset=utf-8, or no charset)`;
  }
  return undefined;
}

const tooLarge = (maxBytes: number) => ({ ok: false as const, response: jsonRpcErrorResponse(413, -32600, `request body exceeds ${maxBytes} bytes`) });

class BodyDeadline extends Error {}

/** Why reading stopped: the deadline passed, or the client went away mid-body. */
function unfinished(error: unknown, policy: BodyPolicy): BodyResult {
  if (error instanceof BodyDeadline) {
    const seconds = Math.round(policy.deadlineMs / 1000);
    return { ok: false, response: jsonRpcErrorResponse(408, -32600, `Request Timeout: the request body did not arrive within ${seconds} seconds`, { Connection: "close" }) };
  }
  policy.onIncomplete?.(error instanceof Error ? error.message : String(error));
  return { ok: false, response: jsonRpcErrorResponse(400, -32700, "Parse error: the request body ended before it was complete") };
}

/**
 * Body reads under way, each with the moment it gives up; one sweep a quarter second fails the late
 * ones. A timer per request (set, then cleared when the body came, as it nearly always does at once)
 * cost more than the rest of the read; deadlines are whole seconds, so a quarter second late is fine.
 */
const pendingReads = new Set<{ at: number; fail: (error: BodyDeadline) => void }>();
let sweeper: ReturnType<typeof setInterval> | undefined;

function sweepLateReads(): void {
  const now = performance.now();
  for (const read of pendingReads) {
    if (read.at > now) continue;
    pendingReads.delete(read);
    read.fail(new BodyDeadline());
  }
  if (pendingReads.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

/** Runs `read` against the policy's deadline. */
async function withinDeadline<T>(policy: BodyPolicy, read: (deadline: Promise<never>) => Promise<T>): Promise<T | BodyResult> {
  const pending = { at: performance.now() + policy.deadlineMs, fail: (_error: BodyDeadline) => {} };
  const deadline = new Promise<never>((_, reject) => {
    pending.fail = reject;
  });
  pendingReads.add(pending);
  if (sweeper === undefined) {
    sweeper = setInterval(sweepLateReads, Math.min(250, policy.deadlineMs));
    sweeper.unref?.();
  }
  try {
    return await read(deadline);
  } catch (error) {
    return unfinished(error, policy);
  } finally {
    pendingReads.delete(pending);
  }
}

/**
 * A body of declared length (already checked against the limit): the runtime reads exactly that many
 * bytes in one native call, far cheaper per request than pulling chunks through a stream reader.
 */
function readDeclared(request: Request, policy: BodyPolicy): Promise<Uint8Array | BodyResult> {
  return withinDeadline(policy, async (deadline) => new Uint8Array(await Promise.race([request.arrayBuffer(), deadline])));
}

/** A body of undeclared length (chunked): counted as it arrives, so an endless one stops at the limit. */
function readChunked(body: ReadableStream<Uint8Array>, policy: BodyPolicy): Promise<Uint8Array | BodyResult> {
  return withinDeadline(policy, async (deadline) => {
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await Promise.race([reader.read(), deadline]);
        if (done) break;
        size += value.byteLength;
        if (size > policy.maxBytes) return tooLarge(policy.maxBytes);
        chunks.push(value);
      }
    } finally {
      // Stops reading whatever is still coming (a body cut off by a refusal); harmless when done.
      reader.cancel().catch(() => undefined);
    }
    if (chunks.length === 1) return chunks[0]!;
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return bytes;
  });
}

const utf8 = new TextDecoder();

export async function readJsonBody(request: Request, policy: BodyPolicy): Promise<BodyResult> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > policy.maxBytes) return tooLarge(policy.maxBytes);
  const unsupported = unsupportedContentType(request.headers.get("content-type") ?? "");
  if (unsupported !== undefined) return { ok: false, response: jsonRpcErrorResponse(415, -32600, unsupported) };
  // A declared length never touches `request.body`: asking for it makes the runtime build a stream the read then goes through.
  const bytes = request.headers.has("content-length") ? await readDeclared(request, policy) : request.body === null ? new Uint8Array(0) : await readChunked(request.body, policy);
  if (!(bytes instanceof Uint8Array)) return bytes;
  const text = utf8.decode(bytes);
  const problem = jsonShapeProblem(text, policy.shape ?? mcpBodyShape(policy.maxBytes));
  if (problem) return { ok: false, response: jsonRpcErrorResponse(400, -32600, `Invalid Request: the request body ${describeJsonShapeProblem(problem)}; nothing was done`) };
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch {
    return { ok: false, response: jsonRpcErrorResponse(400, -32700, "Parse error: the request body is not valid JSON") };
  }
}
