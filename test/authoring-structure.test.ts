/**
 * Editing a course's structure: modules, lessons and blocks added, changed, moved and removed; the
 * version steps once per call; and every kind of bad input is refused with a section 6 code and a
 * message that names the field.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { storeKinds } from "./support/postgres.ts";

// Every rule holds on both stores.
describe.each(storeKinds)("on %s", (store) => {
  let harness: Harness;
  let courseId: string;
  let moduleIds: string[];
  let lessonIds: string[];

  beforeEach(async () => {
    harness = await openHarness(store);
    const course = await harness.call("alice", "create_course", {
      title: "Structure",
      objectives: [{ key: "o1", text: "First objective" }],
      modules: [
        { title: "M1", lessons: [{ title: "L1", blocks: [{ type: "text", markdown: "one" }, { type: "text", markdown: "two" }] }, { title: "L2" }] },
        { title: "M2", lessons: [{ title: "L3" }] },
      ],
    });
    courseId = course.id as string;
    const modules = course.modules as { id: string; lessons: { id: string }[] }[];
    moduleIds = modules.map((m) => m.id);
    lessonIds = modules.flatMap((m) => m.lessons.map((l) => l.id));
  });
  afterEach(() => harness.close());

  async function outline(): Promise<{ version: number; modules: { id: string; title: string; lessons: { id: string; title: string; blocks: Json[] }[] }[] }> {
    return (await harness.call("alice", "get_course", { courseId })) as never;
  }

  async function blockTexts(lessonIndex = 0): Promise<unknown[]> {
    const course = await outline();
    return course.modules.flatMap((m) => m.lessons)[lessonIndex]!.blocks.map((b) => b.markdown ?? b.type);
  }

  describe("modules", () => {
    test("add_module at a position, with lessons; version steps by one", async () => {
      const result = await harness.call("alice", "add_module", {
        courseId,
        title: "M0",
        position: 0,
        objectiveIds: ["First objective"],
        lessons: [{ title: "Intro", blocks: [{ type: "divider" }] }],
      });
      expect(result.version).toBe(2);
      expect((result.module as Json).title).toBe("M0");
      const course = await outline();
      expect(course.modules.map((m) => m.title)).toEqual(["M0", "M1", "M2"]);
      expect(course.modules[0]!.lessons[0]!.blocks).toHaveLength(1);
    });

    test("update_module changes only given fields; move_module reorders; remove_module removes its lessons", async () => {
      await harness.call("alice", "update_module", { courseId, moduleId: moduleIds[0], summary: "About M1" });
      await harness.call("alice", "move_module", { courseId, moduleId: moduleIds[0], position: 1 });
      let course = await outline();
      expect(course.modules.map((m) => m.title)).toEqual(["M2", "M1"]);
      expect(course.modules[1]).toMatchObject({ title: "M1", summary: "About M1" });
      const removed = await harness.call("alice", "remove_module", { courseId, moduleId: moduleIds[0] });
      expect(removed.removed).toEqual({ moduleId: moduleIds[0], lessons: 2, blocks: 2 });
      course = await outline();
      expect(course.modules.map((m) => m.title)).toEqual(["M2"]);
      expect(course.version).toBe(4);
    });

    test("a position beyond the end is invalid_arguments naming position and the allowed range", async () => {
      const error = await harness.fail("alice", "move_module", { courseId, moduleId: moduleIds[0], position: 5 });
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toStartWith("position:");
      expect(error.message).toContain("0 to 1");
    });
  });

  describe("lessons", () => {
    test("add_lesson as a quiz gets the default passing score; content lessons refuse quiz settings", async () => {
      const quiz = await harness.call("alice", "add_lesson", { courseId, moduleId: moduleIds[1], title: "Quiz", kind: "quiz", maxAttempts: 3 });
      expect(quiz.lesson).toMatchObject({ kind: "quiz", passingScore: 80, maxAttempts: 3 });
      const error = await harness.fail("alice", "add_lesson", { courseId, moduleId: moduleIds[1], title: "Bad", passingScore: 50 });
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toContain("passingScore");
    });

    test("update_lesson to content clears quiz settings; estimatedMinutes can be set and unset", async () => {
      await harness.call("alice", "update_lesson", { courseId, lessonId: lessonIds[1], kind: "quiz", passingScore: 60 });
      const lesson = await harness.call("alice", "update_lesson", { courseId, lessonId: lessonIds[1], kind: "content", estimatedMinutes: 12 });
      expect(lesson.lesson).toMatchObject({ kind: "content", passingScore: null, maxAttempts: null, estimatedMinutes: 12, estimatedMinutesIsSet: true });
      const course = await outline();
      expect(course.modules[0]!.lessons[1]).toMatchObject({ estimatedMinutes: 12, estimatedMinutesIsSet: true });
      // The write's answer and get_course give the estimate in one shape: minutes, and whether they were set.
      const unset = await harness.call("alice", "update_lesson", { courseId, lessonId: lessonIds[1], estimatedMinutes: null });
      expect(unset.lesson).toMatchObject({ estimatedMinutes: 0, estimatedMinutesIsSet: false });
      expect((await outline()).modules[0]!.lessons[1]).toMatchObject({ estimatedMinutes: 0, estimatedMinutesIsSet: false });
    });

    test("move_lesson to another module of the same course", async () => {
      await harness.call("alice", "move_lesson", { courseId, lessonId: lessonIds[0], toModuleId: moduleIds[1], position: 1 });
      const course = await outline();
      expect(course.modules[0]!.lessons.map((l) => l.title)).toEqual(["L2"]);
      expect(course.modules[1]!.lessons.map((l) => l.title)).toEqual(["L3", "L1"]);
      expect(course.modules[1]!.lessons[1]!.blocks).toHaveLength(2);
    });

    test("remove_lesson removes its blocks", async () => {
      const result = await harness.call("alice", "remove_lesson", { courseId, lessonId: lessonIds[0] });
      expect(result.removed).toEqual({ lessonId: lessonIds[0], blocks: 2 });
      expect((await outline()).modules[0]!.lessons.map((l) => l.title)).toEqual(["L2"]);
    });
  });

  describe("blocks", () => {
    test("add_blocks inserts several at a position, in order", async () => {
      const result = await harness.call("alice", "add_blocks", {
        courseId,
        lessonId: lessonIds[0],
        position: 1,
        blocks: [
          { type: "text", markdown: "a" },
          { type: "text", markdown: "b" },
        ],
      });
      expect((result.blocks as Json[]).map((b) => b.type)).toEqual(["text", "text"]);
      expect((result.blocks as Json[]).every((b) => typeof b.id === "string" && b.markdown === undefined)).toBe(true);
      expect(await blockTexts()).toEqual(["one", "a", "b", "two"]);
    });

    test("many inserts at the same place keep order (positions renumber inside the lesson when gaps run out)", async () => {
      for (let i = 0; i < 15; i++) await harness.call("alice", "add_blocks", { courseId, lessonId: lessonIds[0], position: 1, blocks: [{ type: "text", markdown: `x${i}` }] });
      const texts = await blockTexts();
      expect(texts[0]).toBe("one");
      expect(texts.slice(1, 16)).toEqual(Array.from({ length: 15 }, (_, i) => `x${14 - i}`));
      expect(texts[16]).toBe("two");
    });

    test("update_block replaces content, may change type, keeps id and position", async () => {
      const course = await outline();
      const block = course.modules[0]!.lessons[0]!.blocks[0]!;
      const result = await harness.call("alice", "update_block", { courseId, blockId: block.id, block: { type: "callout", variant: "tip", markdown: "Hint" } });
      expect(result.block).toEqual({ id: block.id, type: "callout", variant: "tip", markdown: "Hint" });
      expect(await blockTexts()).toEqual(["Hint", "two"]);
    });

    test("move_block within a lesson and into another lesson of the same course", async () => {
      const course = await outline();
      const [first, second] = course.modules[0]!.lessons[0]!.blocks as { id: string }[];
      await harness.call("alice", "move_block", { courseId, blockId: second!.id, position: 0 });
      expect(await blockTexts()).toEqual(["two", "one"]);
      await harness.call("alice", "move_block", { courseId, blockId: first!.id, toLessonId: lessonIds[2] });
      expect(await blockTexts(0)).toEqual(["two"]);
      expect(await blockTexts(2)).toEqual(["one"]);
    });

    test("remove_block removes exactly one block", async () => {
      const course = await outline();
      await harness.call("alice", "remove_block", { courseId, blockId: (course.modules[0]!.lessons[0]!.blocks[0] as { id: string }).id });
      expect(await blockTexts()).toEqual(["two"]);
    });

    test("every block type is accepted in its valid form", async () => {
      const asset = await harness.call("alice", "upload_asset", { courseId, filename: "a.png", dataBase64: pngBase64 });
      const assetId = (asset.asset as Json).id;
      const blocks = [
        { type: "text", markdown: "# Hi" },
        { type: "heading", text: "Section", level: 3 },
        { type: "image", assetId, alt: "A diagram" },
        { type: "image", url: "https://example.com/x.png", decorative: true },
        { type: "video", url: "https://example.com/v.mp4", captions: { url: "https://example.com/v.vtt", language: "en" }, durationSeconds: 120 },
        { type: "audio", url: "https://example.com/a.mp3", transcript: "Words" },
        { type: "callout", variant: "warning", markdown: "Careful" },
        { type: "quote", text: "To be", attribution: "Hamlet" },
        { type: "code", language: "typescript", code: "const x = 1;" },
        { type: "divider" },
        { type: "accordion", items: [{ title: "Q", markdown: "A" }] },
        { type: "tabs", tabs: [{ title: "One", markdown: "1" }, { title: "Two", markdown: "2" }] },
        { type: "flashcards", cards: [{ front: "Front", back: "Back" }] },
        { type: "single_choice", prompt: "Pick", choices: [{ text: "a", correct: true }, { text: "b" }], explanation: "Because" },
        { type: "multiple_choice", prompt: "Pick", choices: [{ text: "a", correct: true }, { text: "b", correct: true }, { text: "c" }], points: 2 },
        { type: "true_false", prompt: "True?", answer: false, trueFeedback: "No", falseFeedback: "Yes" },
        { type: "fill_in_blank", prompt: "Fill", text: "The {{1}} is {{2}}.", blanks: [{ answers: ["sky"] }, { answers: ["blue", "azure"] }] },
        { type: "matching", prompt: "Match", pairs: [{ left: "a", right: "1" }, { left: "b", right: "2" }] },
        { type: "ordering", prompt: "Order", items: [{ text: "first" }, { text: "second" }], objectiveIds: ["first objective"] },
      ];
      const result = await harness.call("alice", "add_blocks", { courseId, lessonId: lessonIds[1], blocks });
      expect((result.blocks as Json[]).map((b) => b.type)).toEqual(blocks.map((b) => b.type));
    });
  });

  const pngBase64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).toString("base64");

  describe("bad input is refused by name and changes nothing", () => {
    const cases: [string, () => Json, string, string][] = [
      ["empty title", () => ({ courseId, moduleId: moduleIds[0], title: "   " }), "update_module", "title: must not be empty"],
      ["unknown block id", () => ({ courseId, blockId: "blk_doesnotexist" }), "remove_block", "blockId: Block blk_doesnotexist was not found."],
      ["heading level 1", () => ({ courseId, lessonId: lessonIds[0], blocks: [{ type: "heading", text: "H", level: 1 }] }), "add_blocks", "blocks[0].level"],
      ["unknown block type", () => ({ courseId, lessonId: lessonIds[0], blocks: [{ type: "poll" }] }), "add_blocks", "blocks[0].type"],
      [
        "question without a correct answer",
        () => ({ courseId, lessonId: lessonIds[0], blocks: [{ type: "multiple_choice", prompt: "?", choices: [{ text: "a" }, { text: "b" }] }] }),
        "add_blocks",
        "blocks[0].choices",
      ],
      [
        "single_choice with two correct answers",
        () => ({ courseId, lessonId: lessonIds[0], blocks: [{ type: "single_choice", prompt: "?", choices: [{ text: "a", correct: true }, { text: "b", correct: true }] }] }),
        "add_blocks",
        "exactly one",
      ],
      ["video without captions or transcript", () => ({ courseId, lessonId: lessonIds[0], blocks: [{ type: "video", url: "https://e.com/v.mp4" }] }), "add_blocks", "blocks[0].captions"],
      ["fill_in_blank placeholders not matching blanks", () => ({ courseId, lessonId: lessonIds[0], blocks: [{ type: "fill_in_blank", prompt: "?", text: "no blanks", blanks: [{ answers: ["x"] }] }] }), "add_blocks", "blocks[0].text"],
      ["unknown objective", () => ({ courseId, lessonId: lessonIds[0], blocks: [{ type: "true_false", prompt: "?", answer: true, objectiveIds: ["nope"] }] }), "add_blocks", "blocks[0].objectiveIds[0]"],
      ["unknown asset", () => ({ courseId, lessonId: lessonIds[0], blocks: [{ type: "image", assetId: "ast_missing", alt: "x" }] }), "add_blocks", "blocks[0].assetId"],
      ["a 10 MB text block", () => ({ courseId, lessonId: lessonIds[0], blocks: [{ type: "text", markdown: "x".repeat(10 * 1024 * 1024) }] }), "add_blocks", "blocks[0].markdown"],
      ["block position out of range", () => ({ courseId, lessonId: lessonIds[0], position: 3, blocks: [{ type: "divider" }] }), "add_blocks", "position: 3 is out of range"],
    ];
    for (const [name, args, tool, expected] of cases) {
      test(name, async () => {
        const before = await outline();
        const error = await harness.fail("alice", tool, args());
        expect(["invalid_arguments", "not_found", "limit_exceeded"]).toContain(error.code);
        expect(error.message).toContain(expected);
        expect(await outline()).toEqual(before);
      });
    }

    test("IDs from another course are not found", async () => {
      const other = await harness.call("alice", "create_course", { title: "Other", modules: [{ title: "X", lessons: [{ title: "Y", blocks: [{ type: "divider" }] }] }] });
      const otherLesson = (other.modules as { lessons: { id: string; blocks: { id: string }[] }[] }[])[0]!.lessons[0]!;
      const course = await outline();
      const ownBlock = (course.modules[0]!.lessons[0]!.blocks[0] as { id: string }).id;
      const intoOther = await harness.fail("alice", "move_block", { courseId, blockId: ownBlock, toLessonId: otherLesson.id });
      expect(intoOther.code).toBe("not_found");
      expect(intoOther.message).toStartWith("toLessonId:");
      const foreign = await harness.fail("alice", "remove_block", { courseId, blockId: otherLesson.blocks[0]!.id });
      expect(foreign.code).toBe("not_found");
      expect(await outline()).toEqual(course);
    });
  });
});
