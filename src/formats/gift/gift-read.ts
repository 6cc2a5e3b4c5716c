/**
 * Reads a GIFT file (docs.moodle.org "GIFT format") into pools of question blocks, in one linear pass:
 * `$CATEGORY:` starts a pool; a question is `::title::[format]text{answers}text`, and questions are
 * separated by blank lines. Multiple choice (`=`/`~`, `%weight%`, `#feedback`, `####general feedback`),
 * true/false, short answer (a fill-in blank, where the answers stand in the sentence) and matching
 * (`->`) are read; numerical and essay questions and descriptions are reported as dropped. Braces that
 * do not balance are an error naming the question and its line.
 */
import { BankBuilder, itemError, type ImportedBank, type ImportedPool } from "../question-bank/bank-plan.ts";
import { WorkSlicer } from "../../codecs/event-loop.ts";
import { stripTags, trailingWhitespace } from "../question-bank/text-scan.ts";
import { decodeHtmlEntities } from "../../codecs/html-entities.ts";

interface Chunk {
  readonly text: string;
  readonly line: number;
  /** The `// <block id> (<type>)` comment our export writes before a question. */
  readonly typeHint?: string;
}

const formatName = "GIFT";

/** Characters read between two yields to the event loop: a few milliseconds of work. */
const charactersPerSlice = 256 * 1024;

/** Splits the file into question chunks at blank lines outside braces, dropping `//` comment lines. */
async function chunksOf(source: string): Promise<Chunk[]> {
  const lines = source.replace(/^\uFEFF/, "").split(/\r?\n/);
  const chunks: Chunk[] = [];
  let current: string[] = [];
  let startLine = 0;
  let depth = 0;
  let hint: string | undefined;
  let pendingHint: string | undefined;
  const flush = (): void => {
    if (current.some((line) => line.trim() !== "")) chunks.push({ text: current.join("\n"), line: startLine, ...(hint ? { typeHint: hint } : {}) });
    current = [];
    hint = undefined;
  };
  // A large file is split in slices, with the event loop free between them.
  const slicer = new WorkSlicer(charactersPerSlice);
  for (const [index, line] of lines.entries()) {
    await slicer.done(line.length + 1);
    if (/^\s*\/\//.test(line)) {
      const typed = /^\/\/ \S+ \(([a-z_]+)\)\s*$/.exec(line)?.[1];
      if (typed && depth === 0) pendingHint = typed;
      continue;
    }
    if (line.trim() === "" && depth === 0) {
      flush();
      continue;
    }
    if (current.length === 0) {
      startLine = index + 1;
      hint = pendingHint;
      pendingHint = undefined;
    }
    current.push(line);
    for (let at = 0; at < line.length; at++) {
      const character = line[at];
      if (character === "\\") at++;
      else if (character === "{") depth++;
      else if (character === "}") depth--;
      if (depth < 0 || depth > 1) {
        const what = depth < 0 ? "a closing brace } with no opening one" : "an opening brace { inside another";
        throw itemError(formatName, `at line ${index + 1}`, `has ${what} (escape a literal brace as \\{ or \\})`, { line: index + 1 });
      }
    }
  }
  if (depth !== 0) throw itemError(formatName, `starting at line ${startLine}`, "opens an answer block with { that is never closed with }", { line: startLine });
  flush();
  return chunks;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, (_match, character: string) => (character === "n" ? "\n" : character));
}

/** Splits at unescaped occurrences of any of `marks`, keeping the mark at the start of each piece. */
function splitUnescaped(text: string, marks: RegExp): string[] {
  const pieces: string[] = [];
  let current = "";
  for (let at = 0; at < text.length; at++) {
    const character = text[at] as string;
    if (character === "\\") {
      current += character + (text[at + 1] ?? "");
      at++;
      continue;
    }
    if (marks.test(character) && current.trim() !== "") {
      pieces.push(current);
      current = "";
    }
    current += character;
  }
  if (current.trim() !== "") pieces.push(current);
  return pieces;
}

/** Text up to the first unescaped `#`, and what follows it. */
function beforeHash(text: string): [string, string | undefined] {
  for (let at = 0; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === "#") return [text.slice(0, at), text.slice(at + 1)];
  }
  return [text, undefined];
}

