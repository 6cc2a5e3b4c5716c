/**
 * Forward-only schema migrations. Each has a number and SQL written in the portable subset (TEXT,
 * INTEGER, BLOB, plain indexes) so the PostgreSQL store can mirror it. All pending migrations apply
 * in one transaction at open; a database newer than this code refuses to open rather than guess.
 */
import type { Database } from "bun:sqlite";
import { foldCase } from "../sql/fold.ts";
import { courseSettingsStep, courseThemeStep, quizOptionsStep, serviceSecretsStep, translationNotesStep, translationsStep, tasksStep, historyBudgetStep, uploadsStep, lessonBannerStep, resultsStep, reviewRoundsStep, assetLibrarySqliteStep, accessibilityReviewsStep } from "../sql/migration-steps.ts";

interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Fills what SQL alone cannot compute, after `sql` and in the same transaction. */
  fill?: (database: Database) => void;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: "authoring model",
    sql: `
      CREATE TABLE courses (
        id TEXT PRIMARY KEY,
        owner_sub TEXT NOT NULL,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        language TEXT NOT NULL,
        audience TEXT NOT NULL,
        level TEXT,
        tags TEXT NOT NULL,
        status TEXT NOT NULL,
        version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX courses_by_owner ON courses (owner_sub, created_at, id);
      CREATE INDEX courses_by_creation ON courses (created_at, id);

      CREATE TABLE objectives (
        id TEXT PRIMARY KEY,
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        text TEXT NOT NULL
      );
      CREATE INDEX objectives_in_order ON objectives (course_id, position);

      CREATE TABLE modules (
        id TEXT PRIMARY KEY,
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        title TEXT NOT NULL,
        summary TEXT NOT NULL,
        objective_ids TEXT NOT NULL
      );
      CREATE INDEX modules_in_order ON modules (course_id, position);

      CREATE TABLE lessons (
        id TEXT PRIMARY KEY,
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        module_id TEXT NOT NULL REFERENCES modules (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        title TEXT NOT NULL,
        kind TEXT NOT NULL,
        passing_score INTEGER,
        max_attempts INTEGER,
        estimated_minutes INTEGER
      );
      CREATE INDEX lessons_in_order ON lessons (module_id, position);
      CREATE INDEX lessons_by_course ON lessons (course_id);

      CREATE TABLE blocks (
        id TEXT PRIMARY KEY,
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        lesson_id TEXT NOT NULL REFERENCES lessons (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        type TEXT NOT NULL,
        body TEXT NOT NULL
      );
      CREATE INDEX blocks_in_order ON blocks (lesson_id, position);
      CREATE INDEX blocks_by_course ON blocks (course_id);

      CREATE TABLE collaborators (
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        principal_kind TEXT NOT NULL CHECK (principal_kind IN ('sub', 'email')),
        principal TEXT NOT NULL,
        role TEXT NOT NULL,
        added_by TEXT NOT NULL,
        added_at TEXT NOT NULL,
        PRIMARY KEY (course_id, principal_kind, principal)
      );
      CREATE INDEX collaborators_by_principal ON collaborators (principal_kind, principal);

      CREATE TABLE asset_blobs (
        sha256 TEXT PRIMARY KEY,
        bytes BLOB NOT NULL
      );
      CREATE TABLE assets (
        id TEXT PRIMARY KEY,
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        filename TEXT NOT NULL,
        media_type TEXT NOT NULL,
        byte_size INTEGER NOT NULL,
        sha256 TEXT NOT NULL REFERENCES asset_blobs (sha256),
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX assets_by_course ON assets (course_id, created_at, id);
      CREATE INDEX assets_by_blob ON assets (sha256);

      CREATE TABLE revisions (
        id TEXT PRIMARY KEY,
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        actor_sub TEXT NOT NULL,
        tool TEXT NOT NULL,
        summary TEXT NOT NULL,
        changes TEXT NOT NULL,
        change_count INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (course_id, version)
      );
    `,
  },
  {
    version: 2,
    name: "review comments and published snapshots",
    sql: `
      CREATE TABLE comments (
        id TEXT PRIMARY KEY,
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        target_kind TEXT NOT NULL CHECK (target_kind IN ('course', 'module', 'lesson', 'block')),
        target_id TEXT NOT NULL,
        body TEXT NOT NULL,
        quote TEXT,
        author_sub TEXT NOT NULL,
        author_name TEXT,
        created_at TEXT NOT NULL,
        resolved_by TEXT,
        resolved_at TEXT,
        resolution_note TEXT
      );
      CREATE INDEX comments_in_order ON comments (course_id, resolved_at, created_at, id);
      CREATE INDEX comments_by_target ON comments (course_id, target_id);

      CREATE TABLE publications (
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        published_by TEXT NOT NULL,
        published_at TEXT NOT NULL,
        content_fingerprint TEXT NOT NULL,
        document TEXT NOT NULL,
        PRIMARY KEY (course_id, version)
      );
    `,
  },
  {
    version: 3,
    name: "running content totals per course",
    // Kept by the domain on every lesson and block write (see CourseUsage in store/types.ts); existing
    // courses start from their content as stored. content_bytes counts UTF-8 bytes of the body JSON.
    sql: `
      CREATE TABLE course_usage (
        course_id TEXT PRIMARY KEY REFERENCES courses (id) ON DELETE CASCADE,
        lessons INTEGER NOT NULL,
        blocks INTEGER NOT NULL,
        content_bytes INTEGER NOT NULL
      );
      INSERT INTO course_usage (course_id, lessons, blocks, content_bytes)
        SELECT c.id,
          (SELECT COUNT(*) FROM lessons l WHERE l.course_id = c.id),
          (SELECT COUNT(*) FROM blocks b WHERE b.course_id = c.id),
          (SELECT COALESCE(SUM(length(CAST(b.body AS BLOB))), 0) FROM blocks b WHERE b.course_id = c.id)
        FROM courses c;
    `,
  },
  {
    version: 4,
    name: "case-folded course titles for search",
    // The folding is the application's (sql/fold.ts), the same on both stores, so existing titles are folded here.
    sql: "ALTER TABLE courses ADD COLUMN title_folded TEXT NOT NULL DEFAULT ''",
    fill: (database) => {
      const update = database.query("UPDATE courses SET title_folded = ? WHERE id = ?");
      for (const row of database.query<{ id: string; title: string }, []>("SELECT id, title FROM courses").all()) update.run(foldCase(row.title), row.id);
    },
  },
  { version: 5, ...courseSettingsStep },
  { version: 6, ...courseThemeStep },
  { version: 7, ...quizOptionsStep },
  { version: 8, ...translationsStep },
  { version: 9, ...tasksStep },
  { version: 10, ...historyBudgetStep },
  { version: 11, ...translationNotesStep },
  { version: 12, ...uploadsStep },
  { version: 13, ...serviceSecretsStep },
  { version: 14, ...lessonBannerStep },
  { version: 15, ...resultsStep },
  { version: 16, ...reviewRoundsStep },
  { version: 17, ...assetLibrarySqliteStep },
  { version: 18, ...accessibilityReviewsStep },
];

export function applyMigrations(database: Database): void {
  database.run(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  database.transaction(() => {
    const row = database.query<{ current: number | null }, []>("SELECT MAX(version) AS current FROM schema_migrations").get();
    const current = row?.current ?? 0;
    const latest = migrations[migrations.length - 1]?.version ?? 0;
    if (current > latest) {
      throw new Error(`database schema version ${current} is newer than this service understands (${latest}); upgrade the service`);
    }
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      database.run(migration.sql);
      migration.fill?.(database);
      database
        .query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
        .run(migration.version, migration.name, new Date().toISOString());
    }
  }).immediate();
}
