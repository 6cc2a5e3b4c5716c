/**
 * What learners did, computed from a course's results (issue 43): per question (first attempts and all
 * attempts, Moodle's item statistics, each choice's selection rate, median time), per lesson (reached,
 * completed, median time, where learners stop), per video (played, finished) and per course (learners,
 * attempts, completion and pass rates, score distribution). Questions are counted by their stable id,
 * wherever a pool put them, and results of older versions join by that id and say which versions they
 * came from. No figure is shown for fewer learners than the smallest group (`RESULTS_MIN_GROUP`).
 */
import type { BlockRow, LessonRow, ModuleRow, ResultRow } from "../../store/types.ts";
import { inOrder } from "../../authoring/read-model.ts";
import { itemStatistics, median, type ItemStatistics, type QuizAttemptMarks } from "./item-statistics.ts";

export interface CourseOutline {
  readonly courseId: string;
  readonly version: number;
  readonly modules: readonly ModuleRow[];
  readonly lessons: readonly LessonRow[];
  readonly blocks: readonly BlockRow[];
}

export interface AttemptFigures {
  attempts: number;
  learners: number;
  facilityIndex: number;
  standardDeviation: number;
  discriminationIndex: number | null;
  discriminativeEfficiency: number | null;
}

export interface ChoiceFigures {
  choice: string;
  text: string;
  correct: boolean;
  selectionRate: number;
  /** How often the best third of attempts (by their total) chose it. */
  topThirdRate: number;
}

export interface QuestionResults {
  questionId: string;
  lessonId: string | null;
  title: string;
  type: string;
  /** The course versions its statements came from (empty when the packages did not say). */
  versions: number[];
  inCurrentVersion: boolean;
  withheld?: string;
  firstAttempts?: AttemptFigures;
  allAttempts?: AttemptFigures;
  choices?: ChoiceFigures[];
  medianSeconds?: number | null;
}

export interface LessonResults {
  lessonId: string;
  moduleId: string;
  title: string;
  withheld?: string;
  reached?: number;
  completed?: number;
  /** Learners whose furthest lesson this is, who did not finish the course. */
  stoppedHere?: number;
  dropOffRate?: number;
  medianSeconds?: number | null;
}

export interface VideoResults {
  blockId: string;
  lessonId: string;
  /** The video block's title ("" when it has none). */
  title: string;
  withheld?: string;
  played?: number;
  finished?: number;
}

export interface CourseFigures {
  learners: number;
  quizAttempts: number;
  completionRate: number;
  passRate: number | null;
  scoreDistribution: { from: number; to: number; learners: number }[];
  /** Set when fewer learners than the smallest group passed, failed or scored: passRate is then null and scoreDistribution empty. */
  scoresWithheld?: string;
}

export interface CourseResults {
  courseId: string;
  courseVersion: number;
  minGroup: number;
  statements: number;
  withheld?: string;
  course?: CourseFigures;
  lessons: LessonResults[];
  questions: QuestionResults[];
  videos: VideoResults[];
}

export const questionBlockTypes = new Set(["single_choice", "multiple_choice", "true_false", "fill_in_blank", "matching", "ordering", "sorting", "scenario", "numeric", "hotspot", "drag_onto_image", "inline_choice"]);

const round = (value: number, digits = 4): number => Math.round(value * 10 ** digits) / 10 ** digits;
const withheldText = (minGroup: number): string => `fewer than ${minGroup} learners: figures withheld`;

