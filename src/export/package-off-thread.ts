/**
 * The caller's side of `package-job.ts`: runs the build on the heavy-work pool and gives back an
 * `ExportPackage` like `buildPackage`'s, once the job has named the file. Its stream is fed by the
 * job's chunks, each taken only when the reader (the package storage) pulls, and fails with the job's
 * error (a budget exceeded, a broken asset); asset bytes are read here, where the store is. Errors
 * found before the package is named (an unknown format, a missing asset) reject as they always did.
 */
import type { CourseHeavyWork } from "../workers/jobs.ts";
import type { PackageJobEvent, PackageJobInput } from "./package-job.ts";
import type { AssetSource, ExportPackage, ExportProgress } from "../formats/package/types.ts";
import { packageJobCalls } from "./package-job-calls.ts";

export interface PackageListeners {
  readonly onProgress?: ExportProgress;
  readonly onNotice?: (notice: string) => void;
}

/** A stream the job writes into: each `write` resolves when the reader wants more, so the job runs at the reader's pace. */
function pacedStream(onCancel: () => void): { stream: ReadableStream<Uint8Array>; write(chunk: Uint8Array): Promise<void>; close(): void; fail(error: unknown): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let wanted: (() => void) | undefined;
  let cancelled: Error | undefined;
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (start) => void (controller = start),
      pull: () => {
        const resume = wanted;
        wanted = undefined;
        resume?.();
      },
      cancel: () => {
        cancelled = new Error("the package's reader stopped");
        onCancel();
        wanted?.();
      },
    },
    { highWaterMark: 2 },
  );
  return {
    stream,
    async write(chunk) {
      if (cancelled) throw cancelled;
      controller.enqueue(chunk);
      if ((controller.desiredSize ?? 0) <= 0) await new Promise<void>((resolve) => (wanted = resolve));
      if (cancelled) throw cancelled;
    },
    close: () => {
      if (!cancelled) controller.close();
    },
    fail: (error) => {
      if (!cancelled) controller.error(error);
    },
  };
}

export function packageOffThread(heavyWork: CourseHeavyWork, input: PackageJobInput, source: AssetSource, listeners: PackageListeners): Promise<ExportPackage> {
  return new Promise<ExportPackage>((resolvePackage, rejectPackage) => {
    let named = false;
    const paced = pacedStream(() => {});
    const event = (value: unknown) => {
      const told = value as PackageJobEvent;
      if (told.kind === "progress") listeners.onProgress?.(told.done, told.total, told.message);
      else if (told.kind === "notice") listeners.onNotice?.(told.text);
      else if (told.kind === "package") {
        named = true;
        resolvePackage({ fileName: told.fileName, mimeType: told.mimeType, stream: paced.stream });
      }
    };
    const call = async (method: string, args: unknown): Promise<unknown> => {
      if (method === packageJobCalls.openAsset) return bytesOf(await source.open(String(args)));
      if (method === packageJobCalls.chunk) return paced.write(args as Uint8Array);
      throw new Error(`unknown package job call ${method}`);
    };
    heavyWork.run("buildPackageJob", input, { call, event }).then(
      () => paced.close(),
      (error: unknown) => (named ? paced.fail(error) : rejectPackage(error)),
    );
  });
}

/** Bytes to hand across the thread boundary (a stored asset may come as a stream). */
async function bytesOf(body: Uint8Array | ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer());
}
