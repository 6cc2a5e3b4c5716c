/**
 * The contract use cases see for work too heavy for the request loop (parsing imported files,
 * rendering and packaging): `run(job, input)` over a table of named job functions, typed end to end so
 * each job's input and output come from the table. The composition root chooses who runs the jobs (a
 * pool of worker threads, `pool.ts`). Inputs and outputs cross a thread boundary, so they must be
 * structured-cloneable: plain objects, arrays, Maps, strings and `Uint8Array`s, never functions or
 * class instances that need their methods.
 */
import { CourseAuthoringError, errorCodes, type ErrorCode } from "../course-authoring-error.ts";

/**
 * What a running job may ask of its caller, across the thread boundary: `call` waits for the caller's
 * answer (an asset's bytes; a chunk of output taken, which paces the job to its reader), `event` does
 * not (progress, a notice). Most jobs need neither.
 */
export interface JobHost {
  call(method: string, args: unknown): Promise<unknown>;
  event(event: unknown): void;
}

/** The caller's side of `JobHost`: how it answers a job's calls and hears its events. */
export interface JobCaller {
  call?(method: string, args: unknown): Promise<unknown>;
  event?(event: unknown): void;
}

/** Job functions by name; each takes one cloneable input and resolves to one cloneable output. */
export type JobTable = { readonly [name: string]: (input: never, host: JobHost) => Promise<unknown> };
export type JobName<Table extends JobTable> = keyof Table & string;
export type JobInput<Job> = Job extends (input: infer Input, host: JobHost) => Promise<unknown> ? Input : never;
export type JobOutput<Job> = Job extends (input: never, host: JobHost) => Promise<infer Output> ? Output : never;

export interface HeavyWork<Table extends JobTable> {
  run<Name extends JobName<Table>>(job: Name, input: JobInput<Table[Name]>, caller?: JobCaller): Promise<JobOutput<Table[Name]>>;
}

/** An error as it crosses from a worker: a service error keeps code, message and details; anything else only that it failed. */
export type WireError = { kind: "service"; code: ErrorCode; message: string; details: Record<string, unknown> } | { kind: "internal"; message: string };

export function toWireError(error: unknown): WireError {
  if (error instanceof CourseAuthoringError) {
    // Details are data for the caller; a value that cannot be cloned is dropped rather than failing the answer.
    let details: Record<string, unknown> = {};
    try {
      details = structuredClone(error.details);
    } catch {
      details = {};
    }
    return { kind: "service", code: error.code, message: error.message, details };
  }
  return { kind: "internal", message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/** The error a caller sees: the same `CourseAuthoringError` the job threw, or a plain `Error` (never a worker's stack trace). */
export function fromWireError(wire: WireError, job: string): Error {
  if (wire.kind === "service" && (errorCodes as readonly string[]).includes(wire.code)) return new CourseAuthoringError(wire.code, wire.message, wire.details);
  return new Error(`heavy work ${job} failed: ${wire.message}`);
}
