/**
 * Markdown's inline syntax as XLIFF inline codes. A unit's source text is split into plain text,
 * placeholders (`ph`: code spans, line breaks with the block markers after them, `{{1}}` blanks,
 * escapes, autolinks, HTML) and pairs (`pc`: emphasis and links, whose inner text is translated).
 * A CAT tool shows codes as tags and keeps them; on import the translated text is rebuilt from the
 * codes of the CURRENT source text, so a target can neither change a link's URL nor drop markup.
 */

export type Segment =
  | { kind: "text"; text: string }
  | { kind: "ph"; id: string; code: string }
  | { kind: "pc"; id: string; open: string; close: string; children: Segment[] };

/** A target as read from XLIFF: text and code references in document order. */
export type TargetToken = { kind: "text"; text: string } | { kind: "ph"; id: string } | { kind: "open"; id: string } | { kind: "close"; id: string };

const lineStartMarker = /^[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d{1,9}[.)][ \t]+|(?:>[ \t]?)+)?/;
const escapable = /[\\`*_{}[\]()#+\-.!|~<>"']/;

/** Splits Markdown into text and inline codes; ids are "1", "2"… in document order. */
export function segmentMarkdown(markdown: string): Segment[] {
  const counter = { next: 1 };
  const segments = segmentRange(markdown, counter);
  // Block markers at the very start ("- item", "## Title") are markup too.
  const first = segments[0];
  if (first?.kind === "text") {
    const marker = lineStartMarker.exec(first.text)?.[0] ?? "";
    if (marker !== "" && marker.length < first.text.length) {
      const ph: Segment = { kind: "ph", id: "0", code: marker };
      segments.splice(0, 1, ph, { kind: "text", text: first.text.slice(marker.length) });
    }
  }
  return segments;
}

/** For each index of `text`, the longest run of backticks at or after it. */
function longestBacktickRuns(text: string): Uint32Array {
  const longest = new Uint32Array(text.length + 1);
  let run = 0;
  for (let at = text.length - 1; at >= 0; at--) {
    run = text[at] === "`" ? run + 1 : 0;
    longest[at] = Math.max(run, longest[at + 1] ?? 0);
  }
  return longest;
}

/** The first whitespace or `>` at or after a point, remembered: the points asked only grow. */
function stopFinder(text: string): (from: number) => number {
  let found = -1;
  return (from) => {
    if (found >= from) return found;
    for (found = from; found < text.length && text[found] !== ">" && !/\s/.test(text[found] as string); found++);
    return found;
  };
}

/**
 * The autolink or HTML tag at `at` (a `<`), as `/^<(?:https?:\/\/[^\s>]+|mailto:[^\s>]+|\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?)>/`
 * matched it, or null. A link's address runs to the first whitespace or `>`, found by a forward-only
 * search: the expression read it again from every `<` of a long run of `<http://` with no `>` after.
 * A tag stops at the next `<` or `>`, so the expression is kept for it, on that stretch only.
 */
function tagAt(text: string, at: number, nextStop: (from: number) => number): string | null {
  for (const scheme of ["http://", "https://", "mailto:"]) {
    if (!text.startsWith(scheme, at + 1)) continue;
    const address = at + 1 + scheme.length;
    const stop = nextStop(address);
    if (stop > address && text[stop] === ">") return text.slice(at, stop + 1);
  }
  let end = at + 1;
  while (end < text.length && text[end] !== "<" && text[end] !== ">") end++;
  return /^<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>$/.exec(text.slice(at, end + 1))?.[0] ?? null;
}

