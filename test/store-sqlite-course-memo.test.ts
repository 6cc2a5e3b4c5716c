/**
 * The SQLite store's memo of course rows and translation links: reads take them from it, every write ends by clearing it,
 * stores of one process on one file share it, and a read that began before a write ended never mixes
 * the memo's rows with its own snapshot.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../src/store/sqlite/store.ts";
import type { AuthoringStore, CourseRow } from "../src/store/types.ts";

let dir: string;
let url: string;
let stores: AuthoringStore[];

const course: CourseRow = {
  id: "crs_memo",
  ownerSub: "alice",
  title: "First title",
  description: "",
  language: "en",
  audience: "",
  level: null,
  tags: ["one"],
  numbering: "modules",
  targetMinutes: null,
  theme: null,
  status: "draft",
  version: 1,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

function open(): AuthoringStore {
  const store = openSqliteStore(url);
  stores.push(store);
  return store;
}

const titleIn = (store: AuthoringStore) => store.read(async (tx) => (await tx.find("course", course.id))?.title);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "course-memo-"));
  url = `sqlite://${join(dir, "db.sqlite")}`;
  stores = [];
  await open().write((tx) => tx.insert("course", course));
});

afterEach(() => {
  for (const store of stores) store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("course row memo", () => {
  test("a write through one store is seen by the next read through another store of the same file", async () => {
    const [a, b] = [stores[0] as AuthoringStore, open()];
    expect(await titleIn(a)).toBe("First title");
    expect(await titleIn(b)).toBe("First title");
    await b.write((tx) => tx.update("course", course.id, { title: "Second title", version: 2 }));
    expect(await titleIn(a)).toBe("Second title");
    await a.write((tx) => tx.remove("course", course.id));
    expect(await b.read((tx) => tx.find("course", course.id))).toBeUndefined();
  });

  test("a failed write clears the memo too, and the read after it sees the rolled-back row", async () => {
    const store = stores[0] as AuthoringStore;
    expect(await titleIn(store)).toBe("First title");
    const failure = store.write(async (tx) => {
      await tx.update("course", course.id, { title: "Never committed" });
      throw new Error("refused");
    });
    await expect(failure).rejects.toThrow("refused");
    expect(await titleIn(store)).toBe("First title");
  });

  test("a read that began before a write ended keeps its own snapshot and leaves the memo alone", async () => {
    const [a, b] = [stores[0] as AuthoringStore, open()];
    let writeDone!: () => void;
    const written = new Promise<void>((resolve) => (writeDone = resolve));
    const seen = a.read(async (tx) => {
      const before = (await tx.find("course", course.id))?.title;
      writeDone();
      // Let the other store's write commit while this read transaction is open.
      await b.write((other) => other.update("course", course.id, { title: "Second title", version: 2 }));
      const after = (await tx.find("course", course.id))?.title;
      return [before, after];
    });
    await written;
    expect(await seen).toEqual(["First title", "First title"]);
    expect(await titleIn(a)).toBe("Second title");
    expect(await titleIn(b)).toBe("Second title");
  });

  test("rows from a read are shared and frozen; a write works on its own copy", async () => {
    const store = stores[0] as AuthoringStore;
    const read = await store.read((tx) => tx.find("course", course.id));
    expect(read).toBeDefined();
    expect(await store.read((tx) => tx.find("course", course.id))).toBe(read as CourseRow);
    expect(Object.isFrozen(read)).toBe(true);
    expect(() => (read as CourseRow).tags.push("two")).toThrow(TypeError);
    const inWrite = await store.write((tx) => tx.find("course", course.id));
    expect(inWrite).not.toBe(read as CourseRow);
    expect(Object.isFrozen(inWrite)).toBe(false);
  });

  test("translation links: a read after a write that links a translation sees the link; rows are shared and frozen", async () => {
    const store = stores[0] as AuthoringStore;
    const links = (reader: AuthoringStore) => reader.read((tx) => tx.listTranslationLinks(course.id));
    const none = await links(store);
    expect(none).toEqual([]);
    expect(await links(store)).toBe(none);
    const translation = { ...course, id: "crs_memo_fr", language: "fr" };
    await open().write(async (tx) => {
      await tx.insert("course", translation);
      await tx.putTranslation({ courseId: translation.id, sourceCourseId: course.id, language: "fr", sourceVersion: 1, createdAt: course.createdAt });
    });
    const linked = await links(store);
    expect(linked.map((link) => [link.courseId, link.language])).toEqual([[translation.id, "fr"]]);
    expect(Object.isFrozen(linked)).toBe(true);
    expect(Object.isFrozen(linked[0])).toBe(true);
    await store.write((tx) => tx.remove("course", translation.id));
    expect(await links(store)).toEqual([]);
  });
});
