/**
 * Whether a PDF carries content that acts on its own or reaches out, so an upload can be refused: a
 * course hands PDFs to learners' browsers and readers, which must only display them. Every name is read
 * with its `#xx` escapes decoded (`/J#61vaScript` is `/JavaScript`), and the dictionaries inside
 * compressed object streams (`/Type /ObjStm`, FlateDecode) are inflated within a byte cap and read too.
 *
 * Refused: script (`/JavaScript`, `/JS`), launching programs (`/Launch`), forms that send or load data
 * (`/SubmitForm`, `/ImportData`, `/XFA`), embedded files and media (`/EmbeddedFile(s)`, `/RichMedia`,
 * `/GoToE`), actions that run on events (`/AA`), and an `/OpenAction` that does anything but show a
 * page (a destination, or a `/GoTo` action). Links a reader clicks (`/URI` in an annotation) are kept.
 * A PDF whose object streams cannot be inflated within the limits cannot be checked, so it is refused.
 *
 * Time is linear in the file (every search moves forward), and the text is read in slices with a
 * yield to the event loop between them.
 */
import { inflateBounded } from "./inflate.ts";
import { yieldToEventLoop } from "./event-loop.ts";

export const pdfScanLimits = {
  /** Object streams inflated per file. */
  objectStreams: 10_000,
  /** Bytes all object streams of one file may inflate to together. */
  inflatedBytes: 32 * 1024 * 1024,
  /** Ratio allowed once a stream's output passes a megabyte. */
  ratio: 1000,
  /** `/OpenAction`s judged: a file has one catalog, and a few more in its incremental updates. */
  openActions: 64,
} as const;

const refusedNames: Record<string, string> = {
  JavaScript: "script",
  JS: "script",
  Launch: "an action that launches a program",
  SubmitForm: "a form that sends data",
  ImportData: "a form that loads data",
  XFA: "an XFA form, which can run script",
  EmbeddedFile: "an embedded file",
  EmbeddedFiles: "embedded files",
  RichMedia: "embedded media that can run",
  GoToE: "an action that opens an embedded file",
  AA: "actions that run on their own when a page or field is opened",
};

const nameChar = "[^\\s/<>\\[\\]()%{}\\u0000]";
const namePattern = new RegExp(`/(${nameChar}*)`, "g");
/** The names worth decoding: those spelled like a refused name or /OpenAction, and any with an escape. */
const suspectNames = new RegExp(`/((?:${[...Object.keys(refusedNames), "OpenAction"].join("|")})(?!${nameChar})|${nameChar}*#${nameChar}*)`, "g");
/**
 * The value of a dictionary's first `/Filter` (an array `[…]` or one `/Name`), or "" when it has none,
 * as `/\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]]+)/.exec(dictionary)?.[1]`, read by index: that expression
 * reads to the end again from every `/Filter[` when no `]` follows (quadratic on repeated `/Filter[`).
 */
export function filterValue(dictionary: string): string {
  const lastClose = dictionary.lastIndexOf("]");
  for (let at = dictionary.indexOf("/Filter"); at >= 0; at = dictionary.indexOf("/Filter", at + 1)) {
    let value = at + "/Filter".length;
    while (value < dictionary.length && /\s/.test(dictionary[value] as string)) value++;
    if (dictionary[value] === "[" && value < lastClose) return dictionary.slice(value, dictionary.indexOf("]", value) + 1);
    if (dictionary[value] !== "/") continue;
    let end = value + 1;
    while (end < dictionary.length && !/[\s/<>[\]]/.test(dictionary[end] as string)) end++;
    if (end > value + 1) return dictionary.slice(value, end);
  }
  return "";
}

const objectHeader = /(\d{1,10})\s+(\d{1,5})\s+obj\b/g;
const sliceLength = 256 * 1024;
/** More than any name or object header worth reading, so none is cut at a slice boundary. */
const sliceOverlap = 256;

/** A PDF name with its `#xx` escapes decoded. */
export function decodePdfName(raw: string): string {
  return raw.includes("#") ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : raw;
}

/** Matches handled between yields, whatever the slice: a file can be nothing but matches. */
const matchesPerTurn = 2048;

/** Each match of the global `pattern` in `text`, read slice by slice with a yield between slices and every few thousand matches. */
async function* matchesOf(text: string, pattern: RegExp): AsyncGenerator<RegExpMatchArray & { at: number }> {
  let count = 0;
  for (let start = 0; start < text.length; start += sliceLength) {
    for (const match of text.slice(start, start + sliceLength + sliceOverlap).matchAll(pattern)) {
      const index = match.index ?? 0;
      if (index >= sliceLength) break;
      yield Object.assign(match, { at: start + index });
      if (++count % matchesPerTurn === 0) await yieldToEventLoop();
    }
    if (start + sliceLength < text.length) await yieldToEventLoop();
  }
}

