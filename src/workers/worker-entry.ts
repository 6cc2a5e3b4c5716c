/**
 * The entry of each heavy-work thread: it runs one job at a time by name from the job table and posts
 * back its output or its error (a `CourseAuthoringError` keeps code, message and details; anything else
 * crosses as a bare message, never a stack). At start it names its own OS thread, so the pool can read
 * the thread's CPU time from outside even while a job holds the thread.
 */
import { readlinkSync } from "node:fs";
import { toWireError } from "./heavy-work.ts";
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

async function runJob(message: ToWorker): Promise<void> {
  try {
    const job = jobs[message.job as JobName] as ((input: unknown) => Promise<unknown>) | undefined;
    if (!job) throw new Error(`no job named ${message.job}`);
    post({ kind: "done", id: message.id, output: await job(message.input) });
  } catch (error) {
    post({ kind: "failed", id: message.id, error: toWireError(error) });
  }
}

self.onmessage = (event: MessageEvent<ToWorker>) => void runJob(event.data);
post({ kind: "ready", thread: ownThread() });
