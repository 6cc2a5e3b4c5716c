/**
 * One of every teaching block of issue 20 (scenario, sorting, labeled_graphic, process, timeline,
 * attachment, continue, a pictured choice), as an agent would send them: a phishing-awareness lesson
 * and a graded check. Asset IDs are passed in, so the same blocks serve the renderer tests (fixed
 * IDs) and the MCP tests (uploaded assets).
 */
import type { ExportCourse } from "../../src/formats/package/types.ts";
import { sampleCourse } from "./export-course.ts";
export interface TeachingAssets {
  /** An image asset (PNG). */
  readonly image: string;
  /** A downloadable asset (PDF). */
  readonly attachment: string;
}

export function phishingScenario(): Record<string, unknown> {
  return {
    type: "scenario",
    title: "An urgent email from the CEO",
    markdown: "It is Friday afternoon. An email arrives that looks like it is from your CEO.",
    character: { name: "Sam, finance assistant" },
    startSceneId: "inbox",
    scenes: [
      {
        id: "inbox",
        markdown: "The email asks you to **buy gift cards** today and send the codes. The sender is `ceo@examp1e.com`.",
        choices: [
          { text: "Buy the gift cards", feedback: "Urgency and gift cards are classic signs of fraud.", next: "bought" },
          { text: "Check the sender address", next: "checked" },
        ],
      },
      { id: "checked", markdown: "The domain is misspelt: `examp1e` with a one.", choices: [{ text: "Report it with the Report button", next: "reported" }, { text: "Reply and ask if it is real", feedback: "Replying tells the sender your address works.", next: "bought" }] },
      { id: "reported", markdown: "Security thanks you and blocks the sender.", ending: { outcome: "success" } },
      { id: "bought", markdown: "The codes are gone and the money with them.", ending: { outcome: "failure" } },
    ],
    points: 2,
    objectiveIds: [],
  };
}

export function phishingSorting(): Record<string, unknown> {
  return {
    type: "sorting",
    prompt: "Sort each message: phish or not phish?",
    points: 3,
    explanation: "Look at the sender, the urgency and where links really go.",
    objectiveIds: [],
    categories: [{ title: "Phish" }, { title: "Not phish" }],
    items: [
      { text: "Your mailbox is full, log in here within 1 hour", category: "Phish", feedback: "Threats with a deadline are a warning sign." },
      { text: "Team lunch moved to Thursday", category: "Not phish" },
      { text: "Invoice attached: open the .zip to pay", category: "Phish" },
    ],
  };
}

export function teachingContentBlocks(assets: TeachingAssets): Record<string, unknown>[] {
  return [
    {
      type: "labeled_graphic",
      image: { assetId: assets.image },
      alt: "A phishing email with its warning signs marked",
      markers: [
        { x: 20, y: 10, title: "Sender", markdown: "The domain is misspelt." },
        { x: 60, y: 45, title: "Urgent tone", markdown: "Pressure to act **now**." },
        { x: 80, y: 85, title: "Link", markdown: "Hover to see where it really goes." },
      ],
    },
    {
      type: "process",
      steps: [
        { title: "Do not click", markdown: "Leave links and attachments alone." },
        { title: "Report", markdown: "Use the **Report phish** button.", image: { assetId: assets.image, alt: "The Report phish button" } },
        { title: "Delete", markdown: "Remove the message from your inbox." },
      ],
    },
    {
      type: "timeline",
      events: [
        { date: "Day 1", title: "The lure", markdown: "A convincing email arrives." },
        { date: "Day 2", title: "The click", markdown: "Someone enters their password." },
        { date: "Day 9", title: "The breach", markdown: "The attacker reads the payroll files." },
      ],
    },
    { type: "attachment", assetId: assets.attachment, title: "Phishing job aid (PDF)", description: "One page to keep beside your keyboard." },
    { type: "continue", label: "I have read this", requireCompletion: false },
    { type: "text", markdown: "Now try a real situation." },
    phishingScenario(),
    { type: "continue", requireCompletion: true },
    { type: "text", markdown: "Well done: you finished the scenario." },
  ];
}

export function teachingQuizBlocks(assets: TeachingAssets): Record<string, unknown>[] {
  return [
    phishingScenario(),
    phishingSorting(),
    {
      type: "single_choice",
      prompt: "Which of these is the Report button?",
      points: 1,
      objectiveIds: [],
      choices: [
        { text: "The shield", correct: true, image: { assetId: assets.image, alt: "A shield icon" } },
        { text: "The envelope", correct: false, image: { assetId: assets.image, alt: "An envelope icon" } },
      ],
    },
  ];
}

export const teachingQuizLessonId = "les_phish";

/** The export tests' sample course plus a module whose quiz lesson holds the graded teaching blocks. */
export function courseWithTeachingQuiz(): ExportCourse {
  const course = sampleCourse();
  const blocks = teachingQuizBlocks({ image: "ast_goggles", attachment: "ast_goggles" }).map((block, index) => ({ id: `blk_t${index}`, ...block }));
  const lesson = { id: teachingQuizLessonId, title: "Phishing check", kind: "quiz" as const, passingScore: 50, maxAttempts: null, estimatedMinutes: 4, blocks };
  return { ...course, modules: [...course.modules, { id: "mod_phish", title: "Phishing", summary: "", objectiveIds: [], lessons: [lesson] }] } as unknown as ExportCourse;
}

/** The right category (its index, as the pickers' values) of a sorting item, read from the course: the page holds no answer key. */
export function sortingCategoryOf(itemText: string): string {
  const sorting = teachingQuizBlocks({ image: "ast_goggles", attachment: "ast_goggles" }).find((block) => block.type === "sorting") as unknown as { categories: { title: string }[]; items: { text: string; category: string }[] };
  const item = sorting.items.find((candidate) => candidate.text === itemText.trim());
  return String(sorting.categories.findIndex((category) => category.title === item?.category));
}
