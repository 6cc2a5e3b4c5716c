/**
 * One process serves a SQLite database file (DESIGN: SQLite on one machine, PostgreSQL for replicas).
 * That is enforced, not assumed: the process holds an exclusive lock on a companion lock database
 * (`<file>.lock`) for as long as it has the file open, and a second process fails at start-up with a
 * message that says why, instead of serving the same courses from caches the other process cannot
 * see. The lock is the operating system's (fcntl, through SQLite), so a process that dies releases it;
 * operators can still read and back up the database file itself while the service runs.
 *
 * Within the process, every store opened on the same file shares one `CourseRowMemo` (see store.ts):
 * `bun --hot` re-imports the modules and opens the file again without closing the first store, so the
 * ownership is registered on `globalThis` and counted, not taken twice.
 */
import { Database } from "bun:sqlite";
import { realpathSync } from "node:fs";
import type { CourseRow, TranslationRow } from "../types.ts";

/**
 * Course rows, and each course's translation links, that read transactions loaded, valid until the
 * next write on the file ends. `generation` counts the writes that ended; a read transaction uses and
 * fills the memo only while no write has ended since it began, so it never mixes a row from a newer
 * snapshot with rows from its own. The links are kept because every course read asks for them (a
 * source lists its translations) and nearly every course has none.
 */
export class CourseRowMemo {
  generation = 0;
  private readonly rows = new Map<string, CourseRow>();
  private readonly links = new Map<string, readonly TranslationRow[]>();

  constructor(private readonly maxRows = 10_000) {}

  get(id: string): CourseRow | undefined {
    return this.rows.get(id);
  }

  /** Keeps a frozen row: callers share it, so none may change it (a write works on its own copy). */
  remember(row: CourseRow): CourseRow {
    Object.freeze(row.tags);
    Object.freeze(row);
    if (this.rows.size >= this.maxRows) this.rows.delete(this.rows.keys().next().value as string);
    this.rows.set(row.id, row);
    return row;
  }

  translationLinks(courseId: string): readonly TranslationRow[] | undefined {
    return this.links.get(courseId);
  }

  /** Keeps a course's links, frozen like the rows. */
  rememberTranslationLinks(courseId: string, links: TranslationRow[]): TranslationRow[] {
    for (const link of links) Object.freeze(link);
    Object.freeze(links);
    if (this.links.size >= this.maxRows) this.links.delete(this.links.keys().next().value as string);
    this.links.set(courseId, links);
    return links;
  }

  /** Called when a write transaction ends, committed or rolled back. */
  forgetAll(): void {
    this.generation++;
    this.rows.clear();
    this.links.clear();
  }
}

export class DatabaseInUseError extends Error {
  constructor(readonly path: string) {
    super(
      `another process is already serving ${path}: a SQLite database is served by one process at a time ` +
        "(stop the other one, or run several replicas on PostgreSQL)",
    );
    this.name = "DatabaseInUseError";
  }
}

interface Owned {
  lock: Database;
  memo: CourseRowMemo;
  holders: number;
}

const registryKey = Symbol.for("course-authoring-service.sqlite-owners");
const owners: Map<string, Owned> = ((globalThis as Record<symbol, unknown>)[registryKey] as Map<string, Owned> | undefined) ??
  ((globalThis as Record<symbol, unknown>)[registryKey] = new Map<string, Owned>());

export interface Ownership {
  memo: CourseRowMemo;
  release(): void;
}

/** Takes (or joins, within this process) the ownership of the database file at `path`, which exists. */
export function ownDatabaseFile(path: string): Ownership {
  if (path === ":memory:") return { memo: new CourseRowMemo(), release: () => {} };
  const key = realpathSync(path);
  let owned = owners.get(key);
  if (!owned) {
    owned = { lock: lockFile(`${key}.lock`, key), memo: new CourseRowMemo(), holders: 0 };
    owners.set(key, owned);
  }
  owned.holders++;
  const held = owned;
  let released = false;
  return {
    memo: held.memo,
    release() {
      if (released) return;
      released = true;
      if (--held.holders > 0) return;
      owners.delete(key);
      held.lock.close();
    },
  };
}

/**
 * An exclusive lock that lasts as long as the returned connection: in EXCLUSIVE locking mode SQLite
 * keeps the lock of the first exclusive transaction until the connection closes.
 */
function lockFile(lockPath: string, databasePath: string): Database {
  const lock = new Database(lockPath, { create: true, readwrite: true });
  try {
    lock.run("PRAGMA busy_timeout = 0");
    lock.run("PRAGMA locking_mode = EXCLUSIVE");
    lock.run("BEGIN EXCLUSIVE");
    lock.run("COMMIT");
  } catch (error) {
    lock.close();
    if (error instanceof Error && /locked|busy/i.test(error.message)) throw new DatabaseInUseError(databasePath);
    throw error;
  }
  return lock;
}
