/**
 * The MCP Apps view get_course_results links to: the course's results for the person, drawn from the
 * tool's structuredContent (never fetched again): the course's figures, the score distribution,
 * facility against discrimination per question (first or all attempts), drop-off per lesson, and the
 * findings. Each chart is an accessible SVG (`results-charts.ts`) with a table of the same figures.
 * Figures the service withheld (fewer learners than `minGroup`) are said to be withheld, never drawn.
 * Its words follow the host's locale (`results-text.ts`); its look, the host's theme and variables.
 */
import type { ViewConfig } from "../../page-contract/config.ts";
import { applyHostContext, createViewBridge, type HostContext, type RpcMessage, type ToolResult } from "./bridge.ts";
import { factsList, findingsSection, formatsFor, itemsSection, lessonsSection, resultsOf, scoreSection, videosSection, type ChartSet, type CourseResults, type SectionContext } from "./results-sections.ts";
import { pickLanguage, resultsText, type ResultsLanguage } from "./results-text.ts";
import { byId as $, element, fail, say } from "./view-dom.ts";

export function startResultsView(config: ViewConfig): void {
  const { request, notify, send, reportSize, fromHost, settled } = createViewBridge();
  let language: ResultsLanguage = pickLanguage([...(navigator.languages ?? []), navigator.language]);
  let locale: string = language;
  let current: CourseResults | null = null;
  const basis: SectionContext["basis"] = { value: "first" };
  /** The charts drawn for the present width, drawn again when it changes. */
  let drawn: { holder: HTMLElement; draw: (width: number) => SVGSVGElement }[] = [];
  let drawnWidth = 0;

  const chartWidth = (): number => Math.round(Math.max(260, Math.min(760, $("results").clientWidth || document.documentElement.clientWidth - 32)));
  const drawCharts = (): void => {
    drawnWidth = chartWidth();
    for (const chart of drawn) chart.holder.replaceChildren(chart.draw(drawnWidth));
  };
  const charts: ChartSet = {
    add(draw) {
      const holder = element("div", undefined, "chart-box");
      drawn.push({ holder, draw });
      holder.append(draw(drawnWidth || chartWidth()));
      return holder;
    },
    drop(within) {
      drawn = drawn.filter((chart) => !within.contains(chart.holder));
    },
  };

  const setLanguage = (context: { locale?: unknown } | undefined): void => {
    const tags = [context?.locale, ...(navigator.languages ?? []), navigator.language];
    language = pickLanguage(tags);
    // The first tag of that language keeps its region for the numbers (en-GB, de-CH).
    const chosen = tags.find((tag): tag is string => typeof tag === "string" && tag.toLowerCase().split(/[-_]/)[0] === language);
    try {
      locale = chosen && Intl.NumberFormat.supportedLocalesOf(chosen).length ? chosen : language;
    } catch {
      locale = language;
    }
    document.documentElement.lang = language;
  };

  const render = (): void => {
    const t = resultsText[language];
    document.title = t.title;
    $("title").textContent = t.title;
    const data = current;
    if (!data) return;
    const f = formatsFor(locale);
    const root = $("results");
    const focused = document.activeElement instanceof HTMLElement && document.activeElement.id ? document.activeElement.id : null;
    drawn = [];
    const summary = element("p", t.version(data.courseVersion === undefined ? "?" : f.count(data.courseVersion), f.count(data.statements ?? 0)), "summary");
    const parts: Node[] = [summary];
    if (data.withheld || !data.course) {
      parts.push(element("p", t.allWithheld(f.count(data.minGroup)), "withheld-all"));
    } else {
      const context: SectionContext = { t, f, data, charts, basis, changed: reportSize };
      parts.push(factsList(context), scoreSection(context), itemsSection(context), lessonsSection(context));
      const videos = videosSection(context);
      if (videos) parts.push(videos);
      parts.push(findingsSection(context));
    }
    root.replaceChildren(...parts);
    root.hidden = false;
    drawCharts();
    say("");
    if (focused) document.getElementById(focused)?.focus();
    reportSize();
  };

  const showResult = (result: ToolResult | undefined): void => {
    const t = resultsText[language];
    current = null;
    $("results").hidden = true;
    if (result?.isError) {
      const text = (result.content ?? []).find((item) => item?.type === "text")?.text ?? "";
      return fail(`${t.failed} ${String(text).slice(0, 600)}`);
    }
    current = resultsOf(result);
    if (!current) return fail(t.noFigures);
    render();
  };

  function onMessage(event: MessageEvent): void {
    const message: RpcMessage | null = fromHost(event);
    if (!message || settled(message)) return;
    if (message.method === "ui/notifications/tool-result") showResult(message.params as ToolResult | undefined);
    else if (message.method === "ui/notifications/tool-input") {
      if (!current) say(resultsText[language].reading);
    } else if (message.method === "ui/notifications/host-context-changed") {
      const context = message.params as (HostContext & { locale?: unknown }) | undefined;
      applyHostContext(context);
      if (context && typeof context.locale === "string") {
        setLanguage(context);
        render();
      }
    } else if (message.id !== undefined && (message.method === "ui/resource-teardown" || message.method === "ping")) send({ id: message.id, result: {} });
  }

  setLanguage(undefined);
  window.addEventListener("message", onMessage);
  window.addEventListener("resize", () => {
    if (drawn.length > 0 && Math.abs(chartWidth() - drawnWidth) >= 8) {
      drawCharts();
      reportSize();
    }
  });
  request<{ hostContext?: HostContext & { locale?: unknown } } | undefined>("ui/initialize", {
    protocolVersion: config.protocolVersion,
    appInfo: { name: "course-results", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline"] },
  }).then(
    (answer) => {
      applyHostContext(answer?.hostContext);
      setLanguage(answer?.hostContext);
      say(resultsText[language].waiting);
      render();
      notify("ui/notifications/initialized", {});
      if (typeof ResizeObserver === "function") new ResizeObserver(reportSize).observe(document.documentElement);
      reportSize();
    },
    () => fail(resultsText[language].notStarted),
  );
}
