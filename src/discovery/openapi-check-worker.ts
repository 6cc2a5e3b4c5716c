/**
 * The OpenAPI check's own thread: it receives the document, answers with its problems (none when it
 * is valid OpenAPI 3.1) and is then ended by the service (`openapi-check-thread.ts`). Only this
 * thread loads ajv, its formats and the OpenAPI 3.1 schema: about a hundred modules and their
 * compiled validator that the service's heap would otherwise keep, and every collection mark, for
 * the life of the process (bench/NOTES.md, "Performance V").
 */
import { openApiProblems } from "./openapi-check.ts";

declare const self: Worker;

self.onmessage = (event: MessageEvent<unknown>) => {
  let problems: string[];
  try {
    problems = openApiProblems(event.data);
  } catch (error) {
    problems = [`the check itself failed: ${error instanceof Error ? error.message : String(error)}`];
  }
  self.postMessage(problems);
};
