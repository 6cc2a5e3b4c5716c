/**
 * Courses for the review tests: a small course that every validation rule passes, helpers to create
 * variants of it through the tools, and a way to store content the block schema would now refuse
 * (as an import or content from before a rule would), by writing the block row directly.
 */
import type { JsonObject } from "../../src/store/types.ts";
import type { Harness, Json } from "../authoring-harness.ts";

export type Course = Json & { id: string; version: number; status: string; modules: (Json & { id: string; lessons: (Json & { id: string; blocks: (Json & { id: string; type: string })[] })[] })[] };

export interface Finding {
  ruleId: string;
  severity: "error" | "warning" | "info";
  message: string;
  fix: string;
  location: { path: string; moduleId?: string; lessonId?: string; blockId?: string; objectiveId?: string; field?: string };
}

/** Passes every rule: described, English, objectives each assessed, every module with a question. */
export function cleanOutline(): Json {
  return {
    title: "Fire safety basics",
    description: "A short course for new staff on what to do when the fire alarm sounds.",
    language: "en",
    audience: "new employees",
    level: "beginner",
    objectives: [
      { key: "exit", text: "Leave the building by the nearest safe exit" },
      { key: "report", text: "Report a fire" },
    ],
    modules: [
      {
        title: "When the alarm sounds",
        objectiveIds: ["exit"],
        lessons: [
          {
            title: "Get out",
            blocks: [
              { type: "heading", text: "Your way out", level: 2 },
              { type: "text", markdown: "Walk to the nearest exit. Do not use the lifts." },
              { type: "heading", text: "Signs to follow", level: 3 },
              { type: "image", url: "https://example.com/exit.png", alt: "A green exit sign above a door" },
            ],
          },
          {
            title: "Check yourself",
            kind: "quiz",
            blocks: [
              {
                type: "single_choice",
                prompt: "The alarm sounds. What do you do?",
                explanation: "Lifts can stop in a fire; walking out by the nearest exit is fastest.",
                objectiveIds: ["exit"],
                choices: [
                  { text: "Walk to the nearest exit", correct: true },
                  { text: "Take the lift" },
                  { text: "Finish your email first" },
                ],
              },
            ],
          },
        ],
      },
      {
        title: "Raising the alarm",
        objectiveIds: ["report"],
        lessons: [
          {
            title: "Call for help",
            blocks: [
              { type: "text", markdown: "Press the nearest fire alarm button. Then call the emergency number." },
              { type: "true_false", prompt: "You should call the emergency number after pressing the alarm.", answer: true, objectiveIds: ["report"] },
            ],
          },
        ],
      },
    ],
  };
}

export async function createCourse(harness: Harness, outline: Json = cleanOutline(), user = "alice"): Promise<Course> {
  return (await harness.call(user, "create_course", outline)) as Course;
}

export async function findingsOf(harness: Harness, courseId: string, user = "alice"): Promise<Finding[]> {
  return (await harness.call(user, "validate_course", { courseId, limit: 1000 })).findings as Finding[];
}

export function withRule(findings: Finding[], ruleId: string): Finding[] {
  return findings.filter((finding) => finding.ruleId === ruleId);
}

/** Stores a block body the tools would refuse, as if imported or written before the rule existed. */
export async function storeRawBlock(harness: Harness, blockId: string, change: (body: JsonObject) => JsonObject): Promise<void> {
  await harness.services.store.write(async (tx) => {
    const block = await tx.find("block", blockId);
    if (!block) throw new Error(`no block ${blockId}`);
    await tx.update("block", blockId, { body: change(structuredClone(block.body)) });
  });
}

/** The first block of a type, searching modules and lessons in order. */
export function blockOfType(course: Course, type: string): Json & { id: string } {
  for (const module of course.modules) for (const lesson of module.lessons) for (const block of lesson.blocks) if (block.type === type) return block;
  throw new Error(`no ${type} block`);
}

export function lessonIds(course: Course): string[] {
  return course.modules.flatMap((module) => module.lessons.map((lesson) => lesson.id));
}
