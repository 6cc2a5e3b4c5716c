/**
 * A course holding every question type in two pools (one drawn, with a pass mark and pictured choices),
 * and a content lesson with a question, for the question-bank export and import tests.
 */
import type { ExportCourse } from "../../src/formats/package/types.ts";
import { memoryAssets, pixelPng } from "./export-course.ts";

export const bankQuizId = "les_bankquiz";
export const bankPoolId = "les_bankpool";

export function bankQuestions(): Record<string, unknown>[] {
  return [
    {
      id: "blk_single",
      type: "single_choice",
      prompt: "Which **goggles** protect against splashes?\n\nPick one: A < B & C.",
      points: 2,
      explanation: "Indirect-vent goggles seal against splashes.",
      objectiveIds: [],
      choices: [
        { text: "Indirect vent", correct: true, feedback: "Yes: they *seal*.", image: { assetId: "ast_goggles", alt: "Indirect-vent goggles" } },
        { text: "Safety glasses {open} #1", correct: false, feedback: "No: open at the sides." },
        { text: "None of the above", correct: false, fixed: true },
      ],
    },
    {
      id: "blk_multi",
      type: "multiple_choice",
      prompt: "Which are flammable?",
      points: 3,
      objectiveIds: [],
      choices: [
        { text: "Ethanol", correct: true, feedback: "Right." },
        { text: "Acetone", correct: true },
        { text: "Water", correct: false, feedback: "Water does not burn." },
      ],
    },
    { id: "blk_tf", type: "true_false", prompt: "Goggles are optional when pouring.", points: 1, objectiveIds: [], answer: false, trueFeedback: "They are required.", falseFeedback: "Right: always wear them.", explanation: "Always." },
    {
      id: "blk_blank",
      type: "fill_in_blank",
      prompt: "Complete the sentence.",
      points: 1,
      objectiveIds: [],
      text: "Acids are neutralised with {{1}}.",
      blanks: [{ answers: ["a base", "an alkali"], caseSensitive: false, feedback: "Think of the opposite of an acid." }],
    },
    {
      id: "blk_blanks",
      type: "fill_in_blank",
      prompt: "Fill in both.",
      points: 2,
      objectiveIds: [],
      text: "Water is {{1}} and its formula is {{2}}.",
      blanks: [
        { answers: ["wet"], caseSensitive: false },
        { answers: ["H2O"], caseSensitive: true, feedback: "Two hydrogens, one oxygen." },
      ],
    },
    {
      id: "blk_match",
      type: "matching",
      prompt: "Match each hazard to its sign.",
      points: 2,
      objectiveIds: [],
      explanation: "Signs are standard.",
      pairs: [
        { left: "Flammable", right: "Flame" },
        { left: "Corrosive", right: "Hand and bar", feedback: "The corrosion sign shows a hand." },
        { left: "Toxic", right: "Skull" },
      ],
    },
  ];
}

export function poolQuestions(): Record<string, unknown>[] {
  return [
    {
      id: "blk_order",
      type: "ordering",
      prompt: "Put the spill steps in order.",
      points: 1,
      objectiveIds: [],
      items: [{ text: "Stop" }, { text: "Warn others", feedback: "Warn before you clean." }, { text: "Contain the spill" }],
    },
    {
      id: "blk_sort",
      type: "sorting",
      prompt: "Sort the items.",
      points: 2,
      objectiveIds: [],
      categories: [{ title: "Flammable" }, { title: "Safe" }, { title: "Unused" }],
      items: [
        { text: "Ethanol", category: "Flammable" },
        { text: "Water", category: "Safe", feedback: "Water is safe." },
        { text: "Acetone", category: "Flammable" },
      ],
    },
    { id: "blk_tf2", type: "true_false", prompt: "Spills are reported.", points: 1, objectiveIds: [], answer: true },
  ];
}

export function bankCourseFixture(): ExportCourse & Record<string, unknown> {
  return {
    id: "crs_bank1",
    title: "Lab / Safety Bank",
    description: "",
    language: "en",
    objectives: [],
    modules: [
      {
        id: "mod_one",
        title: "Module one",
        lessons: [
          { id: bankQuizId, title: "Final quiz", kind: "quiz", passingScore: 80, maxAttempts: 2, shuffleChoices: true, blocks: bankQuestions() },
          {
            id: bankPoolId,
            title: "Drawn pool",
            kind: "quiz",
            drawCount: 2,
            shuffleChoices: false,
            blocks: [{ id: "blk_intro", type: "text", markdown: "Read first." }, ...poolQuestions()],
          },
        ],
      },
      { id: "mod_two", title: "Module two", lessons: [{ id: "les_content", title: "Reading", kind: "content", blocks: [{ id: "blk_t", type: "text", markdown: "Nothing to ask." }] }] },
    ],
  } as unknown as ExportCourse & Record<string, unknown>;
}

export function bankAssets() {
  return memoryAssets({ ast_goggles: { bytes: pixelPng, info: { mimeType: "image/png", fileName: "goggles.png" } } });
}
