/**
 * Checking one question (immediate feedback), submitting a quiz (naming unanswered questions first),
 * retrying, and moving focus to a question.
 */
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { data, fill, hook, make, one, textInHook } from "../dom.ts";
import { save, startAttempt, submittedLessons } from "./attempt.ts";
import { clearGrade, setLocked, showGrade } from "./feedback.ts";
import { grade, report } from "./grading.ts";
import { pagedLessons, showQuestionPage } from "./paging.ts";
import { type ResultLine, drawnOf, isAnswered, isQuiz, lessonIdOf, lessonOf, modeOf, numberOrNull, pointsOf, questionIdOf, roundPoints } from "./questions.ts";
import { attemptsSentence, resultLine, showResult, verdictSentence } from "./results.ts";
import { recorder, text } from "./session.ts";

export async function checkQuestion(question: HTMLElement): Promise<void> {
  const lesson = lessonOf(question);
  if (!isAnswered(question)) {
    clearGrade(question);
    textInHook(question, DataName.verdict, text.unanswered);
    data(question)[DataName.state] = "unanswered";
    return;
  }
  const result = await grade(question);
  showGrade(question, result, true);
  report(question, result);
  if (isQuiz(lesson)) {
    data(question)[DataName.checked] = "true";
    setLocked(question, true);
    save(lesson);
    one<HTMLElement>(question, hook(DataName.feedbackRegion))?.focus();
  }
}

/** Before submitting: names the unanswered questions, with "Go back" (answers kept) or "Submit anyway". */
export function requestSubmit(lesson: HTMLElement): void {
  const drawn = drawnOf(lesson);
  const unanswered = drawn.filter((question) => !isAnswered(question));
  const dialog = one<HTMLDialogElement>(lesson, hook(DataName.submitDialog));
  if (unanswered.length === 0 || !dialog) {
    void submitQuiz(lesson);
    return;
  }
  textInHook(dialog, DataName.dialogTitle, fill(unanswered.length === 1 ? text.unansweredOne : text.unansweredMany, { unanswered: unanswered.length, count: drawn.length }));
  one(dialog, hook(DataName.unansweredList))?.replaceChildren(
    ...unanswered.map((question) => {
      const item = make("li", "");
      const button = item.appendChild(make("button", ClassName.linkButton, fill(text.unansweredItem, { number: drawn.indexOf(question) + 1 })));
      button.type = "button";
      data(button)[DataName.goToQuestion] = questionIdOf(question);
      return item;
    }),
  );
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  one<HTMLElement>(dialog, hook(DataName.dialogBack))?.focus();
}

export function closeDialog(dialog: HTMLDialogElement): void {
  if (typeof dialog.close === "function") dialog.close();
  else dialog.removeAttribute("open");
}

export function focusQuestion(question: HTMLElement | undefined): void {
  const lesson = question ? lessonOf(question) : null;
  if (question && lesson && pagedLessons.has(lesson)) showQuestionPage(lesson, drawnOf(lesson).indexOf(question));
  question?.scrollIntoView({ block: "center" });
  one<HTMLElement>(question, "input, select, button:not([disabled])")?.focus();
}

export async function submitQuiz(lesson: HTMLElement): Promise<void> {
  if (submittedLessons.has(lesson)) return;
  submittedLessons.add(lesson);
  const details = modeOf(lesson) !== "none";
  const lines: ResultLine[] = [];
  let earnedPoints = 0;
  let possiblePoints = 0;
  for (const [index, question] of drawnOf(lesson).entries()) {
    const result = await grade(question);
    showGrade(question, result, details);
    // A question checked on its own (immediate mode) was reported then, and is locked since.
    if (data(question)[DataName.checked] !== "true") report(question, result);
    setLocked(question, true);
    const points = pointsOf(question);
    possiblePoints += points;
    earnedPoints += points * result.fraction;
    lines.push(resultLine(index, result.fraction, question));
  }
  const lessonId = lessonIdOf(lesson);
  const passingScore = recorder.passMarkOf(lessonId, numberOrNull(data(lesson)[DataName.passingScore]));
  const scorePercent = possiblePoints > 0 ? Math.round((earnedPoints / possiblePoints) * 100) : 100;
  const passed = passingScore === null || scorePercent >= passingScore;
  const score = recorder.recordQuizAttempt(
    { lessonId, scorePercent, earnedPoints: roundPoints(earnedPoints), possiblePoints: roundPoints(possiblePoints), passingScore, passed },
    numberOrNull(data(lesson)[DataName.maxAttempts]),
  );
  save(lesson);
  // Worded from the record the course reports (the attempt that counts), so the page never says less than the LMS is told.
  const record = recorder.quizRecord(lessonId);
  const summary = [fill(text.scoreSummary, { percent: scorePercent, earned: score.earnedPoints, possible: score.possiblePoints }), verdictSentence(passingScore, passed, record), attemptsSentence(score.attemptsLeft)];
  showResult(lesson, { percent: scorePercent, passMark: passingScore }, summary, lines, record?.passed ?? passed, true);
}

export function retryQuiz(lesson: HTMLElement): void {
  startAttempt(lesson);
  focusQuestion(drawnOf(lesson)[0]);
}
