/**
 * Courses as a whole: creation with a nested outline, reading back, listing with cursors and filters,
 * ownership, deletion and duplication — through the real tool definitions and a real SQLite file.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { storeKinds } from "./support/postgres.ts";
import { withBlockIdsOnly } from "../src/authoring/course-pages.ts";
import type { CourseDocument } from "../src/authoring/schemas/course.ts";

// Every rule holds on both stores.
describe.each(storeKinds)("on %s", (store) => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await openHarness(store);
  });
  afterEach(() => harness.close());

  type Course = Json & { id: string; version: number; modules: (Json & { id: string; lessons: (Json & { id: string; blocks: Json[] })[] })[] };

  describe("create_course, get_course, list_courses", () => {
    test("a new course is a draft at version 1 owned by the caller", async () => {
      const course = (await harness.call("alice", "create_course", { title: "  Onboarding  " })) as Course;
      expect(course.id).toMatch(/^crs_[0-9a-z]{20}$/);
      expect(course.title).toBe("Onboarding");
      expect(course.status).toBe("draft");
      expect(course.version).toBe(1);
      expect(course.ownerSub).toBe("alice");
      expect(course.role).toBe("owner");
      expect(course.language).toBe("en");
      expect(course.modules).toEqual([]);
    });

    test("a whole outline is created in one call and reads back equal", async () => {
      const created = (await harness.call("alice", "create_course", {
        title: "Security basics",
        language: "en-GB",
        level: "beginner",
        tags: ["security"],
        objectives: [{ key: "pw", text: "Choose strong passwords" }, { text: "Spot phishing" }],
        modules: [
          {
            title: "Passwords",
            objectiveIds: ["pw"],
            lessons: [
              { title: "Why length matters", blocks: [{ type: "heading", text: "Length" }, { type: "text", markdown: "Long **passphrases** win." }] },
              {
                title: "Check",
                kind: "quiz",
                passingScore: 70,
                blocks: [
                  {
                    type: "single_choice",
                    prompt: "Which is strongest?",
                    objectiveIds: ["Spot phishing", "pw"],
                    choices: [
                      { text: "correct horse battery staple", correct: true, feedback: "Yes: long." },
                      { text: "P@ss1", feedback: "Too short." },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      })) as Course;
      expect(created.version).toBe(1);
      const read = (await harness.call("alice", "get_course", { courseId: created.id })) as Course;
      // create_course answers with every ID and blocks as { id, type }; get_course has the same course in full.
      expect(withBlockIdsOnly(read as unknown as CourseDocument)).toEqual(created as unknown as CourseDocument);
      const objectives = read.objectives as { id: string; text: string }[];
      expect(objectives.map((o) => o.text)).toEqual(["Choose strong passwords", "Spot phishing"]);
      const module = read.modules[0]!;
      expect(module.objectiveIds).toEqual([objectives[0]!.id]);
      const quiz = module.lessons[1]!;
      expect(quiz).toMatchObject({ kind: "quiz", passingScore: 70, maxAttempts: null, blockCount: 1 });
      expect(quiz.blocks[0]).toMatchObject({ type: "single_choice", points: 1, objectiveIds: [objectives[1]!.id, objectives[0]!.id] });
      expect(module.lessons[0]!.blocks.map((b) => b.type)).toEqual(["heading", "text"]);
      expect(module.lessons[0]!.blocks[0]).toMatchObject({ level: 2 });
    });

    test("includeBlocks: false returns the outline with block counts only", async () => {
      const created = (await harness.call("alice", "create_course", {
        title: "T",
        modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "divider" }, { type: "divider" }] }] }],
      })) as Course;
      const outline = (await harness.call("alice", "get_course", { courseId: created.id, includeBlocks: false })) as Course;
      expect(outline.modules[0]!.lessons[0]).not.toHaveProperty("blocks");
      expect(outline.modules[0]!.lessons[0]!.blockCount).toBe(2);
    });

    test("an invalid block anywhere in the outline creates nothing and names the field", async () => {
      const error = await harness.fail("alice", "create_course", {
        title: "T",
        modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "image", url: "https://example.com/a.png" }] }] }],
      });
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toContain("modules[0].lessons[0].blocks[0].alt");
      const list = await harness.call("alice", "list_courses", {});
      expect(list.courses).toEqual([]);
    });

    test("an unknown objective reference fails with the field and the known objectives", async () => {
      const error = await harness.fail("alice", "create_course", {
        title: "T",
        objectives: [{ key: "a", text: "Alpha" }],
        modules: [{ title: "M", objectiveIds: ["b"] }],
      });
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toContain("modules[0].objectiveIds[0]");
      expect(error.message).toContain("Alpha");
      expect((await harness.call("alice", "list_courses", {})).courses).toEqual([]);
    });

    test("list_courses shows only the caller's courses, newest first, paged with opaque cursors", async () => {
      for (let i = 1; i <= 5; i++) await harness.call("alice", "create_course", { title: `Alice course ${i}` });
      await harness.call("bob", "create_course", { title: "Bob course" });
      const first = await harness.call("alice", "list_courses", { limit: 2 });
      const titles = (first.courses as Json[]).map((c) => c.title);
      expect(titles).toEqual(["Alice course 5", "Alice course 4"]);
      expect(typeof first.nextCursor).toBe("string");
      const second = await harness.call("alice", "list_courses", { limit: 2, cursor: first.nextCursor });
      const third = await harness.call("alice", "list_courses", { limit: 2, cursor: second.nextCursor });
      expect([...(second.courses as Json[]), ...(third.courses as Json[])].map((c) => c.title)).toEqual([
        "Alice course 3",
        "Alice course 2",
        "Alice course 1",
      ]);
      expect(third.nextCursor).toBeNull();
      const bobs = await harness.call("bob", "list_courses", {});
      expect((bobs.courses as Json[]).map((c) => c.title)).toEqual(["Bob course"]);
    });

    test("list_courses searches titles case-insensitively and filters by status", async () => {
      await harness.call("alice", "create_course", { title: "Intro to SQL" });
      await harness.call("alice", "create_course", { title: "Advanced sql_tuning 100%" });
      await harness.call("alice", "create_course", { title: "Git" });
      const sql = await harness.call("alice", "list_courses", { search: "sql" });
      expect((sql.courses as Json[]).length).toBe(2);
      const literal = await harness.call("alice", "list_courses", { search: "_tuning 100%" });
      expect((literal.courses as Json[]).map((c) => c.title)).toEqual(["Advanced sql_tuning 100%"]);
      const published = await harness.call("alice", "list_courses", { status: "published" });
      expect(published.courses).toEqual([]);
    });

    test("a tampered cursor is invalid_arguments naming cursor", async () => {
      const error = await harness.fail("alice", "list_courses", { cursor: "not-a-cursor" });
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toStartWith("cursor:");
    });

    test("another user's course is not_found with exactly the message of a nonexistent course", async () => {
      const course = (await harness.call("alice", "create_course", { title: "Private" })) as Course;
      const hidden = await harness.fail("mallory", "get_course", { courseId: course.id });
      const missing = await harness.fail("mallory", "get_course", { courseId: "crs_00000000000000000000" });
      expect(hidden.code).toBe("not_found");
      expect(hidden.message).toBe(missing.message.replace("crs_00000000000000000000", course.id));
    });
  });

  describe("delete_course and duplicate_course", () => {
    test("only the owner deletes; the course is gone afterwards", async () => {
      const course = (await harness.call("alice", "create_course", { title: "Doomed" })) as Course;
      expect((await harness.fail("bob", "delete_course", { courseId: course.id })).code).toBe("not_found");
      expect(await harness.call("alice", "delete_course", { courseId: course.id })).toEqual({ courseId: course.id, deleted: true });
      expect((await harness.fail("alice", "get_course", { courseId: course.id })).code).toBe("not_found");
    });

    test("a duplicate has new IDs everywhere, remapped references, and belongs to the caller", async () => {
      const original = (await harness.call("alice", "create_course", {
        title: "Original",
        objectives: [{ key: "k", text: "Know things" }],
        modules: [
          {
            title: "M",
            objectiveIds: ["k"],
            lessons: [{ title: "Q", kind: "quiz", blocks: [{ type: "true_false", prompt: "Sky is blue?", answer: true, objectiveIds: ["k"] }] }],
          },
        ],
      })) as Course;
      const copy = (await harness.call("alice", "duplicate_course", { courseId: original.id })) as Course;
      expect(copy.id).not.toBe(original.id);
      expect(copy.title).toBe("Original (copy)");
      const copiedObjective = (copy.objectives as { id: string }[])[0]!.id;
      expect(copiedObjective).not.toBe((original.objectives as { id: string }[])[0]!.id);
      expect(copy.modules[0]!.objectiveIds).toEqual([copiedObjective]);
      const copyRead = (await harness.call("alice", "get_course", { courseId: copy.id })) as Course;
      expect(copyRead.modules[0]!.lessons[0]!.blocks[0]).toMatchObject({ type: "true_false", objectiveIds: [copiedObjective] });
      expect(copy.modules[0]!.lessons[0]!.blocks[0]!.id).not.toBe(original.modules[0]!.lessons[0]!.blocks[0]!.id);
    });
  });
});
