/**
 * Review comments: who may comment, what a comment can be attached to, how it follows its target
 * through edits, moves and removal, the open-first listing with paging, and resolving (who, when, a
 * note) and reopening — all without touching the course version.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { storeKinds } from "./support/postgres.ts";
import { blockOfType, createCourse, type Course } from "./support/review-courses.ts";

// Every rule holds on both stores.
describe.each(storeKinds)("on %s", (store) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await openHarness(store);
  });
  afterAll(() => harness.close());

  type Comment = Json & { id: string; status: string; targetRemoved: boolean; target: Json & { path: string | null } };

  async function sharedCourse(): Promise<Course> {
    const course = await createCourse(harness);
    for (const [sub, role] of [["bob", "editor"], ["rita", "reviewer"], ["vera", "viewer"]]) {
      await harness.call("alice", "share_course", { courseId: course.id, sub, role });
    }
    return (await harness.call("alice", "get_course", { courseId: course.id })) as Course;
  }

  async function comment(user: string, courseId: string, targetId: string, body: string, quote?: string): Promise<Comment> {
    return (await harness.call(user, "add_comment", { courseId, targetId, body, ...(quote ? { quote } : {}) })).comment as Comment;
  }

  async function listed(courseId: string, args: Json = {}): Promise<Comment[]> {
    return (await harness.call("bob", "list_comments", { courseId, ...args })).comments as Comment[];
  }

  describe("adding", () => {
    test("reviewers, editors and the owner comment on the course, a module, a lesson or a block; the version does not change", async () => {
      const course = await sharedCourse();
      const module = course.modules[0]!;
      const lesson = module.lessons[0]!;
      const text = blockOfType(course, "text");
      const onBlock = await comment("rita", course.id, text.id, "Say **why** the lifts are unsafe.", "Do not use the lifts.");
      expect(onBlock).toMatchObject({
        target: { kind: "block", id: text.id, moduleId: module.id, lessonId: lesson.id, path: `Module "When the alarm sounds" › Lesson "Get out" › Block ${text.id} (text)` },
        targetRemoved: false,
        quote: "Do not use the lifts.",
        quoteStillPresent: true,
        author: { sub: "rita" },
        status: "open",
        resolvedBy: null,
        resolvedAt: null,
      });
      expect(onBlock.id).toStartWith("cmt_");
      expect((await comment("bob", course.id, lesson.id, "Lesson title is vague.")).target).toMatchObject({ kind: "lesson", path: 'Module "When the alarm sounds" › Lesson "Get out"' });
      expect((await comment("alice", course.id, module.id, "Good module.")).target).toMatchObject({ kind: "module", moduleId: module.id });
      expect((await comment("alice", course.id, course.id, "Nearly ready.")).target).toMatchObject({ kind: "course", path: "Course" });
      expect((await harness.call("alice", "get_course", { courseId: course.id, includeBlocks: false })).version).toBe(course.version);
    });

    test("a viewer cannot comment: forbidden; a stranger gets not_found", async () => {
      const course = await sharedCourse();
      expect((await harness.fail("vera", "add_comment", { courseId: course.id, targetId: course.id, body: "Hi" })).code).toBe("forbidden");
      expect((await harness.fail("mallory", "add_comment", { courseId: course.id, targetId: course.id, body: "Hi" })).code).toBe("not_found");
    });

    test("a comment on a block, lesson or module that does not exist (or belongs to another course) is not_found", async () => {
      const course = await sharedCourse();
      const other = await createCourse(harness);
      for (const targetId of ["blk_doesnotexist", "les_doesnotexist", "mod_doesnotexist", blockOfType(other, "text").id, other.id]) {
        const error = await harness.fail("rita", "add_comment", { courseId: course.id, targetId, body: "Where is this?" });
        expect(error.code).toBe("not_found");
        expect(error.details.field).toBe("targetId");
      }
    });

    test("bad input names the field: empty or over-long body, an ID of the wrong kind, a quote not in the target", async () => {
      const course = await sharedCourse();
      const text = blockOfType(course, "text");
      expect((await harness.fail("rita", "add_comment", { courseId: course.id, targetId: text.id, body: "  " })).message).toContain("body");
      expect((await harness.fail("rita", "add_comment", { courseId: course.id, targetId: text.id, body: "x".repeat(5001) })).message).toContain("at most 5000");
      expect((await harness.fail("rita", "add_comment", { courseId: course.id, targetId: "obj_abc", body: "x" })).message).toContain("targetId");
      const quote = await harness.fail("rita", "add_comment", { courseId: course.id, targetId: text.id, body: "x", quote: "Run to the lifts" });
      expect(quote).toMatchObject({ code: "invalid_arguments", details: { field: "quote" } });
    });
  });

  describe("following the target", () => {
    test("a comment survives edits and moves of its block, is marked targetRemoved when the block goes, and recovers with a restore", async () => {
      const course = await sharedCourse();
      const text = blockOfType(course, "text");
      const added = await comment("rita", course.id, text.id, "Explain the lifts.", "Do not use the lifts.");
      await harness.call("bob", "update_block", { courseId: course.id, blockId: text.id, block: { type: "text", markdown: "Walk to the exit. Lifts can stop when the power fails." } });
      const targetLesson = course.modules[1]!.lessons[0]!;
      await harness.call("bob", "move_block", { courseId: course.id, blockId: text.id, toLessonId: targetLesson.id });
      let [current] = await listed(course.id);
      expect(current).toMatchObject({ id: added.id, targetRemoved: false, quoteStillPresent: false, target: { lessonId: targetLesson.id, moduleId: course.modules[1]!.id } });
      const removal = await harness.call("bob", "remove_block", { courseId: course.id, blockId: text.id });
      [current] = await listed(course.id);
      expect(current).toMatchObject({ id: added.id, targetRemoved: true, quoteStillPresent: null, target: { kind: "block", id: text.id, path: null } });
      const revisions = (await harness.call("bob", "list_revisions", { courseId: course.id, limit: 2 })).revisions as Json[];
      await harness.call("bob", "restore_revision", { courseId: course.id, revisionId: revisions[1]!.id, expectedVersion: removal.version });
      [current] = await listed(course.id);
      expect(current!.targetRemoved).toBe(false);
    });
  });

  describe("listing", () => {
    test("open comments come first (oldest first), then resolved; filters by status and target; pages with a cursor", async () => {
      const course = await sharedCourse();
      const text = blockOfType(course, "text");
      const first = await comment("rita", course.id, text.id, "One");
      const second = await comment("rita", course.id, course.id, "Two");
      const third = await comment("rita", course.id, text.id, "Three");
      await harness.call("bob", "resolve_comment", { courseId: course.id, commentId: first.id });
      expect((await listed(course.id)).map((c) => [c.id, c.status])).toEqual([
        [second.id, "open"],
        [third.id, "open"],
        [first.id, "resolved"],
      ]);
      expect((await listed(course.id, { status: "open" })).map((c) => c.id)).toEqual([second.id, third.id]);
      expect((await listed(course.id, { status: "resolved" })).map((c) => c.id)).toEqual([first.id]);
      const onBlock = await harness.call("bob", "list_comments", { courseId: course.id, targetId: text.id });
      expect((onBlock.comments as Comment[]).map((c) => c.id)).toEqual([third.id, first.id]);
      expect(onBlock.counts).toEqual({ open: 1, resolved: 1 });

      const page1 = await harness.call("vera", "list_comments", { courseId: course.id, limit: 2 });
      expect((page1.comments as Comment[]).map((c) => c.id)).toEqual([second.id, third.id]);
      const page2 = await harness.call("vera", "list_comments", { courseId: course.id, limit: 2, cursor: page1.nextCursor });
      expect((page2.comments as Comment[]).map((c) => c.id)).toEqual([first.id]);
      expect(page2.nextCursor).toBeNull();
      expect((await harness.fail("vera", "list_comments", { courseId: course.id, cursor: "bogus" })).details.field).toBe("cursor");
    });
  });

  describe("resolving", () => {
    test("records who resolved it, when, and a note; resolving again changes nothing; reopen clears it", async () => {
      const course = await sharedCourse();
      const added = await comment("rita", course.id, course.id, "Add a description of the assembly point.");
      const resolved = await harness.call("bob", "resolve_comment", { courseId: course.id, commentId: added.id, note: "Described car park B." });
      expect(resolved).toMatchObject({ changed: true, comment: { status: "resolved", resolvedBy: "bob", resolutionNote: "Described car park B." }, counts: { open: 0, resolved: 1 } });
      expect(Date.parse((resolved.comment as Json).resolvedAt as string)).toBeGreaterThan(Date.parse(added.createdAt as string));
      const again = await harness.call("rita", "resolve_comment", { courseId: course.id, commentId: added.id });
      expect(again).toMatchObject({ changed: false, comment: { resolvedBy: "bob" } });
      const reopened = await harness.call("rita", "resolve_comment", { courseId: course.id, commentId: added.id, reopen: true });
      expect(reopened).toMatchObject({ changed: true, comment: { status: "open", resolvedBy: null, resolvedAt: null, resolutionNote: null } });
      expect((await harness.call("alice", "get_course", { courseId: course.id, includeBlocks: false })).version).toBe(course.version);
    });

    test("a viewer cannot resolve; an unknown comment is not_found", async () => {
      const course = await sharedCourse();
      const added = await comment("rita", course.id, course.id, "Hmm.");
      expect((await harness.fail("vera", "resolve_comment", { courseId: course.id, commentId: added.id })).code).toBe("forbidden");
      expect((await harness.fail("bob", "resolve_comment", { courseId: course.id, commentId: "cmt_unknown" })).code).toBe("not_found");
      const other = await createCourse(harness);
      expect((await harness.fail("alice", "resolve_comment", { courseId: other.id, commentId: added.id })).code).toBe("not_found");
    });

    test("deleting the course deletes its comments", async () => {
      const course = await sharedCourse();
      await comment("rita", course.id, course.id, "Bye.");
      await harness.call("alice", "delete_course", { courseId: course.id });
      const left = await harness.services.store.read((tx) => tx.countComments(course.id));
      expect(left).toEqual({ open: 0, resolved: 0 });
    });
  });
});
