/** Sorting: each item's category picker, and drag and drop kept in step with it. */
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { around, data, fill, hook, on, one, setInHook } from "../dom.ts";
import { hooked, isLocked } from "./blocks.ts";
import { updateGates } from "./gates.ts";
import { text } from "./session.ts";

export function placeItem(item: HTMLElement, moveFocus: boolean): void {
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

export function setUpSorting(sorting: HTMLElement): void {
  setInHook(sorting, DataName.sortCategories, "hidden", false);
  for (const item of hooked(sorting, DataName.sortItem)) placeItem(item, false);
}

/** The sorting item around `target`, when its sorting is enhanced. */
export function enhancedSortItem(target: EventTarget | null): HTMLElement | null {
  const item = around<HTMLElement>(target, hook(DataName.sortItem));
  return item && around(item, `.${ClassName.isEnhanced}`) ? item : null;
}

let dragged: HTMLElement | null = null;

/** The category under a drag event's target, when it is in the sorting the dragged item belongs to. */
export function dropZone(event: DragEvent): HTMLElement | null {
  const zone = around<HTMLElement>(event.target, hook(DataName.sortCategory));
  return zone && dragged && around(zone, hook(DataName.sorting)) === around(dragged, hook(DataName.sorting)) ? zone : null;
}

/** Drag and drop between a sorting's categories; the picker follows each drop. */
export function installSortingDrag(): void {
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
}
