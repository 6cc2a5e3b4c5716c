/**
 * Styles of the round-5 question types (issue 42): the picture with its regions or zones drawn over it
 * (an SVG in picture coordinates, so they hold at every width), the number field with its unit, the
 * open answer with its count, the drop-downs in a text, and the opinion scales, which wrap at 390 px.
 * Built into their own sheet, shipped only to pages whose course asks one of these types.
 */
import { ClassName, DataName } from "../page-contract/markup-names.ts";

export const questionTypeStyles = `
.${ClassName.pictureFrame} { position: relative; margin: 0 0 0.75rem; max-width: 100%; }
.${ClassName.pictureFrame} img { display: block; width: 100%; height: auto; }
.${ClassName.pictureFrame} svg { position: absolute; inset: 0; width: 100%; height: 100%; overflow: visible; }
.${ClassName.regionShape} { fill: rgb(29 78 216 / 0.08); stroke: var(--accent); stroke-width: 2; vector-effect: non-scaling-stroke; stroke-dasharray: 6 4; }
[data-${DataName.region}] { cursor: pointer; }
[data-${DataName.region}]:hover, .${ClassName.focusedRegion} { fill: rgb(29 78 216 / 0.2); stroke-dasharray: none; stroke-width: 3; }
.${ClassName.chosenRegion} { fill: rgb(29 78 216 / 0.35); stroke-dasharray: none; stroke-width: 4; }
.${ClassName.focusedRegion} { stroke: var(--focus); stroke-width: 5; }
.${ClassName.zoneText} { fill: var(--text, #111827); font-weight: 700; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; pointer-events: none; }
[data-${DataName.dropImage}] .${ClassName.matchingRow} { cursor: grab; }
.${ClassName.regionChoices} { display: grid; gap: 0.5rem; }
.${ClassName.gapSelect}, .${ClassName.numberInput}, .${ClassName.openAnswer} { font: inherit; max-width: 100%; padding: 0.25rem 0.5rem; border: 2px solid var(--border); border-radius: 0.25rem; background: var(--background); color: inherit; }
.${ClassName.gapSelect}[data-${DataName.result}="correct"], .${ClassName.numberInput}[aria-invalid="false"] { border-color: var(--correct); }
.${ClassName.gapSelect}[data-${DataName.result}="incorrect"], .${ClassName.numberInput}[aria-invalid="true"] { border-color: var(--incorrect); }
.${ClassName.numberRow} { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0 0 0.25rem; }
.${ClassName.numberInput} { width: 10rem; }
.${ClassName.openAnswer} { display: block; width: 100%; box-sizing: border-box; min-height: 7rem; resize: vertical; }
.${ClassName.characterCount}, .${ClassName.cutNote} { margin: 0.25rem 0 0; font-size: 0.9rem; }
.${ClassName.cutNote}:empty { display: none; }
.${ClassName.cutNote} { color: var(--incorrect); font-weight: 600; }
.${ClassName.likertStatement} { margin: 0 0 1rem; }
.${ClassName.likertText} { margin: 0 0 0.5rem; font-weight: 600; }
.${ClassName.likertScale} { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.${ClassName.likertPoint} { display: inline-flex; align-items: center; gap: 0.375rem; padding: 0.375rem 0.625rem; border: 2px solid var(--hairline); border-radius: var(--radius); }
.${ClassName.likertPoint}:has(input:checked) { border-color: var(--accent); }
.${ClassName.likertPoint} input, .${ClassName.likertPoint} label { cursor: pointer; }
[data-${DataName.state}="recorded"], [data-${DataName.review}="recorded"] { --result-colour: var(--muted); --result-mark: "\\2022"; }
@media (forced-colors: active) { .${ClassName.regionShape} { stroke: CanvasText; } .${ClassName.chosenRegion} { fill: Highlight; } }
`;
