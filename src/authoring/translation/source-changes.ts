/**
 * What a translation has not taken from its source yet: the difference between the translation's rows
 * and the mirror of the source's current rows (mirror.ts), by entity: added, removed, or changed with
 * the fields that differ (`position`, `body.markers`, `theme`…). The translation's reads report it
 * (bounded), and the next set_translation_units or import_translation applies it and answers with it.
 */
import type { CourseRow, JsonObject, OrderedKind, StoreTransaction } from "../../store/types.ts";
import { loadCourseRows, type CourseRows } from "../read-model.ts";
import { planMirror, type TextLookup } from "./mirror.ts";

export interface SourceChange {
  kind: "course" | OrderedKind | "asset";
  /** The source's ID (what the agent edits); a removed entity keeps the translation's. */
  id: string;
  change: "added" | "removed" | "changed";
  fields?: string[];
}

export interface SourceChanges {
  changes: SourceChange[];
  /** How many more changes there are than listed. */
  moreChanges: number;
}

/** Changes listed in one answer; the rest are counted. */
export const sourceChangesListed = 20;

const same = (left: unknown, right: unknown) => left === right || JSON.stringify(left ?? null) === JSON.stringify(right ?? null);

function changedFields(current: Record<string, unknown>, wanted: Record<string, unknown>): string[] {
  const fields: string[] = [];
  for (const [field, value] of Object.entries(wanted)) {
    if (field === "id" || field === "courseId" || same(current[field], value)) continue;
    if (field === "body" && value !== null && typeof value === "object") {
      const before = (current.body ?? {}) as JsonObject;
      const after = value as JsonObject;
      const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
      for (const key of keys) if (!same(before[key], after[key])) fields.push(`body.${key}`);
    } else fields.push(field);
  }
  return fields;
}

/** Every difference between the translation and the mirror of its source now (empty when in step). */
export async function pendingSourceChanges(tx: StoreTransaction, translation: CourseRow, source: CourseRows, textOf: TextLookup): Promise<SourceChange[]> {
  // Reporting only: a translated text that breaks a rule is refused when the changes are applied, not here.
  const plan = await planMirror(tx, translation.id, source, translation.language, textOf, () => {});
  const sourceIdOf = new Map([...plan.ids].map(([sourceId, translationId]) => [translationId, sourceId]));
  const changes: SourceChange[] = [];
  const courseFields = changedFields(translation as unknown as Record<string, unknown>, plan.course as Record<string, unknown>);
  if (courseFields.length > 0) changes.push({ kind: "course", id: source.course.id, change: "changed", fields: courseFields });
  for (const asset of plan.assets) {
    if (!(await tx.findAsset(plan.ids.get(asset.id) as string))) changes.push({ kind: "asset", id: asset.id, change: "added" });
  }
  const current = await loadCourseRows(tx, translation);
  const existing = { objective: current.objectives, module: current.modules, lesson: current.lessons, block: current.blocks };
  for (const kind of ["objective", "module", "lesson", "block"] as const) {
    const byId = new Map<string, Record<string, unknown>>(existing[kind].map((row) => [row.id, row as unknown as Record<string, unknown>]));
    const wantedIds = new Set<string>();
    for (const row of plan.wanted[kind]) {
      wantedIds.add(row.id);
      const id = sourceIdOf.get(row.id) ?? row.id;
      const now = byId.get(row.id);
      if (!now) changes.push({ kind, id, change: "added" });
      else {
        const fields = changedFields(now, row as unknown as Record<string, unknown>);
        if (fields.length > 0) changes.push({ kind, id, change: "changed", fields });
      }
    }
    for (const row of existing[kind]) if (!wantedIds.has(row.id)) changes.push({ kind, id: row.id, change: "removed" });
  }
  return changes;
}

export function boundedChanges(changes: readonly SourceChange[]): SourceChanges {
  return { changes: changes.slice(0, sourceChangesListed), moreChanges: Math.max(0, changes.length - sourceChangesListed) };
}

/** One line for a summary: "3 change(s) not taken: block blk_x changed (body.markers), lesson les_y added…". */
export function describeChanges(changes: SourceChanges): string {
  const total = changes.changes.length + changes.moreChanges;
  const listed = changes.changes
    .slice(0, 5)
    .map((change) => `${change.kind} ${change.id} ${change.change}${change.fields ? ` (${change.fields.join(", ")})` : ""}`)
    .join("; ");
  return `${total} source change(s) not taken yet: ${listed}${total > 5 ? "; …" : ""}`;
}