function segmentRange(text: string, counter: { next: number }): Segment[] {
  const out: Segment[] = [];
  let longest: Uint32Array | undefined;
  let nextStop: ((from: number) => number) | undefined;
  let markup: MarkupIndex | undefined;
  let buffer = "";
  const flush = () => {
    if (buffer !== "") out.push({ kind: "text", text: buffer });
    buffer = "";
  };
  const placeholder = (code: string) => {
    flush();
    out.push({ kind: "ph", id: String(counter.next++), code });
  };
  let index = 0;
  while (index < text.length) {
    const rest = text.slice(index);
    const char = text[index] as string;
    if (char === "\n" || (char === "\\" && text[index + 1] === "\n")) {
      // Trailing spaces (a hard break), the newlines, then the next line's block marker.
      // Read backwards: /[ \t]*$/ rescans a long run of spaces inside the line from each of them.
      let trailingStart = buffer.length;
      while (trailingStart > 0 && (buffer[trailingStart - 1] === " " || buffer[trailingStart - 1] === "\t")) trailingStart--;
      const trailing = buffer.slice(trailingStart);
      buffer = buffer.slice(0, buffer.length - trailing.length);
      const breakRun = /^\\?(?:\n[ \t]*)+/.exec(rest)?.[0] ?? "\n";
      const marker = lineStartMarker.exec(text.slice(index + breakRun.length))?.[0] ?? "";
      placeholder(trailing + breakRun + marker);
      index += breakRun.length + marker.length;
      continue;
    }
    if (char === "\\" && escapable.test(text[index + 1] ?? "")) {
      placeholder(text.slice(index, index + 2));
      index += 2;
      continue;
    }
    if (char === "`") {
      // A run of n backticks opens a code span closed by the first n after it; failing that, its first
      // backtick is text and the n - 1 after it try again. Read from the longest run later in the text
      // (found once), not by matching /^`+/ and searching again at every backtick of the run: quadratic.
      let runEnd = index;
      while (text[runEnd] === "`") runEnd++;
      longest ??= longestBacktickRuns(text);
      const closing = Math.min(runEnd - index, longest[runEnd] ?? 0);
      buffer += "`".repeat(runEnd - index - closing);
      if (closing === 0) {
        index = runEnd;
        continue;
      }
      const end = text.indexOf("`".repeat(closing), runEnd);
      placeholder(text.slice(runEnd - closing, end + closing));
      index = end + closing;
      continue;
    }
    const blank = /^\{\{\d+\}\}/.exec(rest);
    if (blank) {
      placeholder(blank[0]);
      index += blank[0].length;
      continue;
    }
    const tag = char === "<" ? tagAt(text, index, (nextStop ??= stopFinder(text))) : null;
    if (tag) {
      placeholder(tag);
      index += tag.length;
      continue;
    }
    if (char === "[" || (char === "!" && text[index + 1] === "[")) {
      const link = matchLink(text, index, (markup ??= new MarkupIndex(text)));
      if (link) {
        flush();
        const id = String(counter.next++);
        out.push({ kind: "pc", id, open: link.open, close: link.close, children: segmentRange(link.inner, counter) });
        index = link.end;
        continue;
      }
    }
    if (char === "*" || char === "_" || char === "~") {
      const emphasis = matchEmphasis(text, index, (markup ??= new MarkupIndex(text)));
      if (emphasis) {
        flush();
        const id = String(counter.next++);
        out.push({ kind: "pc", id, open: emphasis.run, close: emphasis.run, children: segmentRange(emphasis.inner, counter) });
        index = emphasis.end;
        continue;
      }
      // An unmatched run is text as a whole, so "**" never half-matches later.
      const run = /^(\*+|_+|~+)/.exec(rest)?.[0] ?? char;
      buffer += run;
      index += run.length;
      continue;
    }
    buffer += char;
    index += 1;
  }
  flush();
  return out;
}

/**
 * Where each opening's closing is, found once per text in one pass each, so reading a link or an
 * emphasis at an opening costs nothing however many openings the text has (scanning forward from each
 * opening was quadratic on a text of many openings and no closing).
 */
class MarkupIndex {
  private brackets?: Int32Array;
  private parens?: Int32Array;
  private blankLine?: Int32Array;
  private readonly closers = new Map<string, Int32Array>();

  constructor(private readonly text: string) {}

  /** For a `[` at i, its `]` with brackets balanced, escapes skipped and no blank line between; else -1. */
  bracketClose(at: number): number {
    this.brackets ??= this.matchPairs("[", "]", (index) => this.text[index] === "\n" && this.text[index + 1] === "\n");
    return this.brackets[at] ?? -1;
  }

  /** For a `(` at i, its `)` with parentheses balanced, escapes skipped, on the same line; else -1. */
  parenClose(at: number): number {
    this.parens ??= this.matchPairs("(", ")", (index) => this.text[index] === "\n");
    return this.parens[at] ?? -1;
  }

