/**
 * Checks of the teaching blocks that a stored course can fail even though input refuses most of it
 * (content restored from history or imported): a scenario whose scenes strand the learner, a marker
 * with nothing to say, and a continue button with nothing after it.
 */
import { scenarioProblems, type ScenarioFields } from "../../authoring/schemas/scenario-block.ts";
import { atField, type WalkedBlock, type WalkedLesson } from "./course-walk.ts";
import type { FindingList } from "./rules.ts";

function fieldPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((text, key) => (typeof key === "number" ? `${text}[${key}]` : text ? `${text}.${key}` : key), "");
}

export function checkTeachingBlock({ block, location }: WalkedBlock, findings: FindingList): void {
  if (block.type === "scenario" && Array.isArray(block.scenes)) {
    for (const problem of scenarioProblems(block as ScenarioFields)) {
      findings.report(
        "scenario.unreachable_scene",
        atField(location, fieldPath(problem.path)),
        `The scenario "${block.title}" cannot be played through: ${problem.message}.`,
        "Call update_block with the scenario's full content, its scenes linked so every scene is reached from startSceneId and leads to an ending.",
      );
    }
  }
  if (block.type === "labeled_graphic" && Array.isArray(block.markers)) {
    block.markers.forEach((marker, index) => {
      if ((marker.markdown ?? "").trim() !== "") return;
      findings.report(
        "labeled_graphic.marker_without_text",
        atField(location, `markers[${index}].markdown`),
        `Marker ${index + 1} ("${marker.title}") opens no text, so learners who select it learn nothing.`,
        `Call update_block with markers[${index}].markdown saying what this part of the image shows, or remove the marker.`,
      );
    });
  }
}

export function checkTeachingLesson(lesson: WalkedLesson, findings: FindingList): void {
  const last = lesson.blocks.at(-1);
  if (last?.block.type !== "continue") return;
  findings.report(
    "continue.last_block",
    atField(last.location, "type"),
    "The lesson ends with a continue button that reveals nothing.",
    "Call remove_block on it, or add the blocks it should reveal after it with add_blocks.",
  );
}
