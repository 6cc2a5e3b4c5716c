/**
 * One lesson as a page of the course: the module it belongs to, its title (the page's `h1`), its
 * blocks, the quiz panel for a quiz lesson, and Previous/Next links. Lessons are `<article>`s the
 * runtime shows one at a time; without script they all show, one after another.
 */
import { renderBlock } from "./blocks.ts";
import { reviewBlockAttribute } from "../page-contract/review.ts";
import type { LessonContext, QuestionMode, RenderContext } from "./context.ts";
import { html, trustedHtml, type SafeHtml } from "./html.ts";
import { longMarkdown, type MarkdownRequest } from "./markdown.ts";
import { mediaSourceUrl } from "./media-blocks.ts";
import { markdownTextsOf } from "./picture-hosts.ts";
import type { RenderableBlock, RenderableLesson, RenderableModule, RenderOptions } from "./types.ts";
import { uiText } from "./ui-text.ts";
import { ClassName, DataName } from "../page-contract/markup-names.ts";

/** A lesson with its place in the course, and the element ID it is reachable at (`#lesson-…`). */
export interface PlacedLesson {
  readonly lesson: RenderableLesson;
  readonly module: RenderableModule;
  /** Null when the course does not number its modules. */
  readonly moduleNumber: number | null;
  readonly pageId: string;
}

/** The quiz that alone decides the course's success: shown after the modules, not as part of one. */
export function isFinalAssessment(lesson: RenderableLesson): boolean {
  return lesson.kind === "quiz" && lesson.finalAssessment === true;
}

export interface PageLink {
  readonly pageId: string;
  readonly title: string;
}

function lessonMeta(lesson: RenderableLesson, mode: RenderOptions["mode"]): SafeHtml | null {
  const parts: (string | SafeHtml)[] = [];
  if (lesson.kind === "quiz") parts.push(uiText.quizBadge);
  const derived = lesson.derivedMinutes;
  if (mode === "preview" && lesson.estimatedMinutesIsSet && typeof lesson.estimatedMinutes === "number" && typeof derived === "number" && derived !== lesson.estimatedMinutes) {
    parts.push(uiText.setAndDerivedMinutes(lesson.estimatedMinutes, derived));
  } else if (typeof lesson.estimatedMinutes === "number" && lesson.estimatedMinutes > 0) parts.push(uiText.estimatedMinutes(lesson.estimatedMinutes));
  // The learning platform's pass mark replaces the course's when it sends one: the player rewrites this.
  if (lesson.kind === "quiz" && typeof lesson.passingScore === "number") parts.push(html`<span data-${DataName.passMark}>${uiText.passMark(lesson.passingScore)}</span>`);
  if (lesson.kind === "quiz" && lesson.maxAttempts !== 1) parts.push(lesson.attemptScoring === "last" ? uiText.lastAttemptCounts : uiText.bestAttemptCounts);
  if (lesson.kind === "quiz" && typeof lesson.maxAttempts === "number") parts.push(uiText.attemptsAllowed(lesson.maxAttempts));
  if (lesson.kind === "quiz" && typeof lesson.drawCount === "number") parts.push(uiText.questionsPerAttempt(lesson.drawCount));
  if (parts.length === 0) return null;
  return html`${parts.map((part, index) => (index === 0 ? part : html` · ${part}`))}`;
}