  /** The first blank line ("\n\n") at or after i, or -1. */
  nextBlankLine(at: number): number {
    if (!this.blankLine) {
      const next = new Int32Array(this.text.length + 1).fill(-1);
      for (let index = this.text.length - 2; index >= 0; index--) next[index] = this.text[index] === "\n" && this.text[index + 1] === "\n" ? index : (next[index + 1] ?? -1);
      this.blankLine = next;
    }
    return this.blankLine[at] ?? -1;
  }

  /** The first closer of `run` at or after i: the run with text right before it (see `isCloser`), or -1. */
  nextCloser(run: string, at: number): number {
    let next = this.closers.get(run);
    if (!next) {
      next = new Int32Array(this.text.length + 1).fill(-1);
      for (let index = this.text.length - 1; index >= 0; index--) next[index] = this.isCloser(run, index) ? index : (next[index + 1] ?? -1);
      this.closers.set(run, next);
    }
    return next[at] ?? -1;
  }

  private isCloser(run: string, index: number): boolean {
    const text = this.text;
    if (!text.startsWith(run, index) || text[index + run.length] === run[0]) return false;
    if (/\s/.test(text[index - 1] ?? " ")) return false;
    return !(run[0] === "_" && /[A-Za-z0-9]/.test(text[index + run.length] ?? ""));
  }

  private matchPairs(open: string, close: string, breaks: (index: number) => boolean): Int32Array {
    const text = this.text;
    const match = new Int32Array(text.length).fill(-1);
    const stack: number[] = [];
    for (let index = 0; index < text.length; index++) {
      const char = text[index];
      if (char === "\\") index++;
      else if (char === open) stack.push(index);
      else if (char === close && stack.length > 0) match[stack.pop() as number] = index;
      else if (breaks(index)) stack.length = 0;
    }
    return match;
  }
}

/** `[inner](destination)` or `![inner](destination)` starting at `start`, with balanced brackets. */
function matchLink(text: string, start: number, markup: MarkupIndex): { open: string; close: string; inner: string; end: number } | null {
  const open = text[start] === "!" ? "![" : "[";
  const closeBracket = markup.bracketClose(start + open.length - 1);
  if (closeBracket < 0 || text[closeBracket + 1] !== "(") return null;
  const closeParen = markup.parenClose(closeBracket + 1);
  if (closeParen < 0) return null;
  return { open, close: text.slice(closeBracket, closeParen + 1), inner: text.slice(start + open.length, closeBracket), end: closeParen + 1 };
}

/** A run of `*`, `_` or `~~` with text right after it, closed by the same run with text right before it. */
function matchEmphasis(text: string, start: number, markup: MarkupIndex): { run: string; inner: string; end: number } | null {
  const run = /^(\*{1,3}|_{1,3}|~~)/.exec(text.slice(start, start + 3))?.[0];
  if (!run) return null;
  const afterOpen = start + run.length;
  if (/\s/.test(text[afterOpen] ?? " ")) return null;
  if (run[0] === "_" && /[A-Za-z0-9]/.test(text[start - 1] ?? "")) return null;
  const index = markup.nextCloser(run, afterOpen + 1);
  if (index < 0) return null;
  const blank = markup.nextBlankLine(afterOpen);
  if (blank >= 0 && blank + 2 <= index) return null;
  return { run, inner: text.slice(afterOpen, index), end: index + run.length };
}

/** The Markdown the segments stand for (the inverse of `segmentMarkdown`). */
export function joinSegments(segments: readonly Segment[]): string {
  return segments.map((segment) => (segment.kind === "text" ? segment.text : segment.kind === "ph" ? segment.code : segment.open + joinSegments(segment.children) + segment.close)).join("");
}

/** The codes of a segmented text by id. */
export function codesOf(segments: readonly Segment[], into = new Map<string, Exclude<Segment, { kind: "text" }>>()): Map<string, Exclude<Segment, { kind: "text" }>> {
  for (const segment of segments) {
    if (segment.kind === "text") continue;
    into.set(segment.id, segment);
    if (segment.kind === "pc") codesOf(segment.children, into);
  }
  return into;
}

/** The plain text of the segments, codes left out: what a reader would call "the words". */
export function plainText(segments: readonly Segment[]): string {
  return segments.map((segment) => (segment.kind === "text" ? segment.text : segment.kind === "pc" ? plainText(segment.children) : "")).join("");
}

