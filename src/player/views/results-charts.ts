/**
 * The results view's three charts as inline SVG: score distribution (bars), facility against
 * discrimination (one point per question) and drop-off per lesson (bars). Each is `role="img"` named
 * by its `<title>` and described by its `<desc>`; the view puts a table with every figure beside it, so
 * a screen reader reads the numbers there. Drawn for the width they get (the view draws them again
 * when it changes), so their words stay at the page's text size on a 390 px phone and on a desktop.
 * Colours come from CSS classes the view's page styles for light and dark.
 */

const svgNs = "http://www.w3.org/2000/svg";

type Attributes = Record<string, string | number>;

function svgElement<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Attributes = {}, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(svgNs, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An SVG chart: `role="img"`, its title and description, and a group the chart draws into. */
function chartFrame(id: string, width: number, height: number, title: string, desc: string): { svg: SVGSVGElement; draw: SVGGElement } {
  const svg = svgElement("svg", { id, width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": `${id}-title ${id}-desc`, class: "chart" });
  svg.append(svgElement("title", { id: `${id}-title` }, title), svgElement("desc", { id: `${id}-desc` }, desc));
  const draw = svgElement("g", { "aria-hidden": "true" });
  svg.append(draw);
  return { svg, draw };
}

/** Text cut to what fits `room` pixels at the chart's font size (an estimate: 0.6 em per character). */
function fitted(text: string, room: number, fontSize = 13): string {
  const most = Math.max(4, Math.floor(room / (fontSize * 0.6)));
  return text.length <= most ? text : `${text.slice(0, most - 1).trimEnd()}…`;
}

export interface ScoreBand {
  readonly from: number;
  readonly to: number;
  readonly learners: number;
}

export interface ScoreChartWords {
  readonly title: string;
  readonly desc: string;
  readonly axis: string;
  readonly band: string;
  readonly count: (value: number) => string;
}

export function scoreChart(bands: readonly ScoreBand[], width: number, words: ScoreChartWords): SVGSVGElement {
  const height = 230;
  const margin = { left: 40, right: 16, top: 30, bottom: 44 };
  const { svg, draw } = chartFrame("score-chart", width, height, words.title, words.desc);
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const most = Math.max(1, ...bands.map((band) => band.learners));
  const top = most <= 4 ? most : Math.ceil(most / 4) * 4;
  const y = (value: number): number => margin.top + plotHeight - (value / top) * plotHeight;
  const ticks = top <= 4 ? Array.from({ length: top + 1 }, (_, at) => at) : [0, top / 4, top / 2, (3 * top) / 4, top];
  for (const tick of ticks) {
    draw.append(svgElement("line", { x1: margin.left, x2: width - margin.right, y1: y(tick), y2: y(tick), class: tick === 0 ? "axis" : "grid" }));
    draw.append(svgElement("text", { x: margin.left - 6, y: y(tick) + 4, "text-anchor": "end", class: "tick" }, words.count(tick)));
  }
  draw.append(svgElement("text", { x: 4, y: 14, class: "axis-label" }, words.axis));
  const slot = plotWidth / Math.max(1, bands.length);
  bands.forEach((band, at) => {
    const x = margin.left + at * slot;
    const barTop = y(band.learners);
    if (band.learners > 0) {
      draw.append(svgElement("rect", { x: x + 2, y: barTop, width: Math.max(1, slot - 4), height: margin.top + plotHeight - barTop, class: "bar", "data-band": band.from }));
      draw.append(svgElement("text", { x: x + slot / 2, y: barTop - 5, "text-anchor": "middle", class: "value", "data-band": band.from }, words.count(band.learners)));
    }
  });
  // Band edges: every one when there is room, else every other.
  const step = slot >= 30 ? 1 : 2;
  for (let edge = 0; edge <= bands.length; edge += step) {
    const value = bands[edge]?.from ?? bands.at(-1)?.to ?? 100;
    draw.append(svgElement("text", { x: margin.left + edge * slot, y: margin.top + plotHeight + 16, "text-anchor": "middle", class: "tick" }, words.count(value)));
  }
  draw.append(svgElement("text", { x: margin.left + plotWidth / 2, y: height - 6, "text-anchor": "middle", class: "axis-label" }, words.band));
  return svg;
}

export interface QuestionPoint {
  readonly number: number;
  /** 0 to 1. */
  readonly facility: number;
  /** −100 to 100. */
  readonly discrimination: number;
}

export interface ItemChartWords {
  readonly title: string;
  readonly desc: string;
  readonly facility: string;
  readonly discrimination: string;
  readonly negativeZone: string;
  readonly percent: (value: number) => string;
}

export function itemChart(points: readonly QuestionPoint[], width: number, words: ItemChartWords): SVGSVGElement {
  const height = Math.round(Math.min(340, Math.max(260, width * 0.6)));
  const margin = { left: 52, right: 14, top: 28, bottom: 46 };
  const { svg, draw } = chartFrame("item-chart", width, height, words.title, words.desc);
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const x = (facility: number): number => margin.left + Math.min(1, Math.max(0, facility)) * plotWidth;
  const y = (discrimination: number): number => margin.top + ((100 - Math.min(100, Math.max(-100, discrimination))) / 200) * plotHeight;
  draw.append(svgElement("rect", { x: margin.left, y: y(0), width: plotWidth, height: y(-100) - y(0), class: "zone" }));
  draw.append(svgElement("text", { x: margin.left + 6, y: y(0) + 18, class: "zone-label" }, words.negativeZone));
  for (const tick of [-100, -50, 0, 50, 100]) {
    draw.append(svgElement("line", { x1: margin.left, x2: width - margin.right, y1: y(tick), y2: y(tick), class: tick === 0 ? "axis" : "grid" }));
    draw.append(svgElement("text", { x: margin.left - 6, y: y(tick) + 4, "text-anchor": "end", class: "tick" }, words.percent(tick / 100)));
  }
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    draw.append(svgElement("line", { x1: x(tick), x2: x(tick), y1: margin.top, y2: margin.top + plotHeight, class: tick === 0 ? "axis" : "grid" }));
    const anchor = tick === 1 ? "end" : tick === 0 ? "start" : "middle";
    draw.append(svgElement("text", { x: x(tick), y: margin.top + plotHeight + 16, "text-anchor": anchor, class: "tick" }, words.percent(tick)));
  }
  draw.append(svgElement("text", { x: margin.left + plotWidth / 2, y: height - 6, "text-anchor": "middle", class: "axis-label" }, words.facility));
  draw.append(svgElement("text", { x: 4, y: 14, class: "axis-label" }, words.discrimination));
  // Points that fall on the same spot share one label ("2, 5"), so no number hides another.
  const labelled = new Map<string, { cx: number; cy: number; numbers: number[] }>();
  for (const point of points) {
    const [cx, cy] = [x(point.facility), y(point.discrimination)];
    const mark = svgElement("g", { class: "point", "data-question": point.number });
    mark.append(svgElement("circle", { cx, cy, r: 5 }));
    draw.append(mark);
    const spot = `${Math.round(cx / 8)},${Math.round(cy / 8)}`;
    const shared = labelled.get(spot) ?? { cx, cy, numbers: [] };
    shared.numbers.push(point.number);
    labelled.set(spot, shared);
  }
  for (const { cx, cy, numbers } of labelled.values()) {
    const left = cx > width - margin.right - 12 - numbers.join(", ").length * 8;
    draw.append(svgElement("text", { x: left ? cx - 8 : cx + 8, y: cy - 6, "text-anchor": left ? "end" : "start", class: "point-label" }, numbers.join(", ")));
  }
  return svg;
}

export interface LessonBar {
  readonly number: number;
  readonly title: string;
  /** Absent when the lesson's figures are withheld. */
  readonly reached?: number;
  readonly stopped?: number;
  readonly rate?: number;
}

export interface LessonChartWords {
  readonly title: string;
  readonly desc: string;
  readonly withheld: string;
  readonly bar: (reached: number, stopped: number, rate: number) => string;
}

export function lessonChart(lessons: readonly LessonBar[], width: number, words: LessonChartWords): SVGSVGElement {
  const row = 60;
  const margin = { left: 6, right: 10, top: 4 };
  const height = margin.top + row * lessons.length + 4;
  const { svg, draw } = chartFrame("lesson-chart", width, height, words.title, words.desc);
  const barWidth = width - margin.left - margin.right;
  const most = Math.max(1, ...lessons.map((lesson) => lesson.reached ?? 0));
  // Those who stopped: hatched, and set off from the rest of the bar by a gap, so colour is not all that tells them apart.
  const hatch = svgElement("pattern", { id: "stopped-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  hatch.append(svgElement("rect", { width: 6, height: 6, class: "stopped" }), svgElement("line", { x1: 1, y1: 0, x2: 1, y2: 6, class: "hatch" }));
  const defs = svgElement("defs");
  defs.append(hatch);
  svg.insertBefore(defs, draw);
  lessons.forEach((lesson, at) => {
    const top = margin.top + at * row;
    const group = svgElement("g", { class: "lesson-row", "data-lesson": lesson.number });
    group.append(svgElement("text", { x: margin.left, y: top + 14, class: "row-label" }, fitted(`${lesson.number}. ${lesson.title}`, barWidth)));
    if (lesson.reached === undefined) {
      group.append(svgElement("rect", { x: margin.left, y: top + 20, width: barWidth, height: 16, class: "withheld-bar" }));
      group.append(svgElement("text", { x: margin.left + 6, y: top + 32, class: "withheld-label" }, fitted(words.withheld, barWidth - 12, 12)));
    } else {
      const reachedWidth = Math.max(1, (lesson.reached / most) * barWidth);
      const stoppedWidth = ((lesson.stopped ?? 0) / most) * barWidth;
      group.append(svgElement("rect", { x: margin.left, y: top + 20, width: reachedWidth, height: 16, class: "bar" }));
      if (stoppedWidth > 0) group.append(svgElement("rect", { x: margin.left + reachedWidth - stoppedWidth, y: top + 20, width: stoppedWidth, height: 16, fill: "url(#stopped-hatch)", class: "stopped-bar" }));
      group.append(svgElement("text", { x: margin.left, y: top + 52, class: "value" }, fitted(words.bar(lesson.reached, lesson.stopped ?? 0, lesson.rate ?? 0), barWidth, 12)));
    }
    draw.append(group);
  });
  return svg;
}
