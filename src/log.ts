/**
 * Structured logging: one JSON object per line on stdout. Callers pass plain fields; nothing here
 * inspects requests, so a token can only reach the log if a caller puts it there, and none does.
 */
import { writeSync } from "node:fs";
import type { LogLevel } from "./config.ts";

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogFields = Record<string, string | number | boolean | undefined | null>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /**
   * The access line of one finished request, at info: the same line as `info("request", entry)`. A
   * successful `probe` (a health check) is logged at debug instead, and counted: once a minute, an info
   * line says how many were answered. A balancer probing every replica every second would otherwise
   * fill the log with lines nobody reads, and at thousands a second they cost a health check a tenth
   * of its time (bench/NOTES.md).
   */
  access(entry: AccessEntry, probe?: boolean): void;
  /** Whether a successful probe gets an access line of its own (at debug), so its answer should name its request. */
  readonly probeLines?: boolean;
  /** Writes what is so far only counted (the probes not yet summarised): called before a graceful exit. */
  flush(): void;
}

export interface AccessEntry {
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** The caller, once authenticated. */
  sub: string | undefined;
}

/**
 * Lines are collected in memory and written out through Bun's file sink: every few milliseconds, once
 * 64 KiB have gathered, or at once for a warning or an error. The request path pays for a string append
 * only, never for a write system call (at info, with one access line per request, that call was the
 * larger part of a health check). The sink writes a file at once and a pipe without blocking (waiting
 * for it to drain when it is full); Node's asynchronous `fs.write`, used before, cost 50–100 µs of CPU
 * per batch in Bun's thread-pool hand-off, ~8 µs per access line at 5,000 requests a second
 * (bench/NOTES.md, "Performance V"). One write is in flight at a time, so lines keep
 * their order; what is left is written synchronously on exit. If stdout stops draining, lines over
 * 16 MiB are dropped and counted rather than holding memory without bound, and the count is reported
 * once the writes resume.
 */
let sharedStdout: AsyncWriter | undefined;

export function bufferedStdout(): (line: string, urgent: boolean) => void {
  sharedStdout ??= createAsyncWriter(1);
  return sharedStdout.write;
}

/** Resolves once every line logged so far is written out: awaited before a graceful exit. */
export function flushStdout(): Promise<void> {
  return sharedStdout?.flush() ?? Promise.resolve();
}

export interface AsyncWriter {
  write(line: string, urgent: boolean): void;
  flush(): Promise<void>;
}

const chunkBytes = 64 * 1024;
const maxPendingBytes = 16 * 1024 * 1024;

export function createAsyncWriter(fd: number): AsyncWriter {
  let drained: (() => void)[] = [];
  let pending: string[] = [];
  let pendingBytes = 0;
  let dropped = 0;
  let inFlight = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  let sink: ReturnType<ReturnType<typeof Bun.file>["writer"]> | undefined;

  /** stdout is gone (EPIPE, EBADF): there is nowhere left to report it. */
  const gone = () => {
    closed = true;
    pending = [];
    pendingBytes = 0;
    inFlight = false;
    settle();
  };

  const written = () => {
    inFlight = false;
    if (pendingBytes >= chunkBytes || (pendingBytes > 0 && drained.length > 0)) writeOut();
    else if (pendingBytes > 0) timer ??= setTimeout(writeOut, 5);
    else settle();
  };

  const writeChunk = (text: string) => {
    try {
      sink ??= Bun.file(fd).writer({ highWaterMark: chunkBytes });
      sink.write(text);
      const flushed = sink.flush();
      if (flushed instanceof Promise) flushed.then(written, gone);
      else written();
    } catch {
      gone();
    }
  };

  const settle = () => {
    const waiting = drained;
    drained = [];
    for (const resolve of waiting) resolve();
  };

  const take = (): string => {
    if (dropped > 0) {
      pending.push(`{"time":"${new Date().toISOString()}","level":"warn","msg":"log lines dropped: stdout did not keep up","dropped":${dropped}}\n`);
      dropped = 0;
    }
    const text = pending.join("");
    pending = [];
    pendingBytes = 0;
    return text;
  };

  function writeOut() {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (inFlight || closed || pending.length === 0) return;
    inFlight = true;
    writeChunk(take());
  }

  process.on("exit", () => {
    if (closed || pending.length === 0) return;
    try {
      // What the sink still holds goes first, so the lines keep their order.
      void sink?.flush();
      writeSync(fd, take());
    } catch {
      // Nothing to be done on the way out.
    }
  });

  const flush = (): Promise<void> => {
    if (closed || (!inFlight && pending.length === 0)) return Promise.resolve();
    const done = new Promise<void>((resolve) => drained.push(resolve));
    writeOut();
    return done;
  };

  const writeLine = (line: string, urgent: boolean) => {
    if (closed) return;
    if (pendingBytes > maxPendingBytes) {
      dropped++;
      return;
    }
    pending.push(line);
    pendingBytes += line.length;
    if (urgent || pendingBytes >= chunkBytes) writeOut();
    else timer ??= setTimeout(writeOut, 5);
  };
  return { write: writeLine, flush };
}

