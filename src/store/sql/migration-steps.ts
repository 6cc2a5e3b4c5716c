/**
 * Schema changes written in SQL both stores accept, so each is written once: every store numbers them
 * in its own migration list (the two lists began at different versions).
 */
import { taskTablesSql } from "./task-records.ts";
import { translationTablesSql } from "./translation-statements.ts";
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

/** MCP task records (`../task-records.ts`): any replica answers for a task another one runs. */
export const tasksStep: PortableMigrationStep = {
  name: "mcp task records",
  sql: taskTablesSql,
};

/** Chunked upload sessions (`./upload-records.ts`): a file sent in pieces from the files view. */
export const uploadsStep: PortableMigrationStep = {
  name: "chunked upload sessions",
  sql: uploadTablesSql,
};
