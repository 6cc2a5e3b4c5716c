/**
 * One lesson as a page of the course: the module it belongs to, its title (the page's `h1`), its
 * blocks, the quiz panel for a quiz lesson, and Previous/Next links. Lessons are `<article>`s the
 * runtime shows one at a time; without script they all show, one after another.
 */
import { renderBlock } from "./blocks.ts";
import type { LessonContext, RenderContext } from "./context.ts";
import { html, type SafeHtml } from "./html.ts";
import type { RenderableLesson, RenderableModule, RenderOptions } from "./types.ts";
import { uiText } from "./ui-text.ts";

/** A lesson with its place in the course, and the element ID it is reachable at (`#lesson-…`). */
export interface PlacedLesson {
  readonly lesson: RenderableLesson;
  readonly module: RenderableModule;
  /** Null when the course does not number its modules. */
  readonly moduleNumber: number | null;
  readonly pageId: string;
}

export interface PageLink {
  readonly pageId: string;
  readonly title: string;
}

function lessonMeta(lesson: RenderableLesson, mode: RenderOptions["mode"]): string {
  const parts: string[] = [];
  if (lesson.kind === "quiz") parts.push(uiText.quizBadge);
  const derived = lesson.derivedMinutes;
  if (mode === "preview" && lesson.estimatedMinutesIsSet && typeof lesson.estimatedMinutes === "number" && typeof derived === "number" && derived !== lesson.estimatedMinutes) {
    parts.push(uiText.setAndDerivedMinutes(lesson.estimatedMinutes, derived));
  } else if (typeof lesson.estimatedMinutes === "number" && lesson.estimatedMinutes > 0) parts.push(uiText.estimatedMinutes(lesson.estimatedMinutes));
  if (lesson.kind === "quiz" && typeof lesson.passingScore === "number") parts.push(uiText.passMark(lesson.passingScore));
  if (lesson.kind === "quiz" && typeof lesson.maxAttempts === "number") parts.push(uiText.attemptsAllowed(lesson.maxAttempts));
  return parts.join(" · ");
}

function quizPanel(): SafeHtml {
  return html`<div class="quiz-panel">
<div class="quiz-actions"><button type="button" class="button button-primary" data-submit-quiz>${uiText.submitQuiz}</button><button type="button" class="button" data-retry-quiz hidden>${uiText.tryAgain}</button></div>
<p class="quiz-result" data-quiz-result aria-live="polite" tabindex="-1"></p>
</div>`;
}

export function pager(title: string, previous: PageLink | undefined, next: PageLink | undefined): SafeHtml {
  const previousLink = previous
    ? html`<a class="button previous" rel="prev" href="#${previous.pageId}"><span aria-hidden="true">&larr;</span>${uiText.previous}<span class="visually-hidden">: ${previous.title}</span></a>`
    : "";
  const nextLink = next
    ? html`<a class="button button-primary next" rel="next" href="#${next.pageId}">${uiText.next}<span class="visually-hidden">: ${next.title}</span><span aria-hidden="true">&rarr;</span></a>`
    : "";
  return html`<nav class="pager" aria-label="${uiText.lessonNavigation(title)}">${previousLink}${nextLink}</nav>`;
}

/**
 * The lesson as pieces: its opening (module, title, meta), then one piece per block, then its closing
 * (quiz panel, pager). A block is the largest unit rendered at once, so a caller that yields between
 * pieces never blocks for longer than one block's Markdown.
 */
export function* renderLessonChunks(
  placed: PlacedLesson,
  context: RenderContext,
  courseLanguage: string,
  previous: PageLink | undefined,
  next: PageLink | undefined,
): Generator<string, void, undefined> {
  const { lesson, module, moduleNumber, pageId } = placed;
  let questionNumber = 0;
  const lessonContext: LessonContext = { ...context, nextQuestionNumber: () => ++questionNumber, lessonKind: lesson.kind };
  const headingId = context.ids.next("lesson-title", lesson.id);
  const meta = lessonMeta(lesson, context.options.mode);
  const quizSettings =
    lesson.kind === "quiz"
      ? html` data-passing-score="${typeof lesson.passingScore === "number" ? lesson.passingScore : ""}" data-max-attempts="${typeof lesson.maxAttempts === "number" ? lesson.maxAttempts : ""}"`
      : "";
  yield html`<article class="page lesson" id="${pageId}" data-page data-lesson-id="${lesson.id}" data-lesson-title="${lesson.title}" data-lesson-kind="${lesson.kind === "quiz" ? "quiz" : "content"}"${quizSettings} aria-labelledby="${headingId}">
<p class="eyebrow">${uiText.moduleEyebrow(moduleNumber, module.title)}</p>
<h1 id="${headingId}" tabindex="-1" data-page-heading>${lesson.title}</h1>
${meta ? html`<p class="lesson-meta">${meta}</p>` : ""}
`.markup;
  for (const block of lesson.blocks ?? []) yield renderBlock(block, lessonContext, courseLanguage).markup;
  yield html`
${lesson.kind === "quiz" ? quizPanel() : ""}
${pager(lesson.title, previous, next)}
</article>`.markup;
}
