/**
 * The JSON text of a course document, made once per document object: a read measures the document
 * to page it, and the tool result then carries the same text, so it was serialised twice per call
 * (and again on every call for a course read often: built documents are kept per version). Sound
 * because a document is never changed once built (see `builtDocument` in courses.ts); only objects
 * passed to `documentJson` are remembered, weakly.
 */
import { utf8Length } from "../bytes.ts";
export interface DocumentJson {
  text: string;
  /** UTF-8 bytes of `text`. */
  bytes: number;
}

const texts = new WeakMap<object, DocumentJson>();

export function documentJson(document: object): DocumentJson {
  let json = texts.get(document);
  if (json === undefined) {
    const text = JSON.stringify(document);
    json = { text, bytes: utf8Length(text) };
    texts.set(document, json);
  }
  return json;
}

/** The JSON already made for `value` by `documentJson`, if any. */
export function rememberedJson(value: unknown): DocumentJson | undefined {
  return typeof value === "object" && value !== null ? texts.get(value) : undefined;
}
