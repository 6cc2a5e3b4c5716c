/**
 * Builds the page's one inline script from the client functions' own source (Bun transpiles them, so
 * `Function.prototype.toString` yields plain JavaScript), with their configuration embedded as JSON.
 * Writing the client as typed functions keeps it under the type-checker instead of inside a string.
 */
import type { AnswerSecrets } from "../answer-key.ts";
import { scriptLiteral } from "../html.ts";
import { runtimeText } from "../ui-text.ts";
import { interactionRuntimeText } from "../interaction-text.ts";
import { installInteractions } from "./interactions.ts";
import { createAnswerChecker } from "./answer-checker.ts";
import { installQuizzes } from "./quiz.ts";
import { createAttemptTools } from "./quiz-attempts.ts";
import { createSha256 } from "./sha256.ts";
import { installCourseRuntime, type RuntimeConfig } from "./runtime.ts";
import { courseEvents } from "./types.ts";
import { installWidgets } from "./widgets.ts";

export function courseRuntimeScript(courseId: string, secrets: AnswerSecrets): string {
  const config: RuntimeConfig = { courseId, text: runtimeText, events: courseEvents };
  return `(() => {
"use strict";
const config = ${scriptLiteral(config)};
const recorder = (${installCourseRuntime.toString()})(config);
(${installWidgets.toString()})(config.text);
const checker = (${createAnswerChecker.toString()})((${createSha256.toString()})());
const attempts = (${createAttemptTools.toString()})();
(${installQuizzes.toString()})(recorder, config.text, config.events, { checker, attempts, salt: ${scriptLiteral(secrets.salt)}, sealKey: ${scriptLiteral(secrets.sealKey)} });
(${installInteractions.toString()})(recorder, ${scriptLiteral(interactionRuntimeText)});
})();`;
}

/** Keeps caller-supplied script from closing the element it is embedded in. */
export function embeddableScript(source: string): string {
  return source.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}
