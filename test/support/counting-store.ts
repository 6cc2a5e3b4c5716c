/**
 * A store wrapper for scaling tests: counts every transaction method call (in order) and every row
 * returned, so "the same work whatever the course size" is checked without clocks.
 */
import type { AuthoringStore, StoreTransaction } from "../../src/store/types.ts";

export interface StoreTally {
  calls: string[];
  rowsRead: number;
}

export function countingStore(store: AuthoringStore, tally: StoreTally): AuthoringStore {
  const wrap = (tx: StoreTransaction): StoreTransaction =>
    new Proxy(tx, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          tally.calls.push(String(property));
          const result = await value.apply(target, args);
          tally.rowsRead += Array.isArray(result) ? result.length : result === undefined ? 0 : 1;
          return result;
        };
      },
    });
  return {
    read: (work) => store.read((tx) => work(wrap(tx))),
    write: (work) => store.write((tx) => work(wrap(tx))),
    close: () => store.close(),
  };
}

/** Runs `work` with the services' store counted, then puts the real store back. */
export async function tallyStoreWork(services: { store: AuthoringStore }, work: () => Promise<unknown>): Promise<StoreTally> {
  const tally: StoreTally = { calls: [], rowsRead: 0 };
  const original = services.store;
  services.store = countingStore(original, tally);
  try {
    await work();
  } finally {
    services.store = original;
  }
  return tally;
}
