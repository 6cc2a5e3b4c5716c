/**
 * Resource reads obey the cap tool results obey (`MCP_RESULT_MAX_BYTES`): an answer is measured as it
 * goes on the wire, and one too large is `limit_exceeded` naming narrower resources to read instead
 * (per module, per lesson), so an agent can act on it. Export packages are exempt: they are what the
 * caller asked for, and travel as blobs.
 */
import type { ReadResourceResult } from "@modelcontextprotocol/server";
import { CourseAuthoringError } from "../course-authoring-error.ts";

/** Room for the JSON-RPC envelope and transport framing around `result`. */
const envelopeBytes = 256;
/** At most this much of an error lists narrower URIs; the templates say how to build the rest. */
const listedUriBytes = 4096;

const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}

/**
 * The answer's size on the wire and whether it is within `limit`. Text is counted raw first, so a
 * far-too-large answer is never serialised again just to be measured.
 */
export function measuredWithin(result: ReadResourceResult, limit: number): { size: number; fits: boolean } {
  const rawText = result.contents.reduce((sum, content) => sum + ("text" in content && typeof content.text === "string" ? byteLength(content.text) : 0), 0);
  if (rawText + envelopeBytes > limit) return { size: rawText + envelopeBytes, fits: false };
  const size = byteLength(JSON.stringify(result)) + envelopeBytes;
  return { size, fits: size <= limit };
}

/** True when the answer carries only blobs (export packages), which the cap does not apply to. */
export function isPackageAnswer(result: ReadResourceResult): boolean {
  return result.contents.length > 0 && result.contents.every((content) => "blob" in content);
}

export interface NarrowerReads {
  /** What the parts are, e.g. "one module at a time". */
  readonly how: string;
  /** URIs of the parts, in course order. */
  readonly uris: readonly string[];
  /** Templates of the parts, for the ones not listed. */
  readonly templates: readonly string[];
  /** What to do when there is no narrower resource (a single lesson too large). */
  readonly otherwise?: string;
}

/** `size` is null when the answer was stopped as soon as it passed the cap. */
export function resourceTooLarge(uri: string, size: number | null, limit: number, narrower: NarrowerReads): CourseAuthoringError {
  const listed: string[] = [];
  let listedBytes = 0;
  for (const part of narrower.uris) {
    if (listedBytes + part.length > listedUriBytes) break;
    listed.push(part);
    listedBytes += part.length + 2;
  }
  const more = narrower.uris.length - listed.length;
  const parts = listed.length > 0 ? `: ${listed.join(", ")}${more > 0 ? ` and ${more} more (${narrower.templates.join(", ")})` : ""}` : "";
  const instead = narrower.otherwise ?? `read it ${narrower.how}${parts}`;
  const measured = size === null ? "would be larger than" : `would be ${size} bytes, over`;
  return new CourseAuthoringError("limit_exceeded", `${uri} ${measured} this server's ${limit}-byte cap per result; ${instead}.`, {
    uri,
    ...(size === null ? {} : { size }),
    limit,
    ...(listed.length > 0 ? { narrowerUris: listed, moreNarrowerUris: more } : {}),
    uriTemplates: narrower.templates,
  });
}

/** Returns `result` when it fits, else throws `resourceTooLarge`. */
export function boundedResult(result: ReadResourceResult, uri: string, limit: number, narrower: () => NarrowerReads): ReadResourceResult {
  const { size, fits } = measuredWithin(result, limit);
  if (!fits) throw resourceTooLarge(uri, size, limit, narrower());
  return result;
}
