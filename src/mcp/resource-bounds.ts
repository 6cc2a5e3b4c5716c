/**
 * Resource reads obey the cap tool results obey (`MCP_RESULT_MAX_BYTES`): an answer is measured as it
 * goes on the wire, and one too large is `limit_exceeded` naming narrower resources to read instead, so
 * an agent can act on it. Every URI named fits: a module too large is replaced by its lessons, a lesson
 * too large by runs of its blocks (`partsThatFit`). Export packages are exempt: they are what the caller
 * asked for, and travel as blobs.
 */
import type { ReadResourceResult } from "@modelcontextprotocol/server";
import type { BlockRange } from "../authoring/course-pages.ts";
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { timeSlicer, type SlicePause } from "../codecs/event-loop.ts";

/** Room for the JSON-RPC envelope and transport framing around `result`. */
const envelopeBytes = 256;
/** At least this much of an error lists narrower URIs (a third of the cap when that is more: the list is in the message and in `data`, and the error stays within the cap); the templates say how to build the rest. */
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
  /** What the parts are, e.g. "these parts, each within the cap". */
  readonly how: string;
  /** URIs of the parts, in course order; each one's answer fits the cap. */
  readonly uris: readonly string[];
  /** Parts too large even alone (one block over the cap): named so the agent knows what it cannot read here. */
  readonly overCap?: readonly string[];
  /** Templates of the parts, for the ones not listed. */
  readonly templates: readonly string[];
  /** What to do when no narrower resource fits. */
  readonly otherwise?: string;
}

/** The first URIs of `uris` that fit in `budget` characters of the message. */
function listedWithin(uris: readonly string[], budget: number): string[] {
  const listed: string[] = [];
  let listedBytes = 0;
  for (const part of uris) {
    if (listedBytes + part.length > budget) break;
    listed.push(part);
    listedBytes += part.length + 2;
  }
  return listed;
}

/** `size` is null when the answer was stopped as soon as it passed the cap. */
export function resourceTooLarge(uri: string, size: number | null, limit: number, narrower: NarrowerReads): CourseAuthoringError {
  const budget = Math.max(listedUriBytes, Math.floor(limit / 3));
  const listed = listedWithin(narrower.uris, budget);
  const overCap = listedWithin(narrower.overCap ?? [], Math.floor(budget / 4));
  const more = narrower.uris.length - listed.length;
  const parts = listed.length > 0 ? `: ${listed.join(", ")}${more > 0 ? ` and ${more} more (${narrower.templates.join(", ")})` : ""}` : "";
  const alone = overCap.length > 0 ? `; over the cap even alone, so not readable as a resource here: ${overCap.join(", ")}${(narrower.overCap?.length ?? 0) > overCap.length ? " and more" : ""}` : "";
  const instead = listed.length > 0 || !narrower.otherwise ? `read it ${narrower.how}${parts}${alone}` : narrower.otherwise;
  const measured = size === null ? "would be larger than" : `would be ${size} bytes, over`;
  return new CourseAuthoringError("limit_exceeded", `${uri} ${measured} this server's ${limit}-byte cap per result; ${instead}.`, {
    uri,
    ...(size === null ? {} : { size }),
    limit,
    ...(listed.length > 0 ? { narrowerUris: listed, moreNarrowerUris: more } : {}),
    ...(overCap.length > 0 ? { overCapUris: overCap } : {}),
    uriTemplates: narrower.templates,
  });
}

/** Returns `result` when it fits, else throws `resourceTooLarge` with the narrower reads `narrower` finds. */
export async function boundedResult(result: ReadResourceResult, uri: string, limit: number, narrower: () => Promise<NarrowerReads> | NarrowerReads): Promise<ReadResourceResult> {
  const { size, fits } = measuredWithin(result, limit);
  if (!fits) throw resourceTooLarge(uri, size, limit, await narrower());
  return result;
}

/** A part of a course some resource reads: whether that answer fits the cap, and the narrower parts it splits into. */
export interface ReadablePart {
  readonly uri: string;
  fits(): Promise<boolean>;
  /** The narrower parts, in course order; none when nothing is narrower. */
  split(): Promise<readonly ReadablePart[]>;
}

/**
 * The URIs of `parts` whose answers fit, each part that does not replaced by the narrower parts of it
 * that do, in course order; the parts too large at every width are `overCap`. Measuring a large course
 * takes a while, so the work yields to the event loop in time slices.
 */
export async function partsThatFit(
  parts: readonly ReadablePart[],
  found: { uris: string[]; overCap: string[] } = { uris: [], overCap: [] },
  slice: SlicePause = timeSlicer(),
): Promise<{ uris: string[]; overCap: string[] }> {
  for (const part of parts) {
    await slice();
    if (await part.fits()) {
      found.uris.push(part.uri);
      continue;
    }
    const narrower = await part.split();
    if (narrower.length === 0) found.overCap.push(part.uri);
    else await partsThatFit(narrower, found, slice);
  }
  return found;
}

/**
 * A lesson's `count` blocks as consecutive runs, each as long as `fits` allows: grown by doubling, then
 * narrowed by halving, so a long lesson costs a few checks per run. A block too large alone is a run of one
 * that does not fit.
 */
export async function blockRuns(count: number, check: (range: BlockRange) => Promise<boolean>): Promise<{ range: BlockRange; fits: boolean }[]> {
  const slice = timeSlicer();
  const fits = async (range: BlockRange): Promise<boolean> => {
    await slice();
    return check(range);
  };
  const runs: { range: BlockRange; fits: boolean }[] = [];
  let first = 1;
  while (first <= count) {
    if (!(await fits({ first, last: first }))) {
      runs.push({ range: { first, last: first }, fits: false });
      first += 1;
      continue;
    }
    let good = first;
    let step = 1;
    while (good + step <= count && (await fits({ first, last: good + step }))) {
      good += step;
      step *= 2;
    }
    let bad = Math.min(count + 1, good + step);
    while (bad - good > 1) {
      const middle = Math.floor((good + bad) / 2);
      if (await fits({ first, last: middle })) good = middle;
      else bad = middle;
    }
    runs.push({ range: { first, last: good }, fits: true });
    first = good + 1;
  }
  return runs;
}
