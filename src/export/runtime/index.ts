/**
 * The LMS adapters as the renderer's `runtimeScript`: each is assembled from the typed browser
 * functions' own source (Bun transpiles them, so `toString` yields JavaScript) with its configuration
 * as JSON, and runs after the course runtime under the page's CSP nonce. The helpers an adapter uses
 * (progress encoding, the statement outbox, answer formatting) are passed to it as one object.
 */
import { scriptLiteral } from "../../render/html.ts";
import type { RenderableCourse } from "../../render/types.ts";
import { createAnswerTools, questionFacts } from "./answers.ts";
import { installCmi5Adapter, type Cmi5AdapterConfig } from "./cmi5.ts";
import { createLrsDocuments } from "./lrs-documents.ts";
import { createStatementOutbox } from "./outbox.ts";
import { createProgressTools } from "./progress.ts";
import { installScormAdapter, type ScormAdapterConfig } from "./scorm.ts";
import { adapterText } from "./text.ts";

function adapterScript(install: string, config: unknown, helpers: Record<string, { toString(): string }>): string {
  const definitions = Object.entries(helpers).map(([name, helper]) => `const ${name} = ${helper.toString()};`);
  return `(() => {
"use strict";
${definitions.join("\n")}
(${install})(${scriptLiteral(config)}, { ${Object.keys(helpers).join(", ")} });
})();`;
}

export function scormRuntimeScript(version: ScormAdapterConfig["version"], course: RenderableCourse): string {
  const config: ScormAdapterConfig = { version, text: adapterText, questions: questionFacts(course) };
  return adapterScript(installScormAdapter.toString(), config, { createProgressTools, createAnswerTools });
}

export function cmi5RuntimeScript(course: RenderableCourse): string {
  const config: Cmi5AdapterConfig = { progressStateId: "course-authoring-progress", text: adapterText, questions: questionFacts(course) };
  return adapterScript(installCmi5Adapter.toString(), config, { createProgressTools, createStatementOutbox, createAnswerTools, createLrsDocuments });
}
