/**
 * A tool call that meets a database outage part-way answers like any other tool error the agent can
 * act on: nothing was changed, retry in a few seconds. Without this it would be reported as an
 * unexpected failure. Requests that arrive while the outage lasts get a 503 before reaching a tool.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { DatabaseUnavailableError } from "../store/unavailable.ts";
import { wrapToolHandlers, type CompiledTool } from "./registry.ts";

export const outageRetryAfterSeconds = 5;

export function withStoreOutageAnswers<S>(tools: Map<string, CompiledTool<S>>): Map<string, CompiledTool<S>> {
  return wrapToolHandlers(tools, (name, handler) => async (args, context) => {
    try {
      return await handler(args, context);
    } catch (error) {
      if (!(error instanceof DatabaseUnavailableError)) throw error;
      throw new CourseAuthoringError(
        "invalid_state",
        `the database is temporarily unavailable, so ${name} changed nothing; retry in ${outageRetryAfterSeconds} seconds`,
        { retryable: true, retryAfterSeconds: outageRetryAfterSeconds },
      );
    }
  });
}
