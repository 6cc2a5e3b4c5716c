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
 * Time is linear in the file (every search moves forward), and one clock (`TimeSlicer`) paces the
 * whole scan: matches, objects, object streams and their inflation yield to the event loop whenever
 * 10 ms of work have passed, however small or many the pieces (400,000 tiny objects, or 10,000 tiny
 * object streams, each cost little but together held the loop for seconds between count-based yields).
 */
import { inflateBounded } from "./inflate.ts";
import { TimeSlicer } from "./event-loop.ts";

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

/**
 * Calls `visit` for each match of the global `pattern` in `text`, read slice by slice, pausing whenever
 * the scan's time budget is spent; `visit` returning false stops the scan. A plain loop, not an async
 * generator: a file can be nothing but matches, and a promise per match is work the collector pays for.
 */
async function eachMatch(text: string, shared: RegExp, slicer: TimeSlicer, visit: (match: RegExpExecArray, at: number) => boolean | void): Promise<void> {
  // A copy of its own: scans of two uploads interleave at their pauses, and `lastIndex` is the regex's state.
  const pattern = new RegExp(shared.source, shared.flags);
  for (let start = 0; start < text.length; start += sliceLength) {
    const slice = text.slice(start, start + sliceLength + sliceOverlap);
    pattern.lastIndex = 0;
    for (let match = pattern.exec(slice); match !== null; match = pattern.exec(slice)) {
      if (match.index >= sliceLength) break;
      if (visit(match, start + match.index) === false) return;
      if (match[0].length === 0) pattern.lastIndex += 1;
      if (slicer.due()) await slicer.pause();
    }
    if (slicer.due()) await slicer.pause();
  }
}

/**
 * The bytes as text, one character per byte so that an index in one is the same place in the other:
 * ASCII as itself, every byte above 0x7F as "~". Only ASCII means anything to the scan (names,
 * keywords, delimiters); a high byte is a plain name character, as "~" is. Decoding bytes above 0x7F
 * (latin1, which decoders read as windows-1252) cost hundreds of milliseconds per 10 MB in one
 * uninterruptible call; pure ASCII becomes a string by copying, and the mapping pauses as it goes.
 */
async function textOf(bytes: Uint8Array, slicer: TimeSlicer): Promise<string> {
  const ascii = new Uint8Array(bytes.length);
  for (let at = 0; at < bytes.length; at += textPieceBytes) {
    const end = Math.min(bytes.length, at + textPieceBytes);
    for (let index = at; index < end; index++) {
      const byte = bytes[index] ?? 0;
      ascii[index] = byte < 0x80 ? byte : 0x7e;
    }
    if (slicer.due()) await slicer.pause();
  }
  // Every byte is ASCII now, so UTF-8 decoding is a copy (and needs no runtime's Buffer).
  return asciiDecoder.decode(ascii);
}

const textPieceBytes = 256 * 1024;
const asciiDecoder = new TextDecoder("utf-8");

interface NameScan {
  /** Why the text is refused, or null. */
  refused: string | null;
  /** Where the value of each /OpenAction begins: the first few past the limit, enough to know it was passed. */
  openActions: number[];
  /** How many /OpenAction names there were in all. */
  openActionCount: number;
}

async function scanNames(text: string, slicer: TimeSlicer): Promise<NameScan> {
  const scan: NameScan = { refused: null, openActions: [], openActionCount: 0 };
  await eachMatch(text, suspectNames, slicer, (match, at) => {
    const name = decodePdfName(match[1] ?? "");
    const why = refusedNames[name];
    if (why) {
      scan.refused = `(/${name}): it holds ${why}`;
      return false;
    }
    if (name !== "OpenAction") return;
    scan.openActionCount += 1;
    if (scan.openActions.length <= pdfScanLimits.openActions) scan.openActions.push(at + match[0].length);
  });
  return scan;
}

/** Why the PDF is refused, as "(/Name): what it does", or null when it only displays. */
export async function activePdfContent(bytes: Uint8Array): Promise<string | null> {
  const slicer = new TimeSlicer();
  const text = await textOf(bytes, slicer);
  const outside = await scanNames(text, slicer);
  if (outside.refused) return outside.refused;
  const streams = await objectStreams(bytes, text, slicer);
  if (typeof streams === "string") return streams;
  const openActions = outside.openActions.map((at) => ({ source: text, at }));
  let openActionCount = outside.openActionCount;
  for (const stream of streams.streams) {
    const inside = await scanNames(stream.decoded, slicer);
    if (inside.refused) return `${inside.refused}, inside a compressed object stream`;
    openActionCount += inside.openActionCount;
    if (openActions.length <= pdfScanLimits.openActions) openActions.push(...inside.openActions.map((at) => ({ source: stream.decoded, at })));
  }
  if (openActionCount > pdfScanLimits.openActions) return `(/OpenAction): it names more than ${pdfScanLimits.openActions} actions to run as it opens`;
  const values = openActions.map(({ source, at }) => source.slice(at, at + 4096).trimStart());
  const referenced = await referencedObjects(values, text, streams, slicer);
  for (const value of values) {
    const problem = openActionProblem(value, referenced);
    if (problem) return problem;
  }
  return null;
}

/** One object stream: its decoded text and where its objects begin (`/N` objects, offsets from `/First`). */
interface ObjectStream {
  decoded: string;
  count: number;
  first: number;
}

