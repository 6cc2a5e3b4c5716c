/**
 * The course's table of contents (a `nav` landmark, in a disclosure that starts closed on narrow
 * screens) and its introduction page: title, description, audience and level, learning objectives,
 * and an outline of modules with their summaries and lessons.
 */
import type { RenderContext } from "./context.ts";
import { html, type SafeHtml } from "./html.ts";
import type { PageLink, PlacedLesson } from "./lesson.ts";
import { isFinalAssessment, pager } from "./lesson.ts";
import { markdownHtml } from "./markdown.ts";
import type { RenderableCourse, RenderableModule } from "./types.ts";
import { uiText } from "./ui-text.ts";
import { moduleNumberOf } from "./numbering.ts";
import { themeCover, themeOf } from "./theme.ts";
import { startButton } from "./cover.ts";
import { ClassName, DataName } from "../page-contract/markup-names.ts";

export const introPageId = "course-introduction";
/** The page after the last lesson: where the learner stands, filled in by the player; hidden without it. */
export const completionPageId = "course-complete";

function lessonsOf(module: RenderableModule, placed: readonly PlacedLesson[]): PlacedLesson[] {
  return placed.filter((entry) => entry.module === module && !isFinalAssessment(entry.lesson));
}

function finalAssessments(placed: readonly PlacedLesson[]): PlacedLesson[] {
  return placed.filter((entry) => isFinalAssessment(entry.lesson));
}

function contentsLink(pageId: string, label: SafeHtml | string): SafeHtml {
  return html`<a href="#${pageId}" data-${DataName.contentsLink}="${pageId}">${label}<span class="${ClassName.visuallyHidden}" data-${DataName.stateNote} hidden></span></a>`;
}

/** The icons' meanings for sighted readers; screen readers hear each lesson's state after its name instead. */
function contentsKey(): SafeHtml {
  const entries = (["visited", "completed", "passed", "failed"] as const).map((state) => html`<li data-${DataName.state}="${state}">${uiText.contentsKey[state]}</li>`);
  return html`<ul class="${ClassName.contentsKey}" aria-hidden="true">${entries}</ul>`;
}

/** A module whose only lessons are final assessments is not listed: they are listed once, at the end. */
function onlyFinalAssessments(module: RenderableCourse["modules"][number], placed: readonly PlacedLesson[]): boolean {
  return module.lessons.length > 0 && lessonsOf(module, placed).length === 0;
}

function finalLabel(title: string): SafeHtml {
  const same = title.trim().toLowerCase() === uiText.finalAssessment.toLowerCase();
  return same ? html`${title}` : html`${title} <span class="${ClassName.kindBadge}">${uiText.finalAssessment}</span>`;
}

export function renderContents(course: RenderableCourse, placed: readonly PlacedLesson[]): SafeHtml {
  const modules = course.modules.flatMap((module, index) => {
    if (onlyFinalAssessments(module, placed)) return [];
    const lessons = lessonsOf(module, placed).map(({ lesson, pageId }) => {
      const badge = lesson.kind === "quiz" ? html` <span class="${ClassName.kindBadge}">${uiText.quizBadge}</span>` : "";
      return html`<li>${contentsLink(pageId, html`${lesson.title}${badge}`)}</li>`;
    });
    return html`<li><span class="${ClassName.moduleTitle}">${uiText.moduleEyebrow(moduleNumberOf(course, index, module), module.title)}</span><ol>${lessons}</ol></li>`;
  });
  const finals = finalAssessments(placed).map(({ lesson, pageId }) => html`<li class="contents-final">${contentsLink(pageId, finalLabel(lesson.title))}</li>`);
  return html`<details class="${ClassName.contentsDisclosure}" data-${DataName.contents} open><summary>${uiText.contentsToggle}</summary>
<nav class="${ClassName.contents}" aria-label="${uiText.courseContents}"><ol><li>${contentsLink(introPageId, uiText.introduction)}</li>${modules}${finals}</ol>${contentsKey()}</nav>
</details>`;
}

/** The course's length: the whole course's when given (a page of part of it), else its lessons' minutes (set or derived) summed; null when none is known. */
export function courseLength(course: RenderableCourse): number | null {
  if (typeof course.estimatedMinutes === "number") return course.estimatedMinutes > 0 ? course.estimatedMinutes : null;
  const minutes = course.modules.flatMap((module) => module.lessons).map((lesson) => (typeof lesson.estimatedMinutes === "number" ? lesson.estimatedMinutes : 0));
  const total = minutes.reduce((sum, value) => sum + value, 0);
  return total > 0 ? total : null;
}

