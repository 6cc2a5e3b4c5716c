/**
 * The calls the package job (`package-job.ts`, on a worker thread) makes to its caller
 * (`package-off-thread.ts`) through `JobHost.call`, named once for both sides.
 */
export const packageJobCalls = { openAsset: "openAsset", chunk: "chunk" } as const;
