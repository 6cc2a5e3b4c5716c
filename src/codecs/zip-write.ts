/**
 * A pull-driven streaming zip writer over fflate's `Zip`. Entries are taken one at a time from an
 * (async) iterable and their bodies are read chunk by chunk, so the archive is produced as the reader
 * asks for it and only the current chunk is held in memory, however large the course or its media.
 * Text is deflated; media that is already compressed is stored as is.
 */
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { timeSlicer, type SlicePause } from "./event-loop.ts";

/**
 * An entry's bytes; a (lazy) iterable of strings is text in pieces, such as a page rendered block by block,
 * and an async one is read as such first (the renderer's pieces rendered in time slices).
 */
export type ZipBody = string | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string> | Iterable<string> | (() => Promise<ZipBody>);

export interface ZipEntry {
  /** Path inside the archive, `/`-separated, never absolute and never with `..`. */
  readonly path: string;
  readonly body: ZipBody;
  /** Deflate the body (default true); store it for already-compressed media. */
  readonly compress?: boolean;
}

export interface ZipStreamOptions {
  /** Modification time written for every entry, so the same input gives the same bytes. */
  readonly modifiedAt?: Date;
  /** Called after each entry has been written, with the running count. */
  readonly onEntry?: (path: string, written: number) => void;
}

/** Already-compressed formats gain nothing from deflate and cost CPU. */
const storedExtensions = /\.(?:png|jpe?g|gif|webp|avif|mp4|m4v|webm|mov|mp3|m4a|aac|ogg|oga|opus|woff2?|zip|gz|pdf)$/i;

export function isAlreadyCompressed(path: string): boolean {
  return storedExtensions.test(path);
}

/** Rejects paths an unzip tool could write outside its target directory. */
export function assertSafeEntryPath(path: string): void {
  const unsafe =
    path.length === 0 ||
    path.startsWith("/") ||
    path.includes("\\") ||
    path.includes("\0") ||
    path.split("/").some((segment) => segment === "" || segment === "." || segment === "..");
  if (unsafe) throw new Error(`unsafe zip entry path: ${JSON.stringify(path)}`);
}

const encoder = new TextEncoder();
/** Large in-memory bodies are fed to the deflater in slices so each output chunk stays small. */
const sliceBytes = 64 * 1024;

async function* bodyChunks(body: ZipBody, pause: SlicePause): AsyncGenerator<Uint8Array> {
  if (typeof body === "function") {
    yield* bodyChunks(await body(), pause);
    return;
  }
  if (typeof body === "string") {
    yield* bodyChunks(encoder.encode(body), pause);
    return;
  }
  if (body instanceof Uint8Array) {
    for (let offset = 0; offset < body.length; offset += sliceBytes) yield body.subarray(offset, offset + sliceBytes);
    return;
  }
  if (body instanceof ReadableStream) {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (value.length > 0) yield value;
      }
    } finally {
      reader.releaseLock();
    }
  } else if (Symbol.asyncIterator in body) {
    yield* asyncChunks(body, pause);
  } else {
    yield* textSlices(body, pause);
  }
}

/** Bytes as they come; text pieces gathered into slices as `textSlices` does. */
async function* asyncChunks(body: AsyncIterable<Uint8Array | string>, pause: SlicePause): AsyncGenerator<Uint8Array> {
  let text = "";
  for await (const chunk of body) {
    if (typeof chunk !== "string") {
      if (text.length > 0) yield* bodyChunks(text, pause);
      text = "";
      if (chunk.length > 0) yield chunk;
      continue;
    }
    text += chunk;
    if (text.length < sliceBytes) continue;
    yield* bodyChunks(text, pause);
    text = "";
  }
  if (text.length > 0) yield* bodyChunks(text, pause);
}

/**
 * Text in small pieces (a block each) is gathered into slices: the deflater works best on larger input.
 * Each piece is rendered as it is taken, so the event loop gets a turn between pieces once a time
 * slice is used up.
 */
async function* textSlices(pieces: Iterable<string>, pause: SlicePause): AsyncGenerator<Uint8Array> {
  let text = "";
  for (const piece of pieces) {
    text += piece;
    await pause();
    if (text.length < sliceBytes) continue;
    yield* bodyChunks(text, pause);
    text = "";
  }
  if (text.length > 0) yield* bodyChunks(text, pause);
}

/**
 * Yields the archive's bytes. fflate calls back synchronously as data is pushed, so after each push
 * the produced output is drained before the next input chunk is read.
 */
export async function* zipChunks(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>, options: ZipStreamOptions = {}): AsyncGenerator<Uint8Array> {
  const pending: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else if (chunk.length > 0) pending.push(chunk);
  });
  const drain = function* (): Generator<Uint8Array> {
    if (failure) throw failure;
    while (pending.length > 0) {
      const chunk = pending.shift();
      if (chunk) yield chunk;
    }
  };
  const mtime = options.modifiedAt ?? new Date("2000-01-01T00:00:00Z");
  const seen = new Set<string>();
  // Rendering and deflating a large course is long synchronous work; it gives way to other requests.
  const pause = timeSlicer();
  let written = 0;
  for await (const entry of entries) {
    assertSafeEntryPath(entry.path);
    if (seen.has(entry.path)) throw new Error(`duplicate zip entry path: ${entry.path}`);
    seen.add(entry.path);
    const compress = entry.compress ?? !isAlreadyCompressed(entry.path);
    const file = compress ? new ZipDeflate(entry.path, { level: 6 }) : new ZipPassThrough(entry.path);
    file.mtime = mtime;
    zip.add(file);
    for await (const chunk of bodyChunks(entry.body, pause)) {
      file.push(chunk, false);
      yield* drain();
      await pause();
    }
    file.push(new Uint8Array(0), true);
    yield* drain();
    written += 1;
    options.onEntry?.(entry.path, written);
  }
  zip.end();
  yield* drain();
}

/** The archive as a web `ReadableStream`, pulled one chunk at a time; cancelling stops reading entries. */
export function zipStream(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>, options: ZipStreamOptions = {}): ReadableStream<Uint8Array> {
  return pulledStream(zipChunks(entries, options));
}

/** A `ReadableStream` that asks the generator for a chunk only when its reader wants one; cancelling ends the generator. */
export function pulledStream(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