interface NameScan {
  /** Why the text is refused, or null. */
  refused: string | null;
  /** Where the value of each /OpenAction begins. */
  openActions: number[];
}

async function scanNames(text: string): Promise<NameScan> {
  const openActions: number[] = [];
  for await (const match of matchesOf(text, suspectNames)) {
    const name = decodePdfName(match[1] ?? "");
    const why = refusedNames[name];
    if (why) return { refused: `(/${name}): it holds ${why}`, openActions };
    if (name === "OpenAction") openActions.push(match.at + match[0].length);
  }
  return { refused: null, openActions };
}

/** Why the PDF is refused, as "(/Name): what it does", or null when it only displays. */
export async function activePdfContent(bytes: Uint8Array): Promise<string | null> {
  const text = new TextDecoder("latin1").decode(bytes);
  const outside = await scanNames(text);
  if (outside.refused) return outside.refused;
  const streams = await objectStreams(bytes, text);
  if (typeof streams === "string") return streams;
  const openActions = outside.openActions.map((at) => ({ source: text, at }));
  for (const decoded of streams.texts) {
    const inside = await scanNames(decoded);
    if (inside.refused) return `${inside.refused}, inside a compressed object stream`;
    openActions.push(...inside.openActions.map((at) => ({ source: decoded, at })));
  }
  if (openActions.length > pdfScanLimits.openActions) return `(/OpenAction): it names more than ${pdfScanLimits.openActions} actions to run as it opens`;
  for (const { source, at } of openActions) {
    const problem = openActionProblem(source.slice(at, at + 4096).trimStart(), text, streams);
    if (problem) return problem;
  }
  return null;
}

/** What the object streams hold: their whole text, and each object by number. */
interface ObjectStreams {
  texts: string[];
  objects: Map<string, string>;
  /** Where each "N G obj" of the file itself begins its body, by "N G" (the last definition wins). */
  bodies: Map<string, number>;
}

/**
 * Finds the first occurrence of `word` at or after a position, remembering the last answer: asked for
 * positions that only move forward, all lookups together read the text once.
 */
function forwardFinder(text: string, word: string, skip?: (at: number) => boolean) {
  let found = -2;
  let from = 0;
  return (at: number): number => {
    // The last answer holds for any position between where it was looked for and where it was found.
    if (found === -2 || at < from || (found >= 0 && at > found)) {
      from = at;
      found = text.indexOf(word, at);
      while (found >= 0 && skip?.(found)) found = text.indexOf(word, found + word.length);
    }
    return found;
  };
}

/**
 * The decoded text of every object stream, or why they cannot be read. `text` is `bytes` decoded one
 * character per byte, so an index in one is the same place in the other. Every "N G obj" is looked at
 * (even one inside another stream's data: a reader may reach it through the cross-reference table).
 */