/** Why a target's codes do not match its source's, or null when every code is there exactly once. */
export function codeMismatch(source: readonly Segment[], target: readonly TargetToken[]): string | null {
  const codes = codesOf(source);
  const seen = new Map<string, { ph: number; open: number; close: number }>();
  const opened = new Set<string>();
  for (const token of target) {
    if (token.kind === "text") continue;
    const code = codes.get(token.id);
    if (!code) return `inline code ${token.id} is not in the source (invented)`;
    const expected = code.kind === "ph" ? "ph" : token.kind === "ph" ? "pair" : token.kind;
    if ((code.kind === "ph") !== (token.kind === "ph")) return `inline code ${token.id} is a ${code.kind === "ph" ? "placeholder" : "pair"} in the source but a ${expected === "ph" ? "pair" : "placeholder"} in the target`;
    const count = seen.get(token.id) ?? { ph: 0, open: 0, close: 0 };
    count[token.kind] += 1;
    seen.set(token.id, count);
    if (token.kind === "open") opened.add(token.id);
    if (token.kind === "close" && !opened.has(token.id)) return `inline code ${token.id} closes before it opens`;
  }
  for (const [id, code] of codes) {
    const count = seen.get(id);
    const complete = code.kind === "ph" ? count?.ph === 1 : count?.open === 1 && count.close === 1;
    if (!complete) return count === undefined ? `inline code ${id} (${describeCode(code)}) is missing from the target (dropped)` : `inline code ${id} (${describeCode(code)}) appears more than once or is unbalanced`;
  }
  return null;
}

function describeCode(code: Exclude<Segment, { kind: "text" }>): string {
  return JSON.stringify(code.kind === "ph" ? code.code : `${code.open}…${code.close}`);
}

/** Rebuilds Markdown from a target whose codes were checked with `codeMismatch`. */
export function rebuildMarkdown(source: readonly Segment[], target: readonly TargetToken[]): string {
  const codes = codesOf(source);
  return target
    .map((token) => {
      if (token.kind === "text") return token.text;
      const code = codes.get(token.id);
      if (!code) return "";
      if (code.kind === "ph") return code.code;
      return token.kind === "open" ? code.open : code.close;
    })
    .join("");
}

/** Segments as target tokens: what a CAT tool that changed nothing would send back. */
export function tokensOf(segments: readonly Segment[]): TargetToken[] {
  return segments.flatMap((segment): TargetToken[] =>
    segment.kind === "text"
      ? [{ kind: "text", text: segment.text }]
      : segment.kind === "ph"
        ? [{ kind: "ph", id: segment.id }]
        : [{ kind: "open", id: segment.id }, ...tokensOf(segment.children), { kind: "close", id: segment.id }],
  );
}

/**
 * The target's segments with its codes renumbered to the source's ids (matched by markup, in order),
 * or null when the target's codes are not exactly the source's (then the unit is sent untranslated).
 */
export function alignToSource(source: readonly Segment[], target: readonly Segment[]): Segment[] | null {
  const pool = new Map<string, string[]>();
  const keyOf = (segment: Exclude<Segment, { kind: "text" }>) => (segment.kind === "ph" ? `ph:${segment.code}` : `pc:${segment.open}\u0000${segment.close}`);
  const fill = (segments: readonly Segment[]) => {
    for (const segment of segments) {
      if (segment.kind === "text") continue;
      const key = keyOf(segment);
      pool.set(key, [...(pool.get(key) ?? []), segment.id]);
      if (segment.kind === "pc") fill(segment.children);
    }
  };
  fill(source);
  let ok = true;
  const renumber = (segments: readonly Segment[]): Segment[] =>
    segments.map((segment) => {
      if (segment.kind === "text") return segment;
      const id = pool.get(keyOf(segment))?.shift();
      if (id === undefined) ok = false;
      return segment.kind === "ph" ? { ...segment, id: id ?? segment.id } : { ...segment, id: id ?? segment.id, children: renumber(segment.children) };
    });
  const aligned = renumber(target);
  const leftover = [...pool.values()].some((ids) => ids.length > 0);
  return ok && !leftover ? aligned : null;
}
