import { describe, expect, test } from "bun:test";
import { CourseRowsCache } from "../src/authoring/course-rows-cache.ts";
import type { CourseRows } from "../src/authoring/read-model.ts";
import type { BlockRow, CourseRow } from "../src/store/types.ts";
import { openHarness } from "./authoring-harness.ts";

function courseRow(id: string, version: number, updatedAt = `2026-01-01T00:00:0${version}.000Z`): CourseRow {
  return { id, ownerSub: "u", title: "t", description: "", language: "en", audience: "", level: null, tags: [], numbering: "modules", targetMinutes: null, theme: null, status: "draft", version, createdAt: updatedAt, updatedAt };
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

describe("get_course through the read cache (real services, SQLite)", () => {
  test("each reader sees their own role, and a read after an edit, a share or a publish shows it", async () => {
    const harness = await openHarness();
    try {
      const course = await harness.call("owner", "create_course", {
        title: "Cached",
        modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "text", markdown: "First words." }] }] }],
      });
      const courseId = course.id as string;
      await harness.call("owner", "share_course", { courseId, sub: "rev", role: "reviewer" });
      const asOwner = await harness.call("owner", "get_course", { courseId });
      const asReviewer = await harness.call("rev", "get_course", { courseId });
      expect([asOwner.role, asReviewer.role]).toEqual(["owner", "reviewer"]);
      expect((await harness.call("owner", "get_course", { courseId })).role).toBe("owner");

      const lesson = (asOwner.modules as { lessons: { id: string; blocks: { id: string }[] }[] }[])[0]!.lessons[0]!;
      await harness.call("owner", "update_block", { courseId, blockId: lesson.blocks[0]!.id, block: { type: "text", markdown: "Edited words." } });
      const afterEdit = await harness.call("rev", "get_course", { courseId });
      expect(JSON.stringify(afterEdit)).toContain("Edited words.");

      await harness.call("owner", "share_course", { courseId, sub: "third", role: "viewer" });
      expect((await harness.call("rev", "get_course", { courseId })).collaborators).toContainEqual({ sub: "third", role: "viewer" });

      await harness.call("owner", "set_status", { courseId, status: "published" });
      const published = await harness.call("owner", "get_course", { courseId });
      expect(published.publication).toMatchObject({ hasUnpublishedChanges: false });
      await harness.call("owner", "update_block", { courseId, blockId: lesson.blocks[0]!.id, block: { type: "text", markdown: "After publishing." } });
      expect((await harness.call("owner", "get_course", { courseId })).publication).toMatchObject({ hasUnpublishedChanges: true });
    } finally {
      await harness.close();
    }
  });
});
