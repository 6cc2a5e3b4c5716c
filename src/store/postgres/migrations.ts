/**
 * Forward-only PostgreSQL schema migrations, numbered in step with the SQLite ones (same tables and
 * columns, PostgreSQL types) plus the tables only a shared database needs: export packages in chunks
 * and MCP session records. Replicas that start together serialise on one advisory lock, so each
 * migration runs exactly once; a schema newer than this code refuses to start with a clear message.
 */
import type { SQL } from "bun";
import { foldCase } from "../sql/fold.ts";
import { courseSettingsStep, courseThemeStep, quizOptionsStep, serviceSecretsStep, translationNotesStep, translationsStep, tasksStep, historyBudgetStep, uploadsStep, lessonBannerStep, resultsStep, reviewRoundsStep, assetLibraryStep, accessibilityReviewsStep } from "../sql/migration-steps.ts";

interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Fills what SQL alone cannot compute, after `sql` and in the same transaction. */
  fill?: (tx: SQL) => Promise<void>;
}

/** Any fixed 64-bit key works; this one is "cas-migr" in ASCII, so it is recognisable in pg_locks. */
export const migrationLockKey = 0x6361732d6d696772n;

export const postgresMigrations: Migration[] = [
  {
    version: 1,
    name: "authoring model",
    sql: `
      CREATE TABLE courses (
        id TEXT PRIMARY KEY, owner_sub TEXT NOT NULL, title TEXT NOT NULL, description TEXT NOT NULL,
        language TEXT NOT NULL, audience TEXT NOT NULL, level TEXT, tags TEXT NOT NULL, status TEXT NOT NULL,
        version INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
      );
      CREATE INDEX courses_by_owner ON courses (owner_sub, created_at, id);
      CREATE INDEX courses_by_creation ON courses (created_at, id);
      CREATE TABLE objectives (
        id TEXT PRIMARY KEY, course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        position BIGINT NOT NULL, text TEXT NOT NULL
      );
      CREATE INDEX objectives_in_order ON objectives (course_id, position);
      CREATE TABLE modules (
        id TEXT PRIMARY KEY, course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        position BIGINT NOT NULL, title TEXT NOT NULL, summary TEXT NOT NULL, objective_ids TEXT NOT NULL
      );
      CREATE INDEX modules_in_order ON modules (course_id, position);
      CREATE TABLE lessons (
        id TEXT PRIMARY KEY, course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        module_id TEXT NOT NULL REFERENCES modules (id) ON DELETE CASCADE, position BIGINT NOT NULL,
        title TEXT NOT NULL, kind TEXT NOT NULL, passing_score INTEGER, max_attempts INTEGER, estimated_minutes INTEGER
      );
      CREATE INDEX lessons_in_order ON lessons (module_id, position);
      CREATE INDEX lessons_by_course ON lessons (course_id);
      CREATE TABLE blocks (
        id TEXT PRIMARY KEY, course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        lesson_id TEXT NOT NULL REFERENCES lessons (id) ON DELETE CASCADE, position BIGINT NOT NULL,
        type TEXT NOT NULL, body TEXT NOT NULL
      );
      CREATE INDEX blocks_in_order ON blocks (lesson_id, position);
      CREATE INDEX blocks_by_course ON blocks (course_id);
      CREATE TABLE collaborators (
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        principal_kind TEXT NOT NULL CHECK (principal_kind IN ('sub', 'email')), principal TEXT NOT NULL,
        role TEXT NOT NULL, added_by TEXT NOT NULL, added_at TEXT NOT NULL,
        PRIMARY KEY (course_id, principal_kind, principal)
      );
      CREATE INDEX collaborators_by_principal ON collaborators (principal_kind, principal);
      CREATE TABLE asset_blobs (sha256 TEXT PRIMARY KEY, bytes BYTEA NOT NULL);
      CREATE TABLE assets (
        id TEXT PRIMARY KEY, course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        filename TEXT NOT NULL, media_type TEXT NOT NULL, byte_size INTEGER NOT NULL,
        sha256 TEXT NOT NULL REFERENCES asset_blobs (sha256), created_by TEXT NOT NULL, created_at TEXT NOT NULL
      );
      CREATE INDEX assets_by_course ON assets (course_id, created_at, id);
      CREATE INDEX assets_by_blob ON assets (sha256);
      CREATE TABLE revisions (
        id TEXT PRIMARY KEY, course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        version INTEGER NOT NULL, actor_sub TEXT NOT NULL, tool TEXT NOT NULL, summary TEXT NOT NULL,
        changes TEXT NOT NULL, change_count INTEGER NOT NULL, created_at TEXT NOT NULL,
        UNIQUE (course_id, version)
      );
    `,
  },
  {
    version: 2,
    name: "review comments and published snapshots",
    sql: `
      CREATE TABLE comments (
        id TEXT PRIMARY KEY, course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        target_kind TEXT NOT NULL CHECK (target_kind IN ('course', 'module', 'lesson', 'block')),
        target_id TEXT NOT NULL, body TEXT NOT NULL, quote TEXT, author_sub TEXT NOT NULL, author_name TEXT,
        created_at TEXT NOT NULL, resolved_by TEXT, resolved_at TEXT, resolution_note TEXT
      );
      CREATE INDEX comments_in_order ON comments (course_id, resolved_at, created_at, id);
      CREATE INDEX comments_by_target ON comments (course_id, target_id);
      CREATE TABLE publications (
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE, version INTEGER NOT NULL,
        published_by TEXT NOT NULL, published_at TEXT NOT NULL, content_fingerprint TEXT NOT NULL,
        document TEXT NOT NULL, PRIMARY KEY (course_id, version)
      );
    `,
  },
  {
    version: 3,
    name: "shared export packages and MCP sessions",
    sql: `
      CREATE TABLE export_packages (
        id TEXT PRIMARY KEY, course_id TEXT NOT NULL, record TEXT NOT NULL,
        complete BOOLEAN NOT NULL DEFAULT FALSE, expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX export_packages_by_course ON export_packages (course_id);
      CREATE INDEX export_packages_by_expiry ON export_packages (expires_at);
      CREATE TABLE export_chunks (
        export_id TEXT NOT NULL REFERENCES export_packages (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL, bytes BYTEA NOT NULL, PRIMARY KEY (export_id, seq)
      );
      CREATE TABLE mcp_sessions (
        id TEXT PRIMARY KEY, owner_sub TEXT NOT NULL, protocol_version TEXT NOT NULL,
        client_capabilities TEXT NOT NULL, client_info TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(), last_seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX mcp_sessions_by_last_seen ON mcp_sessions (last_seen_at);
    `,
  },
  {
    version: 4,
    name: "running content totals per course",
    // Mirrors the SQLite migration of the limits work (issue 8b): kept by the domain on every lesson
    // and block write; existing courses start from their content as stored (UTF-8 bytes of body JSON).
    sql: `
      CREATE TABLE course_usage (
        course_id TEXT PRIMARY KEY REFERENCES courses (id) ON DELETE CASCADE,
        lessons INTEGER NOT NULL, blocks INTEGER NOT NULL, content_bytes BIGINT NOT NULL
      );
      INSERT INTO course_usage (course_id, lessons, blocks, content_bytes)
        SELECT c.id,
          (SELECT COUNT(*) FROM lessons l WHERE l.course_id = c.id),
          (SELECT COUNT(*) FROM blocks b WHERE b.course_id = c.id),
          (SELECT COALESCE(SUM(octet_length(b.body)), 0) FROM blocks b WHERE b.course_id = c.id)
        FROM courses c;
    `,
  },
  {
    version: 5,
    name: "case-folded course titles for search",
    // Mirrors SQLite's migration 4: folded by the application (sql/fold.ts), not by lower(), whose result depends on the locale.
    sql: "ALTER TABLE courses ADD COLUMN title_folded TEXT NOT NULL DEFAULT ''",
    fill: async (tx) => {
      const rows = (await tx.unsafe("SELECT id, title FROM courses")) as { id: string; title: string }[];
      for (const row of rows) await tx.unsafe("UPDATE courses SET title_folded = $1 WHERE id = $2", [foldCase(row.title), row.id]);
    },
  },
  { version: 6, ...courseSettingsStep },
  { version: 7, ...courseThemeStep },
  { version: 8, ...quizOptionsStep },
  { version: 9, ...translationsStep },
  {
    version: 10,
    name: "resumable MCP streams and resource subscriptions",
    // Both belong to a session record and go with it. Limits: store/stream-events.ts (streamEventLimits).
    sql: `
      CREATE TABLE mcp_stream_events (
        id BIGSERIAL PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES mcp_sessions (id) ON DELETE CASCADE,
        stream_id TEXT NOT NULL, message TEXT, bytes INTEGER NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX mcp_stream_events_in_order ON mcp_stream_events (session_id, stream_id, id);
      CREATE INDEX mcp_stream_events_by_age ON mcp_stream_events (created_at);
      CREATE TABLE mcp_subscriptions (
        session_id TEXT NOT NULL REFERENCES mcp_sessions (id) ON DELETE CASCADE,
        uri TEXT NOT NULL, course_id TEXT NOT NULL, subscriber TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, uri)
      );
      CREATE INDEX mcp_subscriptions_by_course ON mcp_subscriptions (course_id);
    `,
  },
  { version: 11, ...tasksStep },
  // logging/setLevel is a session's choice; any replica serving the session honours it.
  { version: 12, name: "the log level an MCP session chose", sql: "ALTER TABLE mcp_sessions ADD COLUMN log_level TEXT;" },
  { version: 13, ...historyBudgetStep },
  { version: 14, ...translationNotesStep },
  { version: 15, ...uploadsStep },
  { version: 16, ...serviceSecretsStep },
  { version: 17, ...lessonBannerStep },
  { version: 18, ...resultsStep },
  { version: 19, ...reviewRoundsStep },
  { version: 20, ...assetLibraryStep },
  { version: 21, ...accessibilityReviewsStep },
];

export class SchemaTooNewError extends Error {
  constructor(readonly found: number, readonly known: number) {
    super(`database schema version ${found} is newer than this service understands (${known}); upgrade the service before starting it on this database`);
    this.name = "SchemaTooNewError";
  }
}

/** Applies pending migrations under a transaction-scoped advisory lock; returns the versions applied. */
export async function applyPostgresMigrations(sql: SQL, migrations: readonly Migration[] = postgresMigrations): Promise<number[]> {
  return sql.begin(async (tx) => {
    // Held until commit: a second replica waits here, then finds nothing left to do.
    await tx.unsafe("SELECT pg_advisory_xact_lock($1::bigint)", [migrationLockKey.toString()]);
    await tx.unsafe("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
    const [row] = await tx.unsafe("SELECT COALESCE(MAX(version), 0) AS current FROM schema_migrations");
    const current = Number((row as { current: unknown }).current);
    const latest = migrations[migrations.length - 1]?.version ?? 0;
    if (current > latest) throw new SchemaTooNewError(current, latest);
    const applied: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      await tx.unsafe(migration.sql);
      await migration.fill?.(tx);
      await tx.unsafe("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}
