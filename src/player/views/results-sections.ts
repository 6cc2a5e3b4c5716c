/**
 * The results view's parts, drawn from get_course_results' structuredContent: the score distribution,
 * facility against discrimination per question, drop-off per lesson (each an SVG chart from
 * `results-charts.ts` and a table of the same figures) and the findings. A figure the service withheld
 * for a small group is said to be withheld ("withheld: fewer than N learners") and never drawn.
 */
import type { ToolResult } from "./bridge.ts";
import { itemChart, lessonChart, scoreChart, type LessonBar, type QuestionPoint, type ScoreBand } from "./results-charts.ts";
import type { FindingKind, ResultsText } from "./results-text.ts";
import { element } from "./view-dom.ts";

interface AttemptFigures {
  readonly attempts?: number;
  readonly facilityIndex?: number;
  readonly discriminationIndex?: number | null;
}

interface QuestionFigures {
  readonly questionId?: string;
  readonly title?: string;
  readonly withheld?: string;
  readonly firstAttempts?: AttemptFigures;
  readonly allAttempts?: AttemptFigures;
}

interface LessonFigures {
  readonly lessonId?: string;
  readonly title?: string;
  readonly withheld?: string;
  readonly reached?: number;
  readonly stoppedHere?: number;
  readonly dropOffRate?: number;
}

interface Finding {
  readonly kind?: string;
  readonly target?: string;
  readonly title?: string;
  readonly evidence?: string;
}

export interface CourseResults {
  readonly courseId: string;
  readonly courseVersion?: number;
  readonly minGroup: number;
  readonly statements?: number;
  readonly withheld?: string;
  readonly course?: { learners?: number; quizAttempts?: number; completionRate?: number; passRate?: number | null; scoreDistribution?: ScoreBand[]; scoresWithheld?: string };
  readonly lessons: readonly LessonFigures[];
  readonly questions: readonly QuestionFigures[];
  readonly diagnoses: readonly Finding[];
  readonly videos: readonly VideoFigures[];
}

interface VideoFigures {
  readonly lessonId?: string;
  readonly title?: string;
  readonly withheld?: string;
  readonly played?: number;
  readonly finished?: number;
}

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** What the view needs from get_course_results' structuredContent; null when it is not there. */
export function resultsOf(result: ToolResult | undefined): CourseResults | null {
  const facts = result?.structuredContent;
  if (!facts || typeof facts.courseId !== "string") return null;
  return {
    courseId: facts.courseId,
    courseVersion: isNumber(facts.courseVersion) ? facts.courseVersion : undefined,
    // The service never goes below five; neither does the view, whatever it is handed.
    minGroup: Math.max(5, isNumber(facts.minGroup) ? facts.minGroup : 5),
    statements: isNumber(facts.statements) ? facts.statements : undefined,
    withheld: typeof facts.withheld === "string" ? facts.withheld : undefined,
    course: facts.course && typeof facts.course === "object" ? (facts.course as CourseResults["course"]) : undefined,
    lessons: list<LessonFigures>(facts.lessons),
    questions: list<QuestionFigures>(facts.questions),
    diagnoses: list<Finding>(facts.diagnoses),
    videos: list<VideoFigures>(facts.videos),
  };
}

export interface Formats {
  readonly count: (value: number) => string;
  readonly percent: (value: number) => string;
}

export function formatsFor(locale: string): Formats {
  const counts = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const percents = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  return { count: (value) => counts.format(value), percent: (value) => percents.format(value) };
}

let captionCount = 0;

