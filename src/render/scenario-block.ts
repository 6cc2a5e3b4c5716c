/**
 * Markup for the branching scenario. Without script it is a story of linked scenes: every scene shows,
 * each choice is a link to the scene it leads to (so it can still be played, and it prints whole). The
 * in-page script (`installInteractions`) shows one scene at a time, turns the links into buttons, keeps
 * the path, and offers "Play again". It is a question to the quiz script (`data-grading="self"`): the
 * script writes the last finished play on the element, and a success ending is a correct answer.
 * Which ending succeeds is part of the answer key (issue 21): each ending's outcome is sealed like a
 * question's right answer and opened by the script only when the learner reaches that ending, so the
 * markup (and print, and a page without script) shows an ending only as "End of the scenario".
 */
import type { Block } from "../authoring/schemas/blocks.ts";
import type { LessonContext } from "./context.ts";
import { html, htmlId, type SafeHtml } from "./html.ts";
import { interactionText } from "./ui-text.ts";
import { markdownHtml } from "./markdown.ts";
import { pictureHtml } from "./teaching-blocks.ts";
import { questionKeyAttributes } from "./question-blocks.ts";
import { seal } from "./answer-key.ts";
import { ClassName, DataName } from "../page-contract/markup-names.ts";

type Scenario = Extract<Block, { type: "scenario" }>;
type Scene = Scenario["scenes"][number];

export function renderScenarioBlock(block: Scenario, context: LessonContext, inQuiz: boolean): SafeHtml {
  const titleId = context.ids.next("scenario-title", block.id);
  const anchors = new Map(block.scenes.map((scene) => [scene.id, context.ids.next(htmlId("scene", block.id), scene.id)]));
  const character = block.character
    ? html`<div class="${ClassName.scenarioCharacter}">${pictureHtml(block.character.image, context, ClassName.characterImage)}<p class="${ClassName.characterName}">${block.character.name}</p></div>`
    : "";
  const scenes = pathOrder(block).map((scene, index) => renderScene(block.id, scene, index + 1, anchors, context));
  const meta = inQuiz ? html`<p class="scenario-meta">${interactionText.scenarioPoints(block.points)}</p>` : "";
  return html`<section class="${ClassName.block} ${ClassName.scenario} ${ClassName.question}" data-${DataName.question} data-${DataName.scenario} data-${DataName.interactive} data-${DataName.questionId}="${block.id}" data-${DataName.questionType}="scenario" data-${DataName.grading}="self" data-${DataName.points}="${block.points}" data-${DataName.start}="${block.startSceneId}"${questionKeyAttributes(context, block.id, { parts: [], correctResponse: successPath(block) })} aria-labelledby="${titleId}">
<p class="${ClassName.scenarioEyebrow}">${interactionText.scenarioLabel}</p>
<h2 class="${ClassName.scenarioTitle}" id="${titleId}">${block.title}</h2>
${meta}${block.markdown ? html`<div class="scenario-setup">${markdownHtml(block.markdown)}</div>` : ""}${character}
<fieldset class="${ClassName.questionFieldset} scenario-fieldset"><legend class="${ClassName.visuallyHidden}">${block.title}</legend>
<ol class="${ClassName.scenarioScenes}" role="list">${scenes}</ol>
</fieldset>
<div class="${ClassName.scenarioStatus}" aria-live="polite" data-${DataName.scenarioStatus}></div>
<p class="${ClassName.verdict}" data-${DataName.verdict}></p>
<div class="${ClassName.scenarioActions}" data-${DataName.scenarioActions} hidden><button type="button" class="${ClassName.button}" data-${DataName.scenarioReplay}></button></div>
</section>`;
}

/** What an ending's outcome is sealed under: its own keystream, apart from the scenario's sealed success path. */
export function endingSealId(scenarioId: string, sceneId: string): string {
  return `${scenarioId}/${sceneId}`;
}

function renderScene(blockId: string, scene: Scene, number: number, anchors: ReadonlyMap<string, string>, context: LessonContext): SafeHtml {
  const anchor = anchors.get(scene.id) ?? "";
  const labelId = context.ids.next("scene-label");
  const ending = scene.ending
    ? html`<p class="${ClassName.sceneEnding}" data-${DataName.ending} data-${DataName.sealedOutcome}="${seal(context.secrets, endingSealId(blockId, scene.id), { o: scene.ending.outcome })}">${interactionText.endingLabel}</p>`
    : "";
  const choices = scene.choices
    ? html`<ul class="${ClassName.scenarioChoices}" role="list">${scene.choices.map(
        (choice) =>
          html`<li><a class="${ClassName.button} ${ClassName.scenarioChoice}" href="#${anchors.get(choice.next) ?? ""}" data-${DataName.next}="${choice.next}">${choice.text}</a>${
            choice.feedback ? html`<div class="${ClassName.choiceFeedback}" data-${DataName.choiceFeedback}>${markdownHtml(choice.feedback)}</div>` : ""
          }</li>`,
      )}</ul>`
    : "";
  return html`<li class="${ClassName.scenarioScene}" id="${anchor}" data-${DataName.scene}="${scene.id}" tabindex="-1" aria-labelledby="${labelId}">
<p class="${ClassName.sceneLabel}" id="${labelId}">${interactionText.sceneLabel(number)}</p>
${pictureHtml(scene.image, context, ClassName.sceneImage)}<div class="scene-text">${markdownHtml(scene.markdown)}</div>${choices}${ending}
</li>`;
}

/**
 * The scenes in the order a learner can reach them: breadth-first from the start scene along the
 * choices, so "Scene 2" is one step from the start, not the second scene the author happened to write;
 * scenes no choice leads to come last, in authoring order.
 */
export function pathOrder(block: Scenario): Scene[] {
  const scenes = new Map(block.scenes.map((scene) => [scene.id, scene]));
  const seen = new Set<string>();
  const ordered: Scene[] = [];
  const queue = [block.startSceneId];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const scene = scenes.get(id);
    if (!scene || seen.has(id)) continue;
    seen.add(id);
    ordered.push(scene);
    queue.push(...(scene.choices ?? []).map((choice) => choice.next));
  }
  return [...ordered, ...block.scenes.filter((scene) => !seen.has(scene.id))];
}

/** The shortest path of scene ids from the start to a success ending (empty when there is none): sealed in the page, reported to the LMS as the correct pattern once answered. */
export function successPath(block: Scenario): string[] {
  const scenes = new Map(block.scenes.map((scene) => [scene.id, scene]));
  const previous = new Map<string, string | null>([[block.startSceneId, null]]);
  const queue = [block.startSceneId];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const scene = scenes.get(id);
    if (scene?.ending?.outcome === "success") {
      const path: string[] = [];
      for (let step: string | null | undefined = id; step; step = previous.get(step)) path.unshift(step);
      return path;
    }
    for (const choice of scene?.choices ?? []) {
      if (!previous.has(choice.next)) {
        previous.set(choice.next, id);
        queue.push(choice.next);
      }
    }
  }
  return [];
}
