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

/** Which optional client installers a page needs: its questions' grading and its teaching blocks' behaviour. */
export interface ClientFeatures {
  readonly quizzes: boolean;
  readonly interactions: boolean;
  /** A scenario's endings are sealed (issue 21): the interactions need the checker to open the one reached. */
  readonly scenarios: boolean;
}

const allFeatures: ClientFeatures = { quizzes: true, interactions: true, scenarios: true };

/**
 * Drops each line's indentation and the spaces `tightenLine` may drop (insignificant in JavaScript: line breaks are kept, so automatic
 * semicolon insertion reads the code as before) and blank lines. A line that starts inside a multi-line
 * template literal is kept exactly, since its whitespace is part of a string. Bun's transpiled output
 * already has no comments.
 */
export function compactScript(source: string): string {
  let inTemplate = false;
  const lines: string[] = [];
  for (const line of source.split("\n")) {
    const kept = inTemplate ? line : tightenLine(line.trim());
    if (inTemplate || kept !== "") lines.push(kept);
    const backticks = line.match(/(?<!\\)`/g)?.length ?? 0;
    if (backticks % 2 === 1) inTemplate = !inTemplate;
  }
  return lines.join("\n");
}

const tightPunctuation = new Set("{}()[],;:=<>?&|!");

/**
 * Drops the spaces beside punctuation that cannot join two tokens into one (`a = (b, c) => {` becomes
 * `a=(b,c)=>{`), outside string literals. Lines with a `/` (a regular expression or a division) or a
 * backtick (a template literal) are left alone: telling those apart would need a real parser.
 */
export function tightenLine(line: string): string {
  if (line.includes("/") || line.includes("`")) return line;
  let out = "";
  let quote: string | null = null;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote !== null) {
      out += char;
      if (char === "\\") out += line[++index] ?? "";
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
      out += char;
    } else if (char === " " && (tightPunctuation.has(out.at(-1) ?? "") || tightPunctuation.has(line[index + 1] ?? ""))) {
      continue;
    } else out += char;
  }
  return quote === null ? out : line;
}

const compactSource = (fn: (...args: never[]) => unknown): string => compactScript(fn.toString());

export function courseRuntimeScript(courseId: string, secrets: AnswerSecrets, features: ClientFeatures = allFeatures): string {
  const config: RuntimeConfig = { courseId, text: runtimeText, events: courseEvents };
  const needsChecker = features.quizzes || (features.interactions && features.scenarios);
  const checker = needsChecker ? `const checker = (${compactSource(createAnswerChecker)})((${compactSource(createSha256)})());\n` : "";
  const quizzes = features.quizzes
    ? `const attempts = (${compactSource(createAttemptTools)})();
(${compactSource(installQuizzes)})(recorder, config.text, config.events, { checker, attempts, salt: ${scriptLiteral(secrets.salt)}, sealKey: ${scriptLiteral(secrets.sealKey)} });
`
    : "";
  const seals = needsChecker ? `{ checker, sealKey: ${scriptLiteral(secrets.sealKey)} }` : "null";
  const interactions = features.interactions ? `(${compactSource(installInteractions)})(recorder, ${scriptLiteral(interactionRuntimeText)}, ${seals});\n` : "";
  return `(() => {
"use strict";
const config = ${scriptLiteral(config)};
const recorder = (${compactSource(installCourseRuntime)})(config);
(${compactSource(installWidgets)})(config.text);
${checker}${quizzes}${interactions}})();`;
}

/** Keeps caller-supplied script from closing the element it is embedded in. */
export function embeddableScript(source: string): string {
  return source.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}
