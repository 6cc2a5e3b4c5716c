/** The labeled graphic: markers that open their note, each marked visited once opened. */
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { all, around, data, hook, one } from "../dom.ts";
import { showControlled } from "../widgets.ts";
import { hooked } from "./blocks.ts";
import { text } from "./session.ts";

export function setUpGraphic(graphic: HTMLElement): void {
  for (const button of hooked(graphic, DataName.marker)) {
    button.style.left = `${Number(data(button).x ?? 0)}%`;
    button.style.top = `${Number(data(button).y ?? 0)}%`;
  }
  for (const item of hooked(graphic, DataName.markerItem)) item.hidden = true;
}

export function openMarker(button: HTMLElement): void {
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