function indexUnescaped(text: string, character: string): number {
  for (let at = 0; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === character) return at;
  }
  return -1;
}

interface Answer {
  readonly mark: "=" | "~";
  readonly weight?: number;
  readonly text: string;
  readonly feedback?: string;
}

function answersOf(body: string): { answers: Answer[]; general?: string } {
  let rest = body;
  let general: string | undefined;
  const generalAt = rest.search(/(?<!\\)####/);
  if (generalAt >= 0) {
    general = unescape(rest.slice(generalAt + 4)).trim();
    rest = rest.slice(0, generalAt);
  }
  const answers = splitUnescaped(rest.trim(), /[=~]/).map((piece): Answer => {
    const mark = piece.trim().startsWith("=") ? "=" : "~";
    let text = piece.trim().slice(1);
    const weight = /^%(-?\d+(?:\.\d+)?)%/.exec(text);
    if (weight) text = text.slice(weight[0].length);
    const [answer, feedback] = beforeHash(text);
    return { mark, ...(weight ? { weight: Number(weight[1]) } : {}), text: unescape(answer).trim(), ...(feedback !== undefined ? { feedback: unescape(feedback).trim() } : {}) };
  });
  return { answers, ...(general ? { general } : {}) };
}

function withFeedback(text: string | undefined): { feedback?: string } {
  return text ? { feedback: text } : {};
}

function plainFromHtml(html: string): string {
  // A scanner, not /<[^>]*>/g, which reads to the end of the text again from every `<` that has no `>`.
  return decodeHtmlEntities(stripTags(html));
}

function textOf(raw: string, notes: string[]): string {
  const format = /^\s*\[(html|moodle|plain|markdown)\]/.exec(raw);
  const body = unescape(format ? raw.slice(format[0].length) : raw).trim();
  if (format?.[1] === "html") {
    notes.push("HTML formatting was turned into plain text");
    return plainFromHtml(body);
  }
  return body;
}

/**
 * A GIFT numerical answer block (after its `#`): `value`, `value:tolerance` or `min..max`, alone or as
 * `=`-answers with `#feedback`; the first full-credit answer is the right one. A string says why not.
 */
/**
 * "min..max" split at its last "..", as the greedy `^(-?[\d.]+)\.\.(-?[\d.]+)$` would, without that
 * expression's quadratic backtracking on a long run of digits and dots that does not end well.
 */
function rangeOf(text: string): [string, string, string] | null {
  const at = text.lastIndexOf("..");
  if (at <= 0) return null;
  const [min, max] = [text.slice(0, at), text.slice(at + 2)];
  return /^-?[\d.]+$/.test(min) && /^-?[\d.]+$/.test(max) ? [text, min, max] : null;
}

function giftNumber(body: string, notes: string[]): Record<string, unknown> | string {
  const [answersPart = "", general] = body.split(/(?<!\\)####/);
  const answers = answersPart.split(/(?<!\\)[=~]/).map((part) => part.trim()).filter(Boolean);
  const parsed = answers.map((answer) => {
    const [numberText = "", feedbackText] = answer.split(/(?<!\\)#/);
    const credit = /^%(-?\d+(?:\.\d+)?)%/.exec(numberText);
    const number = numberText.replace(/^%-?\d+(?:\.\d+)?%/, "").trim();
    return { number, credit: credit ? Number(credit[1]) : 100, feedback: feedbackText ? unescape(feedbackText).trim() : undefined };
  });
  const right = parsed.find((answer) => answer.credit >= 100);
  if (!right) return "its numerical answer has no fully right value";
  if (parsed.filter((answer) => answer.credit > 0).length > 1) notes.push("more right or partly right numbers were dropped: a numeric question has one right value or range");
  const range = rangeOf(right.number);
  const tolerant = /^(-?[\d.]+)(?::([\d.]+))?$/.exec(right.number);
  const explanation = general ? { explanation: unescape(general).trim() } : {};
  const feedback = right.feedback ? { correctFeedback: right.feedback } : {};
  if (range && Number.isFinite(Number(range[1])) && Number.isFinite(Number(range[2]))) return { min: Number(range[1]), max: Number(range[2]), ...feedback, ...explanation };
  if (tolerant && Number.isFinite(Number(tolerant[1]))) {
    const tolerance = Number(tolerant[2] ?? "0");
    return { value: Number(tolerant[1]), ...(tolerance > 0 ? { tolerance } : {}), ...feedback, ...explanation };
  }
  return `its numerical answer "${right.number.slice(0, 40)}" is not a number, a number:tolerance or a min..max range`;
}

function readQuestion(chunk: Chunk, pool: ImportedPool, builder: BankBuilder): void {
  let rest = chunk.text.trim();
  const title = /^::((?:\\.|[^:\\]|:(?!:))*)::/.exec(rest);
  if (title) rest = rest.slice(title[0].length);
  const item = title ? `"${unescape(title[1] ?? "").trim()}" (line ${chunk.line})` : `at line ${chunk.line}`;
  builder.countItem(item, pool);
  const open = indexUnescaped(rest, "{");
  if (open < 0) {
    builder.drop(item, "a description without answers is not a question");
    return;
  }
  const close = indexUnescaped(rest.slice(open), "}") + open;
  const notes: string[] = [];
  const before = textOf(rest.slice(0, open), notes);
  const rawAfter = unescape(rest.slice(close + 1)).trimEnd();
  const after = rawAfter.trim();
  const body = rest.slice(open + 1, close).trim();
  const base = { points: 1 };
  if (body === "" || /^####/.test(body)) {
    const general = body.startsWith("####") ? unescape(body.slice(4)).trim() : "";
    notes.push("an essay in GIFT has no model answer: write one for learners to compare with");
    builder.add(pool, item, { type: "open_response", prompt: before || after || "(no prompt)", ...base, modelAnswer: "(no model answer given)", ...(general ? { explanation: general } : {}) }, notes);
    return;
  }
  if (body.startsWith("#")) {
    const numeric = giftNumber(body.slice(1), notes);
    if (typeof numeric === "string") return builder.drop(item, numeric);
    builder.add(pool, item, { type: "numeric", prompt: before || after || "(no prompt)", ...base, ...numeric }, notes);
    return;
  }
  const trueFalse = /^(T|TRUE|F|FALSE)(?=\s*(#|$))/.exec(body);
  if (trueFalse) {
    const answer = trueFalse[1]?.startsWith("T") === true;
    const { general } = answersOf(body.replace(/^(T|TRUE|F|FALSE)/, ""));
    const feedbacks = body
      .slice((trueFalse[1] ?? "").length)
      .replace(/(?<!\\)####[\s\S]*$/, "")
      .split(/(?<!\\)#/)
      .slice(1)
      .map((part) => unescape(part).trim());
    // The first feedback is for the wrong answer, the second for the right one.
    const [wrong, right] = feedbacks;
    const trueFeedback = answer ? right : wrong;
    const falseFeedback = answer ? wrong : right;
    builder.add(pool, item, { type: "true_false", prompt: before || after, ...base, answer, ...(trueFeedback ? { trueFeedback } : {}), ...(falseFeedback ? { falseFeedback } : {}), ...(general ? { explanation: general } : {}) }, notes);
    return;
  }
  const html = /^\s*\[html\]/.test(rest);
  const parsed = answersOf(body);
  const answers = html ? parsed.answers.map((answer) => ({ ...answer, text: plainFromHtml(answer.text), ...(answer.feedback ? { feedback: plainFromHtml(answer.feedback) } : {}) })) : parsed.answers;
  const general = html && parsed.general ? plainFromHtml(parsed.general) : parsed.general;
  const explanation = general ? { explanation: general } : {};
  if (answers.length === 0) return builder.drop(item, "its answer block has no answers");
  if (answers.every((answer) => answer.mark === "=" && answer.text.includes("->"))) {
    const pairs = answers.map((answer) => {
      const [left = "", right = ""] = answer.text.split("->").map((part) => part.trim());
      return { left, right };
    });
    if (chunk.typeHint === "sorting") {
      const categories = [...new Set(pairs.map((pair) => pair.right))].map((title) => ({ title }));
      builder.add(pool, item, { type: "sorting", prompt: before, ...base, ...explanation, categories, items: pairs.map((pair) => ({ text: pair.left, category: pair.right })) }, notes);
      return;
    }
    const matched = pairs.filter((pair) => pair.left !== "");
    if (matched.length < pairs.length) notes.push("extra right-hand answers without a left item were dropped");
    builder.add(pool, item, { type: "matching", prompt: before, ...base, ...explanation, pairs: matched }, notes);
    return;
  }
  if (answers.every((answer) => answer.mark === "=")) {
    // The sentence keeps its spaces up to the blank.
    // Read backwards, not with /\s*$/, which scans a long run of spaces again from each of them.
    const lastSpace = trailingWhitespace(unescape(rest.slice(0, open))).replace(/\n/g, "");
    const split = before.lastIndexOf("\n\n");
    const [prompt, lead] = split >= 0 ? [before.slice(0, split), before.slice(split + 2)] : after === "" ? [before, ""] : ["Fill in the blank.", before];
    if (answers.some((answer) => answer.feedback)) notes.push("feedback per accepted answer was dropped (a blank has one feedback for a wrong answer)");
    builder.add(pool, item, { type: "fill_in_blank", prompt: prompt || "Fill in the blank.", ...base, ...explanation, text: `${lead}${lead ? lastSpace : ""}{{1}}${rawAfter}`, blanks: [{ answers: answers.map((answer) => answer.text), caseSensitive: false }] }, notes);
    return;
  }
  const weighted = answers.some((answer) => answer.weight !== undefined);
  const correct = answers.filter((answer) => (answer.weight !== undefined ? answer.weight > 0 : answer.mark === "="));
  const choices = answers.map((answer) => ({ text: answer.text, correct: correct.includes(answer), ...withFeedback(answer.feedback) }));
  const single = !weighted && correct.length === 1;
  const positive = correct.map((answer) => answer.weight ?? 100);
  const even = positive.every((weight) => Math.abs(weight - 100 / positive.length) < 0.01);
  if (weighted && !even) notes.push("choice weights became right (positive) or wrong; the question scores only the exact set of right choices");
  builder.add(pool, item, { type: single ? "single_choice" : "multiple_choice", prompt: before || after, ...base, ...explanation, choices }, after && before ? [...notes, "text after the answers was dropped"] : notes);
}

/** Characters a regular expression's `.` does not match: a category line ends at none of them but `\n`. */
const lineBreaks = new Set(["\n", "\r", "\u2028", "\u2029"]);

/**
 * A `$CATEGORY:` line at the start of a chunk (after any whitespace): its path, without the spaces
 * before it, and the length read up to and including its newline; null when the chunk starts otherwise.
 * Read by index, as `/^\s*\$CATEGORY:[ \t]*(.*)(?:\n|$)/` would, but without that expression's
 * backtracking between `[ \t]*` and `(.*)`, quadratic on a long run of tabs before a `\r`.
 */
export function categoryLine(text: string): { path: string; length: number } | null {
  let at = 0;
  while (at < text.length && /\s/.test(text[at] as string)) at++;
  if (!text.startsWith("$CATEGORY:", at)) return null;
  at += "$CATEGORY:".length;
  while (text[at] === " " || text[at] === "\t") at++;
  let end = at;
  while (end < text.length && !lineBreaks.has(text[end] as string)) end++;
  if (end < text.length && text[end] !== "\n") return null;
  return { path: text.slice(at, end), length: end < text.length ? end + 1 : end };
}

export async function readGift(source: string): Promise<ImportedBank> {
  const builder = new BankBuilder(formatName);
  let pool: ImportedPool | undefined;
  const slicer = new WorkSlicer(charactersPerSlice);
  for (const read of await chunksOf(source)) {
    let chunk = read;
    // Every chunk costs at least a line's worth, so many small questions yield as often as a long one.
    await slicer.done(Math.max(chunk.text.length, 1024));
    const category = categoryLine(chunk.text);
    if (category) {
      const path = category.path.replace(/\/\//g, "\u0000").split("/").map((part) => part.replace(/\u0000/g, "/").trim());
      pool = builder.pool(path.at(-1) ?? "");
      // A question may follow its category line without a blank line between.
      const rest = chunk.text.slice(category.length);
      if (rest.trim() === "") continue;
      chunk = { ...chunk, text: rest, line: chunk.line + 1 };
    }
    pool ??= builder.pool("Imported questions");
    readQuestion(chunk, pool, builder);
  }
  return builder.result();
}
