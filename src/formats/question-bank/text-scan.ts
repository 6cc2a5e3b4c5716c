/**
 * Linear scanners for the few text patterns question-bank readers look for in imported files. Each one
 * replaces a regular expression that backtracked on hostile text (`<[^>]*>` over a run of `<`, `\s*$`
 * over a long run of spaces, the `<img … src="…">` search over repeated `<img` and `src="`): every
 * function here reads each character a bounded number of times, so an imported file costs its size.
 * Each gives the same result as the expression it replaces on any text a real tool writes.
 */

/** Whether `character` is whitespace as `\s` in a regular expression reads it (one character, so constant time). */
function isSpace(character: string): boolean {
  return /\s/.test(character);
}

/**
 * `text` without its tags, as `text.replace(/<[^>]*>/g, "")`: each `<` up to the next `>` is removed;
 * a `<` with no `>` after it stays, and so does everything after it, since no later `<` can close either.
 */
export function stripTags(text: string): string {
  let result = "";
  let from = 0;
  while (from < text.length) {
    const open = text.indexOf("<", from);
    if (open < 0) break;
    const close = text.indexOf(">", open + 1);
    if (close < 0) break;
    result += text.slice(from, open);
    from = close + 1;
  }
  return result + text.slice(from);
}

/** Whether `character` is a word character as `\b` reads it (ASCII letters, digits and `_`). */
function isWordCharacter(character: string | undefined): boolean {
  return character !== undefined && /\w/.test(character);
}

/** Whether `text` holds `word` (lower-case ASCII) at `at`, in any letter case, as the `i` flag compares ASCII. */
function hasCaseless(text: string, at: number, word: string): boolean {
  if (at < 0 || at + word.length > text.length) return false;
  for (let offset = 0; offset < word.length; offset++) {
    const code = text.charCodeAt(at + offset);
    const lowered = code >= 65 && code <= 90 ? code + 32 : code;
    if (lowered !== word.charCodeAt(offset)) return false;
  }
  return true;
}

/** The next `<img` at or after `from`, in any letter case, or -1. */
function nextImageTag(text: string, from: number): number {
  for (let at = text.indexOf("<", from); at >= 0; at = text.indexOf("<", at + 1)) {
    if (hasCaseless(text, at + 1, "img")) return at;
  }
  return -1;
}

/** `text` without its `<img …>` tags, as `text.replace(/<img[^>]*>/gi, "")`. */
export function stripImageTags(text: string): string {
  let result = "";
  let from = 0;
  for (let open = nextImageTag(text, from); open >= 0; open = nextImageTag(text, from)) {
    const close = text.indexOf(">", open + 4);
    if (close < 0) break;
    result += text.slice(from, open);
    from = close + 1;
  }
  return result + text.slice(from);
}

export interface ImageTag {
  /** The whole tag, from `<img` to the `>` after its `src` value. */
  readonly tag: string;
  /** The `src` value as written (entities not decoded). */
  readonly src: string;
}

/**
 * Where the `src="` attributes between a tag's name and its first `>` begin (`\bsrc="`, any case),
 * rightmost first: the order in which the old expression's greedy `[^>]*` tried them.
 */
function sourceAttributeStarts(html: string, start: number, firstClose: number): number[] {
  const found: number[] = [];
  for (let at = start + 4; at + 5 <= firstClose; at++) {
    if (html[at + 3] === "=" && html[at + 4] === '"' && hasCaseless(html, at, "src") && !isWordCharacter(html[at - 1])) found.push(at);
  }
  return found.reverse();
}

/**
 * The first picture tag with a `src`, as `/<img\b[^>]*\bsrc="([^"]*)"[^>]*>/i.exec(html)` finds it
 * (the rightmost `src="` before the tag's first `>`, its value up to the next `"`, the tag up to the
 * next `>` after that), or null. A tag none of whose attributes fits makes every later `<img` before
 * the same `>` fail too (their attributes are some of its own), so the scan goes on past that `>`:
 * every character is read a bounded number of times.
 */
export function firstImageTag(html: string): ImageTag | null {
  const lastClose = html.lastIndexOf(">");
  for (let start = nextImageTag(html, 0); start >= 0; ) {
    if (isWordCharacter(html[start + 4])) {
      start = nextImageTag(html, start + 1);
      continue;
    }
    const firstClose = html.indexOf(">", start + 4);
    if (firstClose < 0) return null;
    for (const attribute of sourceAttributeStarts(html, start, firstClose)) {
      const valueStart = attribute + 5;
      const valueEnd = html.indexOf('"', valueStart);
      if (valueEnd < 0 || valueEnd > lastClose) continue;
      const tagEnd = html.indexOf(">", valueEnd + 1);
      return { tag: html.slice(start, tagEnd + 1), src: html.slice(valueStart, valueEnd) };
    }
    start = nextImageTag(html, firstClose + 1);
  }
  return null;
}

/** The whitespace at the end of `text`, as `/\s*$/.exec(text)[0]`, read backwards from the end. */
export function trailingWhitespace(text: string): string {
  let start = text.length;
  while (start > 0 && isSpace(text[start - 1] as string)) start--;
  return text.slice(start);
}
