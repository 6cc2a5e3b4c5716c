/**
 * In-page grading.
 * Content-lesson questions are immediate, ungraded checks. A quiz lesson runs attempts: each draws its
 * questions from the pool and shuffles their choices, keeps answers in the course state as they are
 * given (so a resumed attempt looks as it was left), and reveals correctness only on "Check answer"
 * when its feedback mode is `immediate`, otherwise on submitting. Submitting names unanswered questions
 * first (go back, or submit anyway); the result gives score, pass or fail, attempts left and each
 * question's verdict. Responses are checked against salted hashes; the right answer is opened only
 * once the question is graded, for the LMS report (see `answer-key.ts`).
 *
 * This module wires the page's events to the quiz modules beside it: `questions` (reading the page),
 * `grading`, `feedback`, `answers` (saved answers, shuffled choices), `attempt`, `paging`, `submit`,
 * `results` and `restore`; `session` holds what they all read.
 */
import type { QuizRecorder, courseEvents } from "../../../page-contract/course-runtime.ts";
import { DataName } from "../../../page-contract/markup-names.ts";
import type { RuntimeText } from "../../../page-contract/text.ts";
import { all, around, data, has, hook, on } from "../dom.ts";
import { rememberInitialOrders } from "./answers.ts";
import { save, startAttempt, submittedLessons } from "./attempt.ts";
import { pagedLessons } from "./paging.ts";
import { drawnOf, isAnswered, isQuiz, lessonOf, questionIdOf } from "./questions.ts";
import { restoreQuiz } from "./restore.ts";
import { startQuizSession, type QuizTools } from "./session.ts";
import { checkQuestion, closeDialog, focusQuestion, requestSubmit, retryQuiz, submitQuiz } from "./submit.ts";

export type { QuizTools };

export function installQuizzes(recorder: QuizRecorder, text: RuntimeText, events: typeof courseEvents, tools: QuizTools): void {
  startQuizSession(recorder, text, tools);
  data(document.documentElement)[DataName.answerCheck] = tools.checker.engine;
  rememberInitialOrders();

  const quizLessons = (): NodeListOf<HTMLElement> => all<HTMLElement>(document, `[data-${DataName.lessonKind}=quiz]`);
  for (const lesson of quizLessons()) startAttempt(lesson);

  on(events.stateRestored, () => {
    for (const lesson of quizLessons()) void restoreQuiz(lesson);
  });

  const saveFrom = (target: EventTarget | null): void => {
    const question = around<HTMLElement>(target, hook(DataName.question));
    const lesson = question ? lessonOf(question) : null;
    if (isQuiz(lesson) && !submittedLessons.has(lesson)) save(lesson);
  };
  // Leaving the page (another lesson, the browser's Back) closes a submit dialog left open.
  window.addEventListener("hashchange", () => {
    for (const dialog of all<HTMLDialogElement>(document, `[data-${DataName.submitDialog}][open]`)) closeDialog(dialog);
  });
  // Saved on "change" (a pick, or leaving a blank), not per keystroke: each save may be an LMS commit.
  // Typing not yet committed is saved when the page goes, before the adapters finish the session.
  on("change", (event) => saveFrom(event.target));
  const saveOpenAttempts = (): void => {
    for (const lesson of quizLessons()) if (!submittedLessons.has(lesson)) save(lesson);
  };
  for (const type of ["beforeunload", "pagehide"]) window.addEventListener(type, saveOpenAttempts);

  on("click", (event) => {
    const button = around<HTMLElement>(event.target, "button");
    if (!button) return;
    const question = around<HTMLElement>(button, hook(DataName.question));
    const lesson = lessonOf(button);
    const dialog = around<HTMLDialogElement>(button, hook(DataName.submitDialog));
    if (has(button, `data-${DataName.checkAnswer}`) && question) void checkQuestion(question);
    else if (has(button, `data-${DataName.submitQuiz}`) && lesson) requestSubmit(lesson);
    else if (has(button, `data-${DataName.retryQuiz}`) && lesson) retryQuiz(lesson);
    else if (data(button)[DataName.questionStep] && lesson) {
      // The next question's first control takes focus, so its legend ("Question 3 (1 point)") is read.
      const target = drawnOf(lesson)[(pagedLessons.get(lesson) ?? 0) + Number(data(button)[DataName.questionStep])];
      if (target) focusQuestion(target);
    }
    else if (data(button)[DataName.move] && question) {
      data(question)[DataName.touched] = "true";
      saveFrom(question);
    } else if (dialog && lesson) {
      closeDialog(dialog);
      if (has(button, `data-${DataName.dialogSubmit}`)) void submitQuiz(lesson);
      else if (has(button, `data-${DataName.dialogBack}`)) focusQuestion(drawnOf(lesson).find((candidate) => !isAnswered(candidate)));
      else if (data(button)[DataName.goToQuestion] !== undefined) focusQuestion(drawnOf(lesson).find((candidate) => questionIdOf(candidate) === data(button)[DataName.goToQuestion]));
    }
  });
}
