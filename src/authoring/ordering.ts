/**
 * Sibling order with gapped integer positions: inserting or moving one item touches only that item,
 * whatever the size of the course. When two neighbours leave no room, only that one parent's children
 * are renumbered (and recorded in the revision like any other change).
 */
import type { EntityRows, OrderedKind } from "../store/types.ts";
import type { CourseEdit } from "./course-edit.ts";
import { invalidArgument } from "./errors.ts";

export const positionGap = 1024;

const childLabels: Record<OrderedKind, string> = { objective: "objectives", module: "modules", lesson: "lessons", block: "blocks" };

/**
 * Positions for `count` new (or moved) children placed at `index` among the parent's children.
 * `movingId` names a child of this same parent that is being moved within it, so it does not count.
 * `index` undefined means at the end.
 */
export async function allocatePositions(
  edit: CourseEdit,
  kind: OrderedKind,
  parentId: string,
  index: number | undefined,
  count: number,
  field: string,
  movingId?: string,
): Promise<number[]> {
  if (count === 0) return [];
  const siblings = await edit.tx.countChildren(kind, parentId);
  const others = movingId ? siblings - 1 : siblings;
  const at = index ?? others;
  if (at > others) {
    throw invalidArgument(field, `${at} is out of range: there ${others === 1 ? "is 1" : `are ${others}`} ${childLabels[kind]} here, so use 0 to ${others} (or omit it to append)`, {
      allowedMax: others,
    });
  }
  const { before, after } = await edit.tx.positionsAround(kind, parentId, at, movingId);
  const spread = spreadBetween(before, after, count);
  return spread ?? renumberAround(edit, kind, parentId, at, count, movingId);
}

/** Evenly spaced integers strictly between the neighbours, or null when they do not fit. */
function spreadBetween(before: number | null, after: number | null, count: number): number[] | null {
  if (before === null && after === null) return Array.from({ length: count }, (_, i) => (i + 1) * positionGap);
  if (after === null) return Array.from({ length: count }, (_, i) => (before as number) + (i + 1) * positionGap);
  if (before === null) return Array.from({ length: count }, (_, i) => after - (count - i) * positionGap);
  const step = Math.floor((after - before) / (count + 1));
  if (step < 1) return null;
  return Array.from({ length: count }, (_, i) => before + (i + 1) * step);
}

/** Rewrites the parent's children to even gaps, leaving `count` free slots at `index`. */
async function renumberAround(
  edit: CourseEdit,
  kind: OrderedKind,
  parentId: string,
  index: number,
  count: number,
  movingId: string | undefined,
): Promise<number[]> {
  const children = (await edit.tx.listChildren(kind, parentId)).filter((child) => child.id !== movingId);
  const freed: number[] = [];
  let slot = 0;
  for (let i = 0; i <= children.length; i++) {
    if (i === index) for (let k = 0; k < count; k++) freed.push(++slot * positionGap);
    const child = children[i];
    if (!child) continue;
    const position = ++slot * positionGap;
    if (child.position !== position) await edit.update(kind, child, { position } as Partial<EntityRows[typeof kind]>);
  }
  return freed;
}
