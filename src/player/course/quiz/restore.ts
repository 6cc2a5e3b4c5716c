/** Putting a quiz back as it was left when the course's state is restored (SCORM suspend data, a cmi5 State document). */
import { DataName } from "../../../page-contract/markup-names.ts";
import { data } from "../dom.ts";
import { choiceRows } from "./answers.ts";
import { applyAttempt, drawSize, save, startAttempt, submittedLessons } from "./attempt.ts";
import { setLocked, showGrade } from "./feedback.ts";
import { grade } from "./grading.ts";
import { setPanelOpen } from "./paging.ts";
import { type ResultLine, attemptsLeft, drawnOf, lessonIdOf, modeOf, poolOf } from "./questions.ts";
import { resultLine, showRestoredResult } from "./results.ts";
import { attemptTools, recorder } from "./session.ts";

/**
 * After a resume (SCORM suspend data, a cmi5 State document): a saved attempt is shown as it was
 * left, graded again if it had been submitted; one that does not fit starts a new attempt, and a quiz
 * whose attempts are used up shows its last result.
 */
export async function restoreQuiz(lesson: HTMLElement): Promise<void> {
  const lessonId = lessonIdOf(lesson);
  const record = recorder.quizRecord(lessonId);
  const pool = poolOf(lesson);
  const shape = { drawSize: drawSize(lesson), choiceCounts: pool.map((question) => choiceRows(question).length) };
  const attempt = attemptTools.decode(recorder.attemptOf(lessonId), shape);
  // A submitted attempt counts only when the record says an attempt was made (a hand-set flag does not reveal answers).
  // With no attempts left, an open attempt cannot be submitted: it shows the last result instead.
  const made = record !== undefined && record.attempts > 0;
  const usedUp = made && attemptsLeft(lesson, record.attempts) === 0;
  if (!attempt || !applyAttempt(lesson, attempt)) {
    startAttempt(lesson);
    if (usedUp) {
      for (const question of drawnOf(lesson)) setLocked(question, true);
      submittedLessons.add(lesson);
      showRestoredResult(lesson, record, []);
    }
    return;
  }
  const submitted = made && (attempt.submitted || usedUp);
  if (submitted) submittedLessons.add(lesson);
  else submittedLessons.delete(lesson);
  const details = modeOf(lesson) !== "none";
  const lines: ResultLine[] = [];
  for (const [index, question] of drawnOf(lesson).entries()) {
    if (!submitted && data(question)[DataName.checked] !== "true") continue;
    const result = await grade(question);
    showGrade(question, result, details || !submitted);
    setLocked(question, true);
    lines.push(resultLine(index, result.fraction, question));
  }
  if (submitted && record) showRestoredResult(lesson, record, lines);
  else setPanelOpen(lesson, true);
  save(lesson);
}
