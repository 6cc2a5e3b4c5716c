import { describe, expect, test } from "bun:test";
import { CourseRowsCache } from "../src/authoring/course-rows-cache.ts";
import type { CourseRows } from "../src/authoring/read-model.ts";
import type { BlockRow, CourseRow } from "../src/store/types.ts";

function courseRow(id: string, version: number, updatedAt = `2026-01-01T00:00:0${version}.000Z`): CourseRow {
  return { id, ownerSub: "u", title: "t", description: "", language: "en", audience: "", level: null, tags: [], status: "draft", version, createdAt: updatedAt, updatedAt };
}

function rowsOf(course: CourseRow, blockCount: number): CourseRows {
  const blocks = Array.from({ length: blockCount }, (_, i) => ({ id: `blk_${course.id}_${i}` }) as unknown as BlockRow);
  return { course, objectives: [], modules: [], lessons: [], blocks };
}

const stateOf = (course: CourseRow, blockCount: number) => ({ rows: rowsOf(course, blockCount), collaborators: [] });

describe("course rows cache", () => {
  test("rows are reused only while the course row names the same version and update time", () => {
    const cache = new CourseRowsCache();
    cache.set(stateOf(courseRow("crs_a", 1), 2));
    expect(cache.get(courseRow("crs_a", 1))?.rows.blocks).toHaveLength(2);
    expect(cache.get(courseRow("crs_a", 2))).toBeUndefined();
    expect(cache.get(courseRow("crs_a", 1, "2026-02-02T00:00:00.000Z"))).toBeUndefined();
  });

  test("a publication summary is remembered only for the version it was computed at", () => {
    const cache = new CourseRowsCache();
    cache.set(stateOf(courseRow("crs_a", 3), 1));
    cache.setPublication(courseRow("crs_a", 2), null);
    expect(cache.get(courseRow("crs_a", 3))?.publication).toBeUndefined();
    const summary = { version: 3, publishedAt: "2026-01-01T00:00:03.000Z", publishedBy: "u", hasUnpublishedChanges: false };
    cache.setPublication(courseRow("crs_a", 3), summary);
    expect(cache.get(courseRow("crs_a", 3))?.publication).toEqual(summary);
  });

  test("the course row handed back is the caller's fresh one, not the remembered one", () => {
    const cache = new CourseRowsCache();
    cache.set(stateOf(courseRow("crs_a", 1), 1));
    const fresh = { ...courseRow("crs_a", 1), title: "read just now" };
    expect(cache.get(fresh)?.rows.course).toBe(fresh);
  });

  test("rows held stay within the bound: least recently read courses leave first, oversized ones are not kept", () => {
    const cache = new CourseRowsCache(25);
    cache.set(stateOf(courseRow("crs_a", 1), 9));
    cache.set(stateOf(courseRow("crs_b", 1), 9));
    expect(cache.get(courseRow("crs_a", 1))).toBeDefined();
    cache.set(stateOf(courseRow("crs_c", 1), 9));
    expect(cache.get(courseRow("crs_b", 1))).toBeUndefined();
    expect(cache.get(courseRow("crs_a", 1))).toBeDefined();
    expect(cache.get(courseRow("crs_c", 1))).toBeDefined();
    cache.set(stateOf(courseRow("crs_d", 1), 30));
    expect(cache.get(courseRow("crs_d", 1))).toBeUndefined();
  });
});
