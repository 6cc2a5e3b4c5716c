/**
 * The branching scenario: scenes joined by choices, played from `startSceneId` until an ending. The
 * graph is checked here so a scenario that strands the learner is never stored: every `next` names a
 * scene, every scene is reachable, every reachable scene can still reach an ending. Each problem is an
 * issue on the exact path (`scenes[4].choices[1].next`), which the tool error prefixes with the block's.
 */
import * as v from "valibot";
import { markdownField, requiredTextField, titleField } from "./fields.ts";
import { pictureSchema } from "./picture.ts";
import { questionEntries } from "./question-blocks.ts";

export const sceneIdPattern = /^[a-z0-9_-]{1,40}$/;
const sceneIdField = v.pipe(v.string(), v.regex(sceneIdPattern, "must be a scene id: 1-40 of a-z 0-9 _ -"));

export const scenarioOutcomes = ["success", "failure", "neutral"] as const;

const sceneSchema = v.object({
  id: v.pipe(sceneIdField, v.description("Your slug for this scene, unique in the block; choices name it in next.")),
  markdown: markdownField(),
  image: v.optional(pictureSchema),
  choices: v.optional(
    v.pipe(
      v.array(v.object({ text: requiredTextField(500), feedback: v.optional(markdownField()), next: sceneIdField })),
      v.minLength(1, "must have at least 1 choice"),
      v.maxLength(6, "must have at most 6 choices"),
    ),
  ),
  ending: v.optional(v.object({ outcome: v.picklist(scenarioOutcomes, `must be one of ${scenarioOutcomes.join(", ")}`) })),
});

const scenarioFields = v.object({
  type: v.literal("scenario"),
  title: titleField(),
  markdown: v.optional(v.pipe(markdownField(), v.description("The set-up, shown before the first scene."))),
  character: v.optional(v.object({ name: requiredTextField(100), image: v.optional(pictureSchema) })),
  startSceneId: sceneIdField,
  scenes: v.pipe(v.array(sceneSchema), v.minLength(2, "must have at least 2 scenes"), v.maxLength(50, "must have at most 50 scenes")),
  points: questionEntries.points,
  objectiveIds: questionEntries.objectiveIds,
});
export type ScenarioFields = v.InferOutput<typeof scenarioFields>;

export interface GraphProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Every way the scenes fail to form a playable story, each on the path an author must fix. */
export function scenarioProblems(scenario: Pick<ScenarioFields, "startSceneId" | "scenes">): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const index = new Map<string, number>();
  scenario.scenes.forEach((scene, position) => {
    if (index.has(scene.id)) problems.push({ path: ["scenes", position, "id"], message: `duplicate scene id "${scene.id}"; each scene needs its own` });
    else index.set(scene.id, position);
  });
  const known = `scene ids are ${[...index.keys()].join(", ")}`;
  scenario.scenes.forEach((scene, position) => {
    if (scene.choices && scene.ending) problems.push({ path: ["scenes", position], message: "a scene has choices or an ending, never both" });
    if (!scene.choices && !scene.ending) problems.push({ path: ["scenes", position], message: "needs choices (to go on) or an ending (to finish)" });
    scene.choices?.forEach((choice, choiceIndex) => {
      if (!index.has(choice.next)) problems.push({ path: ["scenes", position, "choices", choiceIndex, "next"], message: `no scene "${choice.next}"; ${known}` });
    });
  });
  if (!index.has(scenario.startSceneId)) {
    problems.push({ path: ["startSceneId"], message: `no scene "${scenario.startSceneId}"; ${known}` });
    return problems;
  }
  if (!scenario.scenes.some((scene) => scene.ending)) {
    problems.push({ path: ["scenes"], message: "no scene has an ending; give at least one scene ending: {outcome: success|failure|neutral}" });
    return problems;
  }
  const reachable = reachableFrom(scenario, index);
  const finishing = canFinish(scenario, index);
  scenario.scenes.forEach((scene, position) => {
    if (index.get(scene.id) !== position) return;
    if (!reachable.has(scene.id)) {
      problems.push({ path: ["scenes", position], message: `scene "${scene.id}" cannot be reached from startSceneId "${scenario.startSceneId}"; point a choice's next at it or remove it` });
    } else if (!finishing.has(scene.id)) {
      problems.push({ path: ["scenes", position], message: `from scene "${scene.id}" no ending can be reached; lead one of its choices towards a scene with an ending` });
    }
  });
  return problems;
}

function nextIds(scene: ScenarioFields["scenes"][number]): string[] {
  return scene.choices?.map((choice) => choice.next) ?? [];
}

function reachableFrom(scenario: Pick<ScenarioFields, "startSceneId" | "scenes">, index: ReadonlyMap<string, number>): Set<string> {
  const seen = new Set([scenario.startSceneId]);
  const queue = [scenario.startSceneId];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const scene = scenario.scenes[index.get(id) ?? -1];
    for (const next of scene ? nextIds(scene) : []) {
      if (index.has(next) && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

/** Scenes from which some ending is reachable: endings, then repeatedly every scene with a choice into the set. */
function canFinish(scenario: Pick<ScenarioFields, "scenes">, index: ReadonlyMap<string, number>): Set<string> {
  const finishing = new Set(scenario.scenes.filter((scene) => scene.ending).map((scene) => scene.id));
  for (let grew = true; grew; ) {
    grew = false;
    for (const scene of scenario.scenes) {
      if (!finishing.has(scene.id) && nextIds(scene).some((next) => finishing.has(next) && index.has(next))) {
        finishing.add(scene.id);
        grew = true;
      }
    }
  }
  return finishing;
}

export const scenarioBlock = v.pipe(
  scenarioFields,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const problem of scenarioProblems(dataset.value)) {
      addIssue({
        message: problem.message,
        path: problem.path.map((key) => ({ type: "object", origin: "value", input: dataset.value, key, value: undefined }) as unknown as v.IssuePathItem) as [
          v.IssuePathItem,
          ...v.IssuePathItem[],
        ],
      });
    }
  }),
);
