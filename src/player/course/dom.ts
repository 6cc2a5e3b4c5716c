/**
 * `querySelector` and `querySelectorAll` as functions: the minifier cannot shorten a DOM method's name,
 * and the player calls them over a hundred times, so `one(root, "…")` ships ~12 bytes shorter each time.
 */
export function one<E extends Element = Element>(root: ParentNode, selector: string): E | null {
  return root.querySelector<E>(selector);
}

export function all<E extends Element = Element>(root: ParentNode, selector: string): NodeListOf<E> {
  return root.querySelectorAll<E>(selector);
}
