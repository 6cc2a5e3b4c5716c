/**
 * A small pool of worker threads that runs heavy-work jobs (`jobs.ts`) off the request loop. Threads
 * are started on the first job that needs one, up to `size`; each runs one job at a time, and jobs
 * wait in order for a free thread. Every job has a CPU-time budget: a watchdog on this thread reads
 * the busy thread's own CPU time (`thread-cpu.ts`) and, past the budget, terminates that thread
 * (the next job starts a fresh one) and fails the job with `limit_exceeded` naming the budget. Idle
 * threads do not keep the process alive, and all but one are closed after a while.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { fromWireError, toWireError, type HeavyWork, type JobCaller, type JobInput, type JobName, type JobOutput, type JobTable } from "./heavy-work.ts";
import type { FromWorker, ToWorker } from "./messages.ts";
import { threadCpuMs } from "./thread-cpu.ts";

export interface WorkerPoolOptions {
  /** The worker entry, as the composition root names it (so it resolves in a compiled binary too). */
  entry: URL;
  /** Threads at most. */
  size: number;
  /** CPU time one job may use, in ms. */
  cpuBudgetMs: number;
  /** The setting that holds the budget, named in the error. */
  budgetSetting: string;
  /** A job's name in words: "the import". */
  describe: (job: string) => string;
  /** An idle thread beyond the first is closed after this long (ms). */
  idleCloseMs?: number;
  /** Told when a thread fails outside a job (it could not start, or crashed). */
  onThreadError?: (message: string) => void;
}

export interface WorkerPool<Table extends JobTable> extends HeavyWork<Table> {
  /** Threads started and not yet closed (for tests and metrics). */
  readonly threads: number;
  /** Terminates every thread; queued and running jobs fail. */
  close(): Promise<void>;
}

interface QueuedJob {
  id: number;
  job: string;
  input: unknown;
  caller: JobCaller | undefined;
  resolve: (output: unknown) => void;
  reject: (error: Error) => void;
}

/** Bun's Worker can stop holding the process open (`unref`), which the DOM typings do not show. */
type PoolWorker = Worker & { ref(): void; unref(): void };

interface PoolThread {
  worker: PoolWorker;
  /** "pid/task/tid" once the thread said it is ready; null before, or where /proc is missing. */
  thread: string | null;
  ready: boolean;
  running: (QueuedJob & { startedAt: number; cpuAtStart: number | null }) | null;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
}

/** How often the watchdog looks at busy threads. */
const watchEveryMs = 50;

export function createWorkerPool<Table extends JobTable>(options: WorkerPoolOptions): WorkerPool<Table> {
  return new ThreadPool<Table>(options);
}

class ThreadPool<Table extends JobTable> implements WorkerPool<Table> {
  private readonly pool = new Set<PoolThread>();
  private readonly queue: QueuedJob[] = [];
  private nextId = 1;
  private closed = false;
  private watchdog: ReturnType<typeof setInterval> | undefined;
  private readonly idleCloseMs: number;

  constructor(private readonly options: WorkerPoolOptions) {
    this.idleCloseMs = options.idleCloseMs ?? 60_000;
  }

  get threads(): number {
    return this.pool.size;
  }

  private start(): void {
    const worker = new Worker(this.options.entry) as PoolWorker;
    const thread: PoolThread = { worker, thread: null, ready: false, running: null, idleTimer: undefined };
    this.pool.add(thread);
    worker.onmessage = (event: MessageEvent<FromWorker>) => this.received(thread, event.data);
    worker.onerror = (event: ErrorEvent) => this.crashed(thread, event.message || "the worker thread failed");
    worker.addEventListener("close", () => this.crashed(thread, "the worker thread exited"));
  }

  private received(thread: PoolThread, message: FromWorker): void {
    if (message.kind === "ready") {
      thread.ready = true;
      thread.thread = message.thread;
      // Idle until a job begins, so a thread that finds the queue empty holds nothing open.
      this.becomeIdle(thread);
      return this.dispatch();
    }
    const job = thread.running;
    if (!job || job.id !== message.id) return;
    if (message.kind === "event") return job.caller?.event?.(message.event);
    if (message.kind === "call") return this.answerCall(thread, job, message);
    thread.running = null;
    if (message.kind === "done") job.resolve(message.output);
    else job.reject(fromWireError(message.error, job.job));
    this.becomeIdle(thread);
    this.dispatch();
  }

  /** A thread that died: its job fails; one that never started fails the queue rather than restart forever. */
  private crashed(thread: PoolThread, reason: string): void {
    if (!this.pool.delete(thread)) return;
    thread.worker.terminate();
    clearTimeout(thread.idleTimer);
    if (this.closed) return;
    this.options.onThreadError?.(reason);
    const failure = new Error(`heavy work failed: ${reason}`);
    if (thread.running) thread.running.reject(failure);
    else if (!thread.ready) for (const job of this.queue.splice(0)) job.reject(failure);
    this.dispatch();
  }

