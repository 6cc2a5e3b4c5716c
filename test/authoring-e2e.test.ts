/**
 * The authoring tools end to end: the real service, real tokens from the embedded identity provider,
 * the official SDK client validating every result against the tool's outputSchema. An agent builds a
 * 3-module, 12-lesson onboarding course in a handful of calls, reads it back, edits it, restores an
 * earlier revision; two agents race with expectedVersion; a stranger sees nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { storeKinds, testDatabaseFor } from "./support/postgres.ts";

type Json = Record<string, unknown>;
type Course = Json & { id: string; version: number; modules: (Json & { id: string; lessons: (Json & { id: string; blocks: (Json & { id: string })[] })[] })[] };

// Every rule holds on both stores.
describe.each(storeKinds)("on %s", (store) => {
  let service: TestService;
  let database: Awaited<ReturnType<typeof testDatabaseFor>>;
  let alice: Agent;
  let aliceAgain: Agent;
  let stranger: Agent;

  beforeAll(async () => {
    database = await testDatabaseFor(store);
    service = await startTestService(database.env);
    const [aliceToken, strangerToken] = [await devAccessToken(service, "alice"), await devAccessToken(service, "mallory")];
    alice = await connectAgent(service, aliceToken, "agent-a");
    aliceAgain = await connectAgent(service, aliceToken, "agent-b");
    stranger = await connectAgent(service, strangerToken, "stranger");
  });
  afterAll(async () => {
    for (const agent of [alice, aliceAgain, stranger]) await agent?.close();
    await service?.dispose();
    await database?.drop();
  });

  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).toString("base64");
  const vtt = Buffer.from("WEBVTT\n\n00:00.000 --> 00:02.000\nWelcome aboard\n").toString("base64");

  function contentLesson(module: number, lesson: number, imageAssetId: string) {
    return {
      title: `Lesson ${module}.${lesson}`,
      blocks: [
        { type: "heading", text: `Topic ${module}.${lesson}` },
        { type: "text", markdown: `Everything about topic ${module}.${lesson}, explained in **plain** words.` },
        { type: "image", assetId: imageAssetId, alt: `Diagram for topic ${module}.${lesson}` },
        { type: "flashcards", cards: [{ front: `Term ${module}.${lesson}`, back: "Its meaning" }] },
      ],
    };
  }

  function quizLesson(module: number) {
    return {
      title: `Module ${module} check`,
      kind: "quiz",
      passingScore: 75,
      maxAttempts: 3,
      blocks: [
        { type: "single_choice", prompt: "Pick the right one", objectiveIds: [`m${module}`], choices: [{ text: "Right", correct: true, feedback: "Yes" }, { text: "Wrong", feedback: "No" }], explanation: "Because." },
        { type: "true_false", prompt: "Onboarding matters", answer: true, objectiveIds: [`m${module}`] },
        { type: "ordering", prompt: "Order the steps", items: [{ text: "Sign in" }, { text: "Read" }, { text: "Pass the quiz" }] },
      ],
    };
  }

  describe("an agent authors an onboarding course", () => {
    let course: Course;

    test("builds 3 modules and 12 lessons with media and graded quizzes in a handful of calls", async () => {
      const created = (await alice.call("create_course", {
        title: "New starter onboarding",
        audience: "new employees",
        level: "beginner",
        objectives: [1, 2, 3].map((m) => ({ key: `m${m}`, text: `Objective of module ${m}` })),
        modules: [1, 2, 3].map((m) => ({ title: `Module ${m}`, objectiveIds: [`m${m}`], lessons: [quizLesson(m)] })),
      })) as Course;
      const imageId = ((await alice.call("upload_asset", { courseId: created.id, filename: "diagram.png", dataBase64: png })).asset as Json).id as string;
      const captionsId = ((await alice.call("upload_asset", { courseId: created.id, filename: "welcome.vtt", dataBase64: vtt })).asset as Json).id as string;
      // Uploads are version 2 and 3; the nine content lessons go in as one atomic batch.
      const operations = created.modules.flatMap((module, m) =>
        [1, 2, 3].map((l) => ({ op: "add_lesson", moduleId: module.id, position: l - 1, ...contentLesson(m + 1, l, imageId) })),
      );
      const batch = await alice.call("edit_course", { courseId: created.id, expectedVersion: 3, operations });
      expect(batch.version).toBe(4);
      // The welcome video opens the course's first lesson, whose ID the batch just returned.
      const firstLesson = ((batch.results as Json[])[0]!.lesson as Json).id as string;
      await alice.call("add_blocks", {
        courseId: created.id,
        lessonId: firstLesson,
        position: 0,
        blocks: [{ type: "video", url: "https://media.example.test/welcome.mp4", captions: { assetId: captionsId, language: "en" }, durationSeconds: 90 }],
      });

      course = (await alice.call("get_course", { courseId: created.id })) as Course;
      expect(course.version).toBe(5);
      expect(course.modules).toHaveLength(3);
      expect(course.modules.flatMap((m) => m.lessons)).toHaveLength(12);
      expect(course.modules.map((m) => m.lessons.map((l) => l.kind))).toEqual(Array(3).fill(["content", "content", "content", "quiz"]));
      expect(course.modules[0]!.lessons[0]!.blocks[0]).toMatchObject({ type: "video", captions: { assetId: captionsId } });
      expect(course.modules[2]!.lessons[3]).toMatchObject({ passingScore: 75, maxAttempts: 3 });
    });

    test("reads back as JSON resource and Markdown outline equal to get_course", async () => {
      const json = await alice.client.readResource({ uri: `course://${course.id}` });
      const first = json.contents[0] as { text: string };
      expect(JSON.parse(first.text)).toEqual(course);
      const outline = await alice.client.readResource({ uri: `course://${course.id}/outline` });
      const markdown = (outline.contents[0] as { text: string }).text;
      const lessonIds = course.modules.flatMap((module) => module.lessons.map((lesson) => lesson.id));
      expect(lessonIds.length).toBeGreaterThan(0);
      for (const lessonId of lessonIds) expect(markdown).toContain(lessonId);
    });

    test("edits, then restores the revision before the edits", async () => {
      const lesson = course.modules[0]!.lessons[1]!;
      await alice.call("update_block", { courseId: course.id, expectedVersion: 5, blockId: lesson.blocks[1]!.id, block: { type: "text", markdown: "Rewritten." } });
      await alice.call("remove_module", { courseId: course.id, moduleId: course.modules[2]!.id });
      const revisions = (await alice.call("list_revisions", { courseId: course.id })).revisions as { id: string; version: number }[];
      const before = revisions.find((r) => r.version === 5)!;
      const restored = await alice.call("restore_revision", { courseId: course.id, revisionId: before.id, expectedVersion: 7 });
      expect(restored).toMatchObject({ version: 8, restoredVersion: 5 });
      const now = (await alice.call("get_course", { courseId: course.id })) as Course;
      expect(now.modules).toEqual(course.modules);
    });
  });

  describe("two agents and a stranger", () => {
    test("racing writes with the same expectedVersion: one wins, the other gets conflict with the current version", async () => {
      const created = (await alice.call("create_course", { title: "Race" })) as Course;
      const outcomes = await Promise.allSettled([
        alice.call("update_course", { courseId: created.id, expectedVersion: 1, title: "From A" }),
        aliceAgain.call("update_course", { courseId: created.id, expectedVersion: 1, title: "From B" }),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      const loser = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
      expect(loser.reason).toMatchObject({ code: "conflict" });
      expect(String(loser.reason.message)).toContain("version 2");
      const final = (await alice.call("get_course", { courseId: created.id })) as Course;
      expect(final.version).toBe(2);
    });

    test("a stranger's calls find nothing, worded like a missing course", async () => {
      const created = (await alice.call("create_course", { title: "Private" })) as Course;
      const hidden = await stranger.fail("get_course", { courseId: created.id });
      const missing = await stranger.fail("get_course", { courseId: "crs_0000000000" });
      expect(hidden.code).toBe("not_found");
      expect(hidden.message).toBe(missing.message.replace("crs_0000000000", created.id));
      expect((await stranger.fail("update_course", { courseId: created.id, title: "Mine" })).code).toBe("not_found");
      await expect(stranger.client.readResource({ uri: `course://${created.id}` })).rejects.toThrow(/not_found/);
    });

    test("a bad argument comes back as invalid_arguments naming the field", async () => {
      const created = (await alice.call("create_course", { title: "Fields" })) as Course;
      const error = await alice.fail("add_module", { courseId: created.id, title: "" });
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toContain("title");
    });
  });
});
