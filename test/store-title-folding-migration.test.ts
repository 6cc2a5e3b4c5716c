/**
 * Courses created before titles were kept folded for search are folded by the migration that adds the
 * column, on both stores, so an upgraded database finds them exactly as it finds new ones.
 */
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openAuthoringServices } from "../src/service.ts";
import { applyPostgresMigrations, postgresMigrations } from "../src/store/postgres/migrations.ts";
import { migrations } from "../src/store/sqlite/migrations.ts";
import { createTestDatabase } from "./support/postgres.ts";

const insertCourse = `INSERT INTO courses (id, owner_sub, title, description, language, audience, level, tags, status, version, created_at, updated_at)
  VALUES ('crs_old1', 'olivia', 'ÉCOLE Straße', '', 'en', '', NULL, '[]', 'draft', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`;

async function titlesFound(databaseUrl: string, search: string): Promise<string[]> {
  const services = await openAuthoringServices(databaseUrl);
  try {
    const rows = await services.store.read((tx) => tx.listCourses({ sub: "olivia", email: null, titleContains: search, limit: 10 }));
    return rows.map((row) => row.title);
  } finally {
    await services.close();
  }
}

test("SQLite: a course stored before the folded column is found by folded text after the upgrade", async () => {
  const folder = mkdtempSync(join(tmpdir(), "cas-fold-"));
  try {
    const path = join(folder, "old.db");
    const database = new Database(path, { create: true });
    database.run("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
    for (const migration of migrations.filter((m) => m.version <= 3)) {
      database.run(migration.sql);
      database.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(migration.version, migration.name, "2026-01-01");
    }
    database.run(insertCourse);
    database.close();
    expect(await titlesFound(`sqlite://${path}`, "école strasse")).toEqual(["ÉCOLE Straße"]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("PostgreSQL: a course stored before the folded column is found by folded text after the upgrade", async () => {
  const database = await createTestDatabase({ migrated: false });
  try {
    const sql = new SQL(database.url, { max: 1 });
    try {
      await applyPostgresMigrations(sql, postgresMigrations.filter((m) => m.version <= 4));
      await sql.unsafe(insertCourse);
    } finally {
      await sql.close();
    }
    expect(await titlesFound(database.url, "école strasse")).toEqual(["ÉCOLE Straße"]);
  } finally {
    await database.drop();
  }
});
