/** Reads a bundle's configuration from its JSON element; a page without it gets null. */
export function readConfig<T>(elementId: string): T | null {
  const text = document.getElementById(elementId)?.textContent;
  return text ? (JSON.parse(text) as T) : null;
}
