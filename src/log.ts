/**
 * Structured logging: one JSON object per line on stdout. Callers pass plain fields; nothing here
 * inspects requests, so a token can only reach the log if a caller puts it there, and none does.
 */
import type { LogLevel } from "./config.ts";

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogFields = Record<string, string | number | boolean | undefined | null>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/**
 * Lines go into Bun's native stdout writer (a FileSink): each line is appended to its buffer without a
 * JavaScript join or a stream write per line, and the buffer is written out every few milliseconds,
 * when it fills, and on exit, so a busy server pays neither a write system call nor a string copy per
 * request; warnings and errors are written out at once.
 */
let sharedStdout: ((line: string, urgent: boolean) => void) | undefined;

export function bufferedStdout(): (line: string, urgent: boolean) => void {
  sharedStdout ??= createBufferedStdout();
  return sharedStdout;
}

function createBufferedStdout(): (line: string, urgent: boolean) => void {
  const sink = Bun.stdout.writer({ highWaterMark: 64 * 1024 });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    void sink.flush();
  };
  process.on("exit", () => void sink.flush());
  return (line, urgent) => {
    sink.write(line);
    if (urgent) flush();
    else timer ??= setTimeout(flush, 5);
  };
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

export function createLogger(level: LogLevel, write: (line: string, urgent: boolean) => void = bufferedStdout()): Logger {
  const threshold = rank[level];
  const time = isoClock();
  const emit = (lvl: LogLevel, message: string, fields?: LogFields) => {
    if (rank[lvl] < threshold) return;
    // The fixed head is written by hand; only the caller's fields go through JSON.stringify.
    const rest = fields ? JSON.stringify(fields).slice(1) : "}";
    const head = `{"time":"${time()}","level":"${lvl}","msg":${JSON.stringify(message)}`;
    write(`${head}${rest === "}" ? "}" : `,${rest}`}\n`, rank[lvl] >= rank.warn);
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}
