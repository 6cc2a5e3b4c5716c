/**
 * CPU time of one thread of this process, read from outside it: Linux's `/proc/<pid>/task/<tid>/stat`
 * (user + system time in clock ticks). The pool reads a worker's thread this way because a job that
 * holds its thread cannot report anything itself. Null where `/proc` is not there (the pool then falls
 * back to wall time).
 */
import { readFileSync } from "node:fs";

/** `USER_HZ`: the kernel reports thread times in 1/100 s on every Linux architecture the service runs on. */
const clockTicksPerSecond = 100;

/** `thread` is the worker's `/proc/thread-self` target ("pid/task/tid"). */
export function threadCpuMs(thread: string): number | null {
  try {
    const stat = readFileSync(`/proc/${thread}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / clockTicksPerSecond : null;
  } catch {
    return null;
  }
}
