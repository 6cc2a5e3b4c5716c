/** The results screen: score, verdict, attempts left and a review line per question, after submitting or on resume. */
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { data, fill, has, hook, make, one } from "../dom.ts";
import { setPanelOpen } from "./paging.ts";
import { type ResultLine, attemptsLeft, lessonIdOf, numberOrNull, stateOf } from "./questions.ts";
import { recorder, text } from "./session.ts";

/** A question's line in the results' review: "Question 2: correct", and its mark. */
export function resultLine(index: number, fraction: number, question?: HTMLElement): ResultLine {
  if (question && has(question, `data-${DataName.unscored}`)) return { text: fill(text.recordedQuestion, { number: index + 1 }), state: "recorded" };
  const state = stateOf(fraction);
  const template = state === "correct" ? text.correctQuestion : state === "incorrect" ? text.incorrectQuestion : text.partlyCorrectQuestion;
  return { text: fill(template, { number: index + 1 }), state };
}

export function verdictSentence(passMark: number | null, passedNow: boolean, record: { bestScorePercent: number; passed: boolean } | undefined): string {
  if (passMark === null) return text.noPassMark;
  if (passedNow) return fill(text.passed, { passMark });
  if (record?.passed) return fill(text.passedEarlier, { best: record.bestScorePercent, passMark });
  return fill(text.failed, { passMark });
}

export const attemptsSentence = (left: number | null): string => left === null ? text.attemptsUnlimited : left > 0 ? fill(text.attemptsLeft, { count: left }) : text.noAttemptsLeft;

/**
 * The results screen: the score large (for the eye; the sentence below says it for everyone), the
 * verdict and the pass mark, attempts left, then a review line per question with its mark.
 */
export function showResult(lesson: HTMLElement, figures: { percent: number; passMark: number | null }, summary: readonly string[], lines: readonly ResultLine[], passed: boolean, moveFocus: boolean): void {
  setPanelOpen(lesson, false);
  const result = one<HTMLElement>(lesson, hook(DataName.quizResult));
  if (!result) return;
  const score = make("div", ClassName.resultScore);
  score.setAttribute("aria-hidden", "true");
  score.append(make("span", ClassName.resultPercent, fill(text.scorePercent, { percent: figures.percent })));
  if (figures.passMark !== null) score.append(make("span", ClassName.resultMark, fill(text.passMarkLabel, { passMark: figures.passMark })));
  const children: HTMLElement[] = [make("h2", ClassName.resultHeading, text.resultsHeading), score, make("p", ClassName.resultSummary, summary.join(" "))];
  if (lines.length > 0) {
    const list = make("ul", ClassName.questionResults);
    for (const line of lines) {
      const item = make("li", "", line.text);
      data(item)[DataName.review] = line.state;
      list.appendChild(item);
    }
    children.push(list);
  }
  result.replaceChildren(...children);
  data(result)[DataName.outcome] = passed ? "passed" : "failed";
  if (moveFocus) result.focus();
}

export function showRestoredResult(lesson: HTMLElement, record: { attempts: number; lastScorePercent: number; bestScorePercent: number; passed: boolean }, lines: readonly ResultLine[]): void {
  const passingScore = recorder.passMarkOf(lessonIdOf(lesson), numberOrNull(data(lesson)[DataName.passingScore]));
  const summary = [fill(text.lastScore, { percent: record.lastScorePercent, attempts: record.attempts })];
  if (passingScore !== null) summary.push(verdictSentence(passingScore, record.passed && record.lastScorePercent >= passingScore, record));
  summary.push(attemptsSentence(attemptsLeft(lesson, record.attempts)));
  showResult(lesson, { percent: record.lastScorePercent, passMark: passingScore }, summary, lines, record.passed, false);
}
