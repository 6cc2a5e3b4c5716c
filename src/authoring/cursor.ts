/**
 * Opaque page cursors: the keyset position of the last item, base64url-encoded JSON, so a client can
 * only hand back what a list tool gave it. A tampered cursor is an `invalid_arguments` error.
 */
import * as v from "valibot";
import { invalidArgument } from "./errors.ts";
import { fromBase64url, toBase64url, utf8Bytes, utf8Text } from "../bytes.ts";

const keysetSchema = v.object({ createdAt: v.string(), id: v.string() });
export type Keyset = v.InferOutput<typeof keysetSchema>;

export function encodeCursor(keyset: Keyset): string {
  return toBase64url(utf8Bytes(JSON.stringify({ createdAt: keyset.createdAt, id: keyset.id })));
}

export function decodeCursor(cursor: string | undefined, tool: string): Keyset | undefined {
  if (cursor === undefined) return undefined;
  try {
    return v.parse(keysetSchema, JSON.parse(utf8Text(fromBase64url(cursor))));
  } catch {
    throw invalidArgument("cursor", `is not a cursor returned by ${tool}; pass nextCursor from the previous page, or omit it for the first page`);
  }
}

/** Takes one item more than the page to learn whether another page exists. */
export function pageOf<T extends Keyset>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
