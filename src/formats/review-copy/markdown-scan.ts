/**
 * Linear readers for the Markdown a review copy flattens (block-lines.ts), each replacing a global
 * regular expression that read a line to its end again from every opener when no closer followed
 * (quadratic on `![](![](…`, `[(](((…` or `*\t*0\t*0…`, in a block of up to 100 KB). Each gives what its
 * expression gave; test/regex-scanners.test.ts checks them against the expressions on random text.
 */

/** `text.replace(/!\[([^\]]*)\]\(([^)]*)\)/g, "[picture: $1]")`, read by index. */
export function picturesAsWords(text: string): string {
  let result = "";
  let from = 0;
  for (let start = text.indexOf("!["); start >= 0; ) {
    const close = text.indexOf("]", start + 2);
    if (close < 0) break;
    // Every later `![` before this `]` closes there too, and fails the same way.
    if (text[close + 1] !== "(") {
      start = text.indexOf("![", close + 1);
      continue;
    }
    const end = text.indexOf(")", close + 2);
    if (end < 0) break;
    result += `${text.slice(from, start)}[picture: ${text.slice(start + 2, close)}]`;
    from = end + 1;
    start = text.indexOf("![", from);
  }
  return result + text.slice(from);
}

/** `text.replace(/\[([^\]]+)\]\(<?([^)>]*)>?\)/g, "$1 ($2)")`, read by index. */
export function linksAsWords(text: string): string {
  let result = "";
  let from = 0;
  // The first `)` or `>` at or after a point only moves forward as the scan does: found once per stretch.
  let stop = -1;
  const stopFrom = (at: number): number => {
    if (stop >= at) return stop;
    for (stop = at; stop < text.length && text[stop] !== ")" && text[stop] !== ">"; stop++);
    return stop;
  };
  for (let start = text.indexOf("["); start >= 0; ) {
    const close = text.indexOf("]", start + 1);
    if (close < 0) break;
    if (close === start + 1 || text[close + 1] !== "(") {
      start = text.indexOf("[", close === start + 1 ? start + 1 : close + 1);
      continue;
    }
    const target = text[close + 2] === "<" ? close + 3 : close + 2;
    const end = stopFrom(target);
    const after = text[end] === ")" ? end + 1 : text[end] === ">" && text[end + 1] === ")" ? end + 2 : -1;
    if (after < 0) {
      start = text.indexOf("[", close + 1);
      continue;
    }
    result += `${text.slice(from, start)}${text.slice(start + 1, close)} (${text.slice(target, end)})`;
    from = after;
    start = text.indexOf("[", from);
  }
  return result + text.slice(from);
}

const lineBreaks = new Set(["\n", "\r", "\u2028", "\u2029"]);
const isSpace = (character: string | undefined): boolean => character !== undefined && /\s/.test(character);
const isNotWord = (character: string | undefined): boolean => character !== undefined && /\W/.test(character);
const isMark = (character: string | undefined): boolean => character === "*" || character === "_";

/** The first index at or after a point where something holds, remembered: the points asked only grow. */
function forwardFinder(text: string, holds: (at: number) => boolean): (from: number) => number {
  let found = -1;
  return (from) => {
    if (found >= from) return found;
    for (found = from; found < text.length && !holds(found); found++);
    return found;
  };
}

/**
 * `text.replace(/(^|\W)[*_](\S.*?)[*_](?=\W|$)/g, "$1$2")`, read by index: single `*` or `_` emphasis
 * dropped. The closing mark is the first `*` or `_` followed by a non-word character or the end, with no
 * line break before it; both are found by forward-only searches, so each character is read once or twice.
 * With `open` and `close`, the emphasised words are wrapped in them instead (the review copy's italics).
 */
export function withoutSingleEmphasis(text: string, open = "", close = ""): string {
  const nextCloser = forwardFinder(text, (at) => isMark(text[at]) && (at + 1 === text.length || isNotWord(text[at + 1])));
  const nextBreak = forwardFinder(text, (at) => lineBreaks.has(text[at] as string));
  /** The end of an emphasis whose mark is at `mark`, or -1. */
  const closing = (mark: number): number => {
    const content = mark + 1;
    if (!isMark(text[mark]) || content >= text.length || isSpace(text[content])) return -1;
    const closer = nextCloser(content + 1);
    return closer < text.length && nextBreak(content + 1) > closer ? closer : -1;
  };
  let result = "";
  let from = 0;
  for (let at = 0; at < text.length; at++) {
    // The alternatives in the expression's order: `^` then a mark at 0, or a non-word character then a mark.
    const [prefix, mark] = at === 0 && closing(0) >= 0 ? ["", 0] : isNotWord(text[at]) ? [text[at] as string, at + 1] : ["", -1];
    const closer = mark >= 0 ? closing(mark) : -1;
    if (closer < 0) continue;
    result += text.slice(from, at) + prefix + open + text.slice(mark + 1, closer) + close;
    from = closer + 1;
    at = closer;
  }
  return result + text.slice(from);
}
