/**
 * In-page grading.
 * Content-lesson questions are immediate, ungraded checks. A quiz lesson runs attempts: each draws its
 * questions from the pool and shuffles their choices, keeps answers in the course state as they are
 * given (so a resumed attempt looks as it was left), and reveals correctness only on "Check answer"
 * when its feedback mode is `immediate`, otherwise on submitting. Submitting names unanswered questions
 * first (go back, or submit anyway); the result gives score, pass or fail, attempts left and each
 * question's verdict. Responses are checked against salted hashes; the right answer is opened only
 * once the question is graded, for the LMS report (see `answer-key.ts`).
 */
import { all, around, data, fieldOf, fill, has, hook, listAll, make, on, one, setIn, setInHook, textInHook } from "./dom.ts";
import type { RuntimeText } from "../../page-contract/text.ts";
import { updateOrderingButtons } from "./widgets.ts";
import type { AnswerChecker } from "./answer-checker.ts";
import { digitOf, indexOfDigit, isArray, type Attempt, type AttemptEntry, type AttemptTools } from "./quiz-attempts.ts";
import type { QuestionAnswer, QuizRecorder, courseEvents } from "../../page-contract/course-runtime.ts";
import { ClassName, DataName } from "../../page-contract/markup-names.ts";

/** One question's line in the results' review. */
interface ResultLine {
  readonly text: string;
  readonly state: "correct" | "incorrect" | "partial";
}

export interface QuizTools {
  readonly checker: AnswerChecker;
  readonly attempts: AttemptTools;
  readonly salt: string;
  readonly sealKey: string;
}

