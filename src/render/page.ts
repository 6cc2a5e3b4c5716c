/**
 * The HTML document around the course: `lang` and direction, a Content-Security-Policy that lets only
 * this render's nonce-bearing style and scripts run (so even markup that slipped past escaping stays
 * inert) and pictures load only from the page itself, `data:` URLs and the hosts the course declares, the skip link, header, contents, pages, and the inline runtime followed by the host's script.
 */
import { languageTagPattern } from "../authoring/schemas/fields.ts";
import { isQuestionType } from "../authoring/schemas/question-blocks.ts";
import { newAnswerSecrets } from "./answer-key.ts";
import { playerScripts, type ClientFeatures } from "./player-scripts.ts";
import { ElementIds, type RenderContext } from "./context.ts";
import { html, trustedHtml } from "./html.ts";
import { longMarkdown, type MarkdownRequest } from "./markdown.ts";
import { isFinalAssessment, renderLessonChunks, type PageLink, type PlacedLesson } from "./lesson.ts";
import { completionPageId, introPageId, renderCompletion, renderContents, renderIntroduction } from "./outline.ts";
import { moduleNumberOf } from "./numbering.ts";
import { progressMeter } from "./cover.ts";
import { builtStyles } from "./player-bundles.ts";
import { themeLogo, themeOf, themeStyles } from "./theme.ts";
import type { RenderableCourse, RenderOptions } from "./types.ts";
import { uiText } from "./ui-text.ts";
import { isSafeLinkUrl, urlScheme } from "./urls.ts";
import { maxImageOrigins } from "./picture-hosts.ts";
import { ClassName, DataName } from "../page-contract/markup-names.ts";

const rightToLeftLanguages = new Set(["ar", "arc", "dv", "fa", "ha", "he", "khw", "ks", "ku", "ps", "sd", "ug", "ur", "yi"]);

export function documentLanguage(language: string | null | undefined): string {
  return language && languageTagPattern.test(language) ? language : "en";
}

function textDirection(language: string): "rtl" | "ltr" {
  return rightToLeftLanguages.has(language.split("-")[0]?.toLowerCase() ?? "") ? "rtl" : "ltr";
}

function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))));
}

const schemeSources = new Set(["https:", "http:"]);
const httpOrigin = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * A source-list entry only if it is the `https:` or `http:` scheme (a cmi5 LRS is named only at launch)
 * or a plain http(s) origin; anything else (wildcards, paths, keywords, `;`) could widen or break the policy.
 */
function connectSource(source: string): string | null {
  const normalised = source.trim().toLowerCase().replace(/\/$/, "");
  return schemeSources.has(normalised) || httpOrigin.test(normalised) ? normalised : null;
}

export { declaredImageOrigins } from "./picture-hosts.ts";

function contentSecurityPolicy(nonce: string, options: RenderOptions, baseHref: string | null, imageOrigins: readonly string[]): string {
  const connect = [...new Set((options.connectSources ?? []).map(connectSource).filter((source) => source !== null))];
  const pictures = [...new Set(imageOrigins.map((origin) => origin.trim().toLowerCase()).filter((origin) => httpOrigin.test(origin)))].slice(0, maxImageOrigins);
  const baseOrigin = baseHref && urlScheme(baseHref) !== null ? new URL(baseHref).origin : "'self'";
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    // Relative asset paths resolve against an absolute <base href>, so its origin is the page's own.
    `img-src 'self' data: blob:${[...(baseHref && baseOrigin !== "'self'" ? [baseOrigin] : []), ...pictures].map((origin) => ` ${origin}`).join("")}`,
    "font-src data:",
    "media-src 'self' data: blob: https: http:",
    `connect-src ${connect.length > 0 ? connect.join(" ") : "'none'"}`,
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "form-action 'none'",
    `base-uri ${baseHref ? baseOrigin : "'none'"}`,
  ].join("; ");
}

function safeBaseHref(baseHref: string | undefined): string | null {
  if (!baseHref || !isSafeLinkUrl(baseHref) || urlScheme(baseHref) === "mailto") return null;
  try {
    return urlScheme(baseHref) === null ? baseHref : new URL(baseHref).href;
  } catch {
    return null;
  }
}

/** Question types whose behaviour and look are their own bundle and style sheet (issue 42). */
const roundFiveQuestionTypes = new Set(["numeric", "hotspot", "drag_onto_image", "inline_choice", "open_response", "likert"]);

/** Block types whose behaviour is `installInteractions` and whose look is the interaction styles. */
const interactionBlockTypes = new Set(["scenario", "labeled_graphic", "process", "timeline", "attachment", "continue", "sorting"]);

/**
 * The optional client code and styles this course's page needs: grading only when it has a quiz lesson
 * or a question, the teaching blocks' behaviour and styles only when it has one of them. Leaving the rest
 * out keeps a small course's page (and its preview, which must fit an MCP result) small.
 */
