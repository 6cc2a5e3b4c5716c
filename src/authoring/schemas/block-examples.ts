/**
 * One valid example of each round-5 question type, which `describe_blocks` returns beside the type's
 * schema so an agent sees the shape that works (regions in picture pixels, gaps as `{{1}}`). A test
 * holds every example to the schema.
 */
import type { BlockInput, BlockType } from "./blocks.ts";

const picture = { url: "https://example.org/pump.png", alt: "Diagram of a pump with three valves", width: 800, height: 600 };

export const blockExamples: Partial<Record<BlockType, BlockInput>> = {
  numeric: {
    type: "numeric",
    prompt: "How many millilitres of disinfectant go into 1 litre of water?",
    value: 2.5,
    tolerance: 0.1,
    unit: "ml",
    incorrectFeedback: "Check the dilution table: 1 part in 400.",
  },
  hotspot: {
    type: "hotspot",
    prompt: "Click the valve that must be closed first.",
    image: picture,
    regions: [
      { shape: "circle", x: 120, y: 300, radius: 40, name: "Valve A", correct: true },
      { shape: "rect", x: 360, y: 260, width: 80, height: 80, name: "Valve B", feedback: "Valve B is closed last." },
      { shape: "polygon", points: [[600, 250], [680, 250], [640, 330]], name: "Valve C" },
    ],
  },
  drag_onto_image: {
    type: "drag_onto_image",
    prompt: "Put each label on its part of the pump.",
    image: picture,
    zones: [
      { shape: "rect", id: "inlet", x: 40, y: 260, width: 160, height: 80, name: "Zone 1" },
      { shape: "rect", id: "outlet", x: 600, y: 260, width: 160, height: 80, name: "Zone 2" },
    ],
    labels: [{ text: "Inlet", zone: "inlet" }, { text: "Outlet", zone: "outlet" }, { text: "Exhaust" }],
  },
  inline_choice: {
    type: "inline_choice",
    prompt: "Complete the procedure.",
    text: "First {{1}} the pump, then {{2}} the inlet valve.",
    gaps: [
      { choices: [{ text: "switch off", correct: true }, { text: "restart" }] },
      { choices: [{ text: "open" }, { text: "close", correct: true }, { text: "remove" }], feedback: "An open inlet floods the pump." },
    ],
  },
  open_response: {
    type: "open_response",
    prompt: "In two sentences, what would you do if the pressure alarm sounds?",
    modelAnswer: "Stop the pump at the main switch, then close the inlet valve and call the supervisor.",
    maxCharacters: 400,
    rubric: { criteria: [{ text: "Stops the pump first", points: 2 }, { text: "Calls the supervisor", points: 1 }] },
  },
  likert: {
    type: "likert",
    prompt: "How far do you agree?",
    statements: [{ text: "I can close the valves in the right order." }, { text: "The training was relevant to my job." }],
    scale: ["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"],
  },
};
