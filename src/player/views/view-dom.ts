/** What the MCP Apps views write their pages with: an element by id, a new element, a size in words, the status line. */

/** The element with `id`, or a detached one, so a view whose page lacks it still runs. */
export const byId = (id: string): HTMLElement => document.getElementById(id) ?? document.createElement("div");

export const element = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};

export const humanSize = (bytes: number): string => (bytes < 1024 ? `${bytes} bytes` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1048576).toFixed(1)} MB`);

/** A view's status line (`#status`): progress, which clears an earlier problem. */
export const say = (text: string): void => {
  byId("status").textContent = text;
  if (text) byId("problem").textContent = "";
};

/** A view's problem line (`#problem`, an alert region): what went wrong, which replaces the status. */
export const fail = (text: string): void => {
  byId("status").textContent = "";
  byId("problem").textContent = text;
};
