/** Continue gates: the blocks after a gate stay hidden until it is passed, and a gate waits for the blocks before it to be complete. */
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { data, has, hook, one, setInHook } from "../dom.ts";
import { focusInto, hooked, isLocked } from "./blocks.ts";

export function isComplete(block: HTMLElement): boolean {
  if (data(block)[DataName.complete] === "true") return true;
  if (has(block, `data-${DataName.question}`)) return ["correct", "incorrect", "partial"].includes(data(block)[DataName.state] ?? "") || isLocked(block);
  return false;
}

/** Blocks after a gate up to the pager, which stays; with `toNextGate`, only up to and including the next gate. */
export function gatedAfter(gate: HTMLElement, toNextGate: boolean): HTMLElement[] {
  const found: HTMLElement[] = [];
  for (let next = gate.nextElementSibling; next instanceof HTMLElement; next = next.nextElementSibling) {
    if (next.classList.contains(ClassName.pager)) break;
    found.push(next);
    if (toNextGate && has(next, `data-${DataName.continue}`)) break;
  }
  return found;
}

export function setUpGate(gate: HTMLElement): void {
  gate.hidden = false;
  for (const block of gatedAfter(gate, false)) {
    block.hidden = true;
    data(block)[DataName.gated] = "true";
  }
}

export function gateOpen(gate: HTMLElement): boolean {
  if (data(gate)[DataName.requireCompletion] !== "true") return true;
  // Every question and interactive block above the gate must be complete.
  for (let block = gate.previousElementSibling; block instanceof HTMLElement; block = block.previousElementSibling) {
    if ((has(block, `data-${DataName.question}`) || has(block, `data-${DataName.interactive}`)) && !isComplete(block)) return false;
  }
  return true;
}

export function updateGates(): void {
  for (const gate of hooked(document, DataName.continue)) {
    const button = one<HTMLElement>(gate, hook(DataName.continueButton));
    const open = gateOpen(gate);
    button?.setAttribute("aria-disabled", String(!open));
    setInHook(gate, DataName.continueHint, "hidden", open);
  }
}

export function pass(gate: HTMLElement): void {
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
