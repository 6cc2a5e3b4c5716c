/**
 * Styles of the teaching blocks, appended to the page's stylesheet. The no-script layout is the complete
 * one (every marker text, step and scene listed); `.is-enhanced` styles the widget the script makes of
 * it; print always shows everything, gated blocks included.
 */
export const interactionStyles = `
.labeled-graphic .graphic-stage { position: relative; display: inline-block; max-width: 100%; }
.labeled-graphic .graphic-stage img { display: block; }
.labeled-graphic:not(.is-enhanced) .marker-layer { display: none; }
.marker-button { position: absolute; transform: translate(-50%, -50%); width: 2.75rem; height: 2.75rem; border-radius: 50%; border: 3px solid #ffffff; background: var(--accent); color: var(--on-accent); font: inherit; font-weight: 700; cursor: pointer; box-shadow: 0 0 0 2px var(--accent-strong); }
.marker-button:hover { background: var(--accent-strong); }
.marker-button[aria-expanded="true"] { background: #0f172a; }
.marker-button.is-visited { background: var(--visited); }
.marker-list { margin: 0.75rem 0 0; padding-left: 1.75rem; }
.marker-item { margin-bottom: 0.5rem; }
.labeled-graphic.is-enhanced .marker-item { padding: 0.625rem 0.875rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); }
.marker-title, .step-count, .timeline-date, .scene-label, .scenario-eyebrow { margin: 0; font-weight: 700; }
.step-count, .timeline-date, .scene-label, .scenario-eyebrow { color: var(--muted); font-size: 0.9375rem; }
.process { border: 1px solid var(--border); border-radius: var(--radius); padding: 1rem 1.25rem; }
.process-steps { list-style: none; margin: 0; padding: 0; }
.process:not(.is-enhanced) .process-step + .process-step { border-top: 1px solid var(--hairline); margin-top: 1rem; padding-top: 1rem; }
.step-title, .timeline-title { font-size: 1.25rem; }
.process.is-enhanced .step-count { display: none; }
.step-title { margin-top: 0.25rem; }
.step-image, .timeline-image, .scene-image, .character-image { display: block; max-height: 20rem; width: auto; border-radius: var(--radius); }
.process-controls { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.75rem; margin-top: 1rem; }
.process-status { margin: 0; font-weight: 600; }
.timeline-events { list-style: none; margin: 0; padding: 0 0 0 1.25rem; border-left: 3px solid var(--accent); }
.timeline-event { position: relative; padding: 0 0 1.25rem 0.75rem; }
.timeline-event::before { content: ""; position: absolute; left: -1.95rem; top: 0.35rem; width: 1rem; height: 1rem; border-radius: 50%; background: var(--background); border: 3px solid var(--accent); }
.timeline-title { margin: 0.125rem 0 0.375rem; }
.attachment { display: flex; flex-direction: column; gap: 0.25rem; padding: 0.875rem 1rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); }
.attachment-link { display: inline-flex; align-items: center; gap: 0.5rem; font-weight: 700; min-height: 2.75rem; }
.attachment-icon { font-size: 1.25rem; }
.attachment-description { margin: 0; color: var(--muted); }
.continue { display: flex; flex-direction: column; align-items: flex-start; gap: 0.5rem; }
.continue .button[aria-disabled="true"] { border-color: var(--border); color: var(--muted); background: var(--surface); cursor: not-allowed; }
.continue-hint { margin: 0; color: var(--muted); }
.scenario-title { margin-top: 0.25rem; }
.scenario-character { display: flex; align-items: center; gap: 0.75rem; }
.scenario-character .character-image { max-height: 5rem; border-radius: 50%; }
.character-name { font-weight: 700; margin: 0; }
.scenario-scenes { list-style: none; margin: 0; padding: 0; }
.scenario:not(.is-enhanced) .scenario-scene + .scenario-scene { border-top: 1px solid var(--hairline); margin-top: 1rem; padding-top: 1rem; }
.scenario-scene:focus { outline: none; }
.scenario-scene:focus-visible { outline: 3px solid var(--focus); }
.scenario-choices { list-style: none; margin: 0.75rem 0 0; padding: 0; display: grid; gap: 0.5rem; }
.scenario-choice { width: 100%; justify-content: flex-start; text-align: left; }
.choice-feedback { margin-top: 0.25rem; font-size: 0.9375rem; color: var(--muted); }
.scene-ending { display: inline-block; padding: 0.25rem 0.75rem; border-radius: 999px; border: 2px solid var(--border); font-weight: 700; }
.scene-ending[data-ending="success"] { border-color: var(--correct); color: var(--correct); }
.scene-ending[data-ending="failure"] { border-color: var(--incorrect); color: var(--incorrect); }
.scenario-status:not(:empty) { margin-top: 0.75rem; padding: 0.625rem 0.875rem; border-radius: var(--radius); background: var(--surface); border: 1px solid var(--hairline); }
.scenario-status > p { margin: 0.25rem 0; }
.scenario-actions { margin-top: 0.75rem; }
.choice-image { display: block; max-height: 10rem; width: auto; margin-bottom: 0.375rem; border-radius: 0.25rem; }
.sorting-categories { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0.75rem; margin-top: 0.75rem; }
.sorting-category, .sorting.is-enhanced .sorting-pool { border: 2px dashed var(--border); border-radius: var(--radius); padding: 0.5rem; min-height: 4rem; }
.sorting-category-title { margin: 0 0 0.5rem; font-weight: 700; }
.sorting-bin { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5rem; }
.sorting-item { background: var(--background); }
.sorting.is-enhanced .sorting-item { cursor: grab; grid-template-columns: minmax(0, 1fr); }
.sorting-item.is-dragging { opacity: 0.6; }
@media print {
  [data-gated][hidden], .process-step[hidden], .scenario-scene[hidden], .choice-feedback[hidden] { display: block !important; }
  .marker-item[hidden] { display: list-item !important; }
  .continue, .process-controls, .scenario-actions { display: none !important; }
}
`;
