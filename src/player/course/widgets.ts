/**
 * In-page behaviour of the interactive content widgets:
 * tabs (arrow keys, Home, End), flashcards (flip), ordering questions (move up and down, announced)
 * and the contents disclosure, which starts closed on narrow screens.
 */
import type { RuntimeText } from "../../render/ui-text.ts";

export function installWidgets(text: RuntimeText): void {
  function fill(template: string, values: Record<string, string | number>): string {
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
  }

  function selectTab(tab: HTMLElement, moveFocus: boolean): void {
    const list = tab.closest<HTMLElement>("[role=tablist]");
    const container = tab.closest<HTMLElement>("[data-tabs]");
    if (!list || !container) return;
    for (const other of list.querySelectorAll<HTMLElement>("[role=tab]")) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(other.getAttribute("aria-controls") ?? "");
      if (panel) panel.hidden = !selected;
    }
    if (moveFocus) tab.focus();
  }

  function onTabKey(event: KeyboardEvent, tab: HTMLElement): void {
    const tabs = Array.from(tab.closest("[role=tablist]")?.querySelectorAll<HTMLElement>("[role=tab]") ?? []);
    const index = tabs.indexOf(tab);
    const targets: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    const target = targets[event.key];
    if (target === undefined || tabs.length === 0) return;
    event.preventDefault();
    const next = tabs[(target + tabs.length) % tabs.length];
    if (next) selectTab(next, true);
  }

  function flip(button: HTMLElement): void {
    const card = button.closest<HTMLElement>("[data-flashcard]");
    const front = card?.querySelector<HTMLElement>("[data-face=front]");
    const back = card?.querySelector<HTMLElement>("[data-face=back]");
    if (!front || !back) return;
    const showingBack = back.hidden;
    back.hidden = !showingBack;
    front.hidden = showingBack;
    card?.classList.toggle("is-flipped", showingBack);
    button.textContent = (showingBack ? button.dataset.showFront : button.dataset.showBack) ?? "";
  }

  function move(button: HTMLElement, direction: "up" | "down"): void {
    const item = button.closest<HTMLElement>("li");
    const list = item?.parentElement;
    if (!item || !list) return;
    const sibling = direction === "up" ? item.previousElementSibling : item.nextElementSibling;
    if (!sibling) return;
    if (direction === "up") list.insertBefore(item, sibling);
    else list.insertBefore(sibling, item);
    updateOrderingButtons(list);
    // Moving a node drops its focus; give it back, to the other button when this one is now disabled.
    const other = item.querySelector<HTMLButtonElement>(`[data-move=${direction === "up" ? "down" : "up"}]`);
    const focusTarget = button instanceof HTMLButtonElement && button.disabled ? other : button;
    focusTarget?.focus();
    const items = Array.from(list.children);
    const status = list.closest("[data-question]")?.querySelector<HTMLElement>("[data-ordering-status]");
    const itemText = item.querySelector(".ordering-text")?.textContent ?? "";
    if (status) status.textContent = fill(text.moved, { item: itemText, position: items.indexOf(item) + 1, count: items.length });
  }

  function updateOrderingButtons(list: Element): void {
    const items = Array.from(list.children);
    items.forEach((item, index) => {
      const up = item.querySelector<HTMLButtonElement>("[data-move=up]");
      const down = item.querySelector<HTMLButtonElement>("[data-move=down]");
      if (up) up.disabled = index === 0;
      if (down) down.disabled = index === items.length - 1;
    });
  }

  for (const list of document.querySelectorAll("[data-ordering-list]")) updateOrderingButtons(list);

  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>("button") : null;
    if (!button) return;
    if (button.getAttribute("role") === "tab") selectTab(button, false);
    else if (button.hasAttribute("data-flip")) flip(button);
    else if (button.dataset.move === "up" || button.dataset.move === "down") move(button, button.dataset.move);
  });

  document.addEventListener("keydown", (event) => {
    const target = event.target instanceof HTMLElement ? event.target : null;
    if (target?.getAttribute("role") === "tab") onTabKey(event, target);
  });

  const contents = document.querySelector<HTMLDetailsElement>("[data-contents]");
  const narrow = window.matchMedia("(max-width: 55.99rem)");
  if (contents && narrow.matches) contents.open = false;
  contents?.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a") : null;
    if (link && narrow.matches) contents.open = false;
  });
}