/** A table of a chart's figures in a focusable scroll box (it may be wider than a phone). */
function figuresTable(caption: string, heads: readonly string[], rows: readonly (readonly (string | HTMLTableCellElement)[])[]): HTMLElement {
  const id = `figures-caption-${++captionCount}`;
  const box = element("div", undefined, "table-box");
  box.setAttribute("role", "region");
  box.setAttribute("aria-labelledby", id);
  box.tabIndex = 0;
  const table = element("table");
  const title = element("caption", caption, "visually-hidden");
  title.id = id;
  const head = element("thead");
  const headRow = element("tr");
  heads.forEach((text, at) => {
    // Figures (the second column on) stand right-aligned, under a header aligned with them.
    const cell = element("th", text, at >= 1 ? "figure" : undefined);
    cell.scope = "col";
    headRow.append(cell);
  });
  head.append(headRow);
  const body = element("tbody");
  for (const cells of rows) {
    const row = element("tr");
    cells.forEach((cell, at) => {
      if (typeof cell !== "string") return row.append(cell);
      // The first column names the row (a band, a numbered question, a numbered lesson).
      const node = at === 0 ? element("th", cell) : element("td", cell, /\d/.test(cell) ? "figure" : "figure words");
      if (at === 0) (node as HTMLTableCellElement).scope = "row";
      row.append(node);
    });
    body.append(row);
  }
  table.append(title, head, body);
  box.append(table);
  return box;
}

const spanning = (text: string, columns: number): HTMLTableCellElement => {
  const cell = element("td", text, "withheld");
  cell.colSpan = columns;
  return cell;
};


/** The view's charts: each is drawn for the width there is, and again when it changes. */
export interface ChartSet {
  /** A box holding the chart `draw` makes, drawn now. */
  add(draw: (width: number) => SVGSVGElement): HTMLElement;
  /** Forgets the charts inside `within`, which is about to be drawn again. */
  drop(within: Node): void;
}

/** What each part is drawn with: the words, number formats, figures, charts, the chosen statistics and a hook for a change of size. */
export interface SectionContext {
  readonly t: ResultsText;
  readonly f: Formats;
  readonly data: CourseResults;
  readonly charts: ChartSet;
  readonly basis: { value: "first" | "all" };
  readonly changed: () => void;
}

function section(id: string, title: string): HTMLElement {
  // Not named: a named section is a region landmark, and its figures' table box is already one by the same name.
  const box = element("section");
  box.id = `${id}-section`;
  const heading = element("h2", title);
  heading.id = `${id}-heading`;
  box.append(heading);
  return box;
}

/** The course's figures: learners, quiz attempts, completion and pass rates. */
export function factsList({ t, f, data }: SectionContext): HTMLElement {
  const facts = element("dl", undefined, "facts");
  const fact = (term: string, value: string): void => {
    const row = element("div");
    row.append(element("dt", term), element("dd", value));
    facts.append(row);
  };
  const course = data.course ?? {};
  fact(t.learners, f.count(course.learners ?? 0));
  fact(t.quizAttempts, f.count(course.quizAttempts ?? 0));
  fact(t.completionRate, f.percent(course.completionRate ?? 0));
  fact(t.passRate, course.scoresWithheld ? t.withheld(f.count(data.minGroup)) : isNumber(course.passRate) ? f.percent(course.passRate) : t.noPassRate);
  return facts;
}

export function scoreSection({ t, f, data, charts }: SectionContext): HTMLElement {
  const box = section("scores", t.scoreTitle);
  const bands = list<ScoreBand>(data.course?.scoreDistribution).filter((band) => isNumber(band.from) && isNumber(band.to) && isNumber(band.learners));
  const scored = bands.reduce((sum, band) => sum + band.learners, 0);
  // Scores of fewer learners than the smallest group are not drawn, even when handed over.
  if (data.course?.scoresWithheld || (scored > 0 && scored < data.minGroup)) {
    box.append(element("p", `${t.scoreTitle}: ${t.withheld(f.count(data.minGroup))}.`, "withheld-note"));
    return box;
  }
  if (scored === 0) {
    box.append(element("p", t.scoreNone));
    return box;
  }
  const most = Math.max(...bands.map((band) => band.learners));
  const bandName = (band: ScoreBand): string => `${f.count(band.from)}–${f.percent(band.to / 100)}`;
  const desc = t.scoreDesc(f.count(scored), f.count(most), bands.filter((band) => band.learners === most).map(bandName).join(", "));
  box.append(charts.add((width) => scoreChart(bands, width, { title: t.scoreTitle, desc, axis: t.scoreAxis, band: `${t.scoreBand} (%)`, count: f.count })));
  box.append(figuresTable(t.scoreTitle, [t.scoreBand, t.scoreAxis], bands.map((band) => [bandName(band), f.count(band.learners)])));
  return box;
}

