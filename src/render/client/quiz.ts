/**
 * In-page grading, shipped as the source of `installQuizzes`. "Check answer" grades one question and
 * reveals its feedback and explanation; in a quiz lesson it also locks that question for the attempt.
 * "Submit quiz" grades every question of the lesson, scores it by points against the pass mark, counts
 * attempts and offers a retry while attempts remain, also after the learner's progress is restored.
 * Self-contained like the runtime.
 */
import type { RuntimeText } from "../ui-text.ts";
import type { QuizRecorder, courseEvents } from "./types.ts";

export function installQuizzes(recorder: QuizRecorder, text: RuntimeText, events: typeof courseEvents): void {
  interface Grade {
    readonly answered: boolean;
    readonly fraction: number;
    /** Parts whose author feedback applies: the choices picked, or the parts answered wrongly. */
    readonly feedbackParts: readonly HTMLElement[];
    readonly partResults: ReadonlyMap<HTMLElement, boolean>;
  }

  function fill(template: string, values: Record<string, string | number>): string {
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
  }

  const roundPoints = (points: number): number => Math.round(points * 100) / 100;
  const normalise = (answer: string, caseSensitive: boolean): string => {
    const collapsed = answer.trim().replace(/\s+/g, " ");
    return caseSensitive ? collapsed : collapsed.toLocaleLowerCase();
  };

  function acceptedAnswers(input: HTMLElement): string[] {
    try {
      const parsed: unknown = JSON.parse(input.dataset.answers ?? "[]");
      return Array.isArray(parsed) ? parsed.filter((answer): answer is string => typeof answer === "string") : [];
    } catch {
      return [];
    }
  }

  function grade(question: HTMLElement): Grade {
    const parts = Array.from(question.querySelectorAll<HTMLElement>("[data-part]"));
    const results = new Map<HTMLElement, boolean>();
    const grading = question.dataset.grading;
    // A block that grades itself (the scenario) writes its last finished answer on its own element.
    if (grading === "self") {
      const answered = question.dataset.answered === "true";
      return { answered, fraction: answered ? Number(question.dataset.fraction ?? "0") : 0, feedbackParts: [], partResults: results };
    }
    if (grading === "choice") {
      const inputs = parts.filter((part): part is HTMLInputElement => part instanceof HTMLInputElement);
      const checked = inputs.filter((input) => input.checked);
      for (const input of checked) results.set(input, input.dataset.correct === "true");
      const correct = inputs.every((input) => input.checked === (input.dataset.correct === "true"));
      return { answered: checked.length > 0, fraction: correct ? 1 : 0, feedbackParts: checked, partResults: results };
    }
    for (const [index, part] of parts.entries()) results.set(part, isPartCorrect(grading, part, index));
    const wrong = parts.filter((part) => results.get(part) === false);
    const correctCount = parts.length - wrong.length;
    const answered = grading === "ordering" || parts.some((part) => part instanceof HTMLInputElement || part instanceof HTMLSelectElement ? part.value.trim() !== "" : false);
    const fraction = parts.length === 0 ? 0 : grading === "ordering" ? (wrong.length === 0 ? 1 : 0) : correctCount / parts.length;
    return { answered, fraction, feedbackParts: wrong, partResults: results };
  }

  function isPartCorrect(grading: string | undefined, part: HTMLElement, index: number): boolean {
    if (grading === "blanks" && part instanceof HTMLInputElement) {
      const caseSensitive = part.dataset.caseSensitive === "true";
      const given = normalise(part.value, caseSensitive);
      return given !== "" && acceptedAnswers(part).some((answer) => normalise(answer, caseSensitive) === given);
    }
    if (grading === "matching" && part instanceof HTMLSelectElement) return part.value !== "" && part.value === part.dataset.answer;
    if (grading === "ordering") return Number(part.dataset.position) === index;
    return false;
  }

  function showGrade(question: HTMLElement, result: Grade): void {
    const points = Number(question.dataset.points ?? "0");
    const earned = roundPoints(points * result.fraction);
    const verdict = question.querySelector<HTMLElement>("[data-verdict]");
    const shown = new Set(result.feedbackParts.map((part) => part.dataset.feedbackId));
    for (const piece of question.querySelectorAll<HTMLElement>("[data-answer-feedback]")) piece.hidden = !result.answered || !shown.has(piece.id);
    const explanation = question.querySelector<HTMLElement>("[data-explanation]");
    if (explanation) explanation.hidden = !result.answered;
    for (const part of question.querySelectorAll<HTMLElement>("[data-part]")) {
      const partResult = result.partResults.get(part);
      const row = part.closest<HTMLElement>(".choice, .matching-row, .ordering-item") ?? part;
      if (partResult === undefined || !result.answered) delete row.dataset.result;
      else row.dataset.result = partResult ? "correct" : "incorrect";
    }
    question.dataset.state = !result.answered ? "unanswered" : result.fraction === 1 ? "correct" : result.fraction === 0 ? "incorrect" : "partial";
    if (!verdict) return;
    if (!result.answered) verdict.textContent = text.unanswered;
    else if (result.fraction === 1) verdict.textContent = `${text.correct} ${fill(text.pointsEarned, { earned, possible: points })}`;
    else if (result.fraction === 0) verdict.textContent = `${text.incorrect} ${fill(text.pointsEarned, { earned, possible: points })}`;
    else verdict.textContent = fill(text.partlyCorrect, { earned, possible: points });
  }

  function setLocked(question: HTMLElement, locked: boolean): void {
    const fieldset = question.querySelector("fieldset");
    if (fieldset) fieldset.disabled = locked;
    const check = question.querySelector<HTMLButtonElement>("[data-check-answer]");
    if (check) check.disabled = locked;
  }

  function lessonOf(element: HTMLElement): HTMLElement | null {
    return element.closest<HTMLElement>("[data-lesson-id]");
  }

  /** The learner's answer in the neutral form `QuestionAnswer.response` describes (for LMS reporting). */
  function responseOf(question: HTMLElement): string[] {
    const parts = Array.from(question.querySelectorAll<HTMLElement>("[data-part]"));
    const grading = question.dataset.grading;
    if (grading === "self") return (question.dataset.response ?? "").split(" ").filter(Boolean);
    if (grading === "choice") return parts.filter((part) => part instanceof HTMLInputElement && part.checked).map((part) => (part as HTMLInputElement).value);
    if (grading === "ordering") return parts.map((part) => part.dataset.position ?? "");
    // Parts that can move (sorting items) carry their authored position, so the response keeps the authored order.
    const ordered = parts.every((part) => part.dataset.item !== undefined) ? [...parts].sort((a, b) => Number(a.dataset.item) - Number(b.dataset.item)) : parts;
    return ordered.map((part) => (part instanceof HTMLInputElement || part instanceof HTMLSelectElement ? part.value : ""));
  }

  function report(question: HTMLElement, result: Grade): void {
    recorder.announceQuestionAnswer({
      response: responseOf(question),
      lessonId: lessonOf(question)?.dataset.lessonId ?? "",
      questionId: question.dataset.questionId ?? "",
      questionType: question.dataset.questionType ?? "",
      scoreFraction: result.fraction,
      correct: result.fraction === 1,
    });
  }

  function checkQuestion(question: HTMLElement): void {
    const result = grade(question);
    showGrade(question, result);
    if (!result.answered) return;
    report(question, result);
    if (lessonOf(question)?.dataset.lessonKind === "quiz") {
      setLocked(question, true);
      question.querySelector<HTMLElement>("[data-feedback-region]")?.focus();
    }
  }

  function numberOrNull(value: string | undefined): number | null {
    return value === undefined || value === "" || Number.isNaN(Number(value)) ? null : Number(value);
  }

  function submitQuiz(lesson: HTMLElement): void {
    const questions = Array.from(lesson.querySelectorAll<HTMLElement>("[data-question]"));
    let earnedPoints = 0;
    let possiblePoints = 0;
    for (const question of questions) {
      const result = grade(question);
      showGrade(question, { ...result, answered: true });
      report(question, result);
      setLocked(question, true);
      const points = Number(question.dataset.points ?? "0");
      possiblePoints += points;
      earnedPoints += points * result.fraction;
    }
    const passingScore = numberOrNull(lesson.dataset.passingScore);
    const maxAttempts = numberOrNull(lesson.dataset.maxAttempts);
    const scorePercent = possiblePoints > 0 ? Math.round((earnedPoints / possiblePoints) * 100) : 100;
    const passed = passingScore === null || scorePercent >= passingScore;
    const score = recorder.recordQuizAttempt(
      { lessonId: lesson.dataset.lessonId ?? "", scorePercent, earnedPoints: roundPoints(earnedPoints), possiblePoints: roundPoints(possiblePoints), passingScore, passed },
      maxAttempts,
    );
    const sentences = [fill(text.scoreSummary, { percent: scorePercent, earned: score.earnedPoints, possible: score.possiblePoints })];
    if (passingScore === null) sentences.push(text.noPassMark);
    else sentences.push(fill(passed ? text.passed : text.failed, { passMark: passingScore }));
    if (!passed && score.attemptsLeft !== null) sentences.push(score.attemptsLeft > 0 ? fill(text.attemptsLeft, { count: score.attemptsLeft }) : text.noAttemptsLeft);
    showQuizResult(lesson, sentences.join(" "), passed ? "passed" : "failed", !passed && score.attemptsLeft !== 0, true);
  }

  function showQuizResult(lesson: HTMLElement, message: string, outcome: "passed" | "failed", canRetry: boolean, moveFocus: boolean): void {
    const result = lesson.querySelector<HTMLElement>("[data-quiz-result]");
    const submit = lesson.querySelector<HTMLElement>("[data-submit-quiz]");
    const retry = lesson.querySelector<HTMLElement>("[data-retry-quiz]");
    if (submit) submit.hidden = true;
    if (retry) retry.hidden = !canRetry;
    if (!result) return;
    result.textContent = message;
    result.dataset.outcome = outcome;
    if (moveFocus) result.focus();
  }

  const initialOrders = new Map<Element, Element[]>();
  for (const list of document.querySelectorAll("[data-ordering-list]")) initialOrders.set(list, Array.from(list.children));

  function retryQuiz(lesson: HTMLElement): void {
    for (const question of lesson.querySelectorAll<HTMLElement>("[data-question]")) {
      for (const part of question.querySelectorAll<HTMLElement>("[data-part]")) {
        if (part instanceof HTMLInputElement && (part.type === "radio" || part.type === "checkbox")) part.checked = false;
        else if (part instanceof HTMLInputElement || part instanceof HTMLSelectElement) part.value = "";
      }
      const list = question.querySelector("[data-ordering-list]");
      if (list) for (const item of initialOrders.get(list) ?? []) list.appendChild(item);
      setLocked(question, false);
      showGrade(question, { answered: false, fraction: 0, feedbackParts: [], partResults: new Map() });
      const verdict = question.querySelector<HTMLElement>("[data-verdict]");
      if (verdict) verdict.textContent = "";
      delete question.dataset.state;
    }
    const result = lesson.querySelector<HTMLElement>("[data-quiz-result]");
    if (result) result.textContent = "";
    const submit = lesson.querySelector<HTMLElement>("[data-submit-quiz]");
    const retry = lesson.querySelector<HTMLElement>("[data-retry-quiz]");
    if (retry) retry.hidden = true;
    if (submit) submit.hidden = false;
    lesson.querySelector<HTMLElement>("[data-question] input, [data-question] select, [data-question] button")?.focus();
  }

  /**
   * After a resume (SCORM suspend data, a cmi5 State document), each attempted quiz looks as it did when
   * the learner left: locked, with its last result, and "Try again" while attempts remain.
   */
  function showRestoredQuizzes(): void {
    for (const lesson of document.querySelectorAll<HTMLElement>("[data-lesson-kind=quiz]")) {
      const record = recorder.quizRecord(lesson.dataset.lessonId ?? "");
      if (!record || !(record.passed || record.attempts > 0)) continue;
      const passingScore = numberOrNull(lesson.dataset.passingScore);
      const maxAttempts = numberOrNull(lesson.dataset.maxAttempts);
      const attemptsLeft = maxAttempts === null ? null : Math.max(0, maxAttempts - record.attempts);
      for (const question of lesson.querySelectorAll<HTMLElement>("[data-question]")) setLocked(question, true);
      const sentences = [fill(text.lastScore, { percent: record.lastScorePercent, attempts: record.attempts })];
      if (passingScore !== null) sentences.push(fill(record.passed ? text.passed : text.failed, { passMark: passingScore }));
      if (!record.passed && attemptsLeft !== null) sentences.push(attemptsLeft > 0 ? fill(text.attemptsLeft, { count: attemptsLeft }) : text.noAttemptsLeft);
      showQuizResult(lesson, sentences.join(" "), record.passed ? "passed" : "failed", !record.passed && attemptsLeft !== 0, false);
    }
  }

  document.addEventListener(events.stateRestored, showRestoredQuizzes);

  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>("button") : null;
    const question = button?.closest<HTMLElement>("[data-question]");
    const lesson = button ? lessonOf(button) : null;
    if (button?.hasAttribute("data-check-answer") && question) checkQuestion(question);
    else if (button?.hasAttribute("data-submit-quiz") && lesson) submitQuiz(lesson);
    else if (button?.hasAttribute("data-retry-quiz") && lesson) retryQuiz(lesson);
  });
}