/**
 * What the object streams hold, and where each "N G obj" of the file itself begins its body, as three
 * parallel lists. Plain lists of numbers, not a map keyed by "N G": a file of 400,000 objects made such a
 * map stop the process for hundreds of milliseconds as it grew, and only the few objects an /OpenAction
 * names are ever looked up (`referencedObjects`).
 */
interface ObjectStreams {
  streams: ObjectStream[];
  headers: { bodies: number[]; numbers: number[]; generations: number[] };
}

const reference = /^(\d+)\s+(\d+)\s+R\b/;

/**
 * The objects the /OpenAction values refer to ("N G R"), by "N G": the body in the file itself (the
 * last definition wins) or, failing that, the object of that number in an object stream. One pass over
 * the headers and, only when a reference is left, one over the streams' object lists.
 */
async function referencedObjects(values: string[], text: string, streams: ObjectStreams, slicer: TimeSlicer): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const wanted = new Set(values.map((value) => reference.exec(value)).flatMap((match) => (match ? [`${match[1]} ${match[2]}`] : [])));
  if (wanted.size === 0) return found;
  const wantedNumbers = new Set([...wanted].map((key) => Number(key.split(" ")[0])));
  const { bodies, numbers, generations } = streams.headers;
  for (let index = 0; index < bodies.length; index++) {
    if (!wantedNumbers.has(numbers[index] ?? -1)) continue;
    const key = `${numbers[index]} ${generations[index]}`;
    if (wanted.has(key)) found.set(key, text.slice(bodies[index], (bodies[index] ?? 0) + 4096).trimStart());
  }
  const inStreams = new Map<number, string>();
  for (const stream of streams.streams) {
    await indexWantedObjects(stream, wantedNumbers, inStreams, slicer);
  }
  for (const key of wanted) {
    const body = inStreams.get(Number(key.split(" ")[0]));
    if (!found.has(key) && body !== undefined) found.set(key, body);
  }
  return found;
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
async function objectStreams(bytes: Uint8Array, text: string, slicer: TimeSlicer): Promise<ObjectStreams | string> {
  const streams: ObjectStream[] = [];
  const headers: ObjectStreams["headers"] = { bodies: [], numbers: [], generations: [] };
  const starts = headers.bodies;
  await eachMatch(text, objectHeader, slicer, (match, at) => {
    headers.bodies.push(at + match[0].length);
    headers.numbers.push(Number(match[1]));
    headers.generations.push(Number(match[2]));
  });
  const nextStream = forwardFinder(text, "stream", (at) => text.startsWith("endstream", at - 3));
  const nextEnd = forwardFinder(text, "endstream");
  let budget: number = pdfScanLimits.inflatedBytes;
  for (const [index, body] of starts.entries()) {
    if (slicer.due()) await slicer.pause();
    const keyword = nextStream(body);
    if (keyword < 0) break;
    if (keyword >= (starts[index + 1] ?? text.length)) continue;
    const after = keyword + 6;
    const dataStart = text[after] === "\r" && text[after + 1] === "\n" ? after + 2 : text[after] === "\n" || text[after] === "\r" ? after + 1 : -1;
    if (dataStart < 0) continue;
    const dictionary = text.slice(body, keyword).replace(namePattern, (_, raw: string) => `/${decodePdfName(raw)}`);
    if (!/\/Type\s*\/ObjStm\b/.test(dictionary)) continue;
    if (streams.length >= pdfScanLimits.objectStreams) return `(/ObjStm): it has more than ${pdfScanLimits.objectStreams} object streams, more than can be checked`;
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
      decoded = await textOf(outcome.bytes, slicer);
    }
    streams.push({ decoded, count: Number(/\/N\s+(\d+)/.exec(dictionary)?.[1] ?? 0), first: Number(/\/First\s+(\d+)/.exec(dictionary)?.[1] ?? 0) });
  }
  return { streams, headers };
}

/** An object stream starts with pairs "number offset", offsets counted from /First; the wanted objects go in `objects` (a later stream's wins). */
async function indexWantedObjects({ decoded, count, first }: ObjectStream, wanted: ReadonlySet<number>, objects: Map<number, string>, slicer: TimeSlicer): Promise<void> {
  // Read token by token with pauses, and no further than /N needs: one stream's list can be megabytes long.
  const header = decoded.slice(0, first);
  const token = /\S+/g;
  const pairs: number[] = [];
  for (let match = token.exec(header); match !== null && pairs.length < count * 2 + 2; match = token.exec(header)) {
    pairs.push(Number(match[0]));
    if (slicer.due()) await slicer.pause();
  }
  for (let index = 0; index < Math.min(count, pairs.length / 2); index++) {
    const number = pairs[index * 2];
    const offset = pairs[index * 2 + 1];
    const next = index + 1 < count ? pairs[index * 2 + 3] : undefined;
    if (number === undefined || offset === undefined || Number.isNaN(number) || Number.isNaN(offset) || !wanted.has(number)) continue;
    objects.set(number, decoded.slice(first + offset, next === undefined || Number.isNaN(next) ? decoded.length : first + next).trim());
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
function openActionProblem(value: string, referenced: ReadonlyMap<string, string>): string | null {
  if (value.startsWith("[")) return null;
  if (value.startsWith("<<")) return actionDictionaryProblem(value);
  const target = reference.exec(value);
  if (!target) return "(/OpenAction): it opens with an action that cannot be read";
  const body = referenced.get(`${target[1]} ${target[2]}`);
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
