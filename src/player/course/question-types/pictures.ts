/**
 * The picture questions (issue 42). hotspot: the SVG regions on the picture tick the native radio button
 * or checkbox named after them, and show which are chosen or focused; the inputs are the keyboard and
 * screen-reader path. drag_onto_image: each label's zone picker is the keyboard path; dragging a label
 * onto a zone sets it; the picture shows each zone's labels (or its number while it is empty).
 */
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { all, around, data, hook, listAll, on, one } from "../dom.ts";

/** Which regions are chosen, shown on the picture. */
export function showRegions(question: HTMLElement): void {
  for (const input of all<HTMLInputElement>(question, `.${ClassName.regionChoices} input`)) {
    one(question, `[data-${DataName.region}="${input.value}"]`)?.classList.toggle(ClassName.chosenRegion, input.checked);
  }
}

/** Each zone's labels written on the picture, from the labels' pickers. */
export function showPlaced(question: HTMLElement): void {
  const rows = listAll<HTMLElement>(question, `.${ClassName.matchingRow}`);
  for (const [index, zone] of listAll<SVGGElement>(question, hook(DataName.zone)).entries()) {
    const names = rows.filter((row) => one<HTMLSelectElement>(row, "select")?.value === data(zone)[DataName.zone]).map((row) => labelName(row));
    const words = one(zone, "text");
    // An empty zone shows its number, as its picker names it ("Zone 1" is the first zone).
    if (words) words.textContent = names.join(", ") || String(index + 1);
  }
}

export const labelName = (row: HTMLElement): string => one(row, "label")?.textContent?.trim() || one(row, "img")?.getAttribute("alt") || "";


/** Clicks on regions, focus shown on the picture, and labels dragged onto zones. */
export function installPictureEvents(questionOf: (target: EventTarget | null) => HTMLElement | null, locked: (question: HTMLElement) => boolean): void {
  on("click", (event) => {
    const shape = around<SVGElement>(event.target, hook(DataName.region));
    const question = questionOf(shape);
    if (shape && question && !locked(question)) {
      const input = one<HTMLInputElement>(question, `.${ClassName.regionChoices} input[value="${data(shape)[DataName.region]}"]`);
      if (input) {
        input.checked = input.type === "radio" ? true : !input.checked;
        input.dispatchEvent(new Event("change", { bubbles: true }));
        input.focus();
      }
    }
  });
  for (const type of ["focusin", "focusout"] as const) {
    on(type, (event) => {
      const input = event.target instanceof HTMLInputElement ? event.target : null;
      const question = questionOf(input);
      if (input && question && around(input, `.${ClassName.regionChoices}`)) one(question, `[data-${DataName.region}="${input.value}"]`)?.classList.toggle(ClassName.focusedRegion, type === "focusin");
    });
  }

  let dragged: HTMLElement | null = null;
  on("dragstart", (event) => {
    const row = around<HTMLElement>(event.target, `[data-${DataName.dropImage}] .${ClassName.matchingRow}`);
    const question = questionOf(row);
    if (!row || !question || locked(question)) return;
    dragged = row;
    event.dataTransfer?.setData("text/plain", labelName(row));
  });
  const zoneOf = (event: DragEvent): SVGElement | null => {
    const zone = around<SVGElement>(event.target, hook(DataName.zone));
    return zone && dragged && questionOf(zone) === questionOf(dragged) ? zone : null;
  };
  on("dragover", (event) => {
    if (zoneOf(event)) event.preventDefault();
  });
  on("drop", (event) => {
    const zone = zoneOf(event);
    const select = one<HTMLSelectElement>(dragged, "select");
    if (!zone || !select) return;
    event.preventDefault();
    select.value = data(zone)[DataName.zone] ?? "";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    dragged = null;
  });

}
