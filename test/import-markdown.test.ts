/**
 * import_course of a Markdown outline through the real service: headings become the title, modules
 * and lessons; paragraphs, lists, images, code, quotes and alerts become blocks; an objectives list
 * becomes learning objectives; a task list after a question becomes a choice question, and a lesson
 * titled as a quiz becomes a quiz lesson.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { startTestService, type TestService } from "./support/service.ts";

let service: TestService;
let alice: Agent;

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
});

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

const outline = `# Phishing Awareness for Staff

A short course on spotting and reporting **phishing** e-mails.

## Learning objectives

- Recognise the signs of a phishing e-mail
- Report a suspicious message the right way

## Module 1: Spotting phishing

What phishing looks like, and why it works.

### What is phishing?

Phishing is an attempt to trick you into giving away credentials or money.

![An example phishing e-mail with a fake login link](https://example.com/phish.png)

Common signs:

- An urgent tone
- A sender address that does not match the company
- Links to unfamiliar domains

> [!TIP]
> Hover over a link to see where it really goes.

### Inspecting headers

#### Reading the Received lines

\`\`\`text
Received: from mail.example.net (203.0.113.5)
\`\`\`

> Trust, but verify.

---

## Module 2: Reporting

### How to report

1. Do not click anything.
2. Use the **Report phishing** button.
3. Delete the message.

### Quiz: check your knowledge

Which of these are signs of phishing?

- [x] An urgent tone
- [x] A mismatched sender address
- [ ] A message from your manager's usual address

What should you do first with a suspicious e-mail?

- [ ] Click the link to check it
- [x] Report it with the Report phishing button
`;

interface ImportedCourse {
  id: string;
  title: string;
  description: string;
  objectives: { id: string; text: string }[];
  modules: {
    title: string;
    summary: string;
    objectiveIds: string[];
    lessons: { title: string; kind: string; passingScore: number | null; blocks: ({ type: string } & Record<string, unknown>)[] }[];
  }[];
}

async function importOutline(args: Record<string, unknown>): Promise<ImportedCourse> {
  const result = (await alice.call("import_course", args)) as { importedFrom: string; course: ImportedCourse };
  expect(result.importedFrom).toBe("markdown");
  // import_course answers with IDs (blocks as { id, type }); the content is read back with get_course.
  return (await alice.call("get_course", { courseId: result.course.id })) as unknown as ImportedCourse;
}

describe("Markdown outline", () => {
  test("headings become the title, modules and lessons; text under them the description and summaries", async () => {
    const course = await importOutline({ format: "markdown", content: outline });
    expect(course.title).toBe("Phishing Awareness for Staff");
    expect(course.description).toBe("A short course on spotting and reporting **phishing** e-mails.");
    expect(course.objectives.map((objective) => objective.text)).toEqual(["Recognise the signs of a phishing e-mail", "Report a suspicious message the right way"]);
    expect(course.modules.map((module) => module.title)).toEqual(["Spotting phishing", "Reporting"]);
    expect(course.modules[0]?.summary).toBe("What phishing looks like, and why it works.");
    expect(course.modules.map((module) => module.lessons.map((lesson) => lesson.title))).toEqual([
      ["What is phishing?", "Inspecting headers"],
      ["How to report", "Quiz: check your knowledge"],
    ]);
  });

  test("paragraphs, lists, images, alerts, code, quotes and rules become blocks", async () => {
    const course = await importOutline({ content: outline });
    const [first, second] = course.modules[0]?.lessons ?? [];
    expect(first?.blocks).toEqual([
      expect.objectContaining({ type: "text", markdown: "Phishing is an attempt to trick you into giving away credentials or money." }),
      expect.objectContaining({ type: "image", url: "https://example.com/phish.png", alt: "An example phishing e-mail with a fake login link" }),
      expect.objectContaining({ type: "text", markdown: "Common signs:" }),
      expect.objectContaining({ type: "text", markdown: "- An urgent tone\n- A sender address that does not match the company\n- Links to unfamiliar domains" }),
      expect.objectContaining({ type: "callout", variant: "tip", markdown: "Hover over a link to see where it really goes." }),
    ]);
    expect(second?.blocks).toEqual([
      expect.objectContaining({ type: "heading", text: "Reading the Received lines", level: 2 }),
      expect.objectContaining({ type: "code", language: "text", code: "Received: from mail.example.net (203.0.113.5)" }),
      expect.objectContaining({ type: "quote", text: "Trust, but verify." }),
      expect.objectContaining({ type: "divider" }),
    ]);
    expect(course.modules[1]?.lessons[0]?.blocks).toEqual([
      expect.objectContaining({ type: "text", markdown: "1. Do not click anything.\n2. Use the **Report phishing** button.\n3. Delete the message." }),
    ]);
  });

  test("task lists after a question become choice questions, in a quiz lesson", async () => {
    const course = await importOutline({ content: outline });
    const quiz = course.modules[1]?.lessons[1];
    expect(quiz).toMatchObject({ kind: "quiz", passingScore: 80 });
    expect(quiz?.blocks).toEqual([
      expect.objectContaining({
        type: "multiple_choice",
        prompt: "Which of these are signs of phishing?",
        choices: [
          expect.objectContaining({ text: "An urgent tone", correct: true }),
          expect.objectContaining({ text: "A mismatched sender address", correct: true }),
          expect.objectContaining({ text: "A message from your manager's usual address", correct: false }),
        ],
      }),
      expect.objectContaining({ type: "single_choice", prompt: "What should you do first with a suspicious e-mail?" }),
    ]);
  });

  test("with one heading level under the title, the headings are lessons of one module; title can be given", async () => {
    const course = await importOutline({
      content: "# Quick tips\n\n## Passwords\n\nUse a password manager.\n\n## Updates\n\nInstall updates promptly.\n",
      title: "Security quick tips",
    });
    expect(course.title).toBe("Security quick tips");
    expect(course.modules).toHaveLength(1);
    expect(course.modules[0]?.title).toBe("Security quick tips");
    expect(course.modules[0]?.lessons.map((lesson) => lesson.title)).toEqual(["Passwords", "Updates"]);
  });

  test("objectives listed under a module belong to the course and to that module", async () => {
    const course = await importOutline({
      content: "# Course\n\n## Module A\n\n### Objectives\n\n- Do the first thing\n\n### Lesson A1\n\nText.\n\n## Module B\n\n### Lesson B1\n\nMore.\n",
    });
    expect(course.objectives.map((objective) => objective.text)).toEqual(["Do the first thing"]);
    expect(course.modules[0]?.objectiveIds).toEqual(course.objectives.map((objective) => objective.id));
    expect(course.modules[0]?.lessons.map((lesson) => lesson.title)).toEqual(["Lesson A1"]);
    expect(course.modules[1]?.objectiveIds).toEqual([]);
  });

  test("a Markdown file inside a zip archive is imported", async () => {
    const archive = zipSync({ "outline.md": new TextEncoder().encode(outline) });
    const result = (await alice.call("import_course", { contentBase64: Buffer.from(archive).toString("base64") })) as { archiveEntry: string; course: ImportedCourse };
    expect(result.archiveEntry).toBe("outline.md");
    expect(result.course.modules).toHaveLength(2);
  });
});
