/**
 * How each recorded entity maps to its table: column names, which columns hold JSON, and which column
 * names the parent for ordering. One table of facts drives the generic insert/update/find code, so a
 * new column is added in one place.
 */
import type { EntityKind, EntityRows } from "../types.ts";
import { foldCase } from "./fold.ts";

export interface TableSpec<Row> {
  table: string;
  /** Row property → column name. */
  columns: { [P in keyof Row]-?: string };
  /** Properties stored as JSON text. */
  json: readonly (keyof Row)[];
  /** The property naming the parent, for ordered kinds. */
  parent: keyof Row | null;
  /** Columns kept only for queries, computed from a property and written whenever it is. */
  derived?: readonly { column: string; from: keyof Row; value: (property: unknown) => SqlValue }[];
}

export const tables: { [K in EntityKind]: TableSpec<EntityRows[K]> } = {
  course: {
    table: "courses",
    columns: {
      id: "id",
      ownerSub: "owner_sub",
      title: "title",
      description: "description",
      language: "language",
      audience: "audience",
      level: "level",
      tags: "tags",
      numbering: "numbering",
      targetMinutes: "target_minutes",
      theme: "theme",
      accessibilityReviews: "accessibility_reviews",
      status: "status",
      version: "version",
      createdAt: "created_at",
      updatedAt: "updated_at",
    },
    json: ["tags", "theme", "accessibilityReviews"],
    parent: null,
    derived: [{ column: "title_folded", from: "title", value: (title) => foldCase(String(title)) }],
  },
  objective: {
    table: "objectives",
    columns: { id: "id", courseId: "course_id", position: "position", text: "text" },
    json: [],
    parent: "courseId",
  },
  module: {
    table: "modules",
    columns: { id: "id", courseId: "course_id", position: "position", title: "title", summary: "summary", objectiveIds: "objective_ids" },
    json: ["objectiveIds"],
    parent: "courseId",
  },
  lesson: {
    table: "lessons",
    columns: {
      id: "id",
      courseId: "course_id",
      moduleId: "module_id",
      position: "position",
      title: "title",
      kind: "kind",
      passingScore: "passing_score",
      maxAttempts: "max_attempts",
      estimatedMinutes: "estimated_minutes",
      quizOptions: "quiz_options",
      banner: "banner",
    },
    json: ["quizOptions", "banner"],
    parent: "moduleId",
  },
  block: {
    table: "blocks",
    columns: { id: "id", courseId: "course_id", lessonId: "lesson_id", position: "position", type: "type", body: "body" },
    json: ["body"],
    parent: "lessonId",
  },
};

type SqlValue = string | number | null | Uint8Array;

/** Row properties → bound parameters. */
export function toColumns<K extends EntityKind>(kind: K, fields: Partial<EntityRows[K]>): Map<string, SqlValue> {
  const spec = tables[kind] as TableSpec<EntityRows[K]>;
  const values = new Map<string, SqlValue>();
  for (const property of Object.keys(fields) as (keyof EntityRows[K])[]) {
    const column = spec.columns[property];
    if (!column) throw new Error(`${kind} has no property ${String(property)}`);
    const value = fields[property];
    values.set(column, spec.json.includes(property) ? JSON.stringify(value) : (value as SqlValue));
  }
  if (spec.derived) {
    for (const derived of spec.derived) if (derived.from in fields) values.set(derived.column, derived.value(fields[derived.from]));
  }
  return values;
}

/** A database row → row properties. */
export function fromColumns<K extends EntityKind>(kind: K, record: Record<string, unknown>): EntityRows[K] {
  const spec = tables[kind] as TableSpec<EntityRows[K]>;
  const row: Record<string, unknown> = {};
  for (const [property, column] of Object.entries(spec.columns) as [string, string][]) {
    const value = record[column];
    row[property] = spec.json.includes(property as keyof EntityRows[K]) && typeof value === "string" ? JSON.parse(value) : value;
  }
  return row as unknown as EntityRows[K];
}

export function parentColumn(kind: Exclude<EntityKind, "course">): string {
  const spec = tables[kind] as TableSpec<EntityRows[typeof kind]>;
  const parent = spec.parent;
  if (parent === null) throw new Error(`${kind} is not ordered`);
  return (spec.columns as Record<string, string>)[parent as string] as string;
}
