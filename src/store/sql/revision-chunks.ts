/**
 * How a revision's change list is stored. A small list stays inline in `revisions.changes` as a JSON
 * array. A large one is cut into chunks at boundaries chosen by the changed rows' IDs (so the same rows
 * cut the same way whatever comes before them), each chunk kept once per course under the hash of its
 * JSON in `revision_chunks`, and the revision stores `{"chunks":[hash, …]}`. Restoring back and forth
 * between two versions then stores references to chunks already kept, not the rows again.
 */
import { createHash } from "node:crypto";
import type { RowChange } from "../types.ts";

/** Change lists up to this many bytes of JSON stay inline. */
export const inlineChangesMaxBytes = 8 * 1024;
const maxChangesPerChunk = 256;
const maxChunkBytes = 256 * 1024;

export interface ChangeChunk {
  hash: string;
  content: string;
  bytes: number;
}

/** What goes in `revisions.changes`, and the chunks it references (in order, repeats included). */
export function storedChanges(changes: readonly RowChange[]): { column: string; chunks: ChangeChunk[] } {
  const inline = JSON.stringify(changes);
  if (inline.length <= inlineChangesMaxBytes) return { column: inline, chunks: [] };
  const chunks: ChangeChunk[] = [];
  let current: string[] = [];
  let currentBytes = 0;
  const close = () => {
    if (current.length === 0) return;
    const content = `[${current.join(",")}]`;
    chunks.push({ hash: createHash("sha256").update(content).digest("hex").slice(0, 32), content, bytes: Buffer.byteLength(content) });
    current = [];
    currentBytes = 0;
  };
  for (const change of changes) {
    const json = JSON.stringify(change);
    current.push(json);
    currentBytes += json.length;
    if (isBoundary(change) || current.length >= maxChangesPerChunk || currentBytes >= maxChunkBytes) close();
  }
  close();
  return { column: JSON.stringify({ chunks: chunks.map((chunk) => chunk.hash) }), chunks };
}

/** About one row in sixteen ends a chunk, chosen by its kind and ID alone (FNV-1a). */
function isBoundary(change: RowChange): boolean {
  let hash = 0x811c9dc5;
  const key = `${change.kind}:${change.id}`;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash & 15) === 0;
}

/** The chunk hashes a stored `changes` column references, or null when the list is inline. */
export function chunkHashesOf(column: string): string[] | null {
  if (!column.startsWith("{")) return null;
  const parsed = JSON.parse(column) as { chunks?: unknown };
  return Array.isArray(parsed.chunks) ? parsed.chunks.map(String) : [];
}

/** Bytes a revision's own row costs besides its changes: its ID, who, which tool, the summary, and bookkeeping. */
export function revisionMetadataBytes(row: { id: string; actorSub: string; tool: string; summary: string }): number {
  return Buffer.byteLength(row.id + row.actorSub + row.tool + row.summary) + 96;
}
