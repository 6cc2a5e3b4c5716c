/**
 * The MCP Apps view get_course_results links to (issue 43): a course's results for the person, drawn
 * from the tool's structuredContent: the course's figures, the score distribution, facility against
 * discrimination per question and drop-off per lesson as accessible SVG charts, each with a table of
 * its figures, and the findings. Figures the service withheld for a small group are said to be withheld,
 * never drawn. The words follow the host's locale (English, French, German, Spanish), the look its theme
 * (else the system's). Built like the export view: a static page whose script is built like the player
 * (`src/player/views/results.ts`).
 */
import { appsProtocolVersion } from "./apps-protocol.ts";
import type { ReadResourceResult } from "@modelcontextprotocol/server";
import type { ViewConfig } from "../../page-contract/config.ts";
import { viewBundles } from "../../render/player-bundles.ts";
import { viewScripts } from "../../render/player-scripts.ts";
import { mcpAppMimeType } from "./course-preview-view.ts";

export const resultsViewUri = "ui://course-authoring/results.html";

/** Resource `_meta.ui`: no external origins at all, and a framed look. */
export const resultsViewMeta = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

const light = "color-scheme: light; --fallback-text: #1a1a1a; --fallback-muted: #4a4a4a; --fallback-background: #fff; --fallback-accent: #1d4ed8; --fallback-danger: #b3261e; --fallback-border: #c4c4c4; --chart-bar: #1d4ed8; --chart-stopped: #b3261e; --chart-axis: #595959; --chart-grid: #d9d9d9; --chart-zone: #fdecea; --chart-withheld: #f1f1f1;";
const dark = "color-scheme: dark; --fallback-text: #f2f2f2; --fallback-muted: #c8c8c8; --fallback-background: #1e1e1e; --fallback-accent: #8ab4f8; --fallback-danger: #ffb4ab; --fallback-border: #5a5a5a; --chart-bar: #8ab4f8; --chart-stopped: #ff8a80; --chart-axis: #b0b0b0; --chart-grid: #3d3d3d; --chart-zone: #3b2422; --chart-withheld: #2c2c2c;";

export const resultsViewHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course results</title>
<style>
  :root { ${light} }
  @media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { ${dark} } }
  :root[data-theme="dark"] { ${dark} }
  body { margin: 0; padding: 1rem; font-family: var(--font-sans, system-ui, sans-serif); line-height: 1.5; color: var(--color-text-primary, var(--fallback-text)); background: var(--color-background-primary, var(--fallback-background)); }
  main { max-width: 52rem; }
  h1 { font-size: 1.25rem; margin: 0 0 0.5rem; }
  h2 { font-size: 1.05rem; margin: 1.5rem 0 0.5rem; }
  p { margin: 0.25rem 0; }
  #status { color: var(--color-text-secondary, var(--fallback-muted)); }
  #problem { color: var(--color-text-danger, var(--fallback-danger)); font-weight: 600; }
  .summary { color: var(--color-text-secondary, var(--fallback-muted)); }
  .withheld-all, .withheld-note, td.withheld { font-style: italic; }
  .withheld-all { font-weight: 600; margin-top: 1rem; }
  .facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: 0.5rem; margin: 0.75rem 0 0; }
  .facts > div { border: 1px solid var(--color-border-secondary, var(--fallback-border)); border-radius: 0.375rem; padding: 0.375rem 0.625rem; }
  .facts dt { color: var(--color-text-secondary, var(--fallback-muted)); font-size: 0.875rem; }
  .facts dd { margin: 0; font-size: 1.25rem; font-weight: 600; }
  .chart-box { margin: 0.5rem 0; }
  svg.chart { display: block; max-width: 100%; height: auto; font-family: inherit; overflow: visible; }
  svg.chart text { fill: currentColor; font-size: 13px; }
  svg.chart .tick, svg.chart .value, svg.chart .withheld-label { font-size: 12px; }
  svg.chart .axis-label, svg.chart .row-label, svg.chart .point-label { font-weight: 600; }
  svg.chart .axis { stroke: var(--chart-axis); stroke-width: 1.5; }
  svg.chart .grid { stroke: var(--chart-grid); stroke-width: 1; }
  svg.chart .bar { fill: var(--chart-bar); }
  svg.chart .stopped { fill: var(--chart-stopped); }
  svg.chart .hatch { stroke: var(--fallback-background); stroke-width: 1.5; }
  svg.chart .stopped-bar { stroke: var(--fallback-background); stroke-width: 2; }
  svg.chart .zone { fill: var(--chart-zone); }
  svg.chart .zone-label, svg.chart .withheld-label { font-style: italic; }
  svg.chart .withheld-bar { fill: var(--chart-withheld); stroke: var(--chart-axis); stroke-dasharray: 4 3; }
  svg.chart .point circle { fill: var(--chart-bar); stroke: var(--fallback-background); stroke-width: 1.5; }
  fieldset.basis { border: 0; padding: 0; margin: 0 0 0.25rem; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; align-items: center; }
  fieldset.basis legend { padding: 0; }
  .option { display: inline-flex; align-items: center; gap: 0.375rem; min-height: 2.75rem; }
  .option input { width: 1.25rem; height: 1.25rem; margin: 0; accent-color: var(--fallback-accent); }
  input:focus-visible, .table-box:focus-visible { outline: 3px solid var(--color-ring-primary, var(--fallback-accent)); outline-offset: 2px; }
  .legend { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; padding: 0; margin: 0 0 0.5rem; }
  .swatch { display: inline-block; width: 1rem; height: 1rem; margin-right: 0.375rem; vertical-align: -0.15rem; border-radius: 2px; }
  .swatch.bar { background: var(--chart-bar); }
  .swatch.stopped { background: repeating-linear-gradient(45deg, var(--chart-stopped) 0 3px, var(--fallback-background) 3px 4.5px); }
  .table-box { overflow-x: auto; margin: 0.5rem 0 0; }
  table { border-collapse: collapse; width: 100%; font-size: 0.9375rem; }
  th, td { text-align: left; vertical-align: top; padding: 0.25rem 0.5rem 0.25rem 0; border-bottom: 1px solid var(--color-border-secondary, var(--fallback-border)); }
  thead th { font-size: 0.875rem; color: var(--color-text-secondary, var(--fallback-muted)); }
  tbody th { font-weight: 400; overflow-wrap: anywhere; }
  th.figure, td.figure { text-align: right; }
  td.figure { white-space: nowrap; font-variant-numeric: tabular-nums; }
  td.figure.words { white-space: normal; min-width: 6rem; }
  tbody th { min-width: 5.5rem; }
  @media (max-width: 420px) { table { font-size: 0.875rem; } th, td { padding-right: 0.375rem; } }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .findings { padding-left: 1.25rem; margin: 0; }
  .findings li { margin: 0 0 0.5rem; }
  .evidence { color: var(--color-text-secondary, var(--fallback-muted)); overflow-wrap: anywhere; }
  .note { font-style: italic; }
</style>
</head>
<body>
<main>
<h1 id="title">Course results</h1>
<p id="status" role="status">Waiting for the results…</p>
<p id="problem" role="alert"></p>
<div id="results" hidden></div>
</main>
${viewScripts({ protocolVersion: appsProtocolVersion } satisfies ViewConfig, viewBundles.results).markup}
</body>
</html>
`;

export function readResultsView(): ReadResourceResult {
  return { contents: [{ uri: resultsViewUri, mimeType: mcpAppMimeType, text: resultsViewHtml, _meta: resultsViewMeta }] };
}