/** Submit and retry, the result, and the dialog that names unanswered questions before submitting. */
function quizPanel(lesson: RenderableLesson, context: RenderContext): SafeHtml {
  const titleId = context.ids.next("submit-dialog-title", lesson.id);
  const noteId = context.ids.next("submit-dialog-note", lesson.id);
  // One question at a time: the script shows the pager; without it (and in print) every question shows.
  const questionPager = lesson.oneQuestionAtATime === true
    ? html`<nav class="${ClassName.questionPager}" data-${DataName.questionPager} aria-label="${uiText.questionNavigation}" hidden><button type="button" class="${ClassName.button}" data-${DataName.questionStep}="-1">${uiText.previousQuestion}</button><button type="button" class="${ClassName.button} ${ClassName.buttonPrimary}" data-${DataName.questionStep}="1">${uiText.nextQuestion}</button></nav>
`
    : "";
  return html`${questionPager}<div class="${ClassName.quizPanel}">
<div class="${ClassName.quizActions}"><button type="button" class="${ClassName.button} ${ClassName.buttonPrimary}" data-${DataName.submitQuiz}>${uiText.submitQuiz}</button><button type="button" class="${ClassName.button}" data-${DataName.retryQuiz} hidden>${uiText.tryAgain}</button></div>
<div class="${ClassName.quizResult}" data-${DataName.quizResult} aria-live="polite" tabindex="-1"></div>
<dialog class="${ClassName.submitDialog}" data-${DataName.submitDialog} aria-labelledby="${titleId}" aria-describedby="${noteId}">
<h2 id="${titleId}" data-${DataName.dialogTitle}></h2>
<p id="${noteId}">${uiText.unansweredNote}</p>
<ul class="${ClassName.unansweredList}" data-${DataName.unansweredList}></ul>
<div class="${ClassName.dialogActions}"><button type="button" class="${ClassName.button} ${ClassName.buttonPrimary}" data-${DataName.dialogBack}>${uiText.goBack}</button><button type="button" class="${ClassName.button}" data-${DataName.dialogSubmit}>${uiText.submitAnyway}</button></div>
</dialog>
</div>`;
}

/** Content-lesson questions are immediate, ungraded checks; a quiz follows its feedback mode. */
function questionModeOf(lesson: RenderableLesson): QuestionMode {
  if (lesson.kind !== "quiz") return { canCheck: true, showsFeedback: true };
  const mode = lesson.feedbackMode ?? "after_submit";
  return { canCheck: mode === "immediate", showsFeedback: mode !== "none" };
}

function quizAttributes(lesson: RenderableLesson): SafeHtml | "" {
  if (lesson.kind !== "quiz") return "";
  const passingScore = typeof lesson.passingScore === "number" ? lesson.passingScore : "";
  const maxAttempts = typeof lesson.maxAttempts === "number" ? lesson.maxAttempts : "";
  const drawCount = typeof lesson.drawCount === "number" ? lesson.drawCount : "";
  return html` data-${DataName.passingScore}="${passingScore}" data-${DataName.maxAttempts}="${maxAttempts}" data-${DataName.drawCount}="${drawCount}" data-${DataName.drawByObjective}="${lesson.drawByObjective === true ? "true" : "false"}" data-${DataName.shuffleChoices}="${lesson.shuffleChoices === false ? "false" : "true"}" data-${DataName.feedbackMode}="${lesson.feedbackMode ?? "after_submit"}"${lesson.finalAssessment === true ? html` data-${DataName.finalAssessment}` : ""}${lesson.attemptScoring === "last" ? html` data-${DataName.attemptScoring}="last"` : ""}${lesson.oneQuestionAtATime === true ? html` data-${DataName.oneAtATime}` : ""}`;
}

export function pager(title: string, previous: PageLink | undefined, next: PageLink | undefined): SafeHtml {
  const previousLink = previous
    ? html`<a class="${ClassName.button} previous" rel="prev" href="#${previous.pageId}"><span aria-hidden="true">&larr;</span>${uiText.previous}<span class="${ClassName.visuallyHidden}">: ${previous.title}</span></a>`
    : "";
  const nextLink = next
    ? html`<a class="${ClassName.button} ${ClassName.buttonPrimary} ${ClassName.next}" rel="next" href="#${next.pageId}">${uiText.next}<span class="${ClassName.visuallyHidden}">: ${next.title}</span><span aria-hidden="true">&rarr;</span></a>`
    : "";
  return html`<nav class="${ClassName.pager}" aria-label="${uiText.lessonNavigation(title)}">${previousLink}${nextLink}</nav>`;
}

