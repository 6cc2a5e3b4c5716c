/**
 * The status workflow: who may move a course where, publishing gated on validation with the blocking
 * findings named, the immutable published snapshot beside a draft that keeps changing, and archived
 * courses being read-only.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { storeKinds } from "./support/postgres.ts";
import { blockOfType, cleanOutline, createCourse, type Course } from "./support/review-courses.ts";

// Every rule holds on both stores.
describe.each(storeKinds)("on %s", (store) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await openHarness(store);
  });
  afterAll(() => harness.close());

  /** A clean course owned by alice, shared with bob (editor), rita (reviewer) and vera (viewer). */
  async function sharedCourse(outline: Json = cleanOutline()): Promise<Course> {
    const course = await createCourse(harness, outline);
    for (const [sub, role] of [["bob", "editor"], ["rita", "reviewer"], ["vera", "viewer"]]) {
      await harness.call("alice", "share_course", { courseId: course.id, sub, role });
    }
    return (await harness.call("alice", "get_course", { courseId: course.id })) as Course;
  }

  async function statusOf(courseId: string): Promise<{ status: string; version: number }> {
    const course = await harness.call("alice", "get_course", { courseId, includeBlocks: false });
    return { status: course.status as string, version: course.version as number };
  }

  describe("transitions and roles", () => {
    test("an editor moves draft → in_review → draft; each change is one revision and one version step", async () => {
      const course = await sharedCourse();
      const toReview = await harness.call("bob", "set_status", { courseId: course.id, status: "in_review", expectedVersion: course.version });
      expect(toReview).toMatchObject({ previousStatus: "draft", status: "in_review", version: course.version + 1, changed: true, publication: null });
      const back = await harness.call("bob", "set_status", { courseId: course.id, status: "draft" });
      expect(back).toMatchObject({ previousStatus: "in_review", status: "draft", version: course.version + 2 });
      const revisions = (await harness.call("alice", "list_revisions", { courseId: course.id, limit: 2 })).revisions as Json[];
      expect(revisions.map((revision) => [revision.tool, revision.actorSub, revision.summary])).toEqual([
        ["set_status", "bob", "Status in_review → draft"],
        ["set_status", "bob", "Status draft → in_review"],
      ]);
    });

    test("setting the status a course already has changes nothing", async () => {
      const course = await sharedCourse();
      expect(await harness.call("bob", "set_status", { courseId: course.id, status: "draft" })).toMatchObject({ changed: false, version: course.version });
    });

    test("reviewers and viewers cannot change status to anything: forbidden", async () => {
      const course = await sharedCourse();
      for (const user of ["rita", "vera"]) {
        for (const status of ["in_review", "published", "archived", "draft"]) {
          const error = await harness.fail(user, "set_status", { courseId: course.id, status });
          expect(error.code).toBe("forbidden");
        }
      }
      expect((await harness.fail("mallory", "set_status", { courseId: course.id, status: "in_review" })).code).toBe("not_found");
      expect(await statusOf(course.id)).toEqual({ status: "draft", version: course.version });
    });

    test("only the owner archives and unarchives; an editor is forbidden", async () => {
      const course = await sharedCourse();
      expect((await harness.fail("bob", "set_status", { courseId: course.id, status: "archived" })).message).toContain("owner only");
      expect(await harness.call("alice", "set_status", { courseId: course.id, status: "archived" })).toMatchObject({ status: "archived" });
      expect((await harness.fail("bob", "set_status", { courseId: course.id, status: "draft" })).code).toBe("forbidden");
      expect(await harness.call("alice", "set_status", { courseId: course.id, status: "draft" })).toMatchObject({ previousStatus: "archived", status: "draft" });
    });

    test("a move the workflow does not have is invalid_state naming where the course can go", async () => {
      const course = await sharedCourse();
      await harness.call("alice", "set_status", { courseId: course.id, status: "archived" });
      const fromArchived = await harness.fail("alice", "set_status", { courseId: course.id, status: "in_review" });
      expect(fromArchived.code).toBe("invalid_state");
      expect(fromArchived.details.allowedStatuses).toEqual(["draft"]);
      await harness.call("alice", "set_status", { courseId: course.id, status: "draft" });
      await harness.call("bob", "set_status", { courseId: course.id, status: "published" });
      const fromPublished = await harness.fail("bob", "set_status", { courseId: course.id, status: "draft" });
      expect(fromPublished.code).toBe("invalid_state");
      expect(fromPublished.message).toContain("stays published while you edit its draft");
      expect(fromPublished.details.allowedStatuses).toEqual(["archived"]);
    });

    test("a stale expectedVersion is a conflict and changes nothing", async () => {
      const course = await sharedCourse();
      const error = await harness.fail("bob", "set_status", { courseId: course.id, status: "in_review", expectedVersion: course.version - 1 });
      expect(error.code).toBe("conflict");
      expect(error.details.currentVersion).toBe(course.version);
    });
  });

  describe("publishing", () => {
    test("a course with error findings cannot be published: invalid_state names each blocking finding by rule and location", async () => {
      const course = await sharedCourse();
      const question = blockOfType(course, "single_choice");
      await harness.call("bob", "update_block", {
        courseId: course.id,
        blockId: question.id,
        block: { type: "single_choice", prompt: "Where do we meet?", choices: [{ text: "Car park", correct: true }, { text: "car park" }] },
      });
      const empty = (await harness.call("bob", "add_lesson", { courseId: course.id, moduleId: course.modules[1]!.id, title: "Coming soon" })).lesson as Json;
      const before = await statusOf(course.id);
      const error = await harness.fail("bob", "set_status", { courseId: course.id, status: "published" });
      expect(error.code).toBe("invalid_state");
      expect(error.message).toContain("2 error finding(s)");
      expect(error.message).toContain("structure.empty_lesson");
      expect(error.message).toContain("question.duplicate_options");
      const blocking = error.details.blockingFindings as { ruleId: string; location: Json; fix: string }[];
      expect(blocking.map((finding) => [finding.ruleId, finding.location.lessonId, finding.location.blockId])).toEqual([
        ["question.duplicate_options", course.modules[0]!.lessons[1]!.id, question.id],
        ["structure.empty_lesson", empty.id, undefined],
      ]);
      expect(blocking.every((finding) => finding.fix.length > 0)).toBe(true);
      expect(await statusOf(course.id)).toEqual(before);
      expect((await harness.fail("bob", "get_course", { courseId: course.id, variant: "published" })).code).toBe("invalid_state");
    });

    test("warnings do not block publishing; the answer counts them and the open comments", async () => {
      const course = await sharedCourse({ ...cleanOutline(), description: "" });
      await harness.call("rita", "add_comment", { courseId: course.id, targetId: course.id, body: "Please add a description." });
      const published = await harness.call("bob", "set_status", { courseId: course.id, status: "published" });
      expect(published).toMatchObject({ status: "published", changed: true, warnings: 1, openComments: 1 });
    });

    test("the published snapshot stays exactly as published while the draft is edited; republishing takes the changes", async () => {
      const course = await sharedCourse();
      const published = await harness.call("bob", "set_status", { courseId: course.id, status: "published" });
      expect(published.publication).toMatchObject({ version: course.version + 1, publishedBy: "bob", hasUnpublishedChanges: false });
      const snapshot = await harness.call("vera", "get_course", { courseId: course.id, variant: "published" });
      expect(snapshot).toMatchObject({ status: "published", version: course.version + 1 });

      const text = blockOfType(course, "text");
      await harness.call("bob", "update_block", { courseId: course.id, blockId: text.id, block: { type: "text", markdown: "Walk, do not run, to the nearest exit." } });
      await harness.call("bob", "update_course", { courseId: course.id, title: "Fire safety basics (2025)" });

      const draft = (await harness.call("vera", "get_course", { courseId: course.id })) as Course & { publication: Json };
      expect(draft).toMatchObject({ status: "published", title: "Fire safety basics (2025)", publication: { hasUnpublishedChanges: true } });
      const snapshotAfterEdit = await harness.call("vera", "get_course", { courseId: course.id, variant: "published" });
      const { publication: _before, ...unchangedBefore } = snapshot;
      const { publication: after, ...unchangedAfter } = snapshotAfterEdit;
      expect(unchangedAfter).toEqual(unchangedBefore);
      expect(after).toMatchObject({ hasUnpublishedChanges: true });
      expect(JSON.stringify(snapshotAfterEdit)).not.toContain("Walk, do not run");

      const republished = await harness.call("bob", "set_status", { courseId: course.id, status: "published" });
      expect(republished).toMatchObject({ previousStatus: "published", changed: true, publication: { hasUnpublishedChanges: false } });
      const newSnapshot = await harness.call("vera", "get_course", { courseId: course.id, variant: "published" });
      expect(newSnapshot.title).toBe("Fire safety basics (2025)");
      expect(JSON.stringify(newSnapshot)).toContain("Walk, do not run");

      const again = await harness.call("bob", "set_status", { courseId: course.id, status: "published" });
      expect(again).toMatchObject({ changed: false, version: republished.version });
    });

    test("reverting the draft to what was published clears hasUnpublishedChanges", async () => {
      const course = await sharedCourse();
      await harness.call("alice", "set_status", { courseId: course.id, status: "published" });
      await harness.call("alice", "update_course", { courseId: course.id, title: "Changed" });
      expect(((await harness.call("alice", "get_course", { courseId: course.id })).publication as Json).hasUnpublishedChanges).toBe(true);
      await harness.call("alice", "update_course", { courseId: course.id, title: course.title });
      expect(((await harness.call("alice", "get_course", { courseId: course.id })).publication as Json).hasUnpublishedChanges).toBe(false);
    });

    test("includeBlocks: false returns the published outline without blocks", async () => {
      const course = await sharedCourse();
      await harness.call("alice", "set_status", { courseId: course.id, status: "published" });
      const outline = (await harness.call("alice", "get_course", { courseId: course.id, variant: "published", includeBlocks: false })) as Course;
      expect(outline.modules[0]!.lessons[0]).not.toHaveProperty("blocks");
      expect(outline.modules[0]!.lessons[0]!.blockCount).toBe(4);
    });
  });

  describe("archived courses", () => {
    test("are read-only until the owner unarchives them; the published snapshot stays readable", async () => {
      const course = await sharedCourse();
      await harness.call("alice", "set_status", { courseId: course.id, status: "published" });
      await harness.call("alice", "set_status", { courseId: course.id, status: "archived" });
      const text = blockOfType(course, "text");
      const attempts: [string, string, Json][] = [
        ["alice", "update_block", { blockId: text.id, block: { type: "text", markdown: "x" } }],
        ["bob", "update_course", { title: "x" }],
        ["bob", "edit_course", { operations: [{ op: "remove_block", blockId: text.id }] }],
        ["alice", "upload_asset", { filename: "a.vtt", dataBase64: Buffer.from("WEBVTT\n").toString("base64") }],
        ["rita", "add_comment", { targetId: text.id, body: "x" }],
      ];
      for (const [user, tool, args] of attempts) {
        const error = await harness.fail(user, tool, { courseId: course.id, ...args });
        expect(error.code).toBe("invalid_state");
        expect(error.message).toContain("archived");
      }
      expect((await harness.call("vera", "get_course", { courseId: course.id, variant: "published" })).status).toBe("published");
      await harness.call("alice", "set_status", { courseId: course.id, status: "draft" });
      await harness.call("bob", "update_block", { courseId: course.id, blockId: text.id, block: { type: "text", markdown: "Editable again." } });
    });
  });
});