export function itemsSection({ t, f, data, charts, basis, changed }: SectionContext): HTMLElement {
  const box = section("items", t.itemsTitle);
  if (data.questions.length === 0) {
    box.append(element("p", t.itemsNone));
    return box;
  }
  const choice = element("fieldset", undefined, "basis");
  choice.append(element("legend", t.basis));
  const body = element("div");
  for (const [value, label] of [["first", t.firstAttempts], ["all", t.allAttempts]] as const) {
    const input = element("input");
    input.type = "radio";
    input.name = "basis";
    input.value = value;
    input.id = `basis-${value}`;
    input.checked = basis.value === value;
    input.addEventListener("change", () => {
      if (!input.checked) return;
      basis.value = value;
      fill();
    });
    const text = element("label", label);
    text.htmlFor = input.id;
    const option = element("span", undefined, "option");
    option.append(input, text);
    choice.append(option);
  }
  const fill = (): void => {
    charts.drop(body);
    const figuresOf = (question: QuestionFigures): AttemptFigures | undefined => (basis.value === "first" ? question.firstAttempts : question.allAttempts);
    const points: QuestionPoint[] = data.questions.flatMap((question, at) => {
      const figures = figuresOf(question);
      return !question.withheld && figures && isNumber(figures.facilityIndex) && isNumber(figures.discriminationIndex)
        ? [{ number: at + 1, facility: figures.facilityIndex, discrimination: figures.discriminationIndex }]
        : [];
    });
    const withheld = data.questions.flatMap((question, at) => (question.withheld ? [`#${at + 1}`] : []));
    const parts: Node[] = [];
    if (points.length > 0) {
      const desc = t.itemsDesc(f.count(points.length));
      parts.push(charts.add((width) => itemChart(points, width, { title: `${t.itemsTitle} (${basis.value === "first" ? t.firstAttempts : t.allAttempts})`, desc, facility: t.facility, discrimination: t.discrimination, negativeZone: t.negativeZone, percent: f.percent })));
    } else if (withheld.length < data.questions.length) parts.push(element("p", t.itemsNone));
    if (withheld.length > 0) parts.push(element("p", t.questionsWithheld(withheld.join(", "), f.count(data.minGroup)), "withheld-note"));
    const rows = data.questions.map((question, at) => {
      const figures = figuresOf(question);
      const cells: (string | HTMLTableCellElement)[] = [`${at + 1}. ${question.title || question.questionId || ""}`];
      if (question.withheld) cells.push(spanning(t.withheld(f.count(data.minGroup)), 3));
      else {
        cells.push(isNumber(figures?.facilityIndex) ? f.percent(figures.facilityIndex) : "—");
        cells.push(isNumber(figures?.discriminationIndex) ? f.percent(figures.discriminationIndex / 100) : figures ? t.notComputed : "—");
        cells.push(isNumber(figures?.attempts) ? f.count(figures.attempts) : "—");
      }
      return cells;
    });
    parts.push(figuresTable(t.itemsTitle, [t.question, t.facility, t.discrimination, t.attempts], rows));
    body.replaceChildren(...parts);
    changed();
  };
  box.append(choice, body);
  fill();
  return box;
}

