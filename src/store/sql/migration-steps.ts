/**
 * Schema changes written in SQL both stores accept, so each is written once: every store numbers them
 * in its own migration list (the two lists began at different versions).
 */
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