/** The current time as ISO 8601, formatted at most once per millisecond: busy servers log many lines per ms. */
function isoClock(): () => string {
  let lastMs = 0;
  let lastIso = "";
  return () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      lastIso = new Date(now).toISOString();
    }
    return lastIso;
  };
}

/** Characters that never need escaping in a JSON string (what a URL path, a method or an ID is made of). */
const plainJsonText = /^[\w\-./~%:@!$&'()*+,;=?#[\]]*$/;

/** A string as a JSON literal: quoted as is when it has nothing to escape, else through JSON.stringify. */
function jsonString(text: string): string {
  return plainJsonText.test(text) ? `"${text}"` : JSON.stringify(text);
}

/**
 * Counts successful probes and reports them in one info line per period, only for periods that had
 * any; `flush` reports what was counted so far (on shutdown). The timer does not keep the process alive.
 */
function probeSummary(report: (count: number, seconds: number) => void, periodMs: number): { count(): void; flush(): void } {
  let counted = 0;
  let since = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const summarise = (seconds: number) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const count = counted;
    counted = 0;
    if (count > 0) report(count, seconds);
  };
  return {
    count() {
      counted++;
      if (timer === undefined) {
        since = Date.now();
        timer = setTimeout(() => summarise(periodMs / 1000), periodMs);
        timer.unref?.();
      }
    },
    flush() {
      summarise(Math.round((Date.now() - since) / 100) / 10);
    },
  };
}

export interface LoggerOptions {
  /** How often successful probes are summarised at info; a minute unless a test says otherwise. */
  probeSummaryMs?: number;
}

export function createLogger(
  level: LogLevel,
  write: (line: string, urgent: boolean) => void = bufferedStdout(),
  options: LoggerOptions = {},
): Logger {
  const threshold = rank[level];
  const time = isoClock();
  const emit = (lvl: LogLevel, message: string, fields?: LogFields) => {
    if (rank[lvl] < threshold) return;
    // The fixed head is written by hand; only the caller's fields go through JSON.stringify.
    const rest = fields ? JSON.stringify(fields).slice(1) : "}";
    const head = `{"time":"${time()}","level":"${lvl}","msg":${JSON.stringify(message)}`;
    write(`${head}${rest === "}" ? "}" : `,${rest}`}\n`, rank[lvl] >= rank.warn);
  };
  // One line per request: written from a template rather than by stringifying an object, which took
  // twice as long; each string is still escaped, since the path and the method come from the client.
  const accessLine = (lvl: "debug" | "info", entry: AccessEntry) => {
    const sub = entry.sub === undefined ? "" : `,"sub":${jsonString(entry.sub)}`;
    write(
      `{"time":"${time()}","level":"${lvl}","msg":"request","requestId":${jsonString(entry.requestId)},"method":${jsonString(entry.method)},"path":${jsonString(entry.path)},"status":${entry.status},"durationMs":${entry.durationMs}${sub}}\n`,
      false,
    );
  };
  const probes = probeSummary((count, seconds) => emit("info", "probes answered", { count, seconds }), options.probeSummaryMs ?? 60_000);
  const access = (entry: AccessEntry, probe = false) => {
    if (!probe) {
      if (rank.info >= threshold) accessLine("info", entry);
    } else if (rank.debug >= threshold) {
      accessLine("debug", entry);
    } else if (rank.info >= threshold) {
      probes.count();
    }
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    access,
    probeLines: rank.debug >= threshold,
    flush: () => probes.flush(),
  };
}
