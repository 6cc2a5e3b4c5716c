/**
 * The entry of each heavy-work thread: it runs one job at a time by name from the job table and posts
 * back its output or its error (a `CourseAuthoringError` keeps code, message and details; anything else
 * crosses as a bare message, never a stack), passing on the job's calls to its caller and their
 * answers. At start it names its own OS thread, so the pool can read the thread's CPU time from
 * outside even while a job holds the thread.
 */
import { readlinkSync } from "node:fs";
import { fromWireError, toWireError, type JobHost } from "./heavy-work.ts";
import { jobs, type JobName } from "./jobs.ts";
import type { FromWorker, ToWorker } from "./messages.ts";

declare const self: Worker;

/** "1234/task/1240" on Linux; elsewhere unknown, and the pool falls back to wall time. */
function ownThread(): string | null {
  try {
    return readlinkSync("/proc/thread-self");
  } catch {
    return null;
  }
}

function post(message: FromWorker): void {
  postMessage(message);
}

/** Calls of the running job waiting for the caller's answer, by call number. */
const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextCall = 1;

function hostFor(id: number): JobHost {
  return {
    call(method, args) {
      const call = nextCall++;
      post({ kind: "call", id, call, method, args });
      return new Promise((resolve, reject) => waiting.set(call, { resolve, reject }));
    },
    event(event) {
      post({ kind: "event", id, event });
    },
  };
}

async function runJob(id: number, name: string, input: unknown): Promise<void> {
  try {
    const job = jobs[name as JobName] as ((input: unknown, host: JobHost) => Promise<unknown>) | undefined;
    if (!job) throw new Error(`no job named ${name}`);
    post({ kind: "done", id, output: await job(input, hostFor(id)) });
  } catch (error) {
    post({ kind: "failed", id, error: toWireError(error) });
  }
}

function answered(message: Extract<ToWorker, { kind: "answer" }>): void {
  const call = waiting.get(message.call);
  if (!call) return;
  waiting.delete(message.call);
  if (message.ok) call.resolve(message.value);
  else call.reject(fromWireError(message.error, "caller"));
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.kind === "job") void runJob(message.id, message.job, message.input);
  else answered(message);
};
post({ kind: "ready", thread: ownThread() });
