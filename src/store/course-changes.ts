/**
 * Every committed write passes `AuthoringStore.write`, so that is where "which courses did this write
 * change" is learnt: the decorator notes the course of each write that touches a course (its row, its
 * sharing, comments, publications, assets, translation units) and, once the transaction committed,
 * reports them. A rolled-back or retried attempt reports nothing of its own. The report is a plain
 * callback; the composition root decides what it means (MCP resource subscriptions), so the store
 * knows nothing of its listeners. Reads pass through untouched.
 */
import type { AuthoringStore, StoreTransaction } from "./types.ts";

export type CourseChangeListener = (courseIds: ReadonlySet<string>) => void;

type Recorder = (tx: StoreTransaction, changed: Set<string>, args: unknown[]) => void;

/** The transaction methods that write a course's content or access, and how each names the course. */
const recorders: Partial<Record<keyof StoreTransaction, Recorder>> = {
  insert: (_tx, changed, [kind, row]) => {
    if (kind === "course") changed.add((row as { id: string }).id);
  },
  update: (_tx, changed, [kind, id]) => {
    if (kind === "course") changed.add(id as string);
  },
  deleteCourse: (_tx, changed, [courseId]) => void changed.add(courseId as string),
  putCollaborator: (_tx, changed, [row]) => void changed.add((row as { courseId: string }).courseId),
  removeCollaborator: (_tx, changed, [courseId]) => void changed.add(courseId as string),
  insertComment: (_tx, changed, [row]) => void changed.add((row as { courseId: string }).courseId),
  insertReviewRound: (_tx, changed, [row]) => void changed.add((row as { courseId: string }).courseId),
  insertPublication: (_tx, changed, [row]) => void changed.add((row as { courseId: string }).courseId),
  insertAsset: (_tx, changed, [row]) => void changed.add((row as { courseId: string }).courseId),
  copyAsset: (_tx, changed, [, target]) => void changed.add((target as { courseId: string }).courseId),
  putTranslation: (_tx, changed, [row]) => void changed.add((row as { courseId: string }).courseId),
  putTranslationUnits: (_tx, changed, [rows]) => {
    for (const row of rows as { courseId: string }[]) changed.add(row.courseId);
  },
  removeTranslationUnits: (_tx, changed, [courseId]) => void changed.add(courseId as string),
  putTranslationNotes: (_tx, changed, [rows]) => {
    for (const row of rows as { courseId: string }[]) changed.add(row.courseId);
  },
};

/** `tx` seen through a proxy that records changed courses into `changed`; every other method is the original. */
function recording(tx: StoreTransaction, changed: Set<string>): StoreTransaction {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(tx, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      let method = wrapped.get(property);
      if (method === undefined) {
        const recorder = recorders[property as keyof StoreTransaction];
        const original = value as (...args: unknown[]) => unknown;
        method = recorder
          ? (...args: unknown[]) => {
              recorder(target, changed, args);
              return original.apply(target, args);
            }
          : original.bind(target);
        wrapped.set(property, method);
      }
      return method;
    },
  });
}

/** `store` reporting, after each committed write, the courses it changed (nothing when it changed none). */
export function reportingCourseChanges(store: AuthoringStore, listener: CourseChangeListener): AuthoringStore {
  return {
    read: (work) => store.read(work),
    async write(work) {
      let changed = new Set<string>();
      const result = await store.write((tx) => {
        // A retried attempt starts again from nothing.
        changed = new Set();
        return work(recording(tx, changed));
      });
      if (changed.size > 0) listener(changed);
      return result;
    },
    close: () => store.close(),
  };
}
