/**
 * A tool call that meets a database outage part-way answers like any other tool error the agent can
 * act on: nothing was changed, retry in a few seconds. Without this it would be reported as an
 * unexpected failure. Requests that arrive while the outage lasts get a 503 before reaching a tool.
 */
import { CourseAuthoringError } from "../course-authoring-error.ts";
import { DatabaseUnavailableError, outageRefusalMessage, outageRetryAfterSeconds } from "../store/unavailable.ts";
import { wrapToolHandlers, type CompiledTool } from "./registry.ts";

export { outageRetryAfterSeconds };

export function withStoreOutageAnswers<S>(tools: Map<string, CompiledTool<S>>): Map<string, CompiledTool<S>> {
  return wrapToolHandlers(tools, (name, handler) => async (args, context) => {
    try {
      return await handler(args, context);
    } catch (error) {
      if (!(error instanceof DatabaseUnavailableError)) throw error;
      throw new CourseAuthoringError(
        "invalid_state",
        outageRefusalMessage(name),
        { retryable: true, retryAfterSeconds: outageRetryAfterSeconds },
      );
    }
  });
}
