/**
 * The player as the page carries it: the course bundle for the page's feature set and the LMS adapter
 * bundle, each preceded by its configuration as a `<script type="application/json">` element (data the
 * browser never runs). Only the nonce-bearing bundles run under the page's Content-Security-Policy.
 */
import { configElementIds, type CoursePlayerConfig } from "../page-contract/config.ts";
import type { AnswerSecrets } from "./answer-key.ts";
import { html, scriptLiteral, trustedHtml, type SafeHtml } from "./html.ts";
import { courseBundles, featureSetOf, questionTypesBundle, type ClientFeatures } from "./player-bundles.ts";
import type { RenderOptions } from "./types.ts";
import { interactionRuntimeText, runtimeText } from "./ui-text.ts";

export type { ClientFeatures };

/** Keeps a bundle's text from closing the element it is embedded in. */
export function embeddableScript(source: string): string {
  return source.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

function jsonElement(id: string, value: unknown): SafeHtml {
  // `scriptLiteral` escapes every `<`, so the JSON cannot close its element or open a comment.
  return html`<script type="application/json" id="${id}">${trustedHtml(scriptLiteral(value))}</script>`;
}

function scriptElement(nonce: string, source: string): SafeHtml {
  return html`<script nonce="${nonce}">${trustedHtml(embeddableScript(source))}</script>`;
}

export function playerConfig(courseId: string, secrets: AnswerSecrets, features: ClientFeatures): CoursePlayerConfig {
  const needsSeals = features.quizzes || (features.interactions && features.scenarios);
  return {
    courseId,
    // Read while the render runs in the course's interface language, so the JSON holds its words.
    text: runtimeText,
    interactionText: interactionRuntimeText,
    salt: features.quizzes ? secrets.salt : null,
    sealKey: needsSeals ? secrets.sealKey : null,
  };
}

/**
 * An MCP Apps view's script: its configuration as JSON, then its bundle. A view runs under its host's
 * policy, not the course page's, so it carries no nonce.
 */
export function viewScripts(config: unknown, bundle: string): SafeHtml {
  return html`${jsonElement(configElementIds.view, config)}
<script>${trustedHtml(embeddableScript(bundle))}</script>`;
}

/** The attribute naming the bundle a `referenced` page leaves out, for the host to fill in. */
export const playerBundleAttribute = "data-player-bundle";

/** The course player and, when the export gives one, its LMS adapter: configuration first, then code. */
export function playerScripts(courseId: string, secrets: AnswerSecrets, features: ClientFeatures, nonce: string, options: Pick<RenderOptions, "lmsAdapter" | "playerDelivery">): SafeHtml {
  const adapter = options.lmsAdapter;
  const featureSet = featureSetOf(features);
  const player =
    options.playerDelivery === "referenced"
      ? html`<script nonce="${nonce}" ${playerBundleAttribute}="${featureSet}"></script>`
      : scriptElement(nonce, courseBundles[featureSet]);
  return html`${jsonElement(configElementIds.course, playerConfig(courseId, secrets, features))}
${player}
${features.questionTypes ? scriptElement(nonce, questionTypesBundle) : ""}
${adapter ? html`${jsonElement(configElementIds.lms, adapter.config)}
${scriptElement(nonce, adapter.script)}` : ""}`;
}
