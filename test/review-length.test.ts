/**
 * Length that tells the truth: get_course, the outline resource and the preview show the course's
 * estimatedMinutes (lessons summed, set or derived) and each lesson's derived estimate beside a value
 * set; validate_course warns when a set value is below half or above twice the derived one, and when
 * the total is more than 25% away from the course's targetMinutes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readCourseResource } from "../src/mcp/tools/resources.ts";
import { defaultMcpResultMaxBytes } from "../src/config.ts";
import { renderCourseHtml } from "../src/render/index.ts";
import type { CourseDocument } from "../src/authoring/schemas/course.ts";
import { identity, openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { createCourse, findingsOf, withRule } from "./support/review-courses.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await openHarness();
});
afterAll(() => harness.close());

type Lesson = { id: string; estimatedMinutes: number; estimatedMinutesIsSet: boolean; derivedMinutes: number };
const lessonsOf = (course: Json): Lesson[] => (course.modules as { lessons: Lesson[] }[]).flatMap((module) => module.lessons);

// The whole-course preview of a course with a quiz is larger than the default cap (README: resources); the figures are what this reads.
async function resourceText(uri: string): Promise<string> {
  const [content] = (await readCourseResource(harness.services, identity("alice"), uri, 4 * defaultMcpResultMaxBytes)).contents;
  return (content as { text: string }).text;
}

describe("course length", () => {
  test("get_course sums the lessons into estimatedMinutes and shows each lesson's derived estimate beside a set one", async () => {
    const course = await createCourse(harness);
    const fresh = await harness.call("alice", "get_course", { courseId: course.id, includeBlocks: false });
    const lessons = lessonsOf(fresh);
    expect(lessons.every((lesson) => !lesson.estimatedMinutesIsSet && lesson.derivedMinutes === lesson.estimatedMinutes && lesson.derivedMinutes > 0)).toBe(true);
    expect(fresh.estimatedMinutes).toBe(lessons.reduce((sum, lesson) => sum + lesson.estimatedMinutes, 0));
    const first = lessons[0]!;
    await harness.call("alice", "update_lesson", { courseId: course.id, lessonId: first.id, estimatedMinutes: first.derivedMinutes * 3 + 10 });
    const after = await harness.call("alice", "get_course", { courseId: course.id, includeBlocks: false });
    expect(lessonsOf(after)[0]).toMatchObject({ estimatedMinutes: first.derivedMinutes * 3 + 10, estimatedMinutesIsSet: true, derivedMinutes: first.derivedMinutes });
    expect(after.estimatedMinutes).toBe((fresh.estimatedMinutes as number) + first.derivedMinutes * 2 + 10);
    const outline = await resourceText(`course://${course.id}/outline`);
    expect(outline).toContain(`~${after.estimatedMinutes} min in all`);
    expect(outline).toContain(`~${first.derivedMinutes * 3 + 10} min set, ~${first.derivedMinutes} min derived`);
  });

  test("a quiz lesson drawing 8 of a 12-question pool is estimated by the 8 questions a learner answers, not the pool", async () => {
    const question = (index: number) => ({ type: "single_choice", prompt: `Question ${index}: which exit is nearest to the stairs on this floor?`, choices: [{ text: "North", correct: true }, { text: "South", correct: false }] });
    const created = await harness.call("alice", "create_course", {
      title: "Pool length",
      modules: [{ title: "Check", lessons: [{ title: "Pool", kind: "quiz", passingScore: 50, blocks: Array.from({ length: 12 }, (_, index) => question(index)) }] }],
    });
    const lessonId = lessonsOf(created)[0]!.id;
    const whole = lessonsOf(await harness.call("alice", "get_course", { courseId: created.id as string, includeBlocks: false }))[0]!;
    await harness.call("alice", "update_lesson", { courseId: created.id, lessonId, drawCount: 8 });
    const drawn = lessonsOf(await harness.call("alice", "get_course", { courseId: created.id as string, includeBlocks: false }))[0]!;
    expect(whole.derivedMinutes).toBe(13);
    expect(drawn.derivedMinutes).toBe(9);
    expect(drawn.estimatedMinutes).toBe(9);
  });

  test("the preview shows the total (and target) on the introduction and set beside derived minutes; packages show learners one figure", async () => {
    const course = await createCourse(harness);
    const [first] = lessonsOf(course);
    await harness.call("alice", "edit_course", {
      courseId: course.id,
      operations: [
        { op: "update_lesson", lessonId: first!.id, estimatedMinutes: first!.derivedMinutes + 40 },
        { op: "update_course", targetMinutes: 30 },
      ],
    });
    const document = (await harness.call("alice", "get_course", { courseId: course.id })) as unknown as CourseDocument;
    const preview = await resourceText(`course://${course.id}/preview`);
    expect(preview).toContain(`<dt>Length</dt><dd>About ${document.estimatedMinutes} min (target 30 min)</dd>`);
    expect(preview).toContain(`About ${first!.derivedMinutes + 40} min (set; the content suggests ${first!.derivedMinutes} min)`);
    const packaged = renderCourseHtml(document, { mode: "package", assetUrl: () => "" });
    expect(packaged).toContain(`<dt>Length</dt><dd>About ${document.estimatedMinutes} min</dd>`);
    expect(packaged).not.toContain("the content suggests");
    expect(packaged).not.toContain("target 30");
  });

  test("lesson.minutes_mismatch: set minutes below half or above twice the derived estimate are warned about, with the fixing call", async () => {
    const course = await createCourse(harness);
    const [first, second] = lessonsOf(course);
    await harness.call("alice", "edit_course", {
      courseId: course.id,
      operations: [
        { op: "update_lesson", lessonId: first!.id, estimatedMinutes: first!.derivedMinutes * 2 + 1 },
        { op: "update_lesson", lessonId: second!.id, estimatedMinutes: second!.derivedMinutes * 2 },
      ],
    });
    const findings = withRule(await findingsOf(harness, course.id), "lesson.minutes_mismatch");
    expect(findings.map((finding) => finding.location.lessonId)).toEqual([first!.id]);
    expect(findings[0]).toMatchObject({ severity: "warning", location: { field: "estimatedMinutes" } });
    expect(findings[0]!.message).toContain(`derives to about ${first!.derivedMinutes} min`);
    expect(findings[0]!.fix).toContain(`edit_course { courseId: "${course.id}", operations: [{ op: "update_lesson", lessonId: "${first!.id}", estimatedMinutes: null }] }`);
    await harness.call("alice", "update_lesson", { courseId: course.id, lessonId: first!.id, estimatedMinutes: Math.max(0, Math.floor(first!.derivedMinutes / 2) - 1) });
    expect(withRule(await findingsOf(harness, course.id), "lesson.minutes_mismatch").map((finding) => finding.location.lessonId)).toEqual([first!.id]);
    await harness.call("alice", "update_lesson", { courseId: course.id, lessonId: first!.id, estimatedMinutes: null });
    expect(withRule(await findingsOf(harness, course.id), "lesson.minutes_mismatch")).toEqual([]);
  });

  test("course.length_off_target: a total more than 25% from targetMinutes is warned about; within it is not", async () => {
    const course = await createCourse(harness);
    const total = (await harness.call("alice", "get_course", { courseId: course.id, includeBlocks: false })).estimatedMinutes as number;
    expect(withRule(await findingsOf(harness, course.id), "course.length_off_target")).toEqual([]);
    await harness.call("alice", "update_course", { courseId: course.id, targetMinutes: total * 2 });
    const [finding] = withRule(await findingsOf(harness, course.id), "course.length_off_target");
    expect(finding).toMatchObject({ severity: "warning", location: { field: "targetMinutes" } });
    expect(finding!.message).toContain(`add up to ${total} min, 50% shorter than the target of ${total * 2} min`);
    expect(finding!.fix).toContain(`edit_course { courseId: "${course.id}", operations: [{ op: "update_course", targetMinutes: ${total} }] }`);
    await harness.call("alice", "update_course", { courseId: course.id, targetMinutes: Math.round(total * 1.2) });
    expect(withRule(await findingsOf(harness, course.id), "course.length_off_target")).toEqual([]);
    expect((await harness.call("alice", "get_course", { courseId: course.id, includeBlocks: false })).targetMinutes).toBe(Math.round(total * 1.2));
  });

  test.each([[0], [1.5], ["45"], [-3]])("targetMinutes %p is refused naming the field; nothing is written", async (value) => {
    const course = await createCourse(harness);
    const error = await harness.fail("alice", "update_course", { courseId: course.id, targetMinutes: value });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("targetMinutes");
    expect(await harness.call("alice", "get_course", { courseId: course.id, includeBlocks: false })).toMatchObject({ targetMinutes: null, version: course.version });
  });
});
