/**
 * Schema changes written in SQL both stores accept, so each is written once: every store numbers them
 * in its own migration list (the two lists began at different versions).
 */
import { resultTablesSql } from "./result-records.ts";
import { taskTablesSql } from "./task-records.ts";
import { translationNotesTableSql, translationTablesSql } from "./translation-statements.ts";
import { uploadTablesSql } from "./upload-records.ts";

export interface PortableMigrationStep {
  readonly name: string;
  readonly sql: string;
}

export const courseSettingsStep: PortableMigrationStep = {
  name: "course numbering and target length",
  sql: `
      ALTER TABLE courses ADD COLUMN numbering TEXT NOT NULL DEFAULT 'modules';
      ALTER TABLE courses ADD COLUMN target_minutes INTEGER;
    `,
};

/** One JSON column: the manual accessibility answers per WCAG criterion (set_accessibility_review). */
export const accessibilityReviewsStep: PortableMigrationStep = {
  name: "manual accessibility answers",
  sql: "ALTER TABLE courses ADD COLUMN accessibility_reviews TEXT;",
};

export const courseThemeStep: PortableMigrationStep = {
  name: "course theme",
  sql: "ALTER TABLE courses ADD COLUMN theme TEXT;",
};

/** One JSON column: the quiz settings travel together, and NULL means the defaults for existing lessons. */
export const quizOptionsStep: PortableMigrationStep = {
  name: "quiz pools, feedback modes and final assessment",
  sql: "ALTER TABLE lessons ADD COLUMN quiz_options TEXT;",
};

export const translationsStep: PortableMigrationStep = {
  name: "translations linked to their source, and translated units",
  sql: translationTablesSql,
};

export const translationNotesStep: PortableMigrationStep = {
  name: "translators' notes on translation units",
  sql: translationNotesTableSql,
};

/**
 * Secrets every replica shares without configuration: each a random value the first replica to need it
 * inserts (insert-if-absent, so replicas starting together agree on one), read at start-up. The MCP
 * confirmations' `requestState` key is one. Beside them, the confirmations already answered, so a
 * sealed state acts once on any replica (kept until the state would have expired anyway).
 */
export const serviceSecretsStep: PortableMigrationStep = {
  name: "service secrets shared by all replicas, and used MCP confirmations",
  sql: `
      CREATE TABLE service_secrets (name TEXT PRIMARY KEY, secret TEXT NOT NULL, created_at TEXT NOT NULL);
      CREATE TABLE mcp_used_confirmations (nonce TEXT PRIMARY KEY, expires_at TEXT NOT NULL);
      CREATE INDEX mcp_used_confirmations_by_expiry ON mcp_used_confirmations (expires_at);
    `,
};

/** MCP task records (`../task-records.ts`): any replica answers for a task another one runs. */
export const tasksStep: PortableMigrationStep = {
  name: "mcp task records",
  sql: taskTablesSql,
};

/**
 * Bounded history: each revision's stored size and whether its changes were squashed away, large change
 * lists kept as shared content-addressed chunks (an alternating restore stores chunk references, not the
 * rows again), and per course the running history total and the oldest version still readable.
 */
export const historyBudgetStep: PortableMigrationStep = {
  name: "bounded course history",
  sql: `
      ALTER TABLE revisions ADD COLUMN bytes BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE revisions ADD COLUMN squashed INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE course_usage ADD COLUMN history_bytes BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE course_usage ADD COLUMN history_floor INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE revision_chunks (
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        hash TEXT NOT NULL,
        content TEXT NOT NULL,
        bytes BIGINT NOT NULL,
        refs INTEGER NOT NULL,
        PRIMARY KEY (course_id, hash)
      );
      UPDATE revisions SET bytes = length(changes) + length(summary) + length(tool) + length(actor_sub) + length(id) + 96;
      UPDATE course_usage SET history_bytes = COALESCE((SELECT SUM(r.bytes) FROM revisions r WHERE r.course_id = course_usage.course_id), 0);
    `,
};

/** Chunked upload sessions (`./upload-records.ts`): a file sent in pieces from the files view. */
export const uploadsStep: PortableMigrationStep = {
  name: "chunked upload sessions",
  sql: uploadTablesSql,
};

/** A lesson's optional banner image (JSON: assetId or url, alt, decorative); NULL for every existing lesson. */
export const lessonBannerStep: PortableMigrationStep = {
  name: "lesson banner image",
  sql: "ALTER TABLE lessons ADD COLUMN banner TEXT;",
};

