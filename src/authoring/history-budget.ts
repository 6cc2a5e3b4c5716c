/**
 * The per-course history budget (`HISTORY_BUDGET_BYTES`). When a commit takes a course's stored history
 * past it, the oldest revisions are squashed into a baseline: their changes are dropped (their listing
 * stays, marked squashed), so the course can no longer be read or restored as of a version before the
 * baseline. The newest `keptRevisions` revisions are never squashed; the domain has no named revisions
 * (published snapshots are stored whole, apart from history). Squashing goes down to a fraction of the
 * budget so that a course at its budget is not squashed again on every write.
 */
import type { AuthoringSession } from "./context.ts";

/** The newest revisions of a course that are always kept whole, whatever the budget. */
export const keptRevisions = 20;
/** After squashing, history is at most this share of the budget (when the kept revisions allow it). */
const squashTarget = 0.75;

export async function keepHistoryWithinBudget(session: AuthoringSession, courseId: string): Promise<void> {
  const budget = session.limits.courseHistoryBytes;
  const usage = await session.tx.historyUsage(courseId);
  if (usage.bytes <= budget) return;
  const target = Math.floor(budget * squashTarget);
  const sizes = await session.tx.revisionSizes(courseId);
  const candidates = sizes.slice(0, Math.max(0, sizes.length - keptRevisions)).filter((revision) => revision.version > usage.floorVersion);
  // Chunks are shared between revisions, so what a squash frees is only known once it is done: squash
  // the oldest 1, 2, 4… candidates and read the total again after each step.
  let through = usage.floorVersion;
  let squashed = 0;
  for (let step = 1; squashed < candidates.length; step *= 2) {
    squashed = Math.min(candidates.length, squashed + step);
    through = (candidates[squashed - 1] as { version: number }).version;
    await session.tx.squashRevisions(courseId, through, 0);
    if ((await session.tx.historyUsage(courseId)).bytes <= target) return;
  }
  // Every candidate's changes are gone and the listing itself is still over: drop the oldest squashed entries.
  if (through > 0) await session.tx.squashRevisions(courseId, through, through);
}
