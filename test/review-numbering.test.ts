/**
 * Module numbering is the author's choice: `numbering` "modules" (default) puts "Module N:" before each
 * module title on learner pages, "none" shows titles as written; validate_course warns when a title
 * already carries a number numbering would add, with the edit_course call that fixes it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readCourseResource } from "../src/mcp/tools/resources.ts";
import { defaultMcpResultMaxBytes } from "../src/config.ts";
import { identity, openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { cleanOutline, createCourse, findingsOf, withRule } from "./support/review-courses.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await openHarness();
});
afterAll(() => harness.close());

function numberedOutline(): Json {
  const outline = cleanOutline();
  const modules = outline.modules as Json[];
  modules[0] = { ...modules[0], title: "Module 1: Phishing emails" };
  return outline;
}

// Numbering is under test here, not the result cap: the page's player script and styles grew with the
// teaching blocks and quiz modes and are being slimmed separately, so this reads with room to spare.
async function previewHtml(courseId: string): Promise<string> {
  const [content] = (await readCourseResource(harness.services, identity("alice"), `course://${courseId}/preview`, 4 * defaultMcpResultMaxBytes)).contents;
  return (content as { text: string }).text;
}

describe("course numbering", () => {
  test('numbering defaults to "modules" and is returned by get_course', async () => {
    const course = await createCourse(harness);
    expect(course.numbering).toBe("modules");
    expect((await harness.call("alice", "get_course", { courseId: course.id })).numbering).toBe("modules");
  });

  test("a title that already says Module 1 gets a warning whose fix is an edit_course call; applying it clears the warning", async () => {
    const course = await createCourse(harness, numberedOutline());
    const moduleId = course.modules[0]!.id;
    expect(await previewHtml(course.id)).toContain("Module 1: Module 1: Phishing emails");
    const [finding, ...others] = withRule(await findingsOf(harness, course.id), "title.numbered_twice");
    expect(others).toEqual([]);
    expect(finding).toMatchObject({ severity: "warning", location: { moduleId, field: "title" } });
    expect(finding!.message).toContain("Module N: Module 1: Phishing emails");
    expect(finding!.fix).toContain(`edit_course { courseId: "${course.id}", operations: [{ op: "update_module", moduleId: "${moduleId}", title: "Phishing emails" }] }`);
    expect(finding!.fix).toContain(`edit_course { courseId: "${course.id}", operations: [{ op: "update_course", numbering: "none" }] }`);
    await harness.call("alice", "edit_course", { courseId: course.id, operations: [{ op: "update_module", moduleId, title: "Phishing emails" }] });
    expect(withRule(await findingsOf(harness, course.id), "title.numbered_twice")).toEqual([]);
    expect(await previewHtml(course.id)).toContain("Module 1: Phishing emails");
  });

  test('numbering "none" shows titles as written, on every learner page, and silences the warning', async () => {
    const course = await createCourse(harness, numberedOutline());
    await harness.call("alice", "edit_course", { courseId: course.id, operations: [{ op: "update_course", numbering: "none" }] });
    expect((await harness.call("alice", "get_course", { courseId: course.id })).numbering).toBe("none");
    const html = await previewHtml(course.id);
    expect(html).toContain("Module 1: Phishing emails");
    expect(html).not.toContain("Module 1: Module 1");
    expect(html).not.toMatch(/Module 2: /);
    expect(withRule(await findingsOf(harness, course.id), "title.numbered_twice")).toEqual([]);
  });

  test.each([["Lesson 2: Spotting the sender"], ["Unit 3 - Reporting"], ["Chapter 4. Links"]])("a lesson titled %p is warned about too", async (title) => {
    const outline = cleanOutline();
    const modules = outline.modules as (Json & { lessons: Json[] })[];
    modules[0]!.lessons[0] = { ...modules[0]!.lessons[0], title };
    const course = await createCourse(harness, outline);
    const [finding] = withRule(await findingsOf(harness, course.id), "title.numbered_twice");
    expect(finding).toMatchObject({ location: { lessonId: course.modules[0]!.lessons[0]!.id, field: "title" } });
    expect(finding!.fix).toContain('op: "update_lesson"');
  });

  test("titles that merely start with a word like Module are left alone", async () => {
    const outline = cleanOutline();
    (outline.modules as Json[])[0] = { ...(outline.modules as Json[])[0], title: "Modules of the alarm system" };
    expect(withRule(await findingsOf(harness, (await createCourse(harness, outline)).id), "title.numbered_twice")).toEqual([]);
  });

  test("a numbering outside the list is refused naming the field and the allowed values; nothing is written", async () => {
    const course = await createCourse(harness);
    const error = await harness.fail("alice", "update_course", { courseId: course.id, numbering: "roman" });
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain("numbering");
    expect(error.message).toContain("modules or none");
    const after = await harness.call("alice", "get_course", { courseId: course.id });
    expect(after).toMatchObject({ numbering: "modules", version: course.version });
  });
});