async function objectStreams(bytes: Uint8Array, text: string): Promise<ObjectStreams | string> {
  const texts: string[] = [];
  const objects = new Map<string, string>();
  const bodies = new Map<string, number>();
  const starts: number[] = [];
  for await (const match of matchesOf(text, objectHeader)) {
    const body = match.at + match[0].length;
    starts.push(body);
    bodies.set(`${match[1]} ${match[2]}`, body);
  }
  const nextStream = forwardFinder(text, "stream", (at) => text.startsWith("endstream", at - 3));
  const nextEnd = forwardFinder(text, "endstream");
  let budget: number = pdfScanLimits.inflatedBytes;
  for (const [index, body] of starts.entries()) {
    if (index % 4096 === 4095) await yieldToEventLoop();
    const keyword = nextStream(body);
    if (keyword < 0) break;
    if (keyword >= (starts[index + 1] ?? text.length)) continue;
    const after = keyword + 6;
    const dataStart = text[after] === "\r" && text[after + 1] === "\n" ? after + 2 : text[after] === "\n" || text[after] === "\r" ? after + 1 : -1;
    if (dataStart < 0) continue;
    const dictionary = text.slice(body, keyword).replace(namePattern, (_, raw: string) => `/${decodePdfName(raw)}`);
    if (!/\/Type\s*\/ObjStm\b/.test(dictionary)) continue;
    if (texts.length >= pdfScanLimits.objectStreams) return `(/ObjStm): it has more than ${pdfScanLimits.objectStreams} object streams, more than can be checked`;
    const filters = [...filterValue(dictionary).matchAll(/\/([^\s/<>[\]]+)/g)].map((match) => match[1]);
    const end = nextEnd(dataStart);
    if (end < 0) return "(/ObjStm): an object stream has no end, so it cannot be checked";
    let decoded: string;
    if (filters.length === 0) {
      if (end - dataStart > budget) return `(/ObjStm): its object streams hold more than ${pdfScanLimits.inflatedBytes} bytes, more than can be checked`;
      decoded = text.slice(dataStart, end);
      budget -= decoded.length;
    } else {
      if (filters.length !== 1 || filters[0] !== "FlateDecode") return `(/ObjStm): an object stream is encoded with ${filters.join(", ")}, which cannot be checked; only FlateDecode is read`;
      const outcome = await inflateBounded(trimEndOfLine(bytes.subarray(dataStart, end)), "zlib", { maxBytes: budget, maxRatio: pdfScanLimits.ratio, ratioFloorBytes: 1024 * 1024 });
      if (outcome.kind === "damaged") return `(/ObjStm): an object stream does not inflate (${outcome.reason}), so it cannot be checked`;
      if (outcome.kind === "limit") return `(/ObjStm): its object streams inflate to more than ${outcome.limit === "maxBytes" ? `${pdfScanLimits.inflatedBytes} bytes` : `${pdfScanLimits.ratio}:1`}, more than can be checked`;
      budget -= outcome.bytes.length;
      decoded = new TextDecoder("latin1").decode(outcome.bytes);
    }
    texts.push(decoded);
    indexObjects(dictionary, decoded, objects);
  }
  return { texts, objects, bodies };
}

/** An object stream starts with pairs "number offset", offsets counted from /First. */
function indexObjects(dictionary: string, decoded: string, objects: Map<string, string>): void {
  const count = Number(/\/N\s+(\d+)/.exec(dictionary)?.[1] ?? 0);
  const first = Number(/\/First\s+(\d+)/.exec(dictionary)?.[1] ?? 0);
  const pairs = decoded.slice(0, first).trim().split(/\s+/).map(Number);
  for (let index = 0; index < Math.min(count, pairs.length / 2); index++) {
    const number = pairs[index * 2];
    const offset = pairs[index * 2 + 1];
    const next = index + 1 < count ? pairs[index * 2 + 3] : undefined;
    if (number === undefined || offset === undefined || Number.isNaN(number) || Number.isNaN(offset)) continue;
    objects.set(String(number), decoded.slice(first + offset, next === undefined || Number.isNaN(next) ? decoded.length : first + next).trim());
  }
}

/** Stream data ends with an end-of-line before `endstream`; zlib ignores trailing bytes but strip it anyway. */
function trimEndOfLine(data: Uint8Array): Uint8Array {
  let end = data.length;
  if (data[end - 1] === 0x0a) end -= 1;
  if (data[end - 1] === 0x0d) end -= 1;
  return data.subarray(0, end);
}

/** An /OpenAction may show a page (a destination array, or a /GoTo action); anything else is refused. */
function openActionProblem(value: string, text: string, streams: ObjectStreams): string | null {
  if (value.startsWith("[")) return null;
  if (value.startsWith("<<")) return actionDictionaryProblem(value);
  const reference = /^(\d+)\s+(\d+)\s+R\b/.exec(value);
  if (!reference) return "(/OpenAction): it opens with an action that cannot be read";
  const at = streams.bodies.get(`${reference[1]} ${reference[2]}`);
  const body = at !== undefined ? text.slice(at, at + 4096).trimStart() : streams.objects.get(reference[1] ?? "");
  if (body === undefined) return "(/OpenAction): it opens with an action in an object this service cannot find";
  return body.startsWith("[") ? null : body.startsWith("<<") ? actionDictionaryProblem(body) : "(/OpenAction): it opens with an action that cannot be read";
}

function actionDictionaryProblem(raw: string): string | null {
  const dictionary = raw.replace(namePattern, (_, name: string) => `/${decodePdfName(name)}`);
  if (/\/Next\b/.test(dictionary.slice(0, dictionary.indexOf(">>") + 2 || undefined))) return "(/OpenAction /Next): it runs a chain of actions as it opens";
  const kind = /\/S\s*\/([^\s/<>[\]()]+)/.exec(dictionary)?.[1];
  if (kind === undefined) return /^<<\s*\/D\b/.test(dictionary) ? null : "(/OpenAction): it opens with an action that cannot be read";
  return kind === "GoTo" ? null : `(/OpenAction /${kind}): it runs an action as it opens`;
}
