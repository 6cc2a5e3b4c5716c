/**
 * Who may do what: for every tool that names a course, a stranger is told it does not exist (in the
 * exact words used for a missing course), viewers and reviewers cannot write, editors can edit but
 * not delete or share, and the owner can do everything. Sharing by e-mail works for a user whose
 * token carries that e-mail.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { storeKinds } from "./support/postgres.ts";

// Every rule holds on both stores.
describe.each(storeKinds)("on %s", (store) => {
  let harness: Harness;
  let ids: { courseId: string; moduleId: string; lessonId: string; blockId: string; revisionId: string };

  const pngBase64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString("base64");

  beforeAll(async () => {
    harness = await openHarness(store);
    const course = await harness.call("owner", "create_course", {
      title: "Shared",
      modules: [{ title: "M", lessons: [{ title: "L", blocks: [{ type: "divider" }] }] }],
    });
    const module = (course.modules as { id: string; lessons: { id: string; blocks: { id: string }[] }[] }[])[0]!;
    const revisions = await harness.call("owner", "list_revisions", { courseId: course.id });
    ids = {
      courseId: course.id as string,
      moduleId: module.id,
      lessonId: module.lessons[0]!.id,
      blockId: module.lessons[0]!.blocks[0]!.id,
      revisionId: (revisions.revisions as { id: string }[])[0]!.id,
    };
    await harness.call("owner", "share_course", { courseId: ids.courseId, sub: "ed", role: "editor" });
    await harness.call("owner", "share_course", { courseId: ids.courseId, sub: "rev", role: "reviewer" });
    await harness.call("owner", "share_course", { courseId: ids.courseId, email: "Viewer@Example.test", role: "viewer" });
  });
  afterAll(() => harness.close());

  type Access = "read" | "edit" | "manage";
  const toolCalls: [string, Access, () => Json][] = [
    ["get_course", "read", () => ({ courseId: ids.courseId })],
    ["list_assets", "read", () => ({ courseId: ids.courseId })],
    ["list_revisions", "read", () => ({ courseId: ids.courseId })],
    ["get_revision", "read", () => ({ courseId: ids.courseId, revisionId: ids.revisionId })],
    ["update_course", "edit", () => ({ courseId: ids.courseId, audience: "everyone" })],
    ["set_objectives", "edit", () => ({ courseId: ids.courseId, objectives: [{ text: "Learn" }] })],
    ["add_module", "edit", () => ({ courseId: ids.courseId, title: "New" })],
    ["update_module", "edit", () => ({ courseId: ids.courseId, moduleId: ids.moduleId, summary: "s" })],
    ["move_module", "edit", () => ({ courseId: ids.courseId, moduleId: ids.moduleId, position: 0 })],
    ["add_lesson", "edit", () => ({ courseId: ids.courseId, moduleId: ids.moduleId, title: "New" })],
    ["update_lesson", "edit", () => ({ courseId: ids.courseId, lessonId: ids.lessonId, title: "Renamed" })],
    ["move_lesson", "edit", () => ({ courseId: ids.courseId, lessonId: ids.lessonId, position: 0 })],
    ["add_blocks", "edit", () => ({ courseId: ids.courseId, lessonId: ids.lessonId, blocks: [{ type: "divider" }] })],
    ["update_block", "edit", () => ({ courseId: ids.courseId, blockId: ids.blockId, block: { type: "text", markdown: "x" } })],
    ["move_block", "edit", () => ({ courseId: ids.courseId, blockId: ids.blockId, position: 0 })],
    ["edit_course", "edit", () => ({ courseId: ids.courseId, operations: [{ op: "update_course", description: "d" }] })],
    ["upload_asset", "edit", () => ({ courseId: ids.courseId, filename: "x.png", dataBase64: pngBase64 })],
    ["restore_revision", "edit", () => ({ courseId: ids.courseId, revisionId: ids.revisionId })],
    ["share_course", "manage", () => ({ courseId: ids.courseId, sub: "someone", role: "viewer" })],
    ["unshare_course", "manage", () => ({ courseId: ids.courseId, sub: "someone" })],
    // Copying takes the content out: the editor role or ownership, like editing.
    ["duplicate_course", "edit", () => ({ courseId: ids.courseId })],
  ];

  const viewer = { sub: "view-sub", email: "viewer@example.test", emailVerified: true, scopes: ["openid"] };

  describe("a stranger gets not_found, worded like a missing course", () => {
    for (const [tool, , args] of toolCalls) {
      test(tool, async () => {
        const hidden = await harness.fail("stranger", tool, args());
        const missing = await harness.fail("stranger", tool, { ...args(), courseId: "crs_0000000000" });
        expect(hidden.code).toBe("not_found");
        expect(hidden.message).toBe(missing.message.replace("crs_0000000000", ids.courseId));
      });
    }
  });

  describe("roles", () => {
    for (const [tool, access, args] of toolCalls) {
      test(`${tool}: viewer and reviewer ${access === "read" ? "may" : "may not"}; editor ${access === "manage" ? "may not" : "may"}`, async () => {
        for (const user of [viewer, "rev"]) {
          if (access === "read") await harness.call(user, tool, args());
          else expect((await harness.fail(user, tool, args())).code).toBe("forbidden");
        }
        if (access === "manage") expect((await harness.fail("ed", tool, args())).code).toBe("forbidden");
        else await harness.call("ed", tool, args());
      });
    }

    test("only the owner deletes; editors are refused with forbidden", async () => {
      expect((await harness.fail("ed", "delete_course", { courseId: ids.courseId })).code).toBe("forbidden");
    });

    test("list_courses shows shared courses with the caller's role", async () => {
      const list = await harness.call(viewer, "list_courses", {});
      expect((list.courses as Json[]).find((c) => c.id === ids.courseId)?.role).toBe("viewer");
      const course = await harness.call("ed", "get_course", { courseId: ids.courseId, includeBlocks: false });
      expect(course.role).toBe("editor");
      expect(course.collaborators).toContainEqual({ email: "viewer@example.test", role: "viewer" });
    });

    test("unsharing takes access away", async () => {
      await harness.call("owner", "share_course", { courseId: ids.courseId, sub: "temp", role: "viewer" });
      await harness.call("temp", "get_course", { courseId: ids.courseId });
      await harness.call("owner", "unshare_course", { courseId: ids.courseId, sub: "temp" });
      expect((await harness.fail("temp", "get_course", { courseId: ids.courseId })).code).toBe("not_found");
    });
  });
});
