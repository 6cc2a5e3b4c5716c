/**
 * In-page behaviour of the teaching blocks: labeled
 * graphic markers, process steps, the branching scenario, sorting by drag and drop (kept in step with
 * each item's category picker), and continue gates. Each block is rendered complete for no script and
 * print; this script enhances it into the one-at-a-time widget. Each block's behaviour is its own module
 * beside this one; this one sets them up and routes the page's events to them.
 */
import type { QuizRecorder } from "../../../page-contract/course-runtime.ts";
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import type { InteractionRuntimeText } from "../../../page-contract/text.ts";
import { around, data, has, hook, on } from "../dom.ts";
import { hooked, isLocked } from "./blocks.ts";
import { pass, setUpGate, updateGates } from "./gates.ts";
import { openMarker, setUpGraphic } from "./labeled-graphic.ts";
import { setUpProcess, showStep } from "./process.ts";
import { choose, resetScenario, setUpScenario, startScenario } from "./scenario.ts";
import { enhancedSortItem, installSortingDrag, placeItem, setUpSorting } from "./sorting.ts";
import { startInteractionSession, type InteractionSeals } from "./session.ts";

export type { InteractionSeals };

export function installInteractions(recorder: Pick<QuizRecorder, "announceQuestionAnswer">, text: InteractionRuntimeText, seals: InteractionSeals | null): void {
  startInteractionSession(recorder, text, seals);
  installSortingDrag();

  /** Marks each block the `data-` hook `name` finds as enhanced, then sets it up. */
  function enhanceAll(name: string, setUp: (block: HTMLElement) => void): void {
    for (const block of hooked(document, name)) {
      block.classList.add(ClassName.isEnhanced);
      setUp(block);
    }
  }

  enhanceAll(DataName.labeledGraphic, setUpGraphic);
  enhanceAll(DataName.process, setUpProcess);
  enhanceAll(DataName.scenario, setUpScenario);
  enhanceAll(DataName.sorting, setUpSorting);
  for (const gate of hooked(document, DataName.continue)) setUpGate(gate);
  updateGates();

  on("click", (event) => {
    const button = around<HTMLElement>(event.target, "button");
    if (!button) return;
    const step = has(button, `data-${DataName.stepNext}`) ? 1 : has(button, `data-${DataName.stepPrevious}`) ? -1 : 0;
    const scenario = around<HTMLElement>(button, hook(DataName.scenario));
    // A locked scenario (its quiz submitted) takes no more choices or replays.
    const playable = scenario && !isLocked(scenario) ? scenario : null;
    if (has(button, `data-${DataName.marker}`)) openMarker(button);
    else if (step) {
      const process = around<HTMLElement>(button, hook(DataName.process));
      if (process) showStep(process, Number(data(process)[DataName.currentStep] ?? 0) + step, true);
    } else if (data(button)[DataName.next] !== undefined && playable) choose(button, playable);
    else if (has(button, `data-${DataName.scenarioReplay}`) && playable) startScenario(playable, true);
    else if (has(button, `data-${DataName.continueButton}`)) {
      const gate = around<HTMLElement>(button, hook(DataName.continue));
      if (gate) pass(gate);
      return;
    } else if (has(button, `data-${DataName.retryQuiz}`)) {
      const lesson = around<HTMLElement>(button, hook(DataName.lessonId));
      for (const scenario of hooked(lesson, DataName.scenario)) resetScenario(scenario);
      for (const item of hooked(lesson, DataName.sortItem)) placeItem(item, false);
    } else if (has(button, `data-${DataName.submitQuiz}`)) {
      for (const actions of hooked(around(button, hook(DataName.lessonId)), DataName.scenarioActions)) actions.hidden = true;
    }
    updateGates();
  });

  // Keyboard sorting without jumps: arrows on a focused picker only choose the place (item and focus
  // stay); the item moves to its category when the learner confirms by moving on (Tab to the next item).
  const sortItemOf = (target: EventTarget | null): HTMLElement | null => (target instanceof HTMLSelectElement ? enhancedSortItem(target) : null);
  on("change", (event) => {
    const item = sortItemOf(event.target);
    if (item && document.activeElement !== event.target) placeItem(item, false);
    updateGates();
  });
  on("focusout", (event) => {
    const item = sortItemOf(event.target);
    if (item) placeItem(item, false);
  });
}