export function installQuizzes(recorder: QuizRecorder, text: RuntimeText, events: typeof courseEvents, tools: QuizTools): void {
  const { checker } = tools;
  const attemptTools = tools.attempts;
  data(document.documentElement)[DataName.answerCheck] = checker.engine;

  interface Grade {
    readonly answered: boolean;
    readonly fraction: number;
    /** Parts whose author feedback applies: the choices picked, or the parts answered wrongly. */
    readonly feedbackParts: readonly HTMLElement[];
    readonly partResults: ReadonlyMap<HTMLElement, boolean>;
    /** The right answers, opened for the LMS report. */
    readonly right: RightAnswers;
  }
  type RightAnswers = Pick<QuestionAnswer, "correctResponse" | "otherCorrectResponses">;

  const stateOf = (fraction: number): ResultLine["state"] => (fraction === 1 ? "correct" : fraction === 0 ? "incorrect" : "partial");
  const roundPoints = (points: number): number => Math.round(points * 100) / 100;
  /** A number attribute's value; null when it is absent, empty or not a number (`Number(undefined)` is NaN). */
  const numberOrNull = (value: string | undefined): number | null => {
    const number = Number(value);
    return value === "" || Number.isNaN(number) ? null : number;
  };
  const lessonOf = (element: HTMLElement): HTMLElement | null => around<HTMLElement>(element, hook(DataName.lessonId));
  const isQuiz = (lesson: HTMLElement | null): lesson is HTMLElement => data(lesson)?.[DataName.lessonKind] === "quiz";
  // Sorting items move between category boxes, so their parts are read in authored order (data-item).
  const partsOf = (question: HTMLElement): HTMLElement[] => {
    const parts = listAll<HTMLElement>(question, hook(DataName.part));
    return data(question)[DataName.questionType] === "sorting" ? parts.sort((a, b) => Number(data(a)[DataName.item]) - Number(data(b)[DataName.item])) : parts;
  };
  const poolOf = (lesson: HTMLElement): HTMLElement[] => listAll<HTMLElement>(lesson, hook(DataName.question));
  const drawnOf = (lesson: HTMLElement): HTMLElement[] => poolOf(lesson).filter((question) => !question.hidden);
  const modeOf = (lesson: HTMLElement | null): string => (isQuiz(lesson) ? (data(lesson)[DataName.feedbackMode] ?? "after_submit") : "immediate");
  const lessonIdOf = (lesson: HTMLElement | null | undefined): string => data(lesson)?.[DataName.lessonId] ?? "";
  const questionIdOf = (question: HTMLElement): string => data(question)[DataName.questionId] ?? "";
  const pointsOf = (question: HTMLElement): number => Number(data(question)[DataName.points] ?? "0");
  /** The values of a question's form controls, "" for a part that is not one (an ordering item). */
  const fieldValues = (question: HTMLElement): string[] => partsOf(question).map((part) => fieldOf(part)?.value ?? "");

  /* ---------- Responses ---------- */

  function normalise(answer: string, caseSensitive: boolean): string {
    const collapsed = answer.trim().replace(/\s+/g, " ");
    return caseSensitive ? collapsed : collapsed.toLocaleLowerCase();
  }

  /**
   * The response to each hashed part, in the form `answer-key.ts` hashed the accepted ones: the neutral
   * response, as one part for choices and orderings, normalised for blanks.
   */
  function responseParts(question: HTMLElement): string[] {
    const grading = data(question)[DataName.grading];
    const response = neutralResponse(question);
    if (grading === "choice" || grading === "ordering") return [response.join(",")];
    return grading === "blanks" ? partsOf(question).map((part, index) => normalise(response[index] ?? "", data(part)[DataName.caseSensitive] === "true")) : response;
  }

  function checkedValues(question: HTMLElement): string[] {
    return partsOf(question)
      .filter((part): part is HTMLInputElement => part instanceof HTMLInputElement && part.checked)
      .map((part) => part.value)
      .sort((a, b) => Number(a) - Number(b));
  }

  function isAnswered(question: HTMLElement): boolean {
    const grading = data(question)[DataName.grading];
    if (grading === "self") return data(question)[DataName.answered] === "true";
    if (grading === "choice") return checkedValues(question).length > 0;
    if (grading === "ordering") return data(question)[DataName.touched] === "true" || data(lessonOf(question))?.[DataName.lessonKind] !== "quiz";
    return fieldValues(question).some((value) => value.trim() !== "");
  }

  /** The learner's answer in the neutral form `QuestionAnswer.response` describes (for LMS reporting). */
  function neutralResponse(question: HTMLElement): string[] {
    const grading = data(question)[DataName.grading];
    // A scenario writes its path of scene ids on its own element.
    if (grading === "self") return (data(question)[DataName.response] ?? "").split(" ").filter(Boolean);
    if (grading === "choice") return checkedValues(question);
    if (grading === "ordering") return partsOf(question).map((part) => data(part)[DataName.item] ?? "");
    return fieldValues(question);
  }

  /* ---------- Grading ---------- */

  /** A JSON value as a list of strings; [] when it is not a list. */
  const stringsOf = (value: unknown): string[] => (isArray(value) ? value.map(String) : []);

  function keyOf(question: HTMLElement): string[][] {
    try {
      const parsed: unknown = JSON.parse(data(question).key ?? "[]");
      return isArray(parsed) ? parsed.map(stringsOf) : [];
    } catch {
      return [];
    }
  }

  function revealed(question: HTMLElement): RightAnswers {
    const opened = checker.open(tools.sealKey, questionIdOf(question), data(question).sealed ?? "") as { c?: unknown; o?: unknown } | null;
    return { correctResponse: stringsOf(opened?.c), otherCorrectResponses: (isArray(opened?.o) ? opened.o.filter(isArray) : []).map(stringsOf) };
  }

  async function grade(question: HTMLElement): Promise<Grade> {
    const partResults = new Map<HTMLElement, boolean>();
    const opened = { partResults, right: revealed(question) };
    const { correctResponse } = opened.right;
    const grading = data(question)[DataName.grading];
    // A block that grades itself (the scenario) writes its last finished answer on its own element.
    if (grading === "self") {
      const answered = data(question)[DataName.answered] === "true";
      return { ...opened, answered, fraction: answered ? Number(data(question)[DataName.fraction] ?? "0") : 0, feedbackParts: [] };
    }
    const key = keyOf(question);
    const responses = responseParts(question);
    const matches = await Promise.all(key.map(async (accepted, part) => accepted.includes(await checker.hash(tools.salt, questionIdOf(question), part, responses[part] ?? ""))));
    const parts = partsOf(question);
    const choice = grading === "choice";
    parts.forEach((part, index) => {
      if (!choice) partResults.set(part, parts.length === key.length ? matches[index] === true : correctResponse[index] === data(part)[DataName.item]);
      else if (part instanceof HTMLInputElement && part.checked) partResults.set(part, correctResponse.includes(part.value));
    });
    return {
      ...opened,
      answered: isAnswered(question),
      fraction: key.length === 0 ? 0 : matches.filter(Boolean).length / key.length,
      // Feedback for the choices picked, or for the parts answered wrongly.
      feedbackParts: parts.filter((part) => (choice ? partResults.has(part) : partResults.get(part) === false)),
    };
  }

  function verdictText(fraction: number, points: number): string {
    const values = { earned: roundPoints(points * fraction), possible: points };
    return fraction === 1 || fraction === 0 ? `${fraction ? text.correct : text.incorrect} ${fill(text.pointsEarned, values)}` : fill(text.partlyCorrect, values);
  }

  /** Shows a graded question: its verdict always; marks, feedback and explanation unless the mode is `none`. */
  function showGrade(question: HTMLElement, result: Grade, details: boolean): void {
    const shown = new Set(result.feedbackParts.map((part) => data(part)[DataName.feedbackId]));
    for (const piece of all<HTMLElement>(question, hook(DataName.answerFeedback))) piece.hidden = !details || !shown.has(piece.id);
    setInHook(question, DataName.explanation, "hidden", !details);
    for (const part of partsOf(question)) {
      const partResult = result.partResults.get(part);
      const row = around<HTMLElement>(part, `.${ClassName.choice}, .${ClassName.matchingRow}, .${ClassName.orderingItem}`) ?? part;
      if (partResult === undefined || !details) delete data(row)[DataName.result];
      else data(row)[DataName.result] = partResult ? "correct" : "incorrect";
    }
    data(question)[DataName.state] = stateOf(result.fraction);
    textInHook(question, DataName.verdict, verdictText(result.fraction, pointsOf(question)));
  }

  function clearGrade(question: HTMLElement): void {
    for (const piece of all<HTMLElement>(question, `[data-${DataName.answerFeedback}], [data-${DataName.explanation}]`)) piece.hidden = true;
    for (const row of all<HTMLElement>(question, hook(DataName.result))) delete data(row)[DataName.result];
    textInHook(question, DataName.verdict, "");
    delete data(question)[DataName.state];
  }

  function setLocked(question: HTMLElement, locked: boolean): void {
    setIn<HTMLFieldSetElement, "disabled">(question, "fieldset", "disabled", locked);
    setInHook<HTMLButtonElement, "disabled">(question, DataName.checkAnswer, "disabled", locked);
  }

  function report(question: HTMLElement, result: Grade): void {
    const lesson = lessonOf(question);
    recorder.announceQuestionAnswer({
      ...result.right,
      response: neutralResponse(question),
      graded: isQuiz(lesson),
      lessonId: lessonIdOf(lesson),
      questionId: questionIdOf(question),
      questionType: data(question)[DataName.questionType] ?? "",
      scoreFraction: result.fraction,
      correct: result.fraction === 1,
    });
  }

  /* ---------- Attempts: draw, shuffle, save, restore ---------- */

  const submittedLessons = new Set<HTMLElement>();

  /** The authored index of the choice a row holds (its input's value). */
  const choiceIndex = (row: HTMLElement): number => Number(one<HTMLInputElement>(row, "input")?.value ?? "-1");

  function choiceRows(question: HTMLElement): HTMLElement[] {
    return listAll<HTMLElement>(question, `.${ClassName.choiceList} > .${ClassName.choice}`);
  }

  function shuffles(lesson: HTMLElement, question: HTMLElement): boolean {
    return data(lesson)[DataName.shuffleChoices] !== "false" && data(question)[DataName.grading] === "choice" && data(question)[DataName.questionType] !== "true_false";
  }

  /** Puts the choices in `order` (authored index per place); an empty order means authored order. */
  function arrangeChoices(question: HTMLElement, order: readonly number[]): void {
    const rows = choiceRows(question);
    const list = rows[0]?.parentElement;
    if (!list) return;
    const byIndex = new Map(rows.map((row) => [choiceIndex(row), row]));
    const wanted = order.length === rows.length ? order : rows.map((_, index) => index);
    for (const index of wanted) {
      const row = byIndex.get(index);
      if (row) list.appendChild(row);
    }
  }

  /** Per place, whether the choice there keeps its place when shuffled. */
  function fixedOf(question: HTMLElement): boolean[] {
    return choiceRows(question).map((row) => has(row, `data-${DataName.fixed}`));
  }

  function choiceOrder(question: HTMLElement): number[] {
    return choiceRows(question).map(choiceIndex);
  }

  const initialOrders = new Map<Element, Element[]>();
  for (const list of all(document, hook(DataName.orderingList))) initialOrders.set(list, Array.from(list.children));

  function clearAnswer(question: HTMLElement): void {
    for (const part of partsOf(question)) {
      if (part instanceof HTMLInputElement && (part.type === "radio" || part.type === "checkbox")) part.checked = false;
      else if (fieldOf(part)) (part as HTMLInputElement).value = "";
    }
    const list = one(question, hook(DataName.orderingList));
    if (list) for (const item of initialOrders.get(list) ?? []) list.appendChild(item);
    delete data(question)[DataName.touched];
  }

  function answerOf(question: HTMLElement): string | string[] {
    const grading = data(question)[DataName.grading];
    if (grading === "choice") return checkedValues(question).map((value) => digitOf(Number(value))).join("");
    if (grading === "ordering") return data(question)[DataName.touched] === "true" ? partsOf(question).map((part) => digitOf(Number(data(part)[DataName.item]))).join("") : "";
    if (grading === "matching") return partsOf(question).map((part) => (part instanceof HTMLSelectElement && part.value !== "" ? digitOf(Number(part.value)) : "-")).join("");
    return partsOf(question).map((part) => (part instanceof HTMLInputElement ? part.value : ""));
  }

  /** Puts a saved answer back; false when it does not fit the question (then the attempt starts again). */
  function applyAnswer(question: HTMLElement, answer: string | readonly string[]): boolean {
    const grading = data(question)[DataName.grading];
    const parts = partsOf(question);
    if (grading === "blanks") {
      if (!isArray(answer) || answer.length !== parts.length) return answer === "" || (isArray(answer) && answer.length === 0);
      parts.forEach((part, index) => {
        if (part instanceof HTMLInputElement) part.value = String(answer[index] ?? "");
      });
      return true;
    }
    if (typeof answer !== "string") return false;
    if (grading === "choice") {
      const chosen = Array.from(answer, indexOfDigit);
      const inputs = parts.filter((part): part is HTMLInputElement => part instanceof HTMLInputElement);
      if (chosen.some((index) => index < 0 || index >= inputs.length) || (inputs[0]?.type === "radio" && chosen.length > 1)) return false;
      for (const input of inputs) input.checked = chosen.includes(Number(input.value));
      return true;
    }
    if (grading === "matching") {
      if (answer === "") return true;
      if (answer.length !== parts.length) return false;
      return parts.every((part, index) => {
        const digit = answer.charAt(index);
        if (!(part instanceof HTMLSelectElement)) return false;
        const value = digit === "-" ? "" : String(indexOfDigit(digit));
        if (!Array.from(part.options).some((option) => option.value === value)) return false;
        part.value = value;
        return true;
      });
    }
    if (grading === "ordering") {
      if (answer === "") return true;
      const list = one(question, hook(DataName.orderingList));
      const byItem = new Map(parts.map((part) => [data(part)[DataName.item], part]));
      const wanted = Array.from(answer, (digit) => byItem.get(String(indexOfDigit(digit))));
      if (!list || wanted.length !== parts.length || new Set(wanted).size !== parts.length || wanted.some((item) => !item)) return false;
      for (const item of wanted) if (item) list.appendChild(item);
      data(question)[DataName.touched] = "true";
      return true;
    }
    return false;
  }

  function renumber(lesson: HTMLElement): void {
    drawnOf(lesson).forEach((question, index) => {
      const points = pointsOf(question);
      textInHook(question, DataName.questionLegend, fill(points === 1 ? text.questionHeadingOne : text.questionHeadingMany, { number: index + 1, points }));
    });
    for (const list of all(lesson, hook(DataName.orderingList))) updateOrderingButtons(list);
  }

  function currentAttempt(lesson: HTMLElement): Attempt {
    const pool = poolOf(lesson);
    const entries: AttemptEntry[] = drawnOf(lesson).map((question) => ({
      question: pool.indexOf(question),
      order: shuffles(lesson, question) ? choiceOrder(question) : [],
      answer: answerOf(question),
      checked: data(question)[DataName.checked] === "true",
    }));
    return { submitted: submittedLessons.has(lesson), entries };
  }

  function save(lesson: HTMLElement): void {
    recorder.saveAttempt(lessonIdOf(lesson), attemptTools.encode(currentAttempt(lesson)));
  }

  function drawSize(lesson: HTMLElement): number {
    const count = numberOrNull(data(lesson)[DataName.drawCount]);
    const size = poolOf(lesson).length;
    return count === null ? size : Math.min(count, size);
  }

  function resetQuestion(question: HTMLElement): void {
    clearAnswer(question);
    clearGrade(question);
    setLocked(question, false);
    delete data(question)[DataName.checked];
  }

  /** A new attempt: a new draw (not the previous one when the pool allows), reshuffled choices, no answers. */
  function startAttempt(lesson: HTMLElement): void {
    const pool = poolOf(lesson);
    const previous = drawnOf(lesson).length < pool.length ? drawnOf(lesson).map((question) => pool.indexOf(question)) : null;
    const objectives = pool.map((question) => (data(question)[DataName.objectives] ?? "").split(" ").filter(Boolean));
    const drawn = new Set(attemptTools.draw(objectives, numberOrNull(data(lesson)[DataName.drawCount]), data(lesson)[DataName.drawByObjective] === "true", previous));
    pool.forEach((question, index) => {
      question.hidden = !drawn.has(index);
      resetQuestion(question);
      arrangeChoices(question, shuffles(lesson, question) ? attemptTools.shuffle(fixedOf(question)) : []);
    });
    submittedLessons.delete(lesson);
    renumber(lesson);
    setPanelOpen(lesson, true);
    save(lesson);
  }

  /** Shows a saved attempt as it was left; false when it does not fit this lesson. */
  function applyAttempt(lesson: HTMLElement, attempt: Attempt): boolean {
    const pool = poolOf(lesson);
    const chosen = new Map(attempt.entries.map((entry) => [entry.question, entry]));
    for (const [index, question] of pool.entries()) {
      const entry = chosen.get(index);
      question.hidden = !entry;
      resetQuestion(question);
      arrangeChoices(question, []);
      if (!entry) continue;
      if (entry.order.length > 0) {
        const fixed = fixedOf(question);
        if (!shuffles(lesson, question) || entry.order.some((value, place) => (fixed[place] || fixed[value]) && value !== place)) return false;
        arrangeChoices(question, entry.order);
      }
      if (!applyAnswer(question, entry.answer)) return false;
      if (entry.checked) data(question)[DataName.checked] = "true";
    }
    renumber(lesson);
    return true;
  }

  function attemptsLeft(lesson: HTMLElement, attempts: number): number | null {
    const maxAttempts = numberOrNull(data(lesson)[DataName.maxAttempts]);
    return maxAttempts === null ? null : Math.max(0, maxAttempts - attempts);
  }

  /* ---------- One question at a time ---------- */

  const pagedLessons = new Map<HTMLElement, number>();

  /** Shows the drawn question at `index` alone and says which it is; the others stay in the page, out of view. */
  function showQuestionPage(lesson: HTMLElement, index: number): void {
    const pager = one<HTMLElement>(lesson, hook(DataName.questionPager));
    const drawn = drawnOf(lesson);
    if (!pager || drawn.length === 0) return;
    const current = Math.min(Math.max(index, 0), drawn.length - 1);
    pagedLessons.set(lesson, current);
    drawn.forEach((question, place) => question.toggleAttribute(`data-${DataName.pagedOut}`, place !== current));
    pager.hidden = false;
    textInHook(pager, DataName.questionCount, fill(text.questionCount, { number: current + 1, count: drawn.length }));
    const [previous, next] = listAll<HTMLButtonElement>(pager, hook(DataName.questionStep));
    if (previous) previous.hidden = current === 0;
    if (next) next.hidden = current === drawn.length - 1;
  }

  /** After submitting every question shows again, for the review; the pager goes. */
  function showAllQuestions(lesson: HTMLElement): void {
    for (const question of poolOf(lesson)) question.removeAttribute(`data-${DataName.pagedOut}`);
    setInHook(lesson, DataName.questionPager, "hidden", true);
    pagedLessons.delete(lesson);
  }

  /** The submit/retry buttons: open for answering, or done (retry while attempts remain). */
  function setPanelOpen(lesson: HTMLElement, open: boolean): void {
    if (has(lesson, `data-${DataName.oneAtATime}`)) {
      if (open) showQuestionPage(lesson, pagedLessons.get(lesson) ?? 0);
      else showAllQuestions(lesson);
    }
    const left = attemptsLeft(lesson, recorder.quizRecord(lessonIdOf(lesson))?.attempts ?? 0);
    setInHook(lesson, DataName.submitQuiz, "hidden", !open);
    setInHook(lesson, DataName.retryQuiz, "hidden", open || left === 0);
    if (open) one(lesson, hook(DataName.quizResult))?.replaceChildren();
  }

  /* ---------- Checking, submitting, the result ---------- */

  async function checkQuestion(question: HTMLElement): Promise<void> {
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
  function requestSubmit(lesson: HTMLElement): void {
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

  function closeDialog(dialog: HTMLDialogElement): void {
    if (typeof dialog.close === "function") dialog.close();
    else dialog.removeAttribute("open");
  }

  function focusQuestion(question: HTMLElement | undefined): void {
    const lesson = question ? lessonOf(question) : null;
    if (question && lesson && pagedLessons.has(lesson)) showQuestionPage(lesson, drawnOf(lesson).indexOf(question));
    question?.scrollIntoView({ block: "center" });
    one<HTMLElement>(question, "input, select, button:not([disabled])")?.focus();
  }

  async function submitQuiz(lesson: HTMLElement): Promise<void> {
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
      lines.push(resultLine(index, result.fraction));
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

  /** A question's line in the results' review: "Question 2: correct", and its mark. */
  function resultLine(index: number, fraction: number): ResultLine {
    const state = stateOf(fraction);
    const template = state === "correct" ? text.correctQuestion : state === "incorrect" ? text.incorrectQuestion : text.partlyCorrectQuestion;
    return { text: fill(template, { number: index + 1 }), state };
  }

  function verdictSentence(passMark: number | null, passedNow: boolean, record: { bestScorePercent: number; passed: boolean } | undefined): string {
    if (passMark === null) return text.noPassMark;
    if (passedNow) return fill(text.passed, { passMark });
    if (record?.passed) return fill(text.passedEarlier, { best: record.bestScorePercent, passMark });
    return fill(text.failed, { passMark });
  }

  function attemptsSentence(left: number | null): string {
    return left === null ? text.attemptsUnlimited : left > 0 ? fill(text.attemptsLeft, { count: left }) : text.noAttemptsLeft;
  }

  /**
   * The results screen: the score large (for the eye; the sentence below says it for everyone), the
   * verdict and the pass mark, attempts left, then a review line per question with its mark.
   */
  function showResult(lesson: HTMLElement, figures: { percent: number; passMark: number | null }, summary: readonly string[], lines: readonly ResultLine[], passed: boolean, moveFocus: boolean): void {
    setPanelOpen(lesson, false);
    const result = one<HTMLElement>(lesson, hook(DataName.quizResult));
    if (!result) return;
    const score = make("div", ClassName.resultScore);
    score.setAttribute("aria-hidden", "true");
    score.append(make("span", ClassName.resultPercent, `${figures.percent}%`));
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

  function retryQuiz(lesson: HTMLElement): void {
    startAttempt(lesson);
    focusQuestion(drawnOf(lesson)[0]);
  }

  /**
   * After a resume (SCORM suspend data, a cmi5 State document): a saved attempt is shown as it was
   * left, graded again if it had been submitted; one that does not fit starts a new attempt, and a quiz
   * whose attempts are used up shows its last result.
   */
  async function restoreQuiz(lesson: HTMLElement): Promise<void> {
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
      lines.push(resultLine(index, result.fraction));
    }
    if (submitted && record) showRestoredResult(lesson, record, lines);
    else setPanelOpen(lesson, true);
    save(lesson);
  }

  function showRestoredResult(lesson: HTMLElement, record: { attempts: number; lastScorePercent: number; bestScorePercent: number; passed: boolean }, lines: readonly ResultLine[]): void {
    const passingScore = recorder.passMarkOf(lessonIdOf(lesson), numberOrNull(data(lesson)[DataName.passingScore]));
    const summary = [fill(text.lastScore, { percent: record.lastScorePercent, attempts: record.attempts })];
    if (passingScore !== null) summary.push(verdictSentence(passingScore, record.passed && record.lastScorePercent >= passingScore, record));
    summary.push(attemptsSentence(attemptsLeft(lesson, record.attempts)));
    showResult(lesson, { percent: record.lastScorePercent, passMark: passingScore }, summary, lines, record.passed, false);
  }

  /* ---------- Wiring ---------- */

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
