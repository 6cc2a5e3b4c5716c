/**
 * Styles of the question blocks and the quiz (choice cards, matching, ordering, fill-in blanks, feedback,
 * the quiz panel, pager, results screen and submit dialog), built into their own sheet and shipped only
 * to pages with a question or a quiz lesson. What a scenario shares with questions (the card, its
 * fieldset and verdict) stays in the course sheet.
 */
import { ClassName, DataName } from "../page-contract/markup-names.ts";
export const quizStyles = `
/* Grids, in one list. */
.${ClassName.choiceList}, .${ClassName.matchingList}, .${ClassName.orderingList}, .${ClassName.matchingRow}, .${ClassName.questionResults} { display: grid; }
.${ClassName.choiceList} { gap: 0.625rem; }
/* The rounded boxes, in one list. */
.${ClassName.choice}, .${ClassName.matchingRow}, .${ClassName.orderingItem}, .${ClassName.answerFeedback}, .${ClassName.explanation}, .${ClassName.quizPanel}, .${ClassName.quizResult}, .${ClassName.submitDialog} { border-radius: var(--radius); }
/* Boxes on the page background, in one list. */
.${ClassName.choice}, .${ClassName.choice} input, .${ClassName.orderingItem}, .${ClassName.iconButton}, .${ClassName.quizResult}, .${ClassName.submitDialog} { background: var(--background); }
/* Full-width choice cards: the whole card is the label, the mark is drawn (radio round, checkbox square). */
.${ClassName.choice} { position: relative; border: 2px solid var(--hairline); transition: border-color 0.15s, background-color 0.15s; }
.${ClassName.choice}:hover { border-color: var(--border); background: var(--surface); }
/* Pointer cursors, in one list. */
.${ClassName.choice} label, .${ClassName.choice} input, .${ClassName.iconButton}, .${ClassName.linkButton} { cursor: pointer; }
.${ClassName.choice} label { display: block; padding: 0.875rem 1rem 0.875rem 3.25rem; min-height: 1.5rem; }
/* No margin, in one list. */
.${ClassName.choice} input, .${ClassName.feedbackAbout}, .${ClassName.explanationLabel} { margin: 0; }
.${ClassName.choice} input { appearance: none; position: absolute; left: 1rem; top: 0.95rem; width: 1.375rem; height: 1.375rem; border: 2px solid var(--border); }
.${ClassName.choice} input[type="radio"] { border-radius: 50%; }
.${ClassName.choice} input[type="checkbox"] { border-radius: 0.3rem; }
.${ClassName.choice} input:checked { border-color: var(--accent); background-color: var(--accent); }
.${ClassName.choice} input[type="radio"]:checked { box-shadow: inset 0 0 0 0.25rem var(--background); }
.${ClassName.choice} input[type="checkbox"]:checked::after { content: ""; position: absolute; left: 0.375rem; top: 0.125rem; width: 0.35rem; height: 0.7rem; border: solid var(--on-accent); border-width: 0 0.17rem 0.17rem 0; transform: rotate(45deg); }
.${ClassName.choice}:has(input:checked) { border-color: var(--accent); background: color-mix(in srgb, var(--accent) 7%, var(--background)); }
.${ClassName.choice}:has(input:focus-visible) { outline: 3px solid var(--focus); outline-offset: 2px; }
/* As specific as .${ClassName.choice}:has(input:checked), and later: a graded choice keeps its result's border. */
.${ClassName.choice}[data-${DataName.result}]:has(input) { border-color: var(--result-colour); }
.${ClassName.choice} input:focus-visible { outline: none; }
.${ClassName.choice}:has(input:disabled) label, .${ClassName.choice} input:disabled { cursor: default; }
@media (forced-colors: active) { .${ClassName.choice} input { appearance: auto; } .${ClassName.choice} input[type="checkbox"]:checked::after { content: none; } }
@media (prefers-reduced-motion: reduce) { .${ClassName.choice} { transition: none; } }
/* The graded row's mark (a choice, a matching or sorting row, an ordering item). */
[data-${DataName.result}] label::after, [data-${DataName.result}] .${ClassName.orderingText}::after { content: " " var(--result-mark) / ""; color: var(--result-colour); font-weight: 700; }
input.${ClassName.blank} { font: inherit; width: 10rem; max-width: 100%; padding: 0.125rem 0.5rem; border: 2px solid var(--border); border-radius: 0.25rem; }
.${ClassName.matchingList}, .${ClassName.orderingList} { list-style: none; padding: 0; gap: 0.5rem; }
/* Rows centred across, in one list. */
.${ClassName.matchingRow}, .${ClassName.orderingItem}, .${ClassName.questionPager} { align-items: center; }
/* The usual gap, in one list. */
.${ClassName.matchingRow}, .${ClassName.orderingItem}, .${ClassName.quizActions}, .${ClassName.questionPager}, .${ClassName.dialogActions} { gap: 0.75rem; }
.${ClassName.matchingRow} { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); padding: 0.5rem 0.75rem; border: 1px solid var(--hairline); }
.${ClassName.orderingList} { counter-reset: ordering; }
/* Flex rows, in one list. */
.${ClassName.orderingItem}, .${ClassName.orderingControls}, .${ClassName.quizActions}, .${ClassName.questionPager}, .${ClassName.resultScore}, .${ClassName.dialogActions} { display: flex; }
.${ClassName.orderingItem} { counter-increment: ordering; padding: 0.375rem 0.5rem 0.375rem 0.875rem; border: 1px solid var(--border); }
.${ClassName.orderingItem}::before { content: counter(ordering) "." / ""; font-weight: 700; color: var(--muted); }
.${ClassName.orderingText} { flex: 1; text-align: start; font: inherit; color: inherit; background: none; border: 0; padding: 0.25rem; cursor: grab; }
.${ClassName.orderingItem}:has([aria-pressed="true"]) { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent); }
.${ClassName.orderingControls} { gap: 0.25rem; }
.${ClassName.iconButton} { font: inherit; width: 2.75rem; height: 2.75rem; border: 2px solid var(--accent); border-radius: 0.375rem; color: var(--accent-strong); font-weight: 700; }
.${ClassName.iconButton}:hover { background: #e0e7ff; }
.${ClassName.iconButton}:disabled { border-color: var(--hairline); color: #6b7280; cursor: not-allowed; background: var(--surface); }
.${ClassName.questionActions}, .${ClassName.dialogActions} { margin-top: 1rem; }
.${ClassName.questionFeedback}:focus:not(:focus-visible), .${ClassName.quizResult}:focus:not(:focus-visible) { outline: none; }
.${ClassName.answerFeedback}, .${ClassName.explanation} { margin-top: 0.75rem; padding: 0.625rem 0.875rem; background: var(--surface); border: 1px solid var(--hairline); }
.${ClassName.feedbackAbout}, .${ClassName.explanationLabel} { font-weight: 700; }
.${ClassName.answerFeedback} > :last-child, .${ClassName.explanation} > :last-child { margin-bottom: 0; }
.${ClassName.quizPanel} { margin: 2rem 0; padding: 1.25rem; border: 2px solid var(--accent); background: #eff6ff; }
/* Wrapping rows, in one list. */
.${ClassName.quizActions}, .${ClassName.questionPager}, .${ClassName.resultScore}, .${ClassName.dialogActions} { flex-wrap: wrap; }
.${ClassName.quizActions} { }
.${ClassName.questionPager} { margin: 1.5rem 0; }
/* The results screen: score, pass mark and verdict, then a review line per question. */
.${ClassName.quizResult} { margin: 1.25rem 0 0; padding: 1.25rem 1.5rem; border: 1px solid var(--hairline); border-top: 6px solid var(--outcome-colour, var(--border)); color: var(--text); }
.${ClassName.quizResult}:empty { display: none; }
.${ClassName.quizResult}[data-${DataName.outcome}="passed"] { --outcome-colour: var(--correct); }
.${ClassName.quizResult}[data-${DataName.outcome}="failed"] { --outcome-colour: var(--incorrect); }
.${ClassName.quizResult} h2, .${ClassName.submitDialog} h2 { margin: 0 0 0.5rem; font-size: 1.25rem; }
.${ClassName.quizResult} p { margin: 0 0 0.75rem; }
.${ClassName.resultScore} { margin: 0 0 0.75rem; align-items: baseline; gap: 0.5rem 1rem; }
.${ClassName.resultPercent} { font-size: 3rem; font-weight: 800; line-height: 1; color: var(--outcome-colour); }
.${ClassName.resultMark} { color: var(--muted); font-weight: 600; }
.${ClassName.resultSummary} { font-weight: 600; font-size: 1.0625rem; }
.${ClassName.questionResults} { list-style: none; margin: 0.75rem 0 0; padding: 0.75rem 0 0; border-top: 1px solid var(--hairline); gap: 0.375rem; }
/* A review line's mark and colour, as a graded part's (course sheet), partly right in between. */
[data-${DataName.review}="correct"] { --result-colour: var(--correct); --result-mark: "\\2713"; }
[data-${DataName.review}="incorrect"] { --result-colour: var(--incorrect); --result-mark: "\\2717"; }
[data-${DataName.review}="partial"] { --result-colour: var(--muted); --result-mark: "\\25D0"; }
.${ClassName.questionResults} li::before { content: var(--result-mark) / ""; color: var(--result-colour); display: inline-block; width: 1.75rem; font-weight: 700; }
.${ClassName.submitDialog} { max-width: min(32rem, calc(100vw - 2rem)); padding: 1.25rem; border: 2px solid var(--accent); color: var(--text); }
.${ClassName.submitDialog}::backdrop { background: rgb(15 23 42 / 0.6); }
.${ClassName.unansweredList} { padding-left: 1.25rem; }
.${ClassName.linkButton} { padding: 0.25rem 0; border: 0; background: none; color: var(--accent); font: inherit; text-decoration: underline; }
`;
