/**
 * What a task's work runs with (task-runs.ts): the authoring services, their store guarded so that the
 * work's writes commit only while its task is still wanted. Each write transaction first checks the
 * task's signal (cancelled here, or seen cancelled on another replica), and seals the task as its last
 * statement: a cancel that committed first makes the seal fail, so the whole write rolls back; a seal
 * that committed first makes the cancel fail ("already committed"). Imports, duplicates and
 * translation imports are one write each, so they are all or nothing either way.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { AuthoringServices } from "../../authoring/services.ts";
import type { AuthoringStore } from "../../store/types.ts";
import { stoppedTaskError } from "./task-runs.ts";

/** The tools that accept task-augmented calls: the long ones (packages, imports, copies). */
export const taskToolNames = ["export_course", "import_course", "duplicate_course", "export_translation", "import_translation", "connect_lrs"] as const;

export function taskServices<S extends AuthoringServices>(services: S, taskId: string, signal: AbortSignal): S {
  const inner = services.store;
  const now = () => services.now().toISOString();
  // Once a write has committed with its seal, the work has happened: a late stop no longer interrupts it.
  let committed = false;
  const stopped = () => signal.aborted && !committed;
  const store: AuthoringStore = {
    read(work) {
      if (stopped()) return Promise.reject(stoppedTaskError(signal.reason));
      return inner.read(work);
    },
    async write(work) {
      const result = await inner.write(async (tx) => {
        if (stopped()) throw stoppedTaskError(signal.reason);
        const written = await work(tx);
        // Stopped while it worked (a cancel or a stop made here): roll back rather than seal.
        if (stopped() || !(await tx.sealTask(taskId, now()))) throw stoppedTaskError(signal.reason ?? "cancelled");
        return written;
      });
      committed = true;
      return result;
    },
    close: () => inner.close(),
  };
  return { ...services, store };
}

/**
 * A package or translation file saved by a call whose task was cancelled as it finished: the save is
 * not part of any transaction, so it is deleted here instead.
 */
export async function discardTaskResult(services: AuthoringServices, result: CallToolResult): Promise<void> {
  const saved = result.structuredContent as Record<string, unknown> | undefined;
  if (!saved || typeof saved.exportId !== "string" || typeof saved.courseId !== "string" || typeof saved.fileName !== "string") return;
  await services.exports.delete({ exportId: saved.exportId, courseId: saved.courseId, fileName: saved.fileName });
}
