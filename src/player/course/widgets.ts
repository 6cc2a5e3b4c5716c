/**
 * In-page behaviour of the interactive content widgets:
 * tabs (arrow keys, Home, End), flashcards (flip), ordering questions (move up and down, or the WAI-ARIA
 * drag-and-drop alternative: pick an item, choose its place with the arrow keys, confirm; announced)
 * and the contents disclosure, which starts closed on narrow screens.
 */
import { all, around, data, fill, has, hook, on, one, setIn } from "./dom.ts";
import type { RuntimeText } from "../../page-contract/text.ts";
import { ClassName, DataName } from "../../page-contract/markup-names.ts";

/** An ordering list's move buttons: no "up" on the first item, no "down" on the last (the quiz renumbers too). */
export function updateOrderingButtons(list: Element): void {
  const items = Array.from(list.children);
  items.forEach((item, index) => {
    setIn<HTMLButtonElement, "disabled">(item, `[data-${DataName.move}=up]`, "disabled", index === 0);
    setIn<HTMLButtonElement, "disabled">(item, `[data-${DataName.move}=down]`, "disabled", index === items.length - 1);
  });
}

/**
 * Sets a tab's `aria-selected` or a marker's `aria-expanded` (`state`) and shows the element its
 * `aria-controls` names only while that state is on (tabs here and the labeled graphic's markers share it).
 */
export function showControlled(control: HTMLElement, state: string, on: boolean): void {
  control.setAttribute(state, String(on));
  const controlled = document.getElementById(control.getAttribute("aria-controls") ?? "");
  if (controlled) controlled.hidden = !on;
}

/** An item's place in its list, from 0 (-1 when it is in none). */
const positionOf = (item: Element): number => Array.from(item.parentElement?.children ?? []).indexOf(item);

