/**
 * The exporters' `AssetSource` over a course's stored assets. Descriptions come from the asset rows
 * read with the course (one consistent read); bytes are read one asset at a time, each in its own short
 * read transaction, while the zip streams. Stored bytes never change (they are kept by content hash),
 * so reading them after the course was read is safe.
 */
import type { AssetRow, AuthoringStore } from "../store/types.ts";
import type { AssetInfo, AssetSource } from "../formats/package/types.ts";

/**
 * The descriptions `courseAssetSource` gives, as plain data for a build on another thread. `rows` are the
 * assets the course may show: its own and the others its content uses (authoring/asset-access.ts).
 */
export function assetInfos(rows: readonly AssetRow[]): Map<string, AssetInfo> {
  return new Map(rows.map((row) => [row.id, { mimeType: row.mediaType, fileName: row.filename, size: row.byteSize }]));
}

export function courseAssetSource(store: Pick<AuthoringStore, "read">, courseId: string, rows: readonly AssetRow[]): AssetSource {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    async describe(assetId) {
      const row = byId.get(assetId);
      return row ? { mimeType: row.mediaType, fileName: row.filename, size: row.byteSize } : null;
    },
    async open(assetId) {
      const bytes = byId.has(assetId) ? await store.read((tx) => tx.readAssetBytes(assetId)) : undefined;
      if (!bytes) throw new Error(`asset ${assetId} of course ${courseId} has no stored bytes`);
      return bytes;
    },
  };
}
