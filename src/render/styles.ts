/**
 * The page's one stylesheet, inlined under the CSP nonce. Colours meet WCAG AA (4.5:1 for text, 3:1 for
 * focus rings and control borders); the layout is a sidebar and a readable column on wide screens and a
 * single column below 56rem; motion stops when the learner prefers reduced motion; print is in `print-styles.ts`.
 */
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
.site-header :focus-visible { outline-color: #ffffff; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
.skip-link { position: absolute; left: 0.75rem; top: -4rem; z-index: 10; padding: 0.5rem 1rem; background: var(--accent-strong); color: var(--on-accent); border-radius: var(--radius); }
.skip-link:focus { top: 0.75rem; }
.skip-link:visited { color: var(--on-accent); }
.site-header { background: #0f172a; color: #f8fafc; }
.header-inner { max-width: 80rem; margin: 0 auto; padding: 0.875rem 1.25rem; display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; }
.course-name { margin: 0; font-weight: 700; font-size: 1.125rem; flex: 1 1 auto; }
.preview-badge { margin: 0; padding: 0.125rem 0.625rem; border: 1px solid #f8fafc; border-radius: 999px; font-size: 0.875rem; }
.progress { margin: 0; font-size: 0.9375rem; }
.layout { max-width: 80rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; display: grid; grid-template-columns: minmax(15rem, 19rem) minmax(0, 1fr); gap: 2.5rem; align-items: start; }
.contents-disclosure { position: sticky; top: 1rem; max-height: calc(100vh - 2rem); overflow-y: auto; }
.contents-disclosure > summary { cursor: pointer; font-weight: 700; padding: 0.625rem 0.875rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); }
.contents ol { list-style: none; margin: 0; padding: 0; }
.contents > ol > li { margin-bottom: 1rem; }
.contents .module-title { display: block; font-weight: 700; font-size: 0.9375rem; color: var(--muted); margin: 0 0 0.25rem; }
.contents a { display: block; padding: 0.375rem 0.625rem; border-radius: 0.375rem; text-decoration: none; color: var(--text); border-left: 3px solid transparent; }
.contents a:hover { background: var(--surface); text-decoration: underline; }
.contents a[aria-current="page"] { background: #e0e7ff; border-left-color: var(--accent); font-weight: 600; color: var(--accent-strong); }
/* A lesson's state in the contents and in their key: its icon and colour, set once per state. */
[data-state="visited"] { --state-icon: "\\25D1"; --state-colour: var(--muted); }
[data-state="completed"] { --state-icon: "\\2713"; --state-colour: var(--correct); }
[data-state="passed"] { --state-icon: "\\2605"; --state-colour: var(--correct); }
[data-state="failed"] { --state-icon: "\\2717"; --state-colour: var(--incorrect); }
.contents a[data-state]::after, .contents-key [data-state]::before { content: var(--state-icon) / ""; color: var(--state-colour); font-weight: 700; }
.contents a[data-state]::after { margin-left: 0.375rem; }
.contents-key [data-state]::before { margin-right: 0.25rem; }
.contents-key { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 0.875rem; margin: 0.75rem 0 0; padding: 0.5rem 0 0; border-top: 1px solid var(--hairline); font-size: 0.875rem; color: var(--muted); }
.kind-badge { display: inline-block; margin-left: 0.375rem; padding: 0 0.375rem; font-size: 0.8125rem; border: 1px solid var(--border); border-radius: 0.25rem; color: var(--muted); }
main { min-width: 0; max-width: 48rem; }
main:focus { outline: none; }
h1, h2, h3, h4, h5, h6 { line-height: 1.25; margin: 1.75rem 0 0.75rem; }
h1 { font-size: 2rem; margin-top: 0.25rem; }
h2 { font-size: 1.5rem; } h3 { font-size: 1.25rem; } h4 { font-size: 1.125rem; }
h1:focus { outline: none; }
h1:focus-visible { outline: 3px solid var(--focus); }
.eyebrow { margin: 0; color: var(--muted); font-weight: 600; font-size: 0.9375rem; }
.lesson-meta { color: var(--muted); margin: 0 0 1.5rem; }
.lesson-banner { margin: 0 0 1.25rem; }
.lesson-banner img { display: block; width: 100%; height: auto; max-height: 18rem; object-fit: cover; border-radius: var(--radius); }
@media (max-width: 40rem) { .lesson-banner img { max-height: 12rem; } }
.course-meta { margin: 0 0 1.5rem; display: grid; gap: 0.25rem; }
.course-meta > div { display: flex; flex-wrap: wrap; gap: 0 0.5rem; }
.course-meta dt { font-weight: 700; }
.course-meta dt::after { content: ":"; }
.course-meta dd { margin: 0; }
.block { margin: 1.5rem 0; }
pre { background: #0f172a; color: #f1f5f9; padding: 1rem; border-radius: var(--radius); overflow-x: auto; font-size: 0.9375rem; line-height: 1.5; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
:not(pre) > code { background: var(--surface); border: 1px solid var(--hairline); border-radius: 0.25rem; padding: 0 0.25rem; font-size: 0.9375em; }
pre:focus-visible { outline-offset: 3px; }
.code-block figcaption { display: flex; gap: 0.75rem; align-items: baseline; margin-bottom: 0.375rem; color: var(--muted); font-size: 0.9375rem; }
.code-language { font-weight: 700; text-transform: lowercase; }
figure { margin: 1.5rem 0; }
figcaption { color: var(--muted); font-size: 0.9375rem; margin-top: 0.5rem; }
table { border-collapse: collapse; max-width: 100%; }
th, td { border: 1px solid var(--hairline); padding: 0.375rem 0.625rem; text-align: left; }
hr.divider { border: 0; border-top: 2px solid var(--hairline); margin: 2.5rem 0; }
.quote blockquote { margin: 0; padding: 0.25rem 1.25rem; border-left: 4px solid var(--accent); font-size: 1.125rem; font-style: italic; }
/* A callout variant sets its tint, border and title colours; the theme's rules may override the tint. */
.callout { border: 1px solid var(--callout-border, var(--border)); border-left-width: 6px; border-radius: var(--radius); padding: 0.875rem 1.125rem; background: var(--callout-tint, var(--surface)); }
.callout-title { margin: 0 0 0.25rem; font-weight: 700; color: var(--callout-title); }
.callout-body > :last-child { margin-bottom: 0; }
.callout-info { --callout-tint: #eff6ff; --callout-border: #1d4ed8; --callout-title: #1e3a8a; }
.callout-tip, .callout-success { --callout-tint: #ecfdf5; --callout-border: #047857; --callout-title: #065f46; }
.callout-note { --callout-tint: #f5f3ff; --callout-border: #6d28d9; --callout-title: #5b21b6; }
.callout-warning { --callout-tint: #fffbeb; --callout-border: #b45309; --callout-title: #92400e; }
.callout-danger { --callout-tint: #fef2f2; --callout-border: #b91c1c; --callout-title: #991b1b; }
details > summary { cursor: pointer; }
.accordion-item { border: 1px solid var(--border); border-radius: var(--radius); margin-bottom: 0.5rem; }
.accordion-item > summary { padding: 0.75rem 1rem; font-weight: 600; }
.accordion-body { padding: 0 1rem 0.75rem; }
.transcript { margin-top: 0.75rem; border: 1px solid var(--hairline); border-radius: var(--radius); padding: 0.5rem 0.875rem; }
.transcript > summary { font-weight: 600; }
.tab-list { display: flex; flex-wrap: wrap; gap: 0.25rem; border-bottom: 2px solid var(--border); }
.tab { font: inherit; padding: 0.5rem 1rem; border: 1px solid transparent; border-bottom: 0; border-radius: var(--radius) var(--radius) 0 0; background: transparent; color: var(--text); cursor: pointer; margin-bottom: -2px; min-height: 2.75rem; }
.tab[aria-selected="true"] { border-color: var(--border); border-bottom: 3px solid var(--background); background: var(--background); font-weight: 700; color: var(--accent-strong); }
.tab-panel { padding: 0.75rem 0.25rem; }
.flashcards { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 1rem; }
.flashcard { border: 1px solid var(--border); border-radius: var(--radius); padding: 1rem; display: flex; flex-direction: column; gap: 0.75rem; min-height: 11rem; background: var(--surface); transition: background-color 0.2s ease; }
.flashcard.is-flipped { background: #eef2ff; }
.flashcard-label { margin: 0; font-size: 0.875rem; color: var(--muted); }
.flashcard-faces { flex: 1; }
.flashcard-front p { font-weight: 700; font-size: 1.125rem; margin: 0; }
.flashcard-back > :first-child { margin-top: 0; }
.button { font: inherit; display: inline-flex; align-items: center; justify-content: center; gap: 0.375rem; min-height: 2.75rem; padding: 0.5rem 1.125rem; border: 2px solid var(--accent); border-radius: var(--radius); background: var(--background); color: var(--accent-strong); font-weight: 600; cursor: pointer; text-decoration: none; }
.button:hover { background: #e0e7ff; }
.button-primary, a.button-primary:visited { background: var(--accent); color: var(--on-accent); }
.button-primary:hover { background: var(--accent-strong); color: var(--on-accent); }
.button:disabled { border-color: var(--border); color: var(--muted); background: var(--surface); cursor: not-allowed; }
.question { border: 1px solid var(--hairline); border-radius: var(--radius); padding: 1.5rem; background: var(--background); box-shadow: 0 1px 2px rgb(16 24 40 / 0.06), 0 4px 12px rgb(16 24 40 / 0.06); }
.question-fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
.question-legend { padding: 0; font-weight: 700; color: var(--muted); font-size: 0.9375rem; }
.question-prompt { font-size: 1.0625rem; }
.question-prompt > p:first-child { margin-top: 0.25rem; }
.question-hint { color: var(--muted); font-size: 0.9375rem; }
@media (max-width: 30rem) { .question { padding: 1rem; } .choice label { padding-left: 3rem; } .choice input { left: 0.875rem; } }
/* A graded part: its colour and mark, set once per result (the quiz sheet draws the mark). */
[data-result="correct"] { --result-colour: var(--correct); --result-mark: "\\2713"; }
[data-result="incorrect"] { --result-colour: var(--incorrect); --result-mark: "\\2717"; }
[data-result] { border-color: var(--result-colour); box-shadow: inset 4px 0 0 var(--result-colour); }
select { font: inherit; min-height: 2.75rem; padding: 0.25rem 0.5rem; border: 2px solid var(--border); border-radius: 0.375rem; background: var(--background); color: var(--text); max-width: 100%; }
.verdict { font-weight: 700; margin: 0.75rem 0 0; }
.verdict:empty { display: none; }
.question[data-state="correct"] .verdict { color: var(--correct); }
.question[data-state="incorrect"] .verdict, .question[data-state="partial"] .verdict { color: var(--incorrect); }
[data-paged-out] { display: none; }
.completion { text-align: center; padding-top: 3rem; }
.completion .completion-status { font-size: 1.25rem; max-width: 36rem; margin: 1rem auto 2rem; }
.completion[data-outcome="passed"] h1::before { content: "\\2605" / ""; display: block; font-size: 3rem; color: var(--correct); }
.completion .completion-actions { justify-content: center; gap: 0.75rem; }
.objectives li { margin-bottom: 0.375rem; }
.outline-module { border-top: 1px solid var(--hairline); }
.start-link { margin: 1.5rem 0; }
.progress-meter { display: flex; align-items: center; gap: 0.5rem; font-size: 0.875rem; }
.progress-meter progress { width: 7rem; height: 0.625rem; accent-color: #ffffff; }
.pager { display: flex; justify-content: space-between; gap: 1rem; flex-wrap: wrap; margin-top: 3rem; padding-top: 1.5rem; border-top: 1px solid var(--hairline); }
.pager .next { margin-left: auto; }
.pager a:visited { color: var(--accent-strong); }
.pager a.button-primary:visited { color: var(--on-accent); }
.block-unavailable { padding: 0.75rem 1rem; border: 2px dashed var(--incorrect); color: var(--incorrect); border-radius: var(--radius); }
@media (min-width: 56rem) {
  .contents-disclosure > summary { display: none; }
}
@media (max-width: 55.99rem) {
  .layout { grid-template-columns: minmax(0, 1fr); gap: 1.25rem; padding-top: 1rem; }
  .contents-disclosure { position: static; max-height: none; }
  .contents { padding-top: 0.75rem; }
  h1 { font-size: 1.625rem; }
  .matching-row { grid-template-columns: minmax(0, 1fr); }
}
@media (prefers-reduced-motion: reduce) {
  html { scroll-behavior: auto; }
  *, *::before, *::after { transition: none !important; animation: none !important; }
}
`;
