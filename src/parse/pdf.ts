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
  AA: "actions that run on their own when a page or field is opened (/AA)",
};

const namePattern = /\/([^\s/<>[\]()%{}\u0000]*)/g;
const sliceLength = 1024 * 1024;
/** Enough to hold any name across a slice boundary. */
const sliceOverlap = 256;

/** A PDF name with its `#xx` escapes decoded. */
export function decodePdfName(raw: string): string {
  return raw.includes("#") ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : raw;
}

/** Why the PDF is refused, as "(/Name): what it does", or null when it only displays. */
export async function activePdfContent(bytes: Uint8Array): Promise<string | null> {
  const text = new TextDecoder("latin1").decode(bytes);
  const found = await scanNames(text);
  if (found) return found;
  const streams = await objectStreams(bytes, text);
  if (typeof streams === "string") return streams;
  for (const decoded of streams.texts) {
    const inside = await scanNames(decoded);
    if (inside) return `${inside}, inside a compressed object stream`;
  }
  return openActionProblem(text, streams);
}

/** What the object streams hold: their whole text, and each object by number. */
interface ObjectStreams {
  texts: string[];
  objects: Map<string, string>;
}

async function scanNames(text: string): Promise<string | null> {
  for (let start = 0; start < text.length; start += sliceLength) {
    const slice = text.slice(start, start + sliceLength + sliceOverlap);
    for (const match of slice.matchAll(namePattern)) {
      const name = decodePdfName(match[1] ?? "");
      const why = refusedNames[name];
      if (why) return `(/${name}): it holds ${why}`;
    }
    if (start + sliceLength < text.length) await yieldToEventLoop();
  }
  return null;
}

/** The decoded text of every object stream, or why they cannot be read. */
/** `text` is `bytes` decoded one character per byte, so an index in one is the same place in the other. */
async function objectStreams(bytes: Uint8Array, text: string): Promise<ObjectStreams | string> {
  const texts: string[] = [];
  const objects = new Map<string, string>();
  let budget: number = pdfScanLimits.inflatedBytes;
  let from = 0;
  for (;;) {
    const keyword = text.indexOf("stream", from);
    if (keyword < 0) return { texts, objects };
    from = keyword + 6;
    if (text.startsWith("endstream", keyword - 3)) continue;
    const dataStart = text[from] === "\r" && text[from + 1] === "\n" ? from + 2 : text[from] === "\n" || text[from] === "\r" ? from + 1 : -1;
    if (dataStart < 0) continue;
    const objectStart = text.lastIndexOf(" obj", keyword);
    if (objectStart < 0 || keyword - objectStart > 64 * 1024) continue;
    const dictionary = text.slice(objectStart, keyword).replace(namePattern, (_, raw: string) => `/${decodePdfName(raw)}`);
    if (!/\/Type\s*\/ObjStm\b/.test(dictionary)) continue;
    if (texts.length >= pdfScanLimits.objectStreams) return `(/ObjStm): it has more than ${pdfScanLimits.objectStreams} object streams, more than can be checked`;
    const filters = [...(/\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]]+)/.exec(dictionary)?.[1] ?? "").matchAll(/\/([^\s/<>[\]]+)/g)].map((match) => match[1]);
    const end = text.indexOf("endstream", dataStart);
    if (end < 0) return "(/ObjStm): an object stream has no end, so it cannot be checked";
    from = end + 9;
    const data = bytes.subarray(dataStart, end);
    if (filters.length === 0) {
      texts.push(text.slice(dataStart, end));
      indexObjects(dictionary, text.slice(dataStart, end), objects);
      continue;
    }
    if (filters.length !== 1 || filters[0] !== "FlateDecode") return `(/ObjStm): an object stream is encoded with ${filters.join(", ")}, which cannot be checked; only FlateDecode is read`;
    const outcome = await inflateBounded(trimEndOfLine(data), "zlib", { maxBytes: budget, maxRatio: pdfScanLimits.ratio, ratioFloorBytes: 1024 * 1024 });
    if (outcome.kind === "damaged") return `(/ObjStm): an object stream does not inflate (${outcome.reason}), so it cannot be checked`;
    if (outcome.kind === "limit") return `(/ObjStm): its object streams inflate to more than ${outcome.limit === "maxBytes" ? `${pdfScanLimits.inflatedBytes} bytes` : `${pdfScanLimits.ratio}:1`}, more than can be checked`;
    budget -= outcome.bytes.length;
    const decoded = new TextDecoder("latin1").decode(outcome.bytes);
    texts.push(decoded);
    indexObjects(dictionary, decoded, objects);
  }
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
function openActionProblem(text: string, streams: ObjectStreams): string | null {
  for (const source of [text, ...streams.texts]) {
    for (const match of source.matchAll(namePattern)) {
      if (decodePdfName(match[1] ?? "") !== "OpenAction") continue;
      const at = (match.index ?? 0) + match[0].length;
      const problem = openActionValueProblem(source.slice(at, at + 4096).trimStart(), text, streams);
      if (problem) return problem;
    }
  }
  return null;
}

function openActionValueProblem(value: string, text: string, streams: ObjectStreams): string | null {
  if (value.startsWith("[")) return null;
  if (value.startsWith("<<")) return actionDictionaryProblem(value);
  const reference = /^(\d+)\s+(\d+)\s+R\b/.exec(value);
  if (!reference) return "(/OpenAction): it opens with an action that cannot be read";
  const target = new RegExp(`(?:^|[^0-9])${reference[1]}\\s+${reference[2]}\\s+obj\\b\\s*`).exec(text);
  const body = target ? text.slice(target.index + target[0].length, target.index + target[0].length + 4096) : streams.objects.get(reference[1] ?? "");
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
