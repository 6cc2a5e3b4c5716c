/**
 * The print stylesheet: the preview and the HTML export print as a handout. Every page is shown in
 * order; tabs, accordions and flashcards are laid open (each tab panel under its tab's title, both
 * faces of a card); answers stay hidden (no feedback, explanations, verdicts, marks or results), as do
 * the controls that only work on screen. External links print their address.
 */
import { ClassName, DataName } from "../page-contract/markup-names.ts";
export const printStyles = `
@media print {
  .${ClassName.siteHeader}, .${ClassName.contentsDisclosure}, .${ClassName.pager}, .${ClassName.questionPager}, .${ClassName.skipLink}, .${ClassName.questionActions}, .${ClassName.quizActions}, .${ClassName.startLink}, .${ClassName.tabList}, .${ClassName.flashcard} button, [data-lms-notice], .${ClassName.answerFeedback}, .${ClassName.explanation}, .${ClassName.questionFeedback}, .${ClassName.verdict}, .${ClassName.quizResult}, [data-${DataName.answerFeedback}] { display: none !important; }
  body { background: #ffffff; color: #000000; font-size: 11pt; }
  /* A quiz shown one question at a time prints every question. */
  [data-${DataName.pagedOut}] { display: revert !important; }
  .${ClassName.layout} { display: block; padding: 0; max-width: none; }
  main { max-width: none; }
  .${ClassName.page}[hidden], .${ClassName.tabPanel}[hidden], .${ClassName.flashcardFace}[hidden] { display: block !important; }
  .${ClassName.page} + .${ClassName.page}, .${ClassName.page}.${ClassName.lesson} { break-before: page; }
  .${ClassName.tabPanel}::before { content: attr(data-${DataName.printTitle}); display: block; font-weight: 700; margin-bottom: 0.25rem; }
  .${ClassName.tabPanel} { border-top: 1px solid #999999; }
  details::details-content { content-visibility: visible; display: block; }
  .${ClassName.flashcard} { break-inside: avoid; min-height: 0; }
  .${ClassName.flashcardBack} { border-top: 1px dashed #999999; padding-top: 0.5rem; }
  [data-${DataName.result}] { border-color: #999999 !important; box-shadow: none !important; }
  [data-${DataName.result}] label::after, [data-${DataName.result}] .${ClassName.orderingText}::after { content: none !important; }
  .${ClassName.question}, .${ClassName.callout}, figure, pre { break-inside: avoid; }
  .${ClassName.lessonBanner} img { max-height: 6cm; }
  main a[href^="http"]::after { content: " (" attr(href) ")"; font-size: 0.875em; word-break: break-all; }
  main a[href^="http"] .${ClassName.visuallyHidden} { display: none; }
}
`;