/** Learners' results brought back from xAPI statements (`./result-records.ts`). */
export const resultsStep: PortableMigrationStep = {
  name: "learner results from xAPI statements",
  sql: resultTablesSql,
};

/**
 * Review rounds (each html_review export sent to reviewers) and the comments brought back from them:
 * where a comment came from (JSON), its round and its ID in the reviewer's file (unique per course, so
 * a file imported twice adds nothing), the reviewer's kind of comment, and the comment it answers.
 */
export const reviewRoundsStep: PortableMigrationStep = {
  name: "review rounds, and comments brought back from review packages",
  sql: `
      CREATE TABLE review_rounds (
        id TEXT PRIMARY KEY,
        course_id TEXT NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
        course_version INTEGER NOT NULL,
        variant TEXT NOT NULL,
        export_id TEXT NOT NULL,
        due_date TEXT,
        reviewers TEXT NOT NULL,
        note TEXT,
        anchors TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX review_rounds_by_course ON review_rounds (course_id, created_at);
      ALTER TABLE comments ADD COLUMN origin TEXT;
      ALTER TABLE comments ADD COLUMN round_id TEXT;
      ALTER TABLE comments ADD COLUMN origin_key TEXT;
      ALTER TABLE comments ADD COLUMN review_kind TEXT;
      ALTER TABLE comments ADD COLUMN reply_to TEXT;
      CREATE UNIQUE INDEX comments_by_origin ON comments (course_id, origin_key);
      CREATE INDEX comments_by_round ON comments (course_id, round_id);
    `,
};

/**
 * The person's own library: an asset or an unfinished upload of no course (course_id NULL) is its
 * creator's. PostgreSQL drops the NOT NULL in place; SQLite, which cannot, rebuilds the two tables
 * (sqlite/migrations.ts). The partial index lists a library without reading any course's assets.
 */
export const assetLibraryStep: PortableMigrationStep = {
  name: "assets and uploads in a person's library, outside any course",
  sql: `
      ALTER TABLE assets ALTER COLUMN course_id DROP NOT NULL;
      ALTER TABLE uploads ALTER COLUMN course_id DROP NOT NULL;
      CREATE INDEX assets_in_library ON assets (created_by, created_at, id) WHERE course_id IS NULL;
    `,
};

export const assetLibrarySqliteStep: PortableMigrationStep = {
  name: assetLibraryStep.name,
  sql: `
      CREATE TABLE assets_next (
        id TEXT PRIMARY KEY,
        course_id TEXT REFERENCES courses (id) ON DELETE CASCADE,
        filename TEXT NOT NULL,
        media_type TEXT NOT NULL,
        byte_size INTEGER NOT NULL,
        sha256 TEXT NOT NULL REFERENCES asset_blobs (sha256),
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      INSERT INTO assets_next (id, course_id, filename, media_type, byte_size, sha256, created_by, created_at)
        SELECT id, course_id, filename, media_type, byte_size, sha256, created_by, created_at FROM assets;
      DROP TABLE assets;
      ALTER TABLE assets_next RENAME TO assets;
      CREATE INDEX assets_by_course ON assets (course_id, created_at, id);
      CREATE INDEX assets_by_blob ON assets (sha256);
      CREATE INDEX assets_in_library ON assets (created_by, created_at, id) WHERE course_id IS NULL;
      CREATE TABLE uploads_next (
        upload_id TEXT PRIMARY KEY, owner_sub TEXT NOT NULL, course_id TEXT, filename TEXT NOT NULL,
        media_type TEXT, byte_size INTEGER NOT NULL, chunk_bytes INTEGER NOT NULL,
        chunks_received INTEGER NOT NULL DEFAULT 0, bytes_received INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL, expires_at TEXT NOT NULL
      );
      INSERT INTO uploads_next SELECT upload_id, owner_sub, course_id, filename, media_type, byte_size, chunk_bytes, chunks_received, bytes_received, created_at, expires_at FROM uploads;
      DROP TABLE uploads;
      ALTER TABLE uploads_next RENAME TO uploads;
      CREATE INDEX uploads_by_owner ON uploads (owner_sub, created_at);
      CREATE INDEX uploads_by_expiry ON uploads (expires_at);
    `,
};
