/**
 * What makes the introduction a cover page, and the progress bar every player shows: the Start button
 * (the runtime turns it into Resume, pointing at where the learner left off) and a meter of lessons
 * completed of all, which the runtime fills as lessons are completed or quizzes passed.
 */
import { html, type SafeHtml } from "./html.ts";
import type { PageLink } from "./lesson.ts";
import { uiText } from "./ui-text.ts";
import { ClassName, DataName } from "../page-contract/markup-names.ts";

export function startButton(first: PageLink | undefined): SafeHtml | "" {
  if (!first) return "";
  return html`<p class="${ClassName.startLink}"><a class="${ClassName.button} ${ClassName.buttonPrimary} start-button" href="#${first.pageId}" data-${DataName.startCourse}>${uiText.startCourse}</a></p>`;
}

export function progressMeter(lessonCount: number): SafeHtml | "" {
  if (lessonCount === 0) return "";
  return html`<div class="${ClassName.progressMeter}"><progress data-${DataName.progressBar} max="${lessonCount}" value="0" aria-label="${uiText.lessonsCompletedLabel}" aria-describedby="progress-meter-text"></progress><span id="progress-meter-text" data-${DataName.progressText}>${uiText.lessonsCompleted(0, lessonCount)}</span></div>`;
}
