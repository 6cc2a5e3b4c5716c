/**
 * The start-up check that the OpenAPI document is valid OpenAPI 3.1 (`openapi-check.ts`), run in a
 * thread of its own that is ended once it has answered: the validator's code never joins the
 * service's heap, and the check runs beside the rest of start-up. The composition root names the
 * thread's entry (`openapi-check-worker.ts`), as it does the heavy-work pool's, so that a compiled
 * binary, which lists it as an entrypoint, finds it too.
 */
import type { OpenAPIV3_1 } from "@scalar/openapi-types";
import { invalidOpenApiError } from "./openapi-check-errors.ts";

export function checkOpenApiInThread(document: OpenAPIV3_1.Document, entry: URL): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const worker = new Worker(entry);
    const end = (outcome: () => void) => {
      worker.terminate();
      outcome();
    };
    worker.onmessage = (event: MessageEvent<string[]>) => end(() => (event.data.length === 0 ? resolve() : reject(invalidOpenApiError(event.data))));
    worker.onerror = (event: ErrorEvent) => end(() => reject(new Error(`the OpenAPI check could not run: ${event.message || "its thread failed"}`)));
    worker.postMessage(document);
  });
}
