/**
 * The page's one stylesheet, inlined under the CSP nonce. Colours meet WCAG AA (4.5:1 for text, 3:1 for
 * focus rings and control borders); the layout is a sidebar and a readable column on wide screens and a
 * single column below 56rem; motion stops when the learner prefers reduced motion; print is in `print-styles.ts`.
 * A declaration that many rules share is written once, as one selector list, above the first of them (in
 * this sheet and in the quiz and teaching-block sheets); a state's rule (`:hover`, `[aria-…]`) keeps its own.
 */
import { ClassName, DataName } from "../page-contract/markup-names.ts";
export const courseStyles = `
:root {
  --text: #1a1f36; --muted: #475069; --background: #ffffff; --surface: #f5f7fb; --border: #6b7280;
  --hairline: #d5d9e2; --accent: #1d4ed8; --accent-strong: #1e3a8a; --on-accent: #ffffff; --visited: #6b21a8;
  --correct: #047857; --incorrect: #b91c1c; --focus: #1d4ed8; --radius: 0.5rem;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; scroll-behavior: smooth; }
body { margin: 0; background: var(--background); color: var(--text); font: 1.0625rem/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
img, video { max-width: 100%; height: auto; }
audio, video { width: 100%; }
a { color: var(--accent); text-underline-offset: 0.15em; }
a:visited { color: var(--visited); }
a:hover { color: var(--accent-strong); text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 2px; }
.${ClassName.siteHeader} :focus-visible { outline-color: #ffffff; }
.${ClassName.visuallyHidden} { position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
/* The rounded boxes, in one list. */
.${ClassName.skipLink}, .${ClassName.contentsDisclosure} > summary, .${ClassName.lessonBanner} img, pre, .${ClassName.callout}, .${ClassName.accordionItem}, .${ClassName.transcript}, .${ClassName.flashcard}, .${ClassName.button}, .${ClassName.question}, .${ClassName.blockUnavailable} { border-radius: var(--radius); }
.${ClassName.skipLink} { position: absolute; left: 0.75rem; top: -4rem; z-index: 10; padding: 0.5rem 1rem; background: var(--accent-strong); color: var(--on-accent); }
.${ClassName.skipLink}:focus { top: 0.75rem; }
.${ClassName.siteHeader} { background: #0f172a; color: #f8fafc; }
/* Flex rows, in one list. */
.${ClassName.headerInner}, .${ClassName.contentsKey}, .${ClassName.courseMeta} > div, .${ClassName.codeBlock} figcaption, .${ClassName.tabList}, .${ClassName.flashcard}, .${ClassName.progressMeter}, .${ClassName.pager} { display: flex; }
/* Wrapping rows, in one list. */
.${ClassName.headerInner}, .${ClassName.contentsKey}, .${ClassName.courseMeta} > div, .${ClassName.tabList}, .${ClassName.pager} { flex-wrap: wrap; }
/* Rows centred across, in one list. */
.${ClassName.headerInner}, .${ClassName.button}, .${ClassName.progressMeter} { align-items: center; }
.${ClassName.headerInner} { max-width: 80rem; margin: 0 auto; padding: 0.875rem 1.25rem; gap: 0.5rem 1rem; }
/* No margin, in one list. */
.${ClassName.courseName}, .${ClassName.previewBadge}, .${ClassName.progress}, .${ClassName.contents} ol, .${ClassName.eyebrow}, .${ClassName.courseMeta} dd, .${ClassName.quote} blockquote, .${ClassName.flashcardLabel}, .${ClassName.flashcardFront} p, .${ClassName.questionFieldset} { margin: 0; }
.${ClassName.courseName} { font-weight: 700; font-size: 1.125rem; flex: 1 1 auto; }
.${ClassName.previewBadge} { padding: 0.125rem 0.625rem; border: 1px solid #f8fafc; border-radius: 999px; font-size: 0.875rem; }
.${ClassName.omittedPicture} { display: inline-block; padding: 0.5rem 0.75rem; border: 1px dashed currentColor; font-style: italic; }
/* Small text, in one list. */
.${ClassName.progress}, .${ClassName.contents} .${ClassName.moduleTitle}, .${ClassName.eyebrow}, pre, .${ClassName.codeBlock} figcaption, figcaption, .${ClassName.questionLegend}, .${ClassName.questionHint} { font-size: 0.9375rem; }
.${ClassName.progress} { }
/* Grids, in one list. */
.${ClassName.layout}, .${ClassName.courseMeta}, .${ClassName.flashcards} { display: grid; }
.${ClassName.layout} { max-width: 80rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; grid-template-columns: minmax(15rem, 19rem) minmax(0, 1fr); gap: 2.5rem; align-items: start; }
.${ClassName.contentsDisclosure} { position: sticky; top: 1rem; max-height: calc(100vh - 2rem); overflow-y: auto; }
/* Boxes with a border, in one list. */
.${ClassName.contentsDisclosure} > summary, .${ClassName.kindBadge}, .${ClassName.accordionItem}, .${ClassName.flashcard} { border: 1px solid var(--border); }
/* Pointer cursors, in one list. */
.${ClassName.contentsDisclosure} > summary, .${ClassName.tab}, .${ClassName.button} { cursor: pointer; }
.${ClassName.contentsDisclosure} > summary { font-weight: 700; padding: 0.625rem 0.875rem; background: var(--surface); }
/* Unmarked lists, in one list. */
.${ClassName.contents} ol, .${ClassName.contentsKey}, .${ClassName.flashcards} { list-style: none; }
.${ClassName.contents} ol { padding: 0; }
.${ClassName.contents} > ol > li { margin-bottom: 1rem; }
/* Muted text, in one list. */
.${ClassName.contents} .${ClassName.moduleTitle}, .${ClassName.contentsKey}, .${ClassName.kindBadge}, .${ClassName.eyebrow}, .${ClassName.lessonMeta}, .${ClassName.codeBlock} figcaption, figcaption, .${ClassName.flashcardLabel}, .${ClassName.questionLegend}, .${ClassName.questionHint} { color: var(--muted); }
.${ClassName.contents} .${ClassName.moduleTitle} { display: block; font-weight: 700; margin: 0 0 0.25rem; }
.${ClassName.contents} a { display: block; padding: 0.375rem 0.625rem; border-radius: 0.375rem; text-decoration: none; color: var(--text); border-left: 3px solid transparent; }
.${ClassName.contents} a:hover { background: var(--surface); text-decoration: underline; }
.${ClassName.contents} a[aria-current="page"] { background: #e0e7ff; border-left-color: var(--accent); font-weight: 600; color: var(--accent-strong); }
/* A lesson's state in the contents and in their key: its icon and colour, set once per state. */
[data-${DataName.state}="visited"] { --state-icon: "\\25D1"; --state-colour: var(--muted); }
[data-${DataName.state}="completed"] { --state-icon: "\\2713"; --state-colour: var(--correct); }
[data-${DataName.state}="passed"] { --state-icon: "\\2605"; --state-colour: var(--correct); }
[data-${DataName.state}="failed"] { --state-icon: "\\2717"; --state-colour: var(--incorrect); }
.${ClassName.contents} a[data-${DataName.state}]::after, .${ClassName.contentsKey} [data-${DataName.state}]::before { content: var(--state-icon) / ""; color: var(--state-colour); font-weight: 700; }
.${ClassName.contents} a[data-${DataName.state}]::after { margin-left: 0.375rem; }
.${ClassName.contentsKey} [data-${DataName.state}]::before { margin-right: 0.25rem; }
/* A hairline above, in one list. */
.${ClassName.contentsKey}, .${ClassName.outlineModule}, .${ClassName.pager} { border-top: 1px solid var(--hairline); }
.${ClassName.contentsKey} { gap: 0.25rem 0.875rem; margin: 0.75rem 0 0; padding: 0.5rem 0 0; font-size: 0.875rem; }
.${ClassName.kindBadge} { display: inline-block; margin-left: 0.375rem; padding: 0 0.375rem; font-size: 0.8125rem; border-radius: 0.25rem; }
main { min-width: 0; max-width: 48rem; }
main:focus { outline: none; }
h1, h2, h3, h4, h5, h6 { line-height: 1.25; margin: 1.75rem 0 0.75rem; }
h1 { font-size: 2rem; margin-top: 0.25rem; }
h2 { font-size: 1.5rem; } h3 { font-size: 1.25rem; } h4 { font-size: 1.125rem; }
/* A heading focused by script shows no ring; by keyboard, the one every element has. */
h1:focus:not(:focus-visible) { outline: none; }
.${ClassName.eyebrow} { font-weight: 600; }
.${ClassName.lessonMeta} { margin: 0 0 1.5rem; }
.${ClassName.lessonBanner} { margin: 0 0 1.25rem; }
.${ClassName.lessonBanner} img { display: block; width: 100%; height: auto; max-height: 18rem; object-fit: cover; }
@media (max-width: 40rem) { .${ClassName.lessonBanner} img { max-height: 12rem; } }
.${ClassName.courseMeta} { margin: 0 0 1.5rem; gap: 0.25rem; }
.${ClassName.courseMeta} > div { gap: 0 0.5rem; }
.${ClassName.courseMeta} dt { font-weight: 700; }
.${ClassName.courseMeta} dt::after { content: ":"; }
.${ClassName.courseMeta} dd { }
.${ClassName.block}, figure, .${ClassName.startLink} { margin: 1.5rem 0; }
pre { background: #0f172a; color: #f1f5f9; padding: 1rem; overflow-x: auto; line-height: 1.5; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
:not(pre) > code { background: var(--surface); border: 1px solid var(--hairline); border-radius: 0.25rem; padding: 0 0.25rem; font-size: 0.9375em; }
pre:focus-visible { outline-offset: 3px; }
/* The usual gap, in one list. */
.${ClassName.codeBlock} figcaption, .${ClassName.flashcard}, .${ClassName.completion} .${ClassName.completionActions} { gap: 0.75rem; }
.${ClassName.codeBlock} figcaption { align-items: baseline; margin-bottom: 0.375rem; }
.${ClassName.codeLanguage} { font-weight: 700; text-transform: lowercase; }
figcaption { margin-top: 0.5rem; }
table { border-collapse: collapse; max-width: 100%; }
th, td { border: 1px solid var(--hairline); padding: 0.375rem 0.625rem; text-align: left; }
hr.${ClassName.divider} { border: 0; border-top: 2px solid var(--hairline); margin: 2.5rem 0; }
.${ClassName.quote} blockquote { padding: 0.25rem 1.25rem; border-left: 4px solid var(--accent); font-size: 1.125rem; font-style: italic; }
/* A callout variant sets its tint, border and title colours; the theme's rules may override the tint. */
.${ClassName.callout} { border: 1px solid var(--callout-border, var(--border)); border-left-width: 6px; padding: 0.875rem 1.125rem; background: var(--callout-tint, var(--surface)); }
.${ClassName.calloutTitle} { margin: 0 0 0.25rem; font-weight: 700; color: var(--callout-title); }
.${ClassName.calloutBody} > :last-child { margin-bottom: 0; }
.${ClassName.calloutInfo} { --callout-tint: #eff6ff; --callout-border: #1d4ed8; --callout-title: #1e3a8a; }
.${ClassName.calloutTip}, .${ClassName.calloutSuccess} { --callout-tint: #ecfdf5; --callout-border: #047857; --callout-title: #065f46; }
.${ClassName.calloutNote} { --callout-tint: #f5f3ff; --callout-border: #6d28d9; --callout-title: #5b21b6; }
.${ClassName.calloutWarning} { --callout-tint: #fffbeb; --callout-border: #b45309; --callout-title: #92400e; }
.${ClassName.calloutDanger} { --callout-tint: #fef2f2; --callout-border: #b91c1c; --callout-title: #991b1b; }
details > summary { cursor: pointer; }
.${ClassName.accordionItem} { margin-bottom: 0.5rem; }
.${ClassName.accordionItem} > summary { padding: 0.75rem 1rem; font-weight: 600; }
.${ClassName.accordionBody} { padding: 0 1rem 0.75rem; }
.${ClassName.transcript} { margin-top: 0.75rem; border: 1px solid var(--hairline); padding: 0.5rem 0.875rem; }
.${ClassName.transcript} > summary { font-weight: 600; }
.${ClassName.tabList} { gap: 0.25rem; border-bottom: 2px solid var(--border); }
.${ClassName.tab} { font: inherit; padding: 0.5rem 1rem; border: 1px solid transparent; border-bottom: 0; border-radius: var(--radius) var(--radius) 0 0; background: transparent; color: var(--text); margin-bottom: -2px; min-height: 2.75rem; }
.${ClassName.tab}[aria-selected="true"] { border-color: var(--border); border-bottom: 3px solid var(--background); background: var(--background); font-weight: 700; color: var(--accent-strong); }
.${ClassName.tabPanel} { padding: 0.75rem 0.25rem; }
.${ClassName.flashcards} { padding: 0; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 1rem; }
.${ClassName.flashcard} { padding: 1rem; flex-direction: column; min-height: 11rem; background: var(--surface); transition: background-color 0.2s ease; }
.${ClassName.flashcard}.${ClassName.isFlipped} { background: #eef2ff; }
.${ClassName.flashcardLabel} { font-size: 0.875rem; }
.${ClassName.flashcardFaces} { flex: 1; }
.${ClassName.flashcardFront} p { font-weight: 700; font-size: 1.125rem; }
.${ClassName.flashcardBack} > :first-child { margin-top: 0; }
/* Boxes on the page background, in one list. */
.${ClassName.button}, .${ClassName.question}, select { background: var(--background); }
.${ClassName.button} { font: inherit; display: inline-flex; justify-content: center; gap: 0.375rem; min-height: 2.75rem; padding: 0.5rem 1.125rem; border: 2px solid var(--accent); color: var(--accent-strong); font-weight: 600; text-decoration: none; }
.${ClassName.button}:hover { background: #e0e7ff; }
.${ClassName.buttonPrimary}, a.${ClassName.buttonPrimary}:visited { background: var(--accent); color: var(--on-accent); }
.${ClassName.buttonPrimary}:hover { background: var(--accent-strong); color: var(--on-accent); }
.${ClassName.button}:disabled { border-color: var(--border); color: var(--muted); background: var(--surface); cursor: not-allowed; }
.${ClassName.question} { border: 1px solid var(--hairline); padding: 1.5rem; box-shadow: 0 1px 2px rgb(16 24 40 / 0.06), 0 4px 12px rgb(16 24 40 / 0.06); }
.${ClassName.questionFieldset} { border: 0; padding: 0; min-width: 0; }
.${ClassName.questionLegend} { padding: 0; font-weight: 700; }
.${ClassName.questionPrompt} { font-size: 1.0625rem; }
.${ClassName.questionPrompt} > p:first-child { margin-top: 0.25rem; }
.${ClassName.questionHint} { }
@media (max-width: 30rem) { .${ClassName.question} { padding: 1rem; } .${ClassName.choice} label { padding-left: 3rem; } .${ClassName.choice} input { left: 0.875rem; } }
/* A graded part: its colour and mark, set once per result (the quiz sheet draws the mark). */
[data-${DataName.result}="correct"] { --result-colour: var(--correct); --result-mark: "\\2713"; }
[data-${DataName.result}="incorrect"] { --result-colour: var(--incorrect); --result-mark: "\\2717"; }
[data-${DataName.result}] { border-color: var(--result-colour); box-shadow: inset 4px 0 0 var(--result-colour); }
select { font: inherit; min-height: 2.75rem; padding: 0.25rem 0.5rem; border: 2px solid var(--border); border-radius: 0.375rem; color: var(--text); max-width: 100%; }
.${ClassName.verdict} { font-weight: 700; margin: 0.75rem 0 0; }
.${ClassName.verdict}:empty { display: none; }
.${ClassName.question}[data-${DataName.state}="correct"] .${ClassName.verdict} { color: var(--correct); }
.${ClassName.question}[data-${DataName.state}="incorrect"] .${ClassName.verdict}, .${ClassName.question}[data-${DataName.state}="partial"] .${ClassName.verdict} { color: var(--incorrect); }
[data-${DataName.pagedOut}] { display: none; }
.${ClassName.completion} { text-align: center; padding-top: 3rem; }
.${ClassName.completion} .${ClassName.completionStatus} { font-size: 1.25rem; max-width: 36rem; margin: 1rem auto 2rem; }
.${ClassName.completion}[data-${DataName.outcome}="passed"] h1::before { content: "\\2605" / ""; display: block; font-size: 3rem; color: var(--correct); }
.${ClassName.completion} .${ClassName.completionActions} { justify-content: center; }
.${ClassName.objectives} li { margin-bottom: 0.375rem; }
.${ClassName.outlineModule} { }
.${ClassName.progressMeter} { gap: 0.5rem; font-size: 0.875rem; }
.${ClassName.progressMeter} progress { width: 7rem; height: 0.625rem; accent-color: #ffffff; }
.${ClassName.pager} { justify-content: space-between; gap: 1rem; margin-top: 3rem; padding-top: 1.5rem; }
.${ClassName.pager} .${ClassName.next} { margin-left: auto; }
.${ClassName.pager} a:visited { color: var(--accent-strong); }
.${ClassName.pager} a.${ClassName.buttonPrimary}:visited, .${ClassName.skipLink}:visited { color: var(--on-accent); }
.${ClassName.blockUnavailable} { padding: 0.75rem 1rem; border: 2px dashed var(--incorrect); color: var(--incorrect); }
@media (min-width: 56rem) {
  .${ClassName.contentsDisclosure} > summary { display: none; }
}
@media (max-width: 55.99rem) {
  .${ClassName.layout} { grid-template-columns: minmax(0, 1fr); gap: 1.25rem; padding-top: 1rem; }
  .${ClassName.contentsDisclosure} { position: static; max-height: none; }
  .${ClassName.contents} { padding-top: 0.75rem; }
  h1 { font-size: 1.625rem; }
  .${ClassName.matchingRow} { grid-template-columns: minmax(0, 1fr); }
}
@media (prefers-reduced-motion: reduce) {
  html { scroll-behavior: auto; }
  *, *::before, *::after { transition: none !important; animation: none !important; }
}
`;
