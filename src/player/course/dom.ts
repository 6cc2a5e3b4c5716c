/**
 * Small helpers every part of the player shares, written once: the minifier cannot shorten a DOM
 * method's name, and the player calls these over a hundred and fifty times, so `one(root, "…")` ships
 * ~12 bytes shorter than `root.querySelector("…")` each time (bench/NOTES.md "Page weight").
 */
/** The first element under `root` (none when there is no root) that matches `selector`. */
export const one = <E extends Element = Element>(root: ParentNode | null | undefined, selector: string): E | null => root?.querySelector<E>(selector) ?? null;

export const all = <E extends Element = Element>(root: ParentNode, selector: string): NodeListOf<E> => root.querySelectorAll<E>(selector);

/** `all` as an array. */
export const listAll = <E extends Element = Element>(root: ParentNode, selector: string): E[] => Array.from(root.querySelectorAll<E>(selector));

export const has = (element: Element, attribute: string): boolean => element.hasAttribute(attribute);

/** Listens on the document (the player delegates every event there). */
export function on<K extends keyof DocumentEventMap>(type: K, listener: (event: DocumentEventMap[K]) => void): void;
export function on(type: string, listener: (event: Event) => void): void;
export function on(type: string, listener: (event: Event) => void): void {
  document.addEventListener(type, listener);
}

/** Fills `{name}` placeholders of a language pack's template; an unknown name stays as written. */
/** The page's language (the course's), for numbers and plural forms as it writes them. */
const pageLocale = document.documentElement.lang || undefined;
/** Whether the page language's plural rules take the singular for `count` (French "1,5 point", English "1 point"). */
export const isSingular = (count: number): boolean => new Intl.PluralRules(pageLocale).select(count) === "one";

/** A sentence's `{placeholder}`s filled in; numbers as the page's language writes them ("1,5" in German; points are rounded to hundredths before). */
export const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : value.toLocaleString(pageLocale);
  });

/** The element around an event's target that matches `selector`, if the target is an element. */
export const around = <E extends Element = HTMLElement>(target: EventTarget | null, selector: string): E | null => target instanceof Element ? target.closest<E>(selector) : null;

/**
 * Sets one property of the element `selector` finds under `root`, when there is one (the player does
 * this for a verdict's text, a pager's `hidden`, a button's `disabled` some fifty times); returns it.
 */
export function setIn<E extends Element = HTMLElement, K extends keyof E = keyof E>(root: ParentNode, selector: string, property: K, value: E[K]): E | null {
  const found = root.querySelector<E>(selector);
  if (found) found[property] = value;
  return found;
}

/** A form control (text input, radio, checkbox or select), or null for any other element. */
export const fieldOf = (element: Element): HTMLInputElement | HTMLSelectElement | null => element instanceof HTMLInputElement || element instanceof HTMLSelectElement ? element : null;

/** A new element with its class and text. */
export const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, textContent = ""): HTMLElementTagNameMap[K] => Object.assign(document.createElement(tag), { className, textContent });

/** An element's `data-` attributes (the player reads and writes them over a hundred times). */
export function data(element: HTMLElement | SVGElement): DOMStringMap;
export function data(element: HTMLElement | SVGElement | null | undefined): DOMStringMap | undefined;
export function data(element: HTMLElement | SVGElement | null | undefined): DOMStringMap | undefined {
  return element?.dataset;
}

/** The selector `[data-<name>]` for a `data-` hook, written once (the player looks hooks up about a hundred times). */
export const hook = (name: string): string => `[data-${name}]`;

/** `setIn` for the element a `data-` hook marks. */
export const setInHook = <E extends Element = HTMLElement, K extends keyof E = keyof E>(root: ParentNode, name: string, property: K, value: E[K]): E | null => setIn<E, K>(root, hook(name), property, value);

/** Writes the text of the element a `data-` hook marks, when there is one (verdicts, counts, statuses). */
export function textInHook(root: ParentNode, name: string, text: string): void {
  setIn(root, hook(name), "textContent", text);
}
