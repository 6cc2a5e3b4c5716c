/**
 * `list_courses` search folds case the same way on SQLite and PostgreSQL, for all of Unicode: the
 * same search finds the same courses on both stores. Folding is full case folding over canonically
 * composed text (ß ~ ss, final sigma ~ sigma, decomposed é ~ é), and `%` and `_` stay literal.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openHarness, type Harness } from "./authoring-harness.ts";
import { storeKinds } from "./support/postgres.ts";

const titles = ["ÉCOLE française", "Straße bauen", "ΟΔΟΣ ΣΟΦΙΑΣ", "Ünïcödé 101", "İzmir notes", "100% compliance", "snake_case naming", "Plain ascii"];

describe.each(storeKinds)("list_courses search on %s", (store) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await openHarness(store);
    for (const title of titles) await harness.call("searcher", "create_course", { title });
  });
  afterAll(() => harness?.close());

  async function search(text: string): Promise<string[]> {
    const result = await harness.call("searcher", "list_courses", { search: text, limit: 100 });
    return (result.courses as { title: string }[]).map((course) => course.title).sort();
  }

  test("non-ASCII capitals match their small letters, and the other way round", async () => {
    expect(await search("école")).toEqual(["ÉCOLE française"]);
    expect(await search("FRANÇAISE")).toEqual(["ÉCOLE française"]);
    expect(await search("ünïcödé")).toEqual(["Ünïcödé 101"]);
    expect(await search("ΟΔΟΣ")).toEqual(["ΟΔΟΣ ΣΟΦΙΑΣ"]);
    expect(await search("σοφιασ")).toEqual(["ΟΔΟΣ ΣΟΦΙΑΣ"]);
  });

  test("ß, ẞ and ss are one letter pair, as in Unicode case folding", async () => {
    expect(await search("STRASSE")).toEqual(["Straße bauen"]);
    expect(await search("straße")).toEqual(["Straße bauen"]);
    expect(await search("STRAẞE")).toEqual(["Straße bauen"]);
  });

  test("a decomposed accent finds the composed letter", async () => {
    expect(await search("e\u0301cole")).toEqual(["ÉCOLE française"]);
  });

  test("a title is found by its own text, and % and _ are literal", async () => {
    for (const title of titles) expect(await search(title)).toEqual([title]);
    expect(await search("%")).toEqual(["100% compliance"]);
    expect(await search("_")).toEqual(["snake_case naming"]);
    expect(await search("a_e")).toEqual([]);
  });

  test("a renamed course is found by its new title only", async () => {
    const created = await harness.call("searcher", "create_course", { title: "Ancien TITRE" });
    await harness.call("searcher", "update_course", { courseId: created.id, expectedVersion: created.version, title: "Nouveau TITRE Ærø" });
    expect(await search("ancien")).toEqual([]);
    expect(await search("ærø")).toEqual(["Nouveau TITRE Ærø"]);
  });
});