/** A stored question's text for a title: its prompt, plain, at most 120 characters. */
export function questionTitle(block: BlockRow | undefined): string {
  const prompt = typeof block?.body.prompt === "string" ? block.body.prompt : typeof block?.body.title === "string" ? block.body.title : "";
  const plain = prompt.replace(/[*_`#>[\]()!]/g, "").replace(/\s+/g, " ").trim();
  return plain.length > 120 ? `${plain.slice(0, 119)}…` : plain;
}

interface Answer {
  readonly row: ResultRow;
  readonly learner: string;
  readonly question: string;
  readonly lesson: string;
  readonly attempt: number;
  readonly mark: number;
  readonly max: number;
}

/** Each answered statement with its quiz attempt (from the context, or the learner's n-th answer of the question) and its mark. */
function answersOf(rows: readonly ResultRow[], outline: CourseOutline): Answer[] {
  const blocks = new Map(outline.blocks.map((block) => [block.id, block]));
  const ordinal = new Map<string, number>();
  const answers: Answer[] = [];
  for (const row of rows) {
    if (row.kind !== "question" || row.verb !== "answered") continue;
    const block = blocks.get(row.target);
    const points = typeof block?.body.points === "number" ? block.body.points : 1;
    const result = row.result ?? {};
    const max = result.max ?? points;
    const mark = result.raw ?? (result.scaled !== undefined ? result.scaled * max : result.success ? max : 0);
    const key = `${row.learner}|${row.target}`;
    const nth = (ordinal.get(key) ?? 0) + 1;
    ordinal.set(key, nth);
    answers.push({ row, learner: row.learner, question: row.target, lesson: block?.lessonId ?? `?${row.courseVersion ?? ""}`, attempt: row.attempt ?? nth, mark, max });
  }
  return answers;
}

interface QuizAttempt extends QuizAttemptMarks {
  readonly learner: string;
  readonly first: boolean;
  readonly answers: Map<string, Answer>;
}

function quizAttempts(answers: readonly Answer[]): QuizAttempt[] {
  const byKey = new Map<string, { learner: string; lesson: string; attempt: number; answers: Map<string, Answer> }>();
  for (const answer of answers) {
    const key = `${answer.learner}|${answer.lesson}|${answer.attempt}`;
    const entry = byKey.get(key) ?? { learner: answer.learner, lesson: answer.lesson, attempt: answer.attempt, answers: new Map<string, Answer>() };
    entry.answers.set(answer.question, answer);
    byKey.set(key, entry);
  }
  const firstOf = new Map<string, number>();
  for (const entry of byKey.values()) {
    const key = `${entry.learner}|${entry.lesson}`;
    firstOf.set(key, Math.min(firstOf.get(key) ?? Number.POSITIVE_INFINITY, entry.attempt));
  }
  return [...byKey.values()].map((entry) => {
    const marks = new Map([...entry.answers].map(([question, answer]) => [question, answer.mark]));
    const total = [...marks.values()].reduce((sum, mark) => sum + mark, 0);
    return { learner: entry.learner, first: firstOf.get(`${entry.learner}|${entry.lesson}`) === entry.attempt, answers: entry.answers, marks, total };
  });
}

function figures(stats: ItemStatistics | undefined, attempts: readonly QuizAttempt[], question: string): AttemptFigures | undefined {
  if (!stats) return undefined;
  const learners = new Set(attempts.filter((attempt) => attempt.marks.has(question)).map((attempt) => attempt.learner)).size;
  const percent = (value: number | null): number | null => (value === null ? null : round(value, 2));
  return {
    attempts: stats.attempts,
    learners,
    facilityIndex: round(stats.facility),
    standardDeviation: round(stats.sd),
    discriminationIndex: percent(stats.discriminationIndex),
    discriminativeEfficiency: percent(stats.discriminativeEfficiency),
  };
}

/** The block's choices as the packages number them (`choice_1`…; true/false as `true` and `false`). */
function choicesOf(block: BlockRow | undefined): { choice: string; text: string; correct: boolean }[] | null {
  if (!block) return null;
  if (block.type === "true_false") {
    const answer = block.body.answer === true;
    return [
      { choice: "true", text: "True", correct: answer },
      { choice: "false", text: "False", correct: !answer },
    ];
  }
  if (!Array.isArray(block.body.choices)) return null;
  return (block.body.choices as { text?: unknown; correct?: unknown }[]).map((choice, index) => ({ choice: `choice_${index + 1}`, text: typeof choice.text === "string" ? choice.text.slice(0, 120) : "", correct: choice.correct === true }));
}

function choiceFigures(block: BlockRow | undefined, question: string, attempts: readonly QuizAttempt[]): ChoiceFigures[] | undefined {
  const choices = choicesOf(block);
  if (!choices) return undefined;
  const including = attempts.filter((attempt) => attempt.answers.has(question)).sort((a, b) => b.total - a.total);
  const top = including.slice(0, Math.max(1, Math.ceil(including.length / 3)));
  const chosen = (attempt: QuizAttempt): Set<string> => new Set((attempt.answers.get(question)?.row.result?.response ?? "").split("[,]").map((part) => part.trim()));
  const rate = (group: readonly QuizAttempt[], choice: string): number => (group.length === 0 ? 0 : round(group.filter((attempt) => chosen(attempt).has(choice)).length / group.length));
  return choices.map((choice) => ({ ...choice, selectionRate: rate(including, choice.choice), topThirdRate: rate(top, choice.choice) }));
}

function questionResults(outline: CourseOutline, answers: readonly Answer[], minGroup: number): QuestionResults[] {
  const attempts = quizAttempts(answers);
  const firsts = attempts.filter((attempt) => attempt.first);
  const maxMarks = new Map<string, number>();
  for (const answer of answers) maxMarks.set(answer.question, Math.max(maxMarks.get(answer.question) ?? 0, answer.max));
  const [allStats, firstStats] = [itemStatistics(attempts, maxMarks), itemStatistics(firsts, maxMarks)];
  const blocks = new Map(outline.blocks.map((block) => [block.id, block]));
  const current = inOrder(outline.blocks.filter((block) => questionBlockTypes.has(block.type)));
  const seen = [...new Set(answers.map((answer) => answer.question))];
  const ids = [...current.map((block) => block.id), ...seen.filter((id) => !blocks.has(id))];
  return ids.flatMap((questionId): QuestionResults[] => {
    const block = blocks.get(questionId);
    const mine = answers.filter((answer) => answer.question === questionId);
    if (!block && mine.length === 0) return [];
    const versions = [...new Set(mine.flatMap((answer) => (answer.row.courseVersion === null ? [] : [answer.row.courseVersion])))].sort((a, b) => a - b);
    const base: QuestionResults = {
      questionId,
      lessonId: block?.lessonId ?? null,
      title: block ? questionTitle(block) : `(not in the current version${versions.length ? `; from version ${versions.join(", ")}` : ""})`,
      type: block?.type ?? "unknown",
      versions,
      inCurrentVersion: block !== undefined,
    };
    if (new Set(mine.map((answer) => answer.learner)).size < minGroup) return [{ ...base, withheld: withheldText(minGroup) }];
    const choices = choiceFigures(block, questionId, attempts);
    return [{
      ...base,
      ...(figures(firstStats.get(questionId), firsts, questionId) ? { firstAttempts: figures(firstStats.get(questionId), firsts, questionId) } : {}),
      ...(figures(allStats.get(questionId), attempts, questionId) ? { allAttempts: figures(allStats.get(questionId), attempts, questionId) } : {}),
      ...(choices ? { choices } : {}),
      medianSeconds: median(mine.flatMap((answer) => (answer.row.result?.seconds === undefined ? [] : [answer.row.result.seconds]))),
    }];
  });
}

/** The lessons in course order (module order, then lesson order). */
export function lessonsInOrder(outline: CourseOutline): LessonRow[] {
  return inOrder(outline.modules).flatMap((module) => inOrder(outline.lessons.filter((lesson) => lesson.moduleId === module.id)));
}

const finishingVerbs = new Set(["completed", "passed"]);

function lessonResults(outline: CourseOutline, rows: readonly ResultRow[], finishers: ReadonlySet<string>, minGroup: number): LessonResults[] {
  const lessons = lessonsInOrder(outline);
  const index = new Map(lessons.map((lesson, position) => [lesson.id, position]));
  const blockLesson = new Map(outline.blocks.map((block) => [block.id, block.lessonId]));
  const furthest = new Map<string, number>();
  const reached = lessons.map(() => new Set<string>());
  const completed = lessons.map(() => new Set<string>());
  const visits = new Map<string, { at: number; lesson: number }[]>();
  for (const row of rows) {
    const lessonId = row.kind === "lesson" ? row.target : row.kind === "question" || row.kind === "video" ? blockLesson.get(row.target) : undefined;
    const position = lessonId === undefined ? undefined : index.get(lessonId);
    if (position === undefined) continue;
    reached[position]?.add(row.learner);
    if (row.kind === "lesson" && finishingVerbs.has(row.verb)) completed[position]?.add(row.learner);
    furthest.set(row.learner, Math.max(furthest.get(row.learner) ?? -1, position));
    if (row.kind === "lesson" && row.verb === "experienced") visits.set(row.learner, [...(visits.get(row.learner) ?? []), { at: Date.parse(row.timestamp), lesson: position }]);
  }
  const seconds = lessons.map(() => [] as number[]);
  for (const list of visits.values()) {
    list.sort((a, b) => a.at - b.at);
    for (let at = 0; at + 1 < list.length; at++) {
      const spent = ((list[at + 1] as { at: number }).at - (list[at] as { at: number }).at) / 1000;
      if (Number.isFinite(spent) && spent >= 0 && spent <= 4 * 3600) seconds[(list[at] as { lesson: number }).lesson]?.push(spent);
    }
  }
  return lessons.map((lesson, position) => {
    const base = { lessonId: lesson.id, moduleId: lesson.moduleId, title: lesson.title };
    const here = reached[position] as Set<string>;
    if (here.size < minGroup) return { ...base, withheld: withheldText(minGroup) };
    const later = [...here].filter((learner) => (furthest.get(learner) ?? -1) > position || finishers.has(learner));
    const done = new Set([...(completed[position] as Set<string>), ...later]);
    const stopped = [...here].filter((learner) => furthest.get(learner) === position && !finishers.has(learner)).length;
    return { ...base, reached: here.size, completed: done.size, stoppedHere: stopped, dropOffRate: round(stopped / here.size), medianSeconds: median(seconds[position] as number[]) };
  });
}

function videoResults(outline: CourseOutline, rows: readonly ResultRow[], minGroup: number): VideoResults[] {
  return inOrder(outline.blocks.filter((block) => block.type === "video")).flatMap((block): VideoResults[] => {
    const mine = rows.filter((row) => row.kind === "video" && row.target === block.id);
    const played = new Set(mine.map((row) => row.learner));
    if (mine.length === 0) return [];
    const base = { blockId: block.id, lessonId: block.lessonId, title: typeof block.body.title === "string" ? block.body.title.slice(0, 120) : "" };
    if (played.size < minGroup) return [{ ...base, withheld: withheldText(minGroup) }];
    const finished = new Set(mine.filter((row) => row.verb === "completed" || row.result?.completion === true).map((row) => row.learner));
    return [{ ...base, played: played.size, finished: finished.size }];
  });
}

function courseFigures(rows: readonly ResultRow[], learners: ReadonlySet<string>, attempts: number, minGroup: number): CourseFigures {
  const top = rows.filter((row) => row.kind === "course" || row.kind === "unit");
  const completedBy = new Set(top.filter((row) => finishingVerbs.has(row.verb) || row.result?.completion === true).map((row) => row.learner));
  const passedBy = new Set(top.filter((row) => row.verb === "passed").map((row) => row.learner));
  const judged = new Set(top.filter((row) => row.verb === "passed" || row.verb === "failed").map((row) => row.learner));
  const best = new Map<string, number>();
  for (const row of top) {
    const scaled = row.result?.scaled ?? (row.result?.raw !== undefined && row.result.max ? row.result.raw / row.result.max : undefined);
    if (scaled !== undefined && (row.verb === "passed" || row.verb === "failed")) best.set(row.learner, Math.max(best.get(row.learner) ?? 0, scaled));
  }
  const scoreDistribution = Array.from({ length: 10 }, (_, bin) => ({ from: bin * 10, to: bin * 10 + 10, learners: 0 }));
  for (const scaled of best.values()) (scoreDistribution[Math.min(9, Math.max(0, Math.floor(scaled * 10)))] as { learners: number }).learners += 1;
  const figures = { learners: learners.size, quizAttempts: attempts, completionRate: round(completedBy.size / learners.size) };
  // A pass rate or a score band of a few learners could single one out: like any figure, shown for a group of minGroup or more.
  const few = (judged.size > 0 && judged.size < minGroup) || (best.size > 0 && best.size < minGroup);
  if (few) return { ...figures, passRate: null, scoreDistribution: [], scoresWithheld: `pass rate and scores: ${withheldText(minGroup)}` };
  return { ...figures, passRate: judged.size === 0 ? null : round(passedBy.size / judged.size), scoreDistribution };
}

export function courseResults(outline: CourseOutline, rows: readonly ResultRow[], minGroup: number): CourseResults {
  const base = { courseId: outline.courseId, courseVersion: outline.version, minGroup, statements: rows.length };
  const learners = new Set(rows.map((row) => row.learner));
  if (learners.size < minGroup) return { ...base, withheld: withheldText(minGroup), lessons: [], questions: [], videos: [] };
  const answers = answersOf(rows, outline);
  const finishers = new Set(rows.filter((row) => (row.kind === "course" || row.kind === "unit") && finishingVerbs.has(row.verb)).map((row) => row.learner));
  return {
    ...base,
    course: courseFigures(rows, learners, quizAttempts(answers).length, minGroup),
    lessons: lessonResults(outline, rows, finishers, minGroup),
    questions: questionResults(outline, answers, minGroup),
    videos: videoResults(outline, rows, minGroup),
  };
}