/**
 * The lesson as pieces: its opening (module, title, meta), then one piece per block, then its closing
 * (quiz panel, pager). A block is the largest unit rendered at once, so a caller that yields between
 * pieces never blocks for longer than one block's Markdown.
 */
/**
 * The lesson's banner: a full-width picture above the title, cropped to a band on wide screens and
 * shown whole on narrow ones. Decorative banners get empty alt text; one whose source fails the URL
 * policy is left out.
 */
function lessonBanner(lesson: RenderableLesson, context: RenderContext): SafeHtml | "" {
  const banner = lesson.banner;
  if (!banner) return "";
  const src = mediaSourceUrl(banner, context);
  if (src === null) return "";
  const alt = banner.decorative ? "" : (banner.alt ?? "");
  return html`<figure class="${ClassName.lessonBanner}"><img src="${src}" alt="${alt}" decoding="async"></figure>
`;
}

/**
 * The review package names each block's ID on the block's own element (not on a wrapper: the player
 * walks a lesson's blocks as siblings, e.g. for continue gates).
 */
function withReviewAnchor(markup: string, blockId: string): string {
  return markup.replace(/^(\s*<[a-zA-Z][a-zA-Z0-9]*)/, (opening) => html`${trustedHtml(opening)} ${reviewBlockAttribute}="${blockId}"`.markup);
}

/** The block's long Markdown, to be rendered in slices before the block (a fill-in-the-blank text renders with its blanks). */
function blockMarkdownRequest(block: RenderableBlock): MarkdownRequest {
  const texts = markdownTextsOf(block).filter((entry) => !(block.type === "fill_in_blank" && entry.field === "text"));
  return { prerender: longMarkdown(texts.map((entry) => entry.text)), blockId: block.id };
}

export function* renderLessonChunks(
  placed: PlacedLesson,
  context: RenderContext,
  courseLanguage: string,
  previous: PageLink | undefined,
  next: PageLink | undefined,
): Generator<string | MarkdownRequest, void, undefined> {
  const { lesson, module, moduleNumber, pageId } = placed;
  let questionNumber = 0;
  const lessonContext: LessonContext = { ...context, nextQuestionNumber: () => ++questionNumber, lessonKind: lesson.kind, questionMode: questionModeOf(lesson) };
  const headingId = context.ids.next("lesson-title", lesson.id);
  const meta = lessonMeta(lesson, context.options.mode);
  const quizSettings = quizAttributes(lesson);
  yield html`<article class="${ClassName.page} ${ClassName.lesson}" id="${pageId}" data-${DataName.page} data-${DataName.lessonId}="${lesson.id}" data-${DataName.lessonTitle}="${lesson.title}" data-${DataName.lessonKind}="${lesson.kind === "quiz" ? "quiz" : "content"}"${quizSettings} aria-labelledby="${headingId}">
${lessonBanner(lesson, context)}<p class="${ClassName.eyebrow}">${isFinalAssessment(lesson) ? uiText.finalAssessment : uiText.moduleEyebrow(moduleNumber, module.title)}</p>
<h1 id="${headingId}" tabindex="-1" data-${DataName.pageHeading}>${lesson.title}</h1>
${meta ? html`<p class="${ClassName.lessonMeta}">${meta}</p>` : ""}
`.markup;
  for (const block of lesson.blocks ?? []) {
    yield blockMarkdownRequest(block);
    const rendered = renderBlock(block, lessonContext, courseLanguage).markup;
    yield context.options.reviewAnchors ? withReviewAnchor(rendered, block.id) : rendered;
  }
  yield html`
${lesson.kind === "quiz" ? quizPanel(lesson, context) : ""}
${pager(lesson.title, previous, next)}
</article>`.markup;
}
