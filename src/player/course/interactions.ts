/**
 * In-page behaviour of the teaching blocks: labeled
 * graphic markers, process steps, the branching scenario, sorting by drag and drop (kept in step with
 * each item's category picker), and continue gates. Each block is rendered complete for no script and
 * print; this script enhances it into the one-at-a-time widget.
 */
import { all, around, fill, has, listAll, make, on, one, setIn } from "./dom.ts";
import type { InteractionRuntimeText } from "../../render/interaction-text.ts";
import type { AnswerChecker } from "./answer-checker.ts";
import type { QuizRecorder } from "../contract.ts";

/** What opens a scenario ending's sealed outcome (null on a page without a scenario). */
export interface InteractionSeals {
  readonly checker: Pick<AnswerChecker, "open">;
  readonly sealKey: string;
}

export function installInteractions(recorder: Pick<QuizRecorder, "announceQuestionAnswer">, text: InteractionRuntimeText, seals: InteractionSeals | null): void {
  function focusInto(element: HTMLElement | null | undefined): void {
    if (!element) return;
    if (!has(element, "tabindex") && !/^(A|BUTTON|INPUT|SELECT|TEXTAREA)$/.test(element.tagName)) element.setAttribute("tabindex", "-1");
    element.focus();
  }

  const isLocked = (block: HTMLElement): boolean => one<HTMLFieldSetElement>(block, "fieldset")?.disabled === true;

  /* ---------- labeled graphic ---------- */

  function setUpGraphic(graphic: HTMLElement): void {
    graphic.classList.add("is-enhanced");
    for (const button of all<HTMLElement>(graphic, "[data-marker]")) {
      button.style.left = `${Number(button.dataset.x ?? 0)}%`;
      button.style.top = `${Number(button.dataset.y ?? 0)}%`;
    }
    for (const item of all<HTMLElement>(graphic, "[data-marker-item]")) item.hidden = true;
  }

  function openMarker(button: HTMLElement): void {
    const graphic = button.closest<HTMLElement>("[data-labeled-graphic]");
    if (!graphic) return;
    const opening = button.getAttribute("aria-expanded") !== "true";
    for (const other of all<HTMLElement>(graphic, "[data-marker]")) {
      const open = other === button && opening;
      other.setAttribute("aria-expanded", String(open));
      const item = document.getElementById(other.getAttribute("aria-controls") ?? "");
      if (item) item.hidden = !open;
    }
    if (!button.classList.contains("is-visited")) {
      button.classList.add("is-visited");
      const label = one(button, ".visually-hidden");
      if (label) label.textContent = `${label.textContent ?? ""} ${text.visited}`;
    }
    const markers = all(graphic, "[data-marker]");
    if (all(graphic, "[data-marker].is-visited").length === markers.length) graphic.dataset.complete = "true";
  }

  /* ---------- process ---------- */

  function showStep(process: HTMLElement, index: number, moveFocus: boolean): void {
    const steps = listAll<HTMLElement>(process, "[data-step]");
    const current = Math.max(0, Math.min(index, steps.length - 1));
    steps.forEach((step, position) => (step.hidden = position !== current));
    process.dataset.currentStep = String(current);
    const previous = setIn<HTMLButtonElement, "disabled">(process, "[data-step-previous]", "disabled", current === 0);
    const next = setIn<HTMLButtonElement, "disabled">(process, "[data-step-next]", "disabled", current === steps.length - 1);
    setIn(process, "[data-step-status]", "textContent", fill(text.stepStatus, { number: current + 1, count: steps.length }));
    if (current === steps.length - 1) process.dataset.complete = "true";
    if (moveFocus) {
      // Focus follows the step only while the button that moved it is gone; otherwise the button keeps it.
      const pressed = current === 0 ? next : current === steps.length - 1 ? previous : null;
      if (pressed) pressed.focus();
      else focusInto(steps[current]?.querySelector<HTMLElement>(".step-title"));
    }
  }

  function setUpProcess(process: HTMLElement): void {
    process.classList.add("is-enhanced");
    setIn(process, "[data-process-controls]", "hidden", false);
    showStep(process, 0, false);
  }

  /* ---------- scenario ---------- */

  const paths = new Map<HTMLElement, string[]>();

  function sceneOf(scenario: HTMLElement, id: string): HTMLElement | null {
    return listAll<HTMLElement>(scenario, "[data-scene]").find((scene) => scene.dataset.scene === id) ?? null;
  }

  function showScene(scenario: HTMLElement, id: string, moveFocus: boolean): void {
    for (const scene of all<HTMLElement>(scenario, "[data-scene]")) scene.hidden = scene.dataset.scene !== id;
    const scene = sceneOf(scenario, id);
    const ending = scene?.querySelector<HTMLElement>("[data-ending]");
    setIn(scenario, "[data-scenario-actions]", "hidden", !ending || isLocked(scenario));
    if (ending) finishScenario(scenario, openEnding(scenario, scene as HTMLElement, ending));
    if (moveFocus) focusInto(scene);
  }

  /** Opens the outcome sealed on the ending reached (issue 21), and shows it on the ending from then on. */
  function openEnding(scenario: HTMLElement, scene: HTMLElement, ending: HTMLElement): string {
    if (ending.dataset.ending) return ending.dataset.ending;
    const opened = seals?.checker.open(seals.sealKey, `${scenario.dataset.questionId ?? ""}/${scene.dataset.scene ?? ""}`, ending.dataset.sealedOutcome ?? "");
    const found = opened && typeof opened === "object" ? (opened as { o?: unknown }).o : undefined;
    const outcome = typeof found === "string" && found in text.outcomes ? found : "neutral";
    ending.dataset.ending = outcome;
    ending.textContent = text.outcomes[outcome] ?? outcome;
    return outcome;
  }

  function startScenario(scenario: HTMLElement, moveFocus: boolean): void {
    const start = scenario.dataset.start ?? "";
    paths.set(scenario, [start]);
    setIn(scenario, "[data-scenario-status]", "textContent", "");
    showScene(scenario, start, moveFocus);
  }

  function setUpScenario(scenario: HTMLElement): void {
    scenario.classList.add("is-enhanced");
    for (const link of all<HTMLAnchorElement>(scenario, "a[data-next]")) {
      const button = make("button", link.className, link.textContent ?? "");
      button.type = "button";
      button.dataset.next = link.dataset.next ?? "";
      link.replaceWith(button);
    }
    for (const feedback of all<HTMLElement>(scenario, "[data-choice-feedback]")) feedback.hidden = true;
    setIn(scenario, "[data-scenario-replay]", "textContent", text.playAgain);
    startScenario(scenario, false);
  }

  function choose(button: HTMLElement): void {
    const scenario = button.closest<HTMLElement>("[data-scenario]");
    if (!scenario || isLocked(scenario)) return;
    const next = button.dataset.next ?? "";
    paths.set(scenario, [...(paths.get(scenario) ?? []), next]);
    const status = one<HTMLElement>(scenario, "[data-scenario-status]");
    if (status) {
      const said = make("p", "scenario-chosen", fill(text.youChose, { choice: button.textContent ?? "" }));
      const feedback = button.parentElement?.querySelector<HTMLElement>("[data-choice-feedback]");
      status.replaceChildren(said, ...(feedback ? [Object.assign(feedback.cloneNode(true) as HTMLElement, { hidden: false })] : []));
    }
    showScene(scenario, next, true);
  }

  function finishScenario(scenario: HTMLElement, outcome: string): void {
    const path = paths.get(scenario) ?? [];
    const correct = outcome === "success";
    Object.assign(scenario.dataset, { answered: "true", fraction: correct ? "1" : "0", response: path.join(" "), outcome, complete: "true" });
    const status = one<HTMLElement>(scenario, "[data-scenario-status]");
    status?.append(make("p", "scenario-ended", fill(text.scenarioEnded, { outcome: text.outcomes[outcome] ?? outcome })));
    const lesson = scenario.closest<HTMLElement>("[data-lesson-id]");
    if (lesson?.dataset.lessonKind === "quiz") return;
    recorder.announceQuestionAnswer({
      lessonId: lesson?.dataset.lessonId ?? "",
      questionId: scenario.dataset.questionId ?? "",
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
    for (const key of ["answered", "fraction", "response", "outcome", "complete"]) delete scenario.dataset[key];
    startScenario(scenario, false);
  }

  /* ---------- sorting ---------- */

  function placeItem(item: HTMLElement, moveFocus: boolean): void {
    const select = one<HTMLSelectElement>(item, "select");
    const sorting = item.closest<HTMLElement>("[data-sorting]");
    if (!select || !sorting) return;
    const zone = listAll<HTMLElement>(sorting, "[data-sort-category]").find((candidate) => candidate.dataset.sortCategory === select.value);
    const bin = zone?.querySelector<HTMLElement>("[data-sort-bin]");
    if (!bin || item.parentElement === bin) return;
    bin.append(item);
    if (moveFocus) select.focus();
    const status = sorting.parentElement?.querySelector<HTMLElement>("[data-sort-status]");
    const category = zone?.querySelector(".sorting-category-title")?.textContent ?? zone?.getAttribute("aria-label") ?? "";
    if (status) status.textContent = fill(text.movedTo, { item: one(item, "label")?.textContent ?? "", category });
  }

  function setUpSorting(sorting: HTMLElement): void {
    sorting.classList.add("is-enhanced");
    setIn(sorting, "[data-sort-categories]", "hidden", false);
    for (const item of all<HTMLElement>(sorting, "[data-sort-item]")) placeItem(item, false);
  }

  let dragged: HTMLElement | null = null;

  on("dragstart", (event) => {
    const item = around<HTMLElement>(event.target, "[data-sort-item]");
    if (!item || !item.closest(".is-enhanced") || isLocked(item.closest<HTMLElement>("[data-question]") ?? item)) return;
    dragged = item;
    item.classList.add("is-dragging");
    event.dataTransfer?.setData("text/plain", one(item, "label")?.textContent ?? "");
    if (event.dataTransfer) event.dataTransfer.effectAllowed = "move";
  });
  on("dragend", () => {
    dragged?.classList.remove("is-dragging");
    dragged = null;
  });
  on("dragover", (event) => {
    const zone = around<HTMLElement>(event.target, "[data-sort-category]");
    if (zone && dragged && zone.closest("[data-sorting]") === dragged.closest("[data-sorting]")) event.preventDefault();
  });
  on("drop", (event) => {
    const zone = around<HTMLElement>(event.target, "[data-sort-category]");
    const select = dragged?.querySelector<HTMLSelectElement>("select");
    if (!zone || !dragged || !select || zone.closest("[data-sorting]") !== dragged.closest("[data-sorting]")) return;
    event.preventDefault();
    select.value = zone.dataset.sortCategory ?? "";
    placeItem(dragged, false);
    updateGates();
  });

  /* ---------- continue ---------- */

  function isComplete(block: HTMLElement): boolean {
    if (block.dataset.complete === "true") return true;
    if (has(block, "data-question")) return ["correct", "incorrect", "partial"].includes(block.dataset.state ?? "") || isLocked(block);
    return false;
  }

  /** Blocks after a gate up to and including the next gate; the pager stays. */
  function gatedAfter(gate: HTMLElement): HTMLElement[] {
    const found: HTMLElement[] = [];
    for (let next = gate.nextElementSibling; next instanceof HTMLElement; next = next.nextElementSibling) {
      if (next.classList.contains("pager")) break;
      found.push(next);
      if (has(next, "data-continue")) break;
    }
    return found;
  }

  function setUpGate(gate: HTMLElement): void {
    gate.hidden = false;
    for (let next = gate.nextElementSibling; next instanceof HTMLElement; next = next.nextElementSibling) {
      if (next.classList.contains("pager")) break;
      next.hidden = true;
      next.dataset.gated = "true";
    }
  }

  function gateOpen(gate: HTMLElement): boolean {
    if (gate.dataset.requireCompletion !== "true") return true;
    const above: HTMLElement[] = [];
    for (let previous = gate.previousElementSibling; previous instanceof HTMLElement; previous = previous.previousElementSibling) above.push(previous);
    return above.filter((block) => has(block, "data-question") || has(block, "data-interactive")).every(isComplete);
  }

  function updateGates(): void {
    for (const gate of all<HTMLElement>(document, "[data-continue]")) {
      const button = one<HTMLElement>(gate, "[data-continue-button]");
      const open = gateOpen(gate);
      button?.setAttribute("aria-disabled", String(!open));
      setIn(gate, "[data-continue-hint]", "hidden", open);
    }
  }

  function pass(gate: HTMLElement): void {
    if (!gateOpen(gate)) {
      one<HTMLElement>(gate, "[data-continue-hint]")?.setAttribute("role", "alert");
      return;
    }
    const revealed = gatedAfter(gate);
    for (const block of revealed) {
      block.hidden = false;
      delete block.dataset.gated;
    }
    gate.hidden = true;
    focusInto(revealed[0]);
    updateGates();
  }

  /* ---------- wiring ---------- */

  for (const graphic of all<HTMLElement>(document, "[data-labeled-graphic]")) setUpGraphic(graphic);
  for (const process of all<HTMLElement>(document, "[data-process]")) setUpProcess(process);
  for (const scenario of all<HTMLElement>(document, "[data-scenario]")) setUpScenario(scenario);
  for (const sorting of all<HTMLElement>(document, "[data-sorting]")) setUpSorting(sorting);
  for (const gate of all<HTMLElement>(document, "[data-continue]")) setUpGate(gate);
  updateGates();

  on("click", (event) => {
    const button = around<HTMLElement>(event.target, "button");
    if (!button) return;
    if (has(button, "data-marker")) openMarker(button);
    else if (has(button, "data-step-previous") || has(button, "data-step-next")) {
      const process = button.closest<HTMLElement>("[data-process]");
      if (process) showStep(process, Number(process.dataset.currentStep ?? 0) + (has(button, "data-step-next") ? 1 : -1), true);
    } else if (button.dataset.next !== undefined && button.closest("[data-scenario]")) choose(button);
    else if (has(button, "data-scenario-replay")) {
      const scenario = button.closest<HTMLElement>("[data-scenario]");
      if (scenario && !isLocked(scenario)) startScenario(scenario, true);
    } else if (has(button, "data-continue-button")) {
      const gate = button.closest<HTMLElement>("[data-continue]");
      if (gate) pass(gate);
      return;
    } else if (has(button, "data-retry-quiz")) {
      const lesson = button.closest<HTMLElement>("[data-lesson-id]");
      for (const scenario of lesson?.querySelectorAll<HTMLElement>("[data-scenario]") ?? []) resetScenario(scenario);
      for (const item of lesson?.querySelectorAll<HTMLElement>("[data-sort-item]") ?? []) placeItem(item, false);
    } else if (has(button, "data-submit-quiz")) {
      for (const actions of button.closest("[data-lesson-id]")?.querySelectorAll<HTMLElement>("[data-scenario-actions]") ?? []) actions.hidden = true;
    }
    updateGates();
  });

  // Keyboard sorting without jumps: arrows on a focused picker only choose the place (item and focus
  // stay); the item moves to its category when the learner confirms by moving on (Tab to the next item).
  const sortItemOf = (target: EventTarget | null): HTMLElement | null => {
    const select = target instanceof HTMLSelectElement ? target : null;
    const item = select?.closest<HTMLElement>("[data-sort-item]") ?? null;
    return item && item.closest(".is-enhanced") ? item : null;
  };
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
