/** The process: one step at a time, with its status ("Step 2 of 5"). */
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { data, fill, one, setInHook, textInHook } from "../dom.ts";
import { focusInto, hooked } from "./blocks.ts";
import { text } from "./session.ts";

export function showStep(process: HTMLElement, index: number, moveFocus: boolean): void {
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

export function setUpProcess(process: HTMLElement): void {
  setInHook(process, DataName.processControls, "hidden", false);
  showStep(process, 0, false);
}