  /** A job's call to its caller, answered on the same thread unless the job has ended (or its thread was stopped) since. */
  private answerCall(thread: PoolThread, job: QueuedJob, message: Extract<FromWorker, { kind: "call" }>): void {
    const post = (answer: ToWorker) => {
      if (thread.running?.id === job.id) thread.worker.postMessage(answer);
    };
    const caller = job.caller;
    const answer = caller?.call ? caller.call(message.method, message.args) : Promise.reject(new Error(`the caller answers no ${message.method}`));
    answer.then(
      (value) => post({ kind: "answer", id: job.id, call: message.call, ok: true, value }),
      (error: unknown) => post({ kind: "answer", id: job.id, call: message.call, ok: false, error: toWireError(error) }),
    );
  }

  private becomeIdle(thread: PoolThread): void {
    // An idle thread must not keep a stopping process (or a test run) alive.
    thread.worker.unref();
    clearTimeout(thread.idleTimer);
    thread.idleTimer = setTimeout(() => {
      if (thread.running || this.pool.size <= 1) return;
      this.pool.delete(thread);
      thread.worker.terminate();
    }, this.idleCloseMs);
    thread.idleTimer.unref?.();
  }

  private dispatch(): void {
    for (const thread of this.pool) {
      if (this.queue.length === 0) break;
      if (thread.ready && !thread.running) this.begin(thread, this.queue.shift() as QueuedJob);
    }
    // A thread that is starting will take a waiting job; start more only for the jobs beyond those.
    const starting = [...this.pool].filter((thread) => !thread.ready).length;
    for (let waiting = starting; waiting < this.queue.length && this.pool.size < this.options.size; waiting += 1) this.start();
    this.watch();
  }

  private begin(thread: PoolThread, job: QueuedJob): void {
    clearTimeout(thread.idleTimer);
    thread.worker.ref();
    thread.running = { ...job, startedAt: performance.now(), cpuAtStart: thread.thread ? threadCpuMs(thread.thread) : null };
    const message: ToWorker = { kind: "job", id: job.id, job: job.job, input: job.input };
    thread.worker.postMessage(message);
  }

  /** The watchdog runs only while a job does. */
  private watch(): void {
    const busy = [...this.pool].some((thread) => thread.running);
    if (busy && !this.watchdog) {
      this.watchdog = setInterval(() => this.checkBudgets(), watchEveryMs);
      this.watchdog.unref?.();
    } else if (!busy && this.watchdog) {
      clearInterval(this.watchdog);
      this.watchdog = undefined;
    }
  }

  private checkBudgets(): void {
    for (const thread of this.pool) {
      const job = thread.running;
      if (!job) continue;
      const used = this.usedMs(thread, job);
      if (used.ms > this.options.cpuBudgetMs) this.stopOverBudget(thread, job, used.measure);
    }
    this.watch();
  }

  /**
   * Thread CPU time where Linux tells it; elsewhere the job's wall time, which is fair only because a
   * thread runs one job at a time. A CPU-measured job also stops at a generous wall-time backstop, in
   * case it waits on something that never comes.
   */
  private usedMs(thread: PoolThread, job: NonNullable<PoolThread["running"]>): { ms: number; measure: "thread CPU time" | "wall time" } {
    const wall = performance.now() - job.startedAt;
    const now = thread.thread && job.cpuAtStart !== null ? threadCpuMs(thread.thread) : null;
    if (now === null || job.cpuAtStart === null) return { ms: wall, measure: "wall time" };
    if (wall > this.options.cpuBudgetMs * 10 + 60_000) return { ms: wall, measure: "wall time" };
    return { ms: now - job.cpuAtStart, measure: "thread CPU time" };
  }

  private stopOverBudget(thread: PoolThread, job: NonNullable<PoolThread["running"]>, measure: string): void {
    this.pool.delete(thread);
    clearTimeout(thread.idleTimer);
    thread.running = null;
    thread.worker.terminate();
    job.reject(this.overBudget(job.job, measure));
    this.dispatch();
  }

  private overBudget(job: string, measure: string): CourseAuthoringError {
    const seconds = Number((this.options.cpuBudgetMs / 1000).toFixed(3));
    return new CourseAuthoringError(
      "limit_exceeded",
      `${this.options.describe(job)} took more than ${seconds} s of processing (${this.options.budgetSetting}), so it was stopped and nothing was written. Split the file or the course into smaller parts, or ask the operator to raise the limit.`,
      { limit: this.options.budgetSetting, budgetMs: this.options.cpuBudgetMs, measured: measure, job },
    );
  }

  run<Name extends JobName<Table>>(job: Name, input: JobInput<Table[Name]>, caller?: JobCaller): Promise<JobOutput<Table[Name]>> {
    if (this.closed) return Promise.reject(new CourseAuthoringError("invalid_state", "the service is stopping; try again in a moment"));
    return new Promise<JobOutput<Table[Name]>>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, input, caller, resolve: (output) => resolve(output as JobOutput<Table[Name]>), reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    const stopping = new CourseAuthoringError("invalid_state", "the service is stopping; try again in a moment");
    for (const job of this.queue.splice(0)) job.reject(stopping);
    for (const thread of this.pool) {
      clearTimeout(thread.idleTimer);
      thread.running?.reject(stopping);
      thread.worker.terminate();
    }
    this.pool.clear();
  }
}
