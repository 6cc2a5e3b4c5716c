/**
 * Reading `DATABASE_URL`'s SQLite form, in one place: the store opens the file it names, and the
 * configuration keeps the development provider's keys and the export packages in the same folder.
 */

/** `sqlite://./data/x.db` → `./data/x.db`; `sqlite:///abs/x.db` → `/abs/x.db`; `sqlite::memory:` → `:memory:`. */
export function sqlitePathFromUrl(databaseUrl: string): string {
  if (databaseUrl === "sqlite::memory:" || databaseUrl === "sqlite://:memory:") return ":memory:";
  const match = /^sqlite:(?:\/\/)?(.+)$/.exec(databaseUrl);
  if (!match?.[1]) throw new Error(`DATABASE_URL: ${databaseUrl.split(":")[0]} URL has no file path; use sqlite://<path> or sqlite::memory:`);
  return decodeURIComponent(match[1]);
}
