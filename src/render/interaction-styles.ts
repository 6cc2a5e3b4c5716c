/**
 * Styles of the teaching blocks, appended to the page's stylesheet. The no-script layout is the complete
 * one (every marker text, step and scene listed); `.is-enhanced` styles the widget the script makes of
 * it; print always shows everything, gated blocks included.
 */
import { ClassName, DataName } from "../page-contract/markup-names.ts";
export const interactionStyles = `
.${ClassName.labeledGraphic} .${ClassName.graphicStage} { position: relative; display: inline-block; max-width: 100%; }
.${ClassName.labeledGraphic} .${ClassName.graphicStage} img { display: block; }
.${ClassName.labeledGraphic}:not(.${ClassName.isEnhanced}) .${ClassName.markerLayer}, .${ClassName.process}.${ClassName.isEnhanced} .${ClassName.stepCount} { display: none; }
.${ClassName.markerButton} { position: absolute; transform: translate(-50%, -50%); width: 2.75rem; height: 2.75rem; border-radius: 50%; border: 3px solid #ffffff; background: var(--accent); color: var(--on-accent); font: inherit; font-weight: 700; cursor: pointer; box-shadow: 0 0 0 2px var(--accent-strong); }
.${ClassName.markerButton}:hover { background: var(--accent-strong); }
.${ClassName.markerButton}[aria-expanded="true"] { background: #0f172a; }
.${ClassName.markerButton}.${ClassName.isVisited} { background: var(--visited); }
.${ClassName.markerList} { margin: 0.75rem 0 0; padding-left: 1.75rem; }
.${ClassName.markerItem} { margin-bottom: 0.5rem; }
/* The rounded boxes, in one list. */
.${ClassName.labeledGraphic}.${ClassName.isEnhanced} .${ClassName.markerItem}, .${ClassName.process}, .${ClassName.stepImage}, .${ClassName.timelineImage}, .${ClassName.sceneImage}, .${ClassName.characterImage}, .${ClassName.attachment}, .${ClassName.scenarioStatus}:not(:empty), .${ClassName.sortingCategory}, .${ClassName.sorting}.${ClassName.isEnhanced} .${ClassName.sortingPool} { border-radius: var(--radius); }
/* Boxes with a border, in one list. */
.${ClassName.labeledGraphic}.${ClassName.isEnhanced} .${ClassName.markerItem}, .${ClassName.process}, .${ClassName.attachment} { border: 1px solid var(--border); }
.${ClassName.labeledGraphic}.${ClassName.isEnhanced} .${ClassName.markerItem} { padding: 0.625rem 0.875rem; background: var(--surface); }
/* No margin, in one list. */
.${ClassName.markerTitle}, .${ClassName.stepCount}, .${ClassName.timelineDate}, .${ClassName.sceneLabel}, .${ClassName.scenarioEyebrow}, .${ClassName.processSteps}, .${ClassName.processStatus}, .${ClassName.timelineEvents}, .${ClassName.attachmentDescription}, .${ClassName.continueHint}, .${ClassName.characterName}, .${ClassName.scenarioScenes}, .${ClassName.sortingBin} { margin: 0; }
.${ClassName.markerTitle}, .${ClassName.stepCount}, .${ClassName.timelineDate}, .${ClassName.sceneLabel}, .${ClassName.scenarioEyebrow} { font-weight: 700; }
/* Muted text, in one list. */
.${ClassName.stepCount}, .${ClassName.timelineDate}, .${ClassName.sceneLabel}, .${ClassName.scenarioEyebrow}, .${ClassName.attachmentDescription}, .${ClassName.continueHint}, .${ClassName.choiceFeedback} { color: var(--muted); }
.${ClassName.stepCount}, .${ClassName.timelineDate}, .${ClassName.sceneLabel}, .${ClassName.scenarioEyebrow} { font-size: 0.9375rem; }
.${ClassName.process} { padding: 1rem 1.25rem; }
/* Unmarked lists, in one list. */
.${ClassName.processSteps}, .${ClassName.timelineEvents}, .${ClassName.scenarioScenes}, .${ClassName.scenarioChoices}, .${ClassName.sortingBin} { list-style: none; }
.${ClassName.processSteps} { padding: 0; }
.${ClassName.process}:not(.${ClassName.isEnhanced}) .${ClassName.processStep} + .${ClassName.processStep}, .${ClassName.scenario}:not(.${ClassName.isEnhanced}) .${ClassName.scenarioScene} + .${ClassName.scenarioScene} { border-top: 1px solid var(--hairline); margin-top: 1rem; padding-top: 1rem; }
.${ClassName.stepTitle}, .${ClassName.timelineTitle} { font-size: 1.25rem; }
.${ClassName.stepTitle} { margin-top: 0.25rem; }
.${ClassName.stepImage}, .${ClassName.timelineImage}, .${ClassName.sceneImage}, .${ClassName.characterImage} { display: block; max-height: 20rem; width: auto; }
/* Flex rows, in one list. */
.${ClassName.processControls}, .${ClassName.attachment}, .${ClassName.continue}, .${ClassName.scenarioCharacter} { display: flex; }
/* Rows centred across, in one list. */
.${ClassName.processControls}, .${ClassName.attachmentLink}, .${ClassName.scenarioCharacter} { align-items: center; }
/* The usual gap, in one list. */
.${ClassName.processControls}, .${ClassName.scenarioCharacter}, .${ClassName.sortingCategories} { gap: 0.75rem; }
.${ClassName.processControls} { flex-wrap: wrap; justify-content: space-between; margin-top: 1rem; }
.${ClassName.processStatus} { font-weight: 600; }
.${ClassName.timelineEvents} { padding: 0 0 0 1.25rem; border-left: 3px solid var(--accent); }
.${ClassName.timelineEvent} { position: relative; padding: 0 0 1.25rem 0.75rem; }
.${ClassName.timelineEvent}::before { content: ""; position: absolute; left: -1.95rem; top: 0.35rem; width: 1rem; height: 1rem; border-radius: 50%; background: var(--background); border: 3px solid var(--accent); }
.${ClassName.timelineTitle} { margin: 0.125rem 0 0.375rem; }
.${ClassName.attachment} { flex-direction: column; gap: 0.25rem; padding: 0.875rem 1rem; background: var(--surface); }
.${ClassName.attachmentLink} { display: inline-flex; gap: 0.5rem; font-weight: 700; min-height: 2.75rem; }
.${ClassName.attachmentIcon} { font-size: 1.25rem; }
.${ClassName.attachmentDescription} { }
.${ClassName.continue} { flex-direction: column; align-items: flex-start; gap: 0.5rem; }
.${ClassName.continue} .${ClassName.button}[aria-disabled="true"] { border-color: var(--border); color: var(--muted); background: var(--surface); cursor: not-allowed; }
.${ClassName.continueHint} { }
.${ClassName.scenarioTitle} { margin-top: 0.25rem; }
.${ClassName.scenarioCharacter} { }
.${ClassName.scenarioCharacter} .${ClassName.characterImage} { max-height: 5rem; border-radius: 50%; }
.${ClassName.characterName} { font-weight: 700; }
.${ClassName.scenarioScenes} { padding: 0; }
.${ClassName.scenarioScene}:focus:not(:focus-visible) { outline: none; }
/* Grids, in one list. */
.${ClassName.scenarioChoices}, .${ClassName.sortingCategories}, .${ClassName.sortingBin} { display: grid; }
.${ClassName.scenarioChoices} { margin: 0.75rem 0 0; padding: 0; gap: 0.5rem; }
.${ClassName.scenarioChoice} { width: 100%; justify-content: flex-start; text-align: left; }
.${ClassName.choiceFeedback} { margin-top: 0.25rem; font-size: 0.9375rem; }
.${ClassName.sceneEnding} { display: inline-block; padding: 0.25rem 0.75rem; border-radius: 999px; border: 2px solid var(--border); font-weight: 700; }
.${ClassName.sceneEnding}[data-${DataName.ending}="success"] { border-color: var(--correct); color: var(--correct); }
.${ClassName.sceneEnding}[data-${DataName.ending}="failure"] { border-color: var(--incorrect); color: var(--incorrect); }
.${ClassName.scenarioStatus}:not(:empty) { margin-top: 0.75rem; padding: 0.625rem 0.875rem; background: var(--surface); border: 1px solid var(--hairline); }
.${ClassName.scenarioStatus} > p { margin: 0.25rem 0; }
.${ClassName.scenarioActions} { margin-top: 0.75rem; }
.${ClassName.choiceImage} { display: block; max-height: 10rem; width: auto; margin-bottom: 0.375rem; border-radius: 0.25rem; }
.${ClassName.sortingCategories} { grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); margin-top: 0.75rem; }
.${ClassName.sortingCategory}, .${ClassName.sorting}.${ClassName.isEnhanced} .${ClassName.sortingPool} { border: 2px dashed var(--border); padding: 0.5rem; min-height: 4rem; }
/* The "not sorted yet" box goes once every item is in a category: no empty dashed box is left. */
.${ClassName.sorting}.${ClassName.isEnhanced} .${ClassName.sortingPool}:not(:has(li)) { display: none; }
.${ClassName.sortingCategoryTitle} { margin: 0 0 0.5rem; font-weight: 700; }
.${ClassName.sortingBin} { padding: 0; gap: 0.5rem; }
.${ClassName.sortingItem} { background: var(--background); }
.${ClassName.sorting}.${ClassName.isEnhanced} .${ClassName.sortingItem} { cursor: grab; grid-template-columns: minmax(0, 1fr); }
.${ClassName.sortingItem}.${ClassName.isDragging} { opacity: 0.6; }
@media print {
  [data-${DataName.gated}][hidden], .${ClassName.processStep}[hidden], .${ClassName.scenarioScene}[hidden], .${ClassName.choiceFeedback}[hidden] { display: block !important; }
  .${ClassName.markerItem}[hidden] { display: list-item !important; }
  .${ClassName.continue}, .${ClassName.processControls}, .${ClassName.scenarioActions} { display: none !important; }
}
`;
