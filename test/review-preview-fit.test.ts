/**
 * Previews fit the result cap (issue 30): at the default cap, every single lesson of a course that
 * uses every teaching block and question type previews; a lesson too large to carry the player names
 * its bundle, which reads as its own `ui://` resource; preview_course previews one module or lesson.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import type { Course } from "./support/review-courses.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { phishingScenario, phishingSorting, teachingContentBlocks } from "./support/teaching-blocks.ts";

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).toString("base64");
const defaultCap = 60 * 1024;

let service: TestService;
let agent: Agent;
let course: Course;

function questions(): Record<string, unknown>[] {
  return [
    { type: "single_choice", prompt: "Which is the Report button?", points: 1, choices: [{ text: "The shield", correct: true }, { text: "The envelope", correct: false }] },
    { type: "multiple_choice", prompt: "Which are warning signs?", choices: [{ text: "Urgency", correct: true }, { text: "A misspelt domain", correct: true }, { text: "Your name", correct: false }] },
    { type: "true_false", prompt: "Links can hide where they go.", answer: true },
    { type: "fill_in_blank", prompt: "Fill in the blank.", text: "Report it with the {{1}} button.", blanks: [{ answers: ["Report"] }] },
    { type: "matching", prompt: "Match the sign to its meaning.", pairs: [{ left: "Urgency", right: "Pressure" }, { left: "Misspelt domain", right: "Fake sender" }] },
    { type: "ordering", prompt: "Put the steps in order.", items: [{ text: "Do not click" }, { text: "Report" }, { text: "Delete" }] },
    phishingSorting(),
    phishingScenario(),
  ];
}

beforeAll(async () => {
  service = await startTestService();
  agent = await connectAgent(service, await devAccessToken(service, "alice"), "preview-fit");
  course = (await agent.call("create_course", { title: "Phishing awareness", language: "en" })) as Course;
  const imageId = ((await agent.call("upload_asset", { courseId: course.id, filename: "mail.png", dataBase64: png })).asset as { id: string }).id;
  const blocks = teachingContentBlocks({ image: imageId, attachment: imageId });
  const long = (topic: string) => ({ type: "text", markdown: `## ${topic}\n\n${`A phishing message tries to make you act before you think about ${topic}. `.repeat(80)}` });
  const outline = await agent.call("edit_course", {
    courseId: course.id,
    operations: [
      { op: "add_module", title: "Spotting phish", lessons: [
        { title: "Every teaching block", blocks: [long("signs"), ...blocks, { type: "tabs", tabs: [{ title: "Email", markdown: "Check the sender." }, { title: "Phone", markdown: "Call back on a known number." }] }, { type: "accordion", items: [{ title: "Why", markdown: "Because." }] }, { type: "flashcards", cards: [{ front: "Phish", back: "A fake message" }] }] },
        { title: "Every question", blocks: [long("questions"), ...questions()] },
      ] },
      { op: "add_module", title: "Check", lessons: [{ title: "Final check", kind: "quiz", passingScore: 75, finalAssessment: true, blocks: [long("the check"), ...questions()] }] },
    ],
  });
  expect(outline).toBeDefined();
  course = (await agent.call("get_course", { courseId: course.id, includeBlocks: false })) as Course;
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await service?.dispose();
});

describe("previews within the default result cap", () => {
  test("every single lesson previews, each page under the cap, naming the player it does not carry", async () => {
    const lessons = course.modules.flatMap((module) => module.lessons);
    expect(lessons).toHaveLength(3);
    let referenced = 0;
    for (const lesson of lessons) {
      const read = await agent.client.readResource({ uri: `course://${course.id}/lessons/${lesson.id}/preview` });
      const [content] = read.contents as { text: string; _meta: { playerUri?: string } }[];
      expect(JSON.stringify(read).length).toBeLessThanOrEqual(defaultCap);
      const namesPlayer = content!.text.includes("data-player-bundle=");
      expect(namesPlayer).toBe(content!._meta.playerUri !== undefined);
      if (!content!._meta.playerUri) continue;
      referenced++;
      const bundle = (await agent.client.readResource({ uri: content!._meta.playerUri })).contents[0] as { text: string; mimeType: string };
      expect(bundle.mimeType).toBe("text/javascript");
      expect(bundle.text).toStartWith("(()=>{");
      expect(bundle.text).not.toContain("</script");
    }
    // The lesson with every question and teaching block is over the cap with the player inside.
    expect(referenced).toBeGreaterThan(0);
  }, 60_000);

  test("preview_course previews one module or one lesson, and names each module's preview", async () => {
    const lesson = course.modules[1]!.lessons[0]!;
    const one = await agent.call("preview_course", { courseId: course.id, lessonId: lesson.id });
    expect(one).toMatchObject({ scope: "lesson", previewUri: `course://${course.id}/lessons/${lesson.id}/preview` });
    expect((one.modules as unknown[]).length).toBe(1);
    const module = await agent.call("preview_course", { courseId: course.id, moduleId: course.modules[0]!.id, variant: "draft" });
    expect(module).toMatchObject({ scope: "module", previewUri: `course://${course.id}/modules/${course.modules[0]!.id}/preview` });
    const whole = await agent.call("preview_course", { courseId: course.id });
    expect(whole.scope).toBe("course");
    expect((whole.modules as { previewUri: string }[]).map((entry) => entry.previewUri)).toEqual(course.modules.map((entry) => `course://${course.id}/modules/${entry.id}/preview`));
  });

  test("a module or lesson not in the course, or both at once, is an error naming the field", async () => {
    const missing = await agent.fail("preview_course", { courseId: course.id, moduleId: "mod_nothere" });
    expect(missing.code).toBe("not_found");
    expect(missing.message).toContain("moduleId");
    const both = (await agent.callRaw("preview_course", { courseId: course.id, moduleId: course.modules[0]!.id, lessonId: course.modules[0]!.lessons[0]!.id })) as CallToolResult;
    expect(both.isError).toBe(true);
    expect(JSON.stringify(both.content)).toContain("not both");
  });
});