export function lessonsSection({ t, f, data, charts }: SectionContext): HTMLElement {
  const box = section("lessons", t.lessonsTitle);
  if (data.lessons.length === 0) {
    box.append(element("p", t.lessonsNone));
    return box;
  }
  const withheld = t.withheld(f.count(data.minGroup));
  const bars: LessonBar[] = data.lessons.map((lesson, at) =>
    lesson.withheld || !isNumber(lesson.reached)
      ? { number: at + 1, title: lesson.title ?? "" }
      : { number: at + 1, title: lesson.title ?? "", reached: lesson.reached, stopped: lesson.stoppedHere ?? 0, rate: lesson.dropOffRate ?? 0 },
  );
  const worst = bars.filter((bar) => (bar.stopped ?? 0) > 0).sort((a, b) => (b.rate ?? 0) - (a.rate ?? 0))[0];
  const desc = t.lessonsDesc(f.count(bars.length), worst ? `${worst.number}. ${worst.title}` : "", worst ? f.percent(worst.rate ?? 0) : "");
  box.append(charts.add((width) => lessonChart(bars, width, { title: t.lessonsTitle, desc, withheld, bar: (reached, stopped, rate) => t.barLabel(f.count(reached), f.count(stopped), f.percent(rate)) })));
  const legend = element("ul", undefined, "legend");
  for (const [kind, label] of [["bar", t.reached], ["stopped", t.stoppedHere]] as const) {
    const item = element("li");
    const swatch = element("span", undefined, `swatch ${kind}`);
    swatch.setAttribute("aria-hidden", "true");
    item.append(swatch, label);
    legend.append(item);
  }
  box.append(legend);
  const rows = bars.map((bar) => {
    const cells: (string | HTMLTableCellElement)[] = [`${bar.number}. ${bar.title}`];
    if (bar.reached === undefined) cells.push(spanning(withheld, 3));
    else cells.push(f.count(bar.reached), f.count(bar.stopped ?? 0), f.percent(bar.rate ?? 0));
    return cells;
  });
  box.append(figuresTable(t.lessonsTitle, [t.lesson, t.reached, t.stoppedHere, t.dropOff], rows));
  return box;
}

/** Each video: how many learners played it and how many watched it to the end (a table: two counts need no chart). */
export function videosSection({ t, f, data }: SectionContext): HTMLElement | null {
  if (data.videos.length === 0) return null;
  const box = section("videos", t.videosTitle);
  const lessonTitle = new Map(data.lessons.map((lesson) => [lesson.lessonId, lesson.title]));
  const rows = data.videos.map((video) => {
    const where = lessonTitle.get(video.lessonId);
    const cells: (string | HTMLTableCellElement)[] = [`${video.title || t.video}${where ? ` (${t.lesson} “${where}”)` : ""}`];
    if (video.withheld || !isNumber(video.played)) cells.push(spanning(t.withheld(f.count(data.minGroup)), 2));
    else cells.push(f.count(video.played), f.count(video.finished ?? 0));
    return cells;
  });
  box.append(figuresTable(t.videosTitle, [t.video, t.played, t.finished], rows));
  return box;
}

export function findingsSection({ t, data }: SectionContext): HTMLElement {
  const box = section("findings", t.findingsTitle);
  if (data.diagnoses.length === 0) {
    box.append(element("p", t.findingsNone));
    return box;
  }
  const items = element("ul", undefined, "findings");
  for (const finding of data.diagnoses) {
    const item = element("li");
    const kind = Object.hasOwn(t.kinds, finding.kind ?? "") ? t.kinds[finding.kind as FindingKind] : String(finding.kind ?? "");
    item.append(element("strong", kind));
    if (finding.title) item.append(": ", element("span", finding.title));
    // The service writes its evidence in English.
    const evidence = element("p", finding.evidence ?? "", "evidence");
    evidence.lang = "en";
    item.append(evidence);
    items.append(item);
  }
  box.append(items, element("p", t.tableNote, "note"));
  return box;
}