export function clientFeaturesOf(course: RenderableCourse): ClientFeatures {
  const lessons = course.modules.flatMap((module) => module.lessons);
  const types = new Set(lessons.flatMap((lesson) => (lesson.blocks ?? []).map((block) => block.type)));
  return {
    quizzes: lessons.some((lesson) => lesson.kind === "quiz") || [...types].some((type) => isQuestionType(type)),
    interactions: [...types].some((type) => interactionBlockTypes.has(type)),
    scenarios: types.has("scenario"),
    questionTypes: [...types].some((type) => roundFiveQuestionTypes.has(type)),
  };
}

/** Lessons in course order, except that a final assessment comes last, after every module. */
function placeLessons(course: RenderableCourse, context: RenderContext): PlacedLesson[] {
  const placed = course.modules.flatMap((module, moduleIndex) =>
    module.lessons.map((lesson) => ({ lesson, module, moduleNumber: moduleNumberOf(course, moduleIndex, module), pageId: context.ids.next("lesson", lesson.id) })),
  );
  return [...placed.filter((entry) => !isFinalAssessment(entry.lesson)), ...placed.filter((entry) => isFinalAssessment(entry.lesson))];
}

/**
 * The document in pieces, in order: everything up to the introduction, then each lesson's opening, its
 * blocks one piece each and its closing, then the scripts. Each piece is rendered only when it is asked
 * for, so an exporter can compress a large course block by block without ever holding the whole
 * document, and a caller can yield to the event loop between pieces.
 */
export function* renderCourseDocumentChunks(course: RenderableCourse, options: RenderOptions): Generator<string | MarkdownRequest, void, undefined> {
  const ids = new ElementIds();
  ids.next(introPageId);
  ids.next("main");
  const secrets = newAnswerSecrets();
  const context: RenderContext = { options, ids, secrets };
  const language = documentLanguage(course.language);
  const nonce = newNonce();
  const baseHref = safeBaseHref(options.baseHref);
  const placed = placeLessons(course, context);
  // The head is written before any block is read; what only some blocks need (the question and teaching
  // blocks' styles, the client code) is written after the lessons, once their blocks are known. The
  // question sheet repeats the theme's few rules after it, so a theme still wins over its defaults.
  const styles = builtStyles.course + themeStyles(themeOf(course)).trim() + builtStyles.print;
  const links: PageLink[] = placed.map(({ lesson, pageId }) => ({ pageId, title: lesson.title }));
  const introLink: PageLink = { pageId: introPageId, title: uiText.introduction };
  yield { prerender: longMarkdown([course.description, ...course.modules.map((module) => module.summary)]) };
  yield html`<!doctype html>
<html lang="${language}" dir="${textDirection(language)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(nonce, options, baseHref, options.imageOrigins ?? [])}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${course.title}</title>
${baseHref ? html`<base href="${baseHref}">` : ""}
<style nonce="${nonce}">${trustedHtml(styles)}</style>
</head>
<body data-mode="${options.mode}">
<a class="${ClassName.skipLink}" href="#main">${uiText.skipToContent}</a>
<header class="${ClassName.siteHeader}">
<div class="${ClassName.headerInner}">${themeLogo(themeOf(course), options)}<p class="${ClassName.courseName}">${course.title}</p>${options.mode === "preview" ? html`<p class="${ClassName.previewBadge}" data-preview-of="${options.previewOf?.variant ?? ""}">${options.previewOf ? uiText.previewOf(options.previewOf.variant, options.previewOf.version) : uiText.previewBadge}</p>` : ""}<p class="${ClassName.progress}" data-${DataName.progress}></p>${progressMeter(placed.length)}</div>
</header>
<div class="${ClassName.layout}">
${renderContents(course, placed)}
<main id="main" tabindex="-1">
${renderIntroduction(course, placed, context, links[0])}
`.markup;
  const endLink: PageLink = { pageId: completionPageId, title: uiText.completionHeading };
  for (const [index, entry] of placed.entries()) {
    yield* renderLessonChunks(entry, context, language, index === 0 ? introLink : links[index - 1], links[index + 1] ?? endLink);
  }

  const features = clientFeaturesOf(course);
  yield html`
${renderCompletion(links.at(-1))}</main>
</div>
${features.quizzes ? html`<style nonce="${nonce}">${trustedHtml(builtStyles.quiz + themeStyles(themeOf(course)).trim())}</style>` : ""}
${features.interactions ? html`<style nonce="${nonce}">${trustedHtml(builtStyles.interactions)}</style>` : ""}
${features.questionTypes ? html`<style nonce="${nonce}">${trustedHtml(builtStyles.questionTypes)}</style>` : ""}
${playerScripts(course.id, secrets, features, nonce, options)}
</body>
</html>
`.markup;
}
