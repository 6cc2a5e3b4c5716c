/**
 * What makes the introduction a cover page, and the progress bar every player shows: the Start button
 * (the runtime turns it into Resume, pointing at where the learner left off) and a meter of lessons
 * completed of all, which the runtime fills as lessons are completed or quizzes passed.
 */
import { html, type SafeHtml } from "./html.ts";
import type { PageLink } from "./lesson.ts";
import { uiText } from "./ui-text.ts";

export function startButton(first: PageLink | undefined): SafeHtml | "" {
  if (!first) return "";
  return html`<p class="start-link"><a class="button button-primary start-button" href="#${first.pageId}" data-start-course>${uiText.startCourse}</a></p>`;
}

export function progressMeter(lessonCount: number): SafeHtml | "" {
  if (lessonCount === 0) return "";
  return html`<div class="progress-meter"><progress data-progress-bar max="${lessonCount}" value="0" aria-label="${uiText.lessonsCompletedLabel}" aria-describedby="progress-meter-text"></progress><span id="progress-meter-text" data-progress-text>${uiText.lessonsCompleted(0, lessonCount)}</span></div>`;
}
