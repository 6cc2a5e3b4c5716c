/**
 * One block of each question type of issue 42 (numeric, hotspot, drag_onto_image, inline_choice,
 * open_response, likert), as an agent sends them: the domain, player and LMS tests build their courses
 * from these. `picture` is a URL picture unless an uploaded asset ID is given.
 */
type Json = Record<string, unknown>;

export function questionPicture(assetId?: string): Json {
  return { ...(assetId ? { assetId } : { url: "https://example.com/pump.png" }), alt: "Diagram of a pump with three valves", width: 400, height: 300 };
}

export function numericQuestion(): Json {
  return { type: "numeric", prompt: "How many millilitres of disinfectant per litre?", value: 2.5, tolerance: 0.1, unit: "ml", correctFeedback: "Right: 2.5 ml.", incorrectFeedback: "Check the dilution table." };
}

export function hotspotQuestion(assetId?: string): Json {
  return {
    type: "hotspot",
    prompt: "Click the valve that must be closed first.",
    image: questionPicture(assetId),
    regions: [
      { shape: "circle", x: 60, y: 150, radius: 30, name: "Valve A", correct: true, feedback: "Yes: the inlet valve first." },
      { shape: "rect", x: 170, y: 120, width: 60, height: 60, name: "Valve B", feedback: "Valve B is closed last." },
      { shape: "polygon", points: [[300, 120], [360, 120], [330, 180]], name: "Valve C" },
    ],
  };
}

export function dragOntoImageQuestion(assetId?: string): Json {
  return {
    type: "drag_onto_image",
    prompt: "Put each label on its part of the pump.",
    image: questionPicture(assetId),
    zones: [
      { shape: "rect", id: "inlet", x: 20, y: 130, width: 80, height: 40, name: "Zone 1" },
      { shape: "rect", id: "motor", x: 160, y: 40, width: 80, height: 40, name: "Zone 2" },
      { shape: "circle", id: "outlet", x: 340, y: 150, radius: 30, name: "Zone 3" },
    ],
    labels: [
      { text: "Inlet", zone: "inlet", feedback: "The inlet is on the left." },
      { text: "Motor", zone: "motor" },
      { text: "Outlet", zone: "outlet" },
      { text: "Exhaust" },
    ],
  };
}

export function inlineChoiceQuestion(): Json {
  return {
    type: "inline_choice",
    prompt: "Complete the procedure.",
    text: "First {{1}} the pump, then {{2}} the inlet valve.",
    gaps: [
      { choices: [{ text: "switch off", correct: true }, { text: "restart" }] },
      { choices: [{ text: "open" }, { text: "close", correct: true }, { text: "remove" }], feedback: "An open inlet floods the pump." },
    ],
  };
}

export function openResponseQuestion(): Json {
  return {
    type: "open_response",
    prompt: "In two sentences, what would you do if the pressure alarm sounds?",
    modelAnswer: "Stop the pump at the main switch, then close the inlet valve and call the supervisor.",
    maxCharacters: 200,
    rubric: { criteria: [{ text: "Stops the pump first", points: 2 }, { text: "Calls the supervisor", points: 1 }] },
  };
}

export function likertQuestion(): Json {
  return {
    type: "likert",
    prompt: "How far do you agree?",
    statements: [{ text: "I can close the valves in the right order." }, { text: "The training was relevant to my job." }],
    scale: ["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"],
  };
}

/** All six, in the order. */
export function newQuestionTypeBlocks(assetId?: string): Json[] {
  return [numericQuestion(), hotspotQuestion(assetId), dragOntoImageQuestion(assetId), inlineChoiceQuestion(), openResponseQuestion(), likertQuestion()];
}
