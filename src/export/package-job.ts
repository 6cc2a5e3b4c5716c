/**
 * Building a package as a heavy-work job: the whole build (rendering every page, writing manifests,
 * deflating) runs on a worker thread with `buildPackage` as is. What the thread cannot reach, it asks
 * its caller for through the job's host: each asset's bytes (`openAsset`), read from the store on the
 * caller's side, and each chunk of the package is handed over (`chunk`) and taken only as fast as the
 * caller's reader pulls, so memory holds a chunk at a time on both sides. Progress and notices are
 * events. The caller's side is `package-off-thread.ts`.
 */
import { renderCourseHtmlChunks } from "../render/index.ts";
import type { JobHost } from "../workers/heavy-work.ts";
import { buildPackage } from "./build-package.ts";
import { packageJobCalls } from "./package-job-calls.ts";
import type { AssetInfo, AssetSource, BuildPackageOptions, ExportCourse } from "../formats/package/types.ts";

export interface PackageJobInput {
  readonly course: ExportCourse;
  /** The course's assets by ID, as the package's asset source describes them. */
  readonly assets: ReadonlyMap<string, AssetInfo>;
  readonly options: Pick<BuildPackageOptions, "format" | "scoMode" | "variant" | "scope" | "answerKey" | "lrsOrigins" | "courseIri" | "reviewRound">;
}

/** What the job tells its caller while it works. */
export type PackageJobEvent =
  | { kind: "package"; fileName: string; mimeType: string }
  | { kind: "progress"; done: number; total: number; message: string }
  | { kind: "notice"; text: string };


function assetSourceThrough(host: JobHost, assets: ReadonlyMap<string, AssetInfo>): AssetSource {
  return {
    describe: async (assetId) => assets.get(assetId) ?? null,
    open: async (assetId) => (await host.call(packageJobCalls.openAsset, assetId)) as Uint8Array,
  };
}

export async function buildPackageJob(input: PackageJobInput, host: JobHost): Promise<{ chunks: number }> {
  const event = (value: PackageJobEvent) => host.event(value);
  const built = await buildPackage(input.course, {
    ...input.options,
    assets: assetSourceThrough(host, input.assets),
    renderer: renderCourseHtmlChunks,
    onProgress: (done, total, message) => event({ kind: "progress", done, total, message }),
    onNotice: (text) => event({ kind: "notice", text }),
  });
  event({ kind: "package", fileName: built.fileName, mimeType: built.mimeType });
  const reader = built.stream.getReader();
  let chunks = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    await host.call(packageJobCalls.chunk, next.value);
    chunks += 1;
  }
  return { chunks };
}