export function installWidgets(text: RuntimeText): void {
  function selectTab(tab: HTMLElement, moveFocus: boolean): void {
    const list = around<HTMLElement>(tab, "[role=tablist]");
    const container = around<HTMLElement>(tab, hook(DataName.tabs));
    if (!list || !container) return;
    for (const other of all<HTMLElement>(list, "[role=tab]")) {
      const selected = other === tab;
      showControlled(other, "aria-selected", selected);
      other.tabIndex = selected ? 0 : -1;
    }
    if (moveFocus) tab.focus();
  }

  function onTabKey(event: KeyboardEvent, tab: HTMLElement): void {
    const tabs = Array.from(around(tab, "[role=tablist]")?.querySelectorAll<HTMLElement>("[role=tab]") ?? []);
    const index = tabs.indexOf(tab);
    const targets: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    const target = targets[event.key];
    if (target === undefined || tabs.length === 0) return;
    event.preventDefault();
    const next = tabs[(target + tabs.length) % tabs.length];
    if (next) selectTab(next, true);
  }

  function flip(button: HTMLElement): void {
    const card = around<HTMLElement>(button, hook(DataName.flashcard));
    const front = one<HTMLElement>(card, `[data-${DataName.face}=front]`);
    const back = one<HTMLElement>(card, `[data-${DataName.face}=back]`);
    if (!front || !back) return;
    const showingBack = back.hidden;
    back.hidden = !showingBack;
    front.hidden = showingBack;
    card?.classList.toggle(ClassName.isFlipped, showingBack);
    button.textContent = (showingBack ? data(button)[DataName.showFront] : data(button)[DataName.showBack]) ?? "";
  }

  function move(button: HTMLElement, direction: "up" | "down"): void {
    const item = around<HTMLElement>(button, "li");
    const list = item?.parentElement;
    if (!item || !list) return;
    const up = direction === "up";
    const sibling = up ? item.previousElementSibling : item.nextElementSibling;
    if (!sibling) return;
    list.insertBefore(up ? item : sibling, up ? sibling : item);
    updateOrderingButtons(list);
    // Moving a node drops its focus; give it back, to the other button when this one is now disabled.
    const other = one<HTMLButtonElement>(item, `[data-${DataName.move}=${up ? "down" : "up"}]`);
    const focusTarget = button instanceof HTMLButtonElement && button.disabled ? other : button;
    focusTarget?.focus();
    announce(item, text.moved);
  }

  for (const list of all(document, hook(DataName.orderingList))) updateOrderingButtons(list);

  /* ---------- ordering by pick, choose, confirm ---------- */

  let picked: { readonly item: HTMLElement; readonly from: number } | null = null;
  let moving = false;

  function announce(item: HTMLElement, template: string): void {
    const status = one<HTMLElement>(around(item, hook(DataName.question)), hook(DataName.orderingStatus));
    if (status) status.textContent = fill(template, { item: one(item, `.${ClassName.orderingText}`)?.textContent ?? "", position: positionOf(item) + 1, count: item.parentElement?.children.length ?? 0 });
  }

  /** Puts the item at `index` of its list; the item's button keeps the focus it had. */
  function place(item: HTMLElement, index: number): void {
    const list = item.parentElement;
    if (!list) return;
    const others = Array.from(list.children).filter((child) => child !== item);
    moving = true;
    list.insertBefore(item, others[Math.max(0, Math.min(index, others.length))] ?? null);
    one<HTMLElement>(item, hook(DataName.pick))?.focus();
    moving = false;
    updateOrderingButtons(list);
  }

  function drop(keep: boolean): void {
    if (!picked) return;
    const { item, from } = picked;
    picked = null;
    one(item, hook(DataName.pick))?.setAttribute("aria-pressed", "false");
    if (!keep) place(item, from);
    announce(item, keep ? text.dropped : text.pickCancelled);
    // The quiz counts an ordering as answered once touched, and saves on change.
    const question = around<HTMLElement>(item, hook(DataName.question));
    if (keep && question) data(question)[DataName.touched] = "true";
    item.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function togglePick(button: HTMLElement): void {
    const item = around<HTMLElement>(button, "li");
    if (!item) return;
    if (picked?.item === item) return drop(true);
    drop(true);
    picked = { item, from: positionOf(item) };
    button.setAttribute("aria-pressed", "true");
    announce(item, text.picked);
  }

  // One listener for both: a tab moves along its tab list; a picked ordering item's arrows choose its
  // place and Escape puts it back (an element is never both a tab and a pick button).
  on("keydown", (event) => {
    const target = event.target instanceof HTMLElement ? event.target : null;
    if (target?.getAttribute("role") === "tab") return onTabKey(event, target);
    const item = target && has(target, `data-${DataName.pick}`) ? around<HTMLElement>(target, "li") : null;
    if (!item || picked?.item !== item) return;
    const index = positionOf(item);
    const steps: Record<string, number> = { ArrowUp: index - 1, ArrowLeft: index - 1, ArrowDown: index + 1, ArrowRight: index + 1, Home: 0, End: Infinity };
    const to = steps[event.key];
    if (to === undefined && event.key !== "Escape") return;
    event.preventDefault();
    if (to === undefined) drop(false);
    else {
      place(item, to);
      announce(item, text.moved);
    }
  });
  // Moving on (Tab, a click elsewhere) confirms the place chosen.
  on("focusout", (event) => {
    if (!moving && picked && event.target instanceof Element && picked.item.contains(event.target)) drop(true);
  });

  on("click", (event) => {
    const button = around<HTMLElement>(event.target, "button");
    if (!button) return;
    const direction = data(button)[DataName.move];
    if (button.getAttribute("role") === "tab") selectTab(button, false);
    else if (has(button, `data-${DataName.flip}`)) flip(button);
    else if (direction === "up" || direction === "down") move(button, direction);
    else if (has(button, `data-${DataName.pick}`)) togglePick(button);
  });

  const contents = one<HTMLDetailsElement>(document, hook(DataName.contents));
  const narrow = window.matchMedia("(max-width: 55.99rem)");
  if (contents && narrow.matches) contents.open = false;
  contents?.addEventListener("click", (event) => {
    const link = around(event.target, "a");
    if (link && narrow.matches) contents.open = false;
  });
}
