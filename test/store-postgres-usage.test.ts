/**
 * The running totals the limits work (issue 8b) adds to the store interface, on PostgreSQL: deltas add
 * up from zero, owner totals count courses and asset bytes, and deleting a course deletes its totals.
 * Called through the transaction object directly until the interface methods land on this branch.
 */
import { expect, test } from "bun:test";
import { openAuthoringServices } from "../src/service.ts";
import type { StoreTransaction } from "../src/store/types.ts";
import { createTestDatabase } from "./support/postgres.ts";

type Totals = { lessons: number; blocks: number; contentBytes: number };
type WithUsage = StoreTransaction & {
  courseUsage(courseId: string): Promise<Totals>;
  addCourseUsage(courseId: string, delta: Totals): Promise<void>;
  ownerUsage(ownerSub: string): Promise<{ courses: number; assetBytes: number }>;
};

test("course totals start at zero, add deltas, follow the owner's assets, and go with the course", async () => {
  const database = await createTestDatabase();
  const services = await openAuthoringServices(database.url);
  try {
    const now = new Date().toISOString();
    const course = { id: "crs_usage1", ownerSub: "olivia", title: "T", description: "", language: "en", audience: "", level: null, tags: [], numbering: "modules" as const, targetMinutes: null, theme: null, status: "draft" as const, version: 1, createdAt: now, updatedAt: now };
    await services.store.write(async (tx) => {
      const usage = tx as WithUsage;
      await tx.insert("course", course);
      expect(await usage.courseUsage(course.id)).toEqual({ lessons: 0, blocks: 0, contentBytes: 0 });
      await usage.addCourseUsage(course.id, { lessons: 2, blocks: 5, contentBytes: 300 });
      await usage.addCourseUsage(course.id, { lessons: -1, blocks: 1, contentBytes: -50 });
      await tx.insertAsset({ id: "ast_usage1", courseId: course.id, filename: "a.png", mediaType: "image/png", byteSize: 1234, sha256: "f".repeat(64), createdBy: "olivia", createdAt: now }, new Uint8Array([1]));
    });
    await services.store.read(async (tx) => {
      const usage = tx as WithUsage;
      expect(await usage.courseUsage(course.id)).toEqual({ lessons: 1, blocks: 6, contentBytes: 250 });
      expect(await usage.ownerUsage("olivia")).toEqual({ courses: 1, assetBytes: 1234 });
      expect(await usage.ownerUsage("nobody")).toEqual({ courses: 0, assetBytes: 0 });
    });
    await services.store.write((tx) => tx.deleteCourse(course.id));
    await services.store.read(async (tx) => expect(await (tx as WithUsage).courseUsage(course.id)).toEqual({ lessons: 0, blocks: 0, contentBytes: 0 }));
  } finally {
    await services.close();
    await database.drop();
  }
});
