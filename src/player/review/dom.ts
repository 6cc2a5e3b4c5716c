/** Element builders for the review layer: every text a reviewer or author wrote goes in as text, never as markup. */
export function make<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

export function button(label: string, className = "", attributes: Record<string, string> = {}): HTMLButtonElement {
  return make("button", { type: "button", ...(className ? { class: className } : {}), ...attributes }, label);
}

/** A labelled field: the label names the control by `for`. */
export function field<E extends HTMLElement>(id: string, label: string, control: E): [HTMLLabelElement, E] {
  control.id = id;
  return [make("label", { for: id }, label), control];
}

export const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
