/** What every teaching block's behaviour uses: finding hooked elements, moving focus into a block, telling a locked one. */
import { has, hook, listAll, one } from "../dom.ts";

/** The elements under `root` (none without a root) that the `data-` hook `name` marks. */
export const hooked = (root: ParentNode | null | undefined, name: string): HTMLElement[] => root ? listAll<HTMLElement>(root, hook(name)) : [];

// Focuses a step's title, a scene or the first block a gate reveals. None of them is a link or a form
// control (the renderer writes blocks as div, section, figure, ul, hr or a heading), so one without a
// tabindex gets -1 to take the focus.
export function focusInto(element: HTMLElement | null | undefined): void {
  if (!element) return;
  if (!has(element, "tabindex")) element.tabIndex = -1;
  element.focus();
}

export const isLocked = (block: HTMLElement): boolean => one<HTMLFieldSetElement>(block, "fieldset")?.disabled === true;
