/**
 * The authoring services the MCP tools run against: the store, the clock, the ID source, the folder
 * of built export packages and the heavy work (worker threads). The composition root (`service.ts`)
 * chooses their implementations.
 * `readAs`/`writeAs` run one tool call as one transaction, so a call that fails part-way changes nothing.
 */
import type { PackageStorage } from "../store/packages.ts";
import type { AuthoringStore } from "../store/types.ts";
import type { Actor, AuthoringSession } from "./context.ts";
import type { CourseRowsCache } from "./course-rows-cache.ts";
import type { IdGenerator } from "./ids.ts";
import type { AuthoringLimits } from "./limits.ts";
import type { CourseHeavyWork } from "../workers/jobs.ts";

/** Learners' results (issue 43): the smallest group a figure is shown for, how long results are kept, the LRS hosts allowed. */
export interface ResultsSettings {
  /** `RESULTS_MIN_GROUP`, never below 5. */
  readonly minGroup: number;
  /** `RESULTS_RETENTION_DAYS`, 365 unless told. */
  readonly retentionDays: number;
  /** `LRS_ALLOWED_HOSTS`: `host` or `host:port`, lower case; empty means no LRS may be read. */
  readonly lrsAllowedHosts: readonly string[];
}

export const defaultResultsSettings: ResultsSettings = { minGroup: 5, retentionDays: 365, lrsAllowedHosts: [] };

export interface AuthoringServices {
  store: AuthoringStore;
  now: () => Date;
  newId: IdGenerator;
  /** Built packages, kept until they expire: files beside SQLite, rows in PostgreSQL (the composition root chooses). */
  exports: PackageStorage;
  /** Per-course and per-user limits, from the configuration. */
  limits: AuthoringLimits;
  /** Content rows of recently read courses, reused while their version stands (reads only). */
  courseRows?: CourseRowsCache;
  /** Parsing and rendering off the request loop: worker threads in the service, this thread in harnesses. */
  heavyWork: CourseHeavyWork;
  /** How long an unfinished chunked upload is kept (`UPLOAD_LIFETIME_SECONDS`); an hour unless told. */
  uploadLifetimeMs?: number;
  /** Learners' results settings; the defaults when absent. */
  results?: ResultsSettings;
  /** Told, after a write committed, how many history bytes it stored (the rate limit charges them). */
  onBytesWritten?: (actorSub: string, bytes: number) => void;
}

/** Wall-clock time that never repeats or goes back within the process, so "newest first" is a total order. */
export function monotonicClock(): () => Date {
  let last = 0;
  return () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last);
  };
}

export function readAs<T>(services: AuthoringServices, actor: Actor, work: (session: AuthoringSession) => Promise<T>): Promise<T> {
  return services.store.read((tx) => work({ tx, actor, now: services.now, newId: services.newId, limits: services.limits, courseRows: services.courseRows }));
}

export async function writeAs<T>(services: AuthoringServices, actor: Actor, work: (session: AuthoringSession) => Promise<T>): Promise<T> {
  let written = 0;
  const result = await services.store.write(async (tx) => {
    // A retried transaction starts counting again: only the attempt that committed is charged.
    const writeMeter = { bytes: 0 };
    const value = await work({ tx, actor, now: services.now, newId: services.newId, limits: services.limits, writeMeter });
    written = writeMeter.bytes;
    return value;
  });
  if (written > 0) services.onBytesWritten?.(actor.sub, written);
  return result;
}
