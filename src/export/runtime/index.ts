/**
 * The LMS adapters as the renderer's `runtimeScript`: each is assembled from the typed browser
 * functions' own source (Bun transpiles them, so `toString` yields JavaScript) with its configuration
 * as JSON, and runs after the course runtime under the page's CSP nonce.
 */
import { scriptLiteral } from "../../render/html.ts";
import { installCmi5Adapter, type Cmi5AdapterConfig } from "./cmi5.ts";
import { createProgressTools } from "./progress.ts";
import { installScormAdapter, type ScormAdapterConfig } from "./scorm.ts";

function adapterScript(install: string, config: unknown): string {
  return `(() => {
"use strict";
const createProgressTools = ${createProgressTools.toString()};
(${install})(${scriptLiteral(config)}, createProgressTools);
})();`;
}

export function scormRuntimeScript(version: ScormAdapterConfig["version"]): string {
  const config: ScormAdapterConfig = { version };
  return adapterScript(installScormAdapter.toString(), config);
}

export function cmi5RuntimeScript(): string {
  const config: Cmi5AdapterConfig = { progressStateId: "course-authoring-progress", exitLabel: "Exit course" };
  return adapterScript(installCmi5Adapter.toString(), config);
}
