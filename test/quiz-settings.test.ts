/**
 * Quiz-lesson settings of issue 21 through the real tools: drawCount, drawByObjective, shuffleChoices,
 * feedbackMode, finalAssessment and a choice's `fixed` are stored and returned; what would hurt
 * learners is refused on write by every tool that writes lessons, naming the field and the fix, with
 * nothing written; what later edits can cause is a validate_course error that blocks publishing.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { openHarness, type Harness, type Json } from "./authoring-harness.ts";

let harness: Harness;
beforeEach(async () => {
  harness = await openHarness();
});
afterEach(() => harness.close());

const question = (n: number, extra: Json = {}): Json => ({
  type: "single_choice",
  prompt: `Question ${n}?`,
  explanation: "Because.",
  choices: [{ text: "Yes", correct: true }, { text: "No" }, { text: "All of the above", fixed: true }],
  ...extra,
});

async function courseWithQuiz(lesson: Json = {}): Promise<{ courseId: string; moduleId: string; lessonId: string; version: number }> {
  const course = await harness.call("alice", "create_course", {
    title: "Quiz rules",
    modules: [{ title: "M1", lessons: [{ title: "Read", blocks: [{ type: "text", markdown: "Hello" }] }, { title: "Quiz", kind: "quiz", blocks: [question(1), question(2), question(3)], ...lesson }] }],
  });
  const module = (course.modules as { id: string; lessons: { id: string }[] }[])[0]!;
  return { courseId: course.id as string, moduleId: module.id, lessonId: module.lessons[1]!.id, version: course.version as number };
}

async function lessonOf(courseId: string, lessonId: string): Promise<Json> {
  const course = (await harness.call("alice", "get_course", { courseId })) as { modules: { lessons: Json[] }[] };
  return course.modules.flatMap((module) => module.lessons).find((lesson) => lesson.id === lessonId)!;
}

describe("settings are stored and returned", () => {
  test("a quiz lesson has the defaults: draw all, shuffle choices, feedback after submitting, not final", async () => {
    const { courseId, lessonId } = await courseWithQuiz();
    const lesson = await lessonOf(courseId, lessonId);
    expect(lesson).toMatchObject({ drawCount: null, drawByObjective: false, shuffleChoices: true, feedbackMode: "after_submit", finalAssessment: false, oneQuestionAtATime: false, attemptScoring: "best" });
    const content = (await harness.call("alice", "get_course", { courseId })) as { modules: { lessons: Json[] }[] };
    expect(content.modules[0]!.lessons[0]!.feedbackMode).toBeUndefined();
  });

  test("create_course, update_lesson and add_lesson store every setting; a choice keeps fixed", async () => {
    const { courseId, moduleId, lessonId } = await courseWithQuiz({ drawCount: 2, drawByObjective: true, shuffleChoices: false, feedbackMode: "immediate" });
    expect(await lessonOf(courseId, lessonId)).toMatchObject({ drawCount: 2, drawByObjective: true, shuffleChoices: false, feedbackMode: "immediate" });
    const updated = await harness.call("alice", "update_lesson", { courseId, lessonId, feedbackMode: "none", finalAssessment: true, oneQuestionAtATime: true, attemptScoring: "last" });
    expect(updated.lesson).toMatchObject({ drawCount: 2, feedbackMode: "none", finalAssessment: true, oneQuestionAtATime: true, attemptScoring: "last" });
    expect(await lessonOf(courseId, lessonId)).toMatchObject({ oneQuestionAtATime: true, attemptScoring: "last" });
    const added = await harness.call("alice", "add_lesson", { courseId, moduleId, title: "Pool", kind: "quiz", drawCount: 1, blocks: [question(9)] });
    expect(added.lesson).toMatchObject({ drawCount: 1, shuffleChoices: true });
    const blocks = (await lessonOf(courseId, lessonId)).blocks as { choices: Json[] }[];
    expect(blocks[0]!.choices[2]!.fixed).toBe(true);
  });

  test("switching a quiz to content clears its settings", async () => {
    const { courseId, lessonId } = await courseWithQuiz({ drawCount: 2, finalAssessment: true });
    await harness.call("alice", "update_lesson", { courseId, lessonId, kind: "content" });
    const lesson = await lessonOf(courseId, lessonId);
    expect(lesson.drawCount).toBeUndefined();
    expect(lesson.finalAssessment).toBeUndefined();
  });
});

describe("refused on write, naming the field and the fix, writing nothing", () => {
  test("passingScore between 0 and 1 is read as a fraction: every writing tool refuses it and suggests the percentage", async () => {
    const { courseId, moduleId, lessonId, version } = await courseWithQuiz();
    const attempts: [string, Json][] = [
      ["update_lesson", { courseId, lessonId, passingScore: 0.8 }],
      ["add_lesson", { courseId, moduleId, title: "Q", kind: "quiz", passingScore: 0.8 }],
      ["edit_course", { courseId, operations: [{ op: "update_lesson", lessonId, passingScore: 0.8 }] }],
      ["create_course", { title: "X", modules: [{ title: "M", lessons: [{ title: "Q", kind: "quiz", passingScore: 0.8 }] }] }],
    ];
    for (const [tool, args] of attempts) {
      const error = await harness.fail("alice", tool, args);
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toContain("passingScore");
      expect(error.message).toContain("did you mean 80?");
    }
    expect((await harness.call("alice", "get_course", { courseId })).version).toBe(version);
    expect(((await harness.call("alice", "list_courses", {})).courses as unknown[]).length).toBe(1);
  });

  test("drawCount above the lesson's questions at the time it is set", async () => {
    const { courseId, moduleId, lessonId, version } = await courseWithQuiz();
    const update = await harness.fail("alice", "update_lesson", { courseId, lessonId, drawCount: 4 });
    expect(update.message).toContain("lesson.drawCount");
    expect(update.message).toContain("at most 3");
    const add = await harness.fail("alice", "add_lesson", { courseId, moduleId, title: "Q", kind: "quiz", drawCount: 2, blocks: [question(1)] });
    expect(add.message).toContain("drawCount");
    const batch = await harness.fail("alice", "edit_course", { courseId, operations: [{ op: "update_lesson", lessonId, drawCount: 9 }] });
    expect(batch.message).toContain("drawCount");
    const created = await harness.fail("alice", "create_course", { title: "X", modules: [{ title: "M", lessons: [{ title: "Q", kind: "quiz", drawCount: 5, blocks: [question(1)] }] }] });
    expect(created.message).toContain("modules[0].lessons[0].drawCount");
    expect((await harness.call("alice", "get_course", { courseId })).version).toBe(version);
  });

  test("a second final assessment names the first one and how to move the role", async () => {
    const { courseId, moduleId, lessonId, version } = await courseWithQuiz({ finalAssessment: true });
    const add = await harness.fail("alice", "add_lesson", { courseId, moduleId, title: "Q2", kind: "quiz", finalAssessment: true, blocks: [question(1)] });
    expect(add.message).toContain("finalAssessment");
    expect(add.message).toContain(lessonId);
    expect(add.message).toContain("at most one");
    const created = await harness.fail("alice", "create_course", {
      title: "Two finals",
      modules: [{ title: "M", lessons: [{ title: "A", kind: "quiz", finalAssessment: true, blocks: [question(1)] }, { title: "B", kind: "quiz", finalAssessment: true, blocks: [question(1)] }] }],
    });
    expect(created.message).toContain("modules[0].lessons[1].finalAssessment");
    expect((await harness.call("alice", "get_course", { courseId })).version).toBe(version);
    // Moving the role is two steps in one batch: clear the first, then set the second.
    const added = await harness.call("alice", "add_lesson", { courseId, moduleId, title: "Q2", kind: "quiz", blocks: [question(1)] });
    const secondId = (added.lesson as Json).id as string;
    await harness.call("alice", "edit_course", { courseId, operations: [{ op: "update_lesson", lessonId, finalAssessment: false }, { op: "update_lesson", lessonId: secondId, finalAssessment: true }] });
    expect((await lessonOf(courseId, secondId)).finalAssessment).toBe(true);
  });

  test("finalAssessment (and any quiz setting) on a content lesson", async () => {
    const { courseId, moduleId } = await courseWithQuiz();
    const add = await harness.fail("alice", "add_lesson", { courseId, moduleId, title: "Reading", finalAssessment: true });
    expect(add.message).toContain("finalAssessment");
    expect(add.message).toContain("only a quiz lesson can be the final assessment");
    const course = (await harness.call("alice", "get_course", { courseId })) as { modules: { lessons: { id: string }[] }[] };
    const contentId = course.modules[0]!.lessons[0]!.id;
    const update = await harness.fail("alice", "update_lesson", { courseId, lessonId: contentId, feedbackMode: "immediate" });
    expect(update.message).toContain("lesson.feedbackMode");
    const badMode = await harness.fail("alice", "update_lesson", { courseId, lessonId: contentId, feedbackMode: "later" });
    expect(badMode.message).toContain("after_submit, immediate or none");
    const paged = await harness.fail("alice", "update_lesson", { courseId, lessonId: contentId, oneQuestionAtATime: true });
    expect(paged.message).toContain("lesson.oneQuestionAtATime");
    const badScoring = await harness.fail("alice", "update_lesson", { courseId, lessonId: contentId, attemptScoring: "average" });
    expect(badScoring.message).toContain("must be best or last");
  });
});

describe("validate_course", () => {
  async function findings(courseId: string): Promise<{ ruleId: string; severity: string; location: Json }[]> {
    return (await harness.call("alice", "validate_course", { courseId })).findings as never;
  }

  test("a pool that later shrank below its draw is an error that blocks publishing", async () => {
    const { courseId, lessonId } = await courseWithQuiz({ drawCount: 3 });
    const lesson = await lessonOf(courseId, lessonId);
    await harness.call("alice", "remove_block", { courseId, blockId: (lesson.blocks as { id: string }[])[0]!.id });
    const [finding] = (await findings(courseId)).filter((found) => found.ruleId === "quiz.pool_too_small");
    expect(finding).toMatchObject({ severity: "error", location: { lessonId, field: "drawCount" } });
    const publish = await harness.fail("alice", "set_status", { courseId, status: "published" });
    expect(publish.message).toContain("quiz.pool_too_small");
  });

  test("a quiz lesson without questions is an error", async () => {
    const { courseId, lessonId } = await courseWithQuiz();
    const lesson = await lessonOf(courseId, lessonId);
    for (const block of lesson.blocks as { id: string }[]) await harness.call("alice", "remove_block", { courseId, blockId: block.id });
    await harness.call("alice", "add_blocks", { courseId, lessonId, blocks: [{ type: "text", markdown: "No questions here." }] });
    expect((await findings(courseId)).some((found) => found.ruleId === "quiz.no_questions" && found.severity === "error")).toBe(true);
  });

  test("a graded question with neither explanation nor feedback is a warning; feedback on one answer is enough", async () => {
    const { courseId, moduleId } = await courseWithQuiz();
    const added = await harness.call("alice", "add_lesson", {
      courseId,
      moduleId,
      title: "Bare",
      kind: "quiz",
      blocks: [question(1, { explanation: undefined }), question(2, { explanation: undefined, choices: [{ text: "A", correct: true, feedback: "Yes: A." }, { text: "B" }] })],
    });
    const bare = (await findings(courseId)).filter((found) => found.ruleId === "question.no_feedback");
    expect(bare).toHaveLength(1);
    expect(bare[0]).toMatchObject({ severity: "warning", location: { lessonId: (added.lesson as Json).id, field: "explanation" } });
  });
});
