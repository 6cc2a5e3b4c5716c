/**
 * The branching scenario: scene by scene, each choice said back, the path kept, the ending's sealed
 * outcome opened and reported as the scenario's answer.
 */
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { all, around, data, fill, hook, make, one, setInHook, textInHook } from "../dom.ts";
import { focusInto, hooked, isLocked } from "./blocks.ts";
import { recorder, seals, text } from "./session.ts";

export const paths = new Map<HTMLElement, string[]>();

export function showScene(scenario: HTMLElement, id: string, moveFocus: boolean): void {
  const scenes = hooked(scenario, DataName.scene);
  for (const scene of scenes) scene.hidden = data(scene)[DataName.scene] !== id;
  // The first scene with that id: the one just shown.
  const scene = scenes.find((candidate) => !candidate.hidden) ?? null;
  const ending = one<HTMLElement>(scene, hook(DataName.ending));
  setInHook(scenario, DataName.scenarioActions, "hidden", !ending || isLocked(scenario));
  if (ending) finishScenario(scenario, openEnding(scenario, scene as HTMLElement, ending));
  if (moveFocus) focusInto(scene);
}

/** Opens the outcome sealed on the ending reached (issue 21), and shows it on the ending from then on. */
export function openEnding(scenario: HTMLElement, scene: HTMLElement, ending: HTMLElement): string {
  const shown = data(ending)[DataName.ending];
  if (shown) return shown;
  const opened = seals?.checker.open(seals.sealKey, `${data(scenario)[DataName.questionId] ?? ""}/${data(scene)[DataName.scene] ?? ""}`, data(ending)[DataName.sealedOutcome] ?? "");
  const found = opened && typeof opened === "object" ? (opened as { o?: unknown }).o : undefined;
  const outcome = typeof found === "string" && found in text.outcomes ? found : "neutral";
  data(ending)[DataName.ending] = outcome;
  ending.textContent = text.outcomes[outcome] ?? outcome;
  return outcome;
}

export function startScenario(scenario: HTMLElement, moveFocus: boolean): void {
  const start = data(scenario)[DataName.start] ?? "";
  paths.set(scenario, [start]);
  textInHook(scenario, DataName.scenarioStatus, "");
  showScene(scenario, start, moveFocus);
}

export function setUpScenario(scenario: HTMLElement): void {
  for (const link of all<HTMLAnchorElement>(scenario, `a[data-${DataName.next}]`)) {
    const button = make("button", link.className, link.textContent ?? "");
    button.type = "button";
    data(button)[DataName.next] = data(link)[DataName.next] ?? "";
    link.replaceWith(button);
  }
  for (const feedback of hooked(scenario, DataName.choiceFeedback)) feedback.hidden = true;
  textInHook(scenario, DataName.scenarioReplay, text.playAgain);
  startScenario(scenario, false);
}

/** Follows a choice in a scenario that is not locked (the click handler checks that). */
export function choose(button: HTMLElement, scenario: HTMLElement): void {
  const next = data(button)[DataName.next] ?? "";
  paths.set(scenario, [...(paths.get(scenario) ?? []), next]);
  const status = one<HTMLElement>(scenario, hook(DataName.scenarioStatus));
  if (status) {
    const said = make("p", ClassName.scenarioChosen, fill(text.youChose, { choice: button.textContent ?? "" }));
    const feedback = one<HTMLElement>(button.parentElement, hook(DataName.choiceFeedback));
    status.replaceChildren(said, ...(feedback ? [Object.assign(feedback.cloneNode(true) as HTMLElement, { hidden: false })] : []));
  }
  showScene(scenario, next, true);
}

export function finishScenario(scenario: HTMLElement, outcome: string): void {
  const path = paths.get(scenario) ?? [];
  const correct = outcome === "success";
  Object.assign(data(scenario), { [DataName.answered]: "true", [DataName.fraction]: correct ? "1" : "0", [DataName.response]: path.join(" "), [DataName.outcome]: outcome, [DataName.complete]: "true" });
  const status = one<HTMLElement>(scenario, hook(DataName.scenarioStatus));
  status?.append(make("p", ClassName.scenarioEnded, fill(text.scenarioEnded, { outcome: text.outcomes[outcome] ?? outcome })));
  const lesson = around<HTMLElement>(scenario, hook(DataName.lessonId));
  if (data(lesson)?.[DataName.lessonKind] === "quiz") return;
  recorder.announceQuestionAnswer({
    lessonId: data(lesson)?.[DataName.lessonId] ?? "",
    questionId: data(scenario)[DataName.questionId] ?? "",
    questionType: "scenario",
    scoreFraction: correct ? 1 : 0,
    correct,
    response: path,
    // A knowledge check outside a quiz reports no correct pattern: the success path stays sealed in the page.
    correctResponse: [],
    otherCorrectResponses: [],
    graded: false,
  });
}

export function resetScenario(scenario: HTMLElement): void {
  for (const key of [DataName.answered, DataName.fraction, DataName.response, DataName.outcome, DataName.complete]) delete data(scenario)[key];
  startScenario(scenario, false);
}
