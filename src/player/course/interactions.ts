/**
 * In-page behaviour of the teaching blocks: labeled
 * graphic markers, process steps, the branching scenario, sorting by drag and drop (kept in step with
 * each item's category picker), and continue gates. Each block is rendered complete for no script and
 * print; this script enhances it into the one-at-a-time widget.
 */
import { all, around, data, fill, has, hook, listAll, make, on, one, setInHook, textInHook } from "./dom.ts";
import type { InteractionRuntimeText } from "../../page-contract/text.ts";
import type { AnswerChecker } from "./answer-checker.ts";
import type { QuizRecorder } from "../../page-contract/course-runtime.ts";
import { ClassName, DataName } from "../../page-contract/markup-names.ts";
import { showControlled } from "./widgets.ts";

/** The elements under `root` (none without a root) that the `data-` hook `name` marks. */
function hooked(root: ParentNode | null | undefined, name: string): HTMLElement[] {
  return root ? listAll<HTMLElement>(root, hook(name)) : [];
}

/** What opens a scenario ending's sealed outcome (null on a page without a scenario). */
export interface InteractionSeals {
  readonly checker: Pick<AnswerChecker, "open">;
  readonly sealKey: string;
}

export function installInteractions(recorder: Pick<QuizRecorder, "announceQuestionAnswer">, text: InteractionRuntimeText, seals: InteractionSeals | null): void {
  // Focuses a step's title, a scene or the first block a gate reveals. None of them is a link or a form
  // control (the renderer writes blocks as div, section, figure, ul, hr or a heading), so one without a
  // tabindex gets -1 to take the focus.
  function focusInto(element: HTMLElement | null | undefined): void {
    if (!element) return;
    if (!has(element, "tabindex")) element.tabIndex = -1;
    element.focus();
  }

  const isLocked = (block: HTMLElement): boolean => one<HTMLFieldSetElement>(block, "fieldset")?.disabled === true;

  /* ---------- labeled graphic ---------- */

  function setUpGraphic(graphic: HTMLElement): void {
    for (const button of hooked(graphic, DataName.marker)) {
      button.style.left = `${Number(data(button).x ?? 0)}%`;
      button.style.top = `${Number(data(button).y ?? 0)}%`;
    }
    for (const item of hooked(graphic, DataName.markerItem)) item.hidden = true;
  }

  function openMarker(button: HTMLElement): void {
    const graphic = around<HTMLElement>(button, hook(DataName.labeledGraphic));
    if (!graphic) return;
    const opening = button.getAttribute("aria-expanded") !== "true";
    const markers = hooked(graphic, DataName.marker);
    for (const other of markers) showControlled(other, "aria-expanded", other === button && opening);
    if (!button.classList.contains(ClassName.isVisited)) {
      button.classList.add(ClassName.isVisited);
      const label = one(button, `.${ClassName.visuallyHidden}`);
      if (label) label.textContent = `${label.textContent ?? ""} ${text.visited}`;
    }
    if (all(graphic, `[data-${DataName.marker}].${ClassName.isVisited}`).length === markers.length) data(graphic)[DataName.complete] = "true";
  }

  /* ---------- process ---------- */

  function showStep(process: HTMLElement, index: number, moveFocus: boolean): void {
    const steps = hooked(process, DataName.step);
    const current = Math.max(0, Math.min(index, steps.length - 1));
    const last = current === steps.length - 1;
    steps.forEach((step, position) => (step.hidden = position !== current));
    data(process)[DataName.currentStep] = String(current);
    const previous = setInHook<HTMLButtonElement, "disabled">(process, DataName.stepPrevious, "disabled", current === 0);
    const next = setInHook<HTMLButtonElement, "disabled">(process, DataName.stepNext, "disabled", last);
    textInHook(process, DataName.stepStatus, fill(text.stepStatus, { number: current + 1, count: steps.length }));
    if (last) data(process)[DataName.complete] = "true";
    if (moveFocus) {
      // Focus follows the step only while the button that moved it is gone; otherwise the button keeps it.
      const pressed = current === 0 ? next : last ? previous : null;
      if (pressed) pressed.focus();
      else focusInto(one<HTMLElement>(steps[current], `.${ClassName.stepTitle}`));
    }
  }

  function setUpProcess(process: HTMLElement): void {
    setInHook(process, DataName.processControls, "hidden", false);
    showStep(process, 0, false);
  }

  /* ---------- scenario ---------- */

  const paths = new Map<HTMLElement, string[]>();

  function showScene(scenario: HTMLElement, id: string, moveFocus: boolean): void {
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
  function openEnding(scenario: HTMLElement, scene: HTMLElement, ending: HTMLElement): string {
    const shown = data(ending)[DataName.ending];
    if (shown) return shown;
    const opened = seals?.checker.open(seals.sealKey, `${data(scenario)[DataName.questionId] ?? ""}/${data(scene)[DataName.scene] ?? ""}`, data(ending)[DataName.sealedOutcome] ?? "");
    const found = opened && typeof opened === "object" ? (opened as { o?: unknown }).o : undefined;
    const outcome = typeof found === "string" && found in text.outcomes ? found : "neutral";
    data(ending)[DataName.ending] = outcome;
    ending.textContent = text.outcomes[outcome] ?? outcome;
    return outcome;
  }

  function startScenario(scenario: HTMLElement, moveFocus: boolean): void {
    const start = data(scenario)[DataName.start] ?? "";
    paths.set(scenario, [start]);
    textInHook(scenario, DataName.scenarioStatus, "");
    showScene(scenario, start, moveFocus);
  }

  function setUpScenario(scenario: HTMLElement): void {
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
  function choose(button: HTMLElement, scenario: HTMLElement): void {
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

  function finishScenario(scenario: HTMLElement, outcome: string): void {
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

  function resetScenario(scenario: HTMLElement): void {
    for (const key of [DataName.answered, DataName.fraction, DataName.response, DataName.outcome, DataName.complete]) delete data(scenario)[key];
    startScenario(scenario, false);
  }

  /* ---------- sorting ---------- */

  function placeItem(item: HTMLElement, moveFocus: boolean): void {
    const select = one<HTMLSelectElement>(item, "select");
    const sorting = around<HTMLElement>(item, hook(DataName.sorting));
    if (!select || !sorting) return;
    const zone = hooked(sorting, DataName.sortCategory).find((candidate) => data(candidate)[DataName.sortCategory] === select.value);
    const bin = one<HTMLElement>(zone, hook(DataName.sortBin));
    if (!bin || item.parentElement === bin) return;
    bin.append(item);
    if (moveFocus) select.focus();
    const status = one<HTMLElement>(sorting.parentElement, hook(DataName.sortStatus));
    const category = one(zone, `.${ClassName.sortingCategoryTitle}`)?.textContent ?? zone?.getAttribute("aria-label") ?? "";
    if (status) status.textContent = fill(text.movedTo, { item: one(item, "label")?.textContent ?? "", category });
  }

  function setUpSorting(sorting: HTMLElement): void {
    setInHook(sorting, DataName.sortCategories, "hidden", false);
    for (const item of hooked(sorting, DataName.sortItem)) placeItem(item, false);
  }

  /** The sorting item around `target`, when its sorting is enhanced. */
  function enhancedSortItem(target: EventTarget | null): HTMLElement | null {
    const item = around<HTMLElement>(target, hook(DataName.sortItem));
    return item && around(item, `.${ClassName.isEnhanced}`) ? item : null;
  }

  let dragged: HTMLElement | null = null;

  /** The category under a drag event's target, when it is in the sorting the dragged item belongs to. */
  function dropZone(event: DragEvent): HTMLElement | null {
    const zone = around<HTMLElement>(event.target, hook(DataName.sortCategory));
    return zone && dragged && around(zone, hook(DataName.sorting)) === around(dragged, hook(DataName.sorting)) ? zone : null;
  }

  on("dragstart", (event) => {
    const item = enhancedSortItem(event.target);
    if (!item || isLocked(around<HTMLElement>(item, hook(DataName.question)) ?? item)) return;
    dragged = item;
    item.classList.add(ClassName.isDragging);
    const transfer = event.dataTransfer;
    if (transfer) {
      transfer.setData("text/plain", one(item, "label")?.textContent ?? "");
      transfer.effectAllowed = "move";
    }
  });
  on("dragend", () => {
    dragged?.classList.remove(ClassName.isDragging);
    dragged = null;
  });
  on("dragover", (event) => {
    if (dropZone(event)) event.preventDefault();
  });
  on("drop", (event) => {
    const zone = dropZone(event);
    const select = one<HTMLSelectElement>(dragged, "select");
    if (!zone || !dragged || !select) return;
    event.preventDefault();
    select.value = data(zone)[DataName.sortCategory] ?? "";
    placeItem(dragged, false);
    updateGates();
  });

  /* ---------- continue ---------- */

  function isComplete(block: HTMLElement): boolean {
    if (data(block)[DataName.complete] === "true") return true;
    if (has(block, `data-${DataName.question}`)) return ["correct", "incorrect", "partial"].includes(data(block)[DataName.state] ?? "") || isLocked(block);
    return false;
  }

  /** Blocks after a gate up to the pager, which stays; with `toNextGate`, only up to and including the next gate. */
  function gatedAfter(gate: HTMLElement, toNextGate: boolean): HTMLElement[] {
    const found: HTMLElement[] = [];
    for (let next = gate.nextElementSibling; next instanceof HTMLElement; next = next.nextElementSibling) {
      if (next.classList.contains(ClassName.pager)) break;
      found.push(next);
      if (toNextGate && has(next, `data-${DataName.continue}`)) break;
    }
    return found;
  }

  function setUpGate(gate: HTMLElement): void {
    gate.hidden = false;
    for (const block of gatedAfter(gate, false)) {
      block.hidden = true;
      data(block)[DataName.gated] = "true";
    }
  }

  function gateOpen(gate: HTMLElement): boolean {
    if (data(gate)[DataName.requireCompletion] !== "true") return true;
    // Every question and interactive block above the gate must be complete.
    for (let block = gate.previousElementSibling; block instanceof HTMLElement; block = block.previousElementSibling) {
      if ((has(block, `data-${DataName.question}`) || has(block, `data-${DataName.interactive}`)) && !isComplete(block)) return false;
    }
    return true;
  }

  function updateGates(): void {
    for (const gate of hooked(document, DataName.continue)) {
      const button = one<HTMLElement>(gate, hook(DataName.continueButton));
      const open = gateOpen(gate);
      button?.setAttribute("aria-disabled", String(!open));
      setInHook(gate, DataName.continueHint, "hidden", open);
    }
  }

  function pass(gate: HTMLElement): void {
    if (!gateOpen(gate)) {
      one<HTMLElement>(gate, hook(DataName.continueHint))?.setAttribute("role", "alert");
      return;
    }
    const revealed = gatedAfter(gate, true);
    for (const block of revealed) {
      block.hidden = false;
      delete data(block)[DataName.gated];
    }
    gate.hidden = true;
    focusInto(revealed[0]);
    updateGates();
  }

  /* ---------- wiring ---------- */

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
