/**
 * The print stylesheet: the preview and the HTML export print as a handout. Every page is shown in
 * order; tabs, accordions and flashcards are laid open (each tab panel under its tab's title, both
 * faces of a card); answers stay hidden (no feedback, explanations, verdicts, marks or results), as do
 * the controls that only work on screen. External links print their address.
 */
export const printStyles = `
@media print {
  .site-header, .contents-disclosure, .pager, .question-pager, .skip-link, .question-actions, .quiz-actions, .start-link, .tab-list, .flashcard button, [data-lms-notice] { display: none !important; }
  body { background: #ffffff; color: #000000; font-size: 11pt; }
  /* A quiz shown one question at a time prints every question. */
  [data-paged-out] { display: revert !important; }
  .layout { display: block; padding: 0; max-width: none; }
  main { max-width: none; }
  .page[hidden], .tab-panel[hidden], .flashcard-face[hidden] { display: block !important; }
  .page + .page, .page.lesson { break-before: page; }
  .tab-panel::before { content: attr(data-print-title); display: block; font-weight: 700; margin-bottom: 0.25rem; }
  .tab-panel { border-top: 1px solid #999999; }
  details::details-content { content-visibility: visible; display: block; }
  .flashcard { break-inside: avoid; min-height: 0; }
  .flashcard-back { border-top: 1px dashed #999999; padding-top: 0.5rem; }
  .answer-feedback, .explanation, .question-feedback, .verdict, .quiz-result, [data-answer-feedback] { display: none !important; }
  [data-result] { border-color: #999999 !important; box-shadow: none !important; }
  [data-result] label::after, [data-result] .ordering-text::after { content: none !important; }
  .question, .callout, figure, pre { break-inside: avoid; }
  .lesson-banner img { max-height: 6cm; }
  main a[href^="http"]::after { content: " (" attr(href) ")"; font-size: 0.875em; word-break: break-all; }
  main a[href^="http"] .visually-hidden { display: none; }
}
`;