function lengthText(course: RenderableCourse, mode: RenderContext["options"]["mode"]): string | null {
  const total = courseLength(course);
  if (total === null) return null;
  return mode === "preview" && typeof course.targetMinutes === "number" ? uiText.totalAndTarget(total, course.targetMinutes) : uiText.estimatedMinutes(total);
}

function courseMeta(course: RenderableCourse, context: RenderContext): SafeHtml | "" {
  const items: SafeHtml[] = [];
  const length = lengthText(course, context.options.mode);
  if (length) items.push(html`<div data-course-length><dt>${uiText.lengthLabel}</dt><dd>${length}</dd></div>`);
  if (course.audience) items.push(html`<div><dt>${uiText.audienceLabel}</dt><dd>${course.audience}</dd></div>`);
  if (course.level) {
    // An own-property lookup: a level such as "constructor" must show as itself, not as Object's members.
    const level = Object.hasOwn(uiText.levels, course.level) ? uiText.levels[course.level] : course.level;
    items.push(html`<div><dt>${uiText.levelLabel}</dt><dd>${level}</dd></div>`);
  }
  return items.length > 0 ? html`<dl class="${ClassName.courseMeta}">${items}</dl>` : "";
}

function objectivesSection(course: RenderableCourse): SafeHtml | "" {
  if (course.objectives.length === 0) return "";
  const items = course.objectives.map((objective) => html`<li>${objective.text}</li>`);
  return html`<h2>${uiText.objectivesHeading}</h2><ul class="${ClassName.objectives}">${items}</ul>`;
}

function moduleOutline(course: RenderableCourse, placed: readonly PlacedLesson[], context: RenderContext): SafeHtml[] {
  return course.modules.flatMap((module, index) => {
    if (onlyFinalAssessments(module, placed)) return [];
    const headingId = context.ids.next("outline-module", index + 1);
    const summary = module.summary ? markdownHtml(module.summary) : "";
    const lessons = lessonsOf(module, placed).map(({ lesson, pageId }) => html`<li><a href="#${pageId}">${lesson.title}</a></li>`);
    return html`<section class="${ClassName.outlineModule}" aria-labelledby="${headingId}"><h2 id="${headingId}">${uiText.moduleEyebrow(moduleNumberOf(course, index, module), module.title)}</h2>${summary}<ol>${lessons}</ol></section>`;
  });
}

function finalOutline(placed: readonly PlacedLesson[], context: RenderContext): SafeHtml[] {
  return finalAssessments(placed).map(({ lesson, pageId }) => {
    const headingId = context.ids.next("outline-final", lesson.id);
    return html`<section class="${ClassName.outlineModule}" aria-labelledby="${headingId}"><h2 id="${headingId}">${uiText.finalAssessment}</h2><p><a href="#${pageId}">${lesson.title}</a></p></section>`;
  });
}

export function renderIntroduction(course: RenderableCourse, placed: readonly PlacedLesson[], context: RenderContext, first: PageLink | undefined): SafeHtml {
  const headingId = context.ids.next("course-title");
  const description = course.description ? html`<div class="course-description">${markdownHtml(course.description)}</div>` : "";
  return html`<section class="${ClassName.page} intro" id="${introPageId}" data-${DataName.page} aria-labelledby="${headingId}">
${themeCover(themeOf(course), context.options)}<h1 id="${headingId}" tabindex="-1" data-${DataName.pageHeading}>${course.title}</h1>
${description}${courseMeta(course, context)}${startButton(first)}${objectivesSection(course)}${moduleOutline(course, placed, context)}${finalOutline(placed, context)}
${pager(uiText.introduction, undefined, first)}
</section>`;
}

/**
 * The completion screen after the last lesson: the player says whether every lesson is done and the
 * verdict with its score (the one the LMS is told); hidden until shown, so without script and in print
 * the course ends with its last lesson.
 */
export function renderCompletion(last: PageLink | undefined): SafeHtml {
  return html`<section class="${ClassName.page} ${ClassName.completion}" id="${completionPageId}" data-${DataName.page} data-${DataName.completion} hidden aria-labelledby="completion-title">
<h1 id="completion-title" tabindex="-1" data-${DataName.pageHeading}>${uiText.completionHeading}</h1>
<p class="${ClassName.completionStatus}" data-${DataName.completionStatus} role="status"></p>
<nav class="${ClassName.pager} ${ClassName.completionActions}" aria-label="${uiText.lessonNavigation(uiText.completionHeading)}">${last ? html`<a class="${ClassName.button} previous" rel="prev" href="#${last.pageId}"><span aria-hidden="true">&larr;</span>${uiText.previous}<span class="${ClassName.visuallyHidden}">: ${last.title}</span></a>` : ""}<a class="${ClassName.button} ${ClassName.buttonPrimary}" href="#${introPageId}">${uiText.backToStart}</a></nav>
</section>
`;
}
