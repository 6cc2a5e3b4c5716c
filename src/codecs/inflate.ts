/**
 * Inflating deflate data (zip entries, PDF FlateDecode streams) without trusting anything it claims:
 * the input is fed in small steps and the output counted after each, so inflation stops as soon as it
 * passes the byte cap or the compression ratio allowed, however small the header said it would be. One
 * step of 1 KB can expand to at most about 1 MB, which bounds both the overshoot and the time between
 * checks; the async form yields to the event loop as output accumulates.
 */
import { Inflate, Unzlib } from "fflate";
import { yieldToEventLoop } from "./event-loop.ts";

export interface InflateLimits {
  /** Output bytes at most. */
  maxBytes: number;
  /** Output/input ratio allowed once the output passes `ratioFloorBytes` (zip bombs reach 1000:1). */
  maxRatio: number;
  ratioFloorBytes: number;
}

export type InflateOutcome =
  | { kind: "done"; bytes: Uint8Array }
  /** Stopped at a limit: `bytes` holds the output up to there (at least `maxBytes` when that limit). */
  | { kind: "limit"; limit: "maxBytes" | "maxRatio"; bytes: Uint8Array; produced: number; consumed: number }
  | { kind: "damaged"; reason: string };

const stepBytes = 1024;
/** Output between yields: inflating in 1 KB steps, a megabyte held the loop for about a second on a loaded machine. */
const yieldEveryBytes = 128 * 1024;

class BoundedInflater {
  private readonly chunks: Uint8Array[] = [];
  private produced = 0;
  private consumed = 0;
  /** The deflate data said it was complete: what follows it is not read. */
  private ended = false;
  private readonly stream: Inflate | Unzlib;

  constructor(
    private readonly input: Uint8Array,
    format: "deflate" | "zlib",
    private readonly limits: InflateLimits,
  ) {
    const collect = (chunk: Uint8Array, final: boolean) => {
      if (final) this.ended = true;
      this.produced += chunk.length;
      // Past the cap nothing more is kept; the caller stops at the next check.
      if (this.produced - chunk.length < this.limits.maxBytes) this.chunks.push(chunk);
    };
    this.stream = format === "zlib" ? new Unzlib(collect) : new Inflate(collect);
  }

  /** Feeds one step; an outcome when finished or stopped, else undefined. */
  step(): InflateOutcome | undefined {
    const end = Math.min(this.input.length, this.consumed + stepBytes);
    try {
      this.stream.push(this.input.subarray(this.consumed, end), end >= this.input.length);
    } catch (error) {
      return { kind: "damaged", reason: error instanceof Error ? error.message : String(error) };
    }
    this.consumed = end;
    if (this.produced > this.limits.maxBytes) return this.stopped("maxBytes");
    if (this.produced > this.limits.ratioFloorBytes && this.produced > this.consumed * this.limits.maxRatio) return this.stopped("maxRatio");
    if (end >= this.input.length || this.ended) return { kind: "done", bytes: this.joined() };
    return undefined;
  }

  get output(): number {
    return this.produced;
  }

  private stopped(limit: "maxBytes" | "maxRatio"): InflateOutcome {
    return { kind: "limit", limit, bytes: this.joined(), produced: this.produced, consumed: this.consumed };
  }

  private joined(): Uint8Array {
    const size = this.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const output = new Uint8Array(size);
    let at = 0;
    for (const chunk of this.chunks) {
      output.set(chunk, at);
      at += chunk.length;
    }
    return output;
  }
}

/** Inflates `input` within `limits`, yielding to the event loop every 128 KB of output. */
export async function inflateBounded(input: Uint8Array, format: "deflate" | "zlib", limits: InflateLimits): Promise<InflateOutcome> {
  const inflater = new BoundedInflater(input, format, limits);
  let nextYield = yieldEveryBytes;
  for (;;) {
    const outcome = inflater.step();
    if (outcome) return outcome;
    if (inflater.output >= nextYield) {
      nextYield = inflater.output + yieldEveryBytes;
      await yieldToEventLoop();
    }
  }
}

/**
 * The first bytes of deflate data, synchronously: for sniffing, where only a small part is ever needed.
 * `maxBytes` bounds the work (about a millisecond per megabyte); "limit" means there was more.
 */
export function inflateHead(input: Uint8Array, format: "deflate" | "zlib", maxBytes: number): InflateOutcome {
  const inflater = new BoundedInflater(input, format, { maxBytes, maxRatio: Number.POSITIVE_INFINITY, ratioFloorBytes: maxBytes });
  for (;;) {
    const outcome = inflater.step();
    if (outcome) return outcome;
  }
}
