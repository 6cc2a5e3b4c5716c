/**
 * What stands behind each WCAG 2.2 Level A and AA criterion for a course: the validate_course rules
 * whose findings fail it, whether axe's rules for it count, when it does not apply (and why), what a
 * person must judge (and when), and the product's own tests that prove the player's behaviour for
 * every course (keyboard, screen reader, reflow). A criterion not listed here waits for a person.
 */
import type { RuleId } from "../validation/rules.ts";

export interface CourseFacts {
  readonly images: number;
  readonly videos: number;
  readonly audios: number;
  readonly questions: number;
  readonly links: number;
  readonly animatedImages: number;
  /** Scenarios, labeled graphics, tabs, process, timeline, sorting: blocks whose order or layout carries meaning. */
  readonly sequenced: number;
  readonly dragging: number;
}

export interface CriterionSpec {
  readonly rules?: readonly RuleId[];
  /** axe's violations for this criterion fail it (its passes are evidence). */
  readonly axe?: boolean;
  readonly notApplicable?: (facts: CourseFacts) => string | null;
  /** What a person must check, when this course needs one for it. */
  readonly person?: (facts: CourseFacts) => string | null;
  /** The player's tests that hold for every course, as evidence. */
  readonly product?: readonly string[];
  /** Which blocks a manual answer covers (by type); all blocks when absent. */
  readonly covers?: readonly string[];
}

const keyboardTests = ["test/keyboard-ordering-matching.test.ts: every interaction by keyboard alone", "test/export-player-teaching.test.ts: teaching blocks by keyboard in the packaged player"];
const axeChromium = ["test/render-course.test.ts and test/player-finish-axe.test.ts: axe in Chromium on every block type, WCAG 2.2 AA clean"];
const noMedia = (facts: CourseFacts) => (facts.videos + facts.audios === 0 ? "The course has no audio or video." : null);
const noVideo = (facts: CourseFacts) => (facts.videos === 0 ? "The course has no video." : null);
const noQuestions = (facts: CourseFacts) => (facts.questions === 0 ? "The course asks no questions, so learners enter nothing." : null);
const media = ["video", "audio"];
const pictures = ["image", "labeled_graphic"];

export const criterionSpecs: Readonly<Record<string, CriterionSpec>> = {
  "1.1.1": {
    rules: ["image.missing_alt", "image.unhelpful_alt", "labeled_graphic.marker_without_text"],
    axe: true,
    covers: pictures,
    person: (facts) => (facts.images > 0 ? `that each of the ${facts.images} picture(s)' alt text says what the picture means in its lesson` : null),
  },
  "1.2.1": {
    rules: ["media.missing_captions"],
    notApplicable: noMedia,
    covers: media,
    person: (facts) => (facts.videos > 0 ? "whether any video has no sound track (a video-only recording needs a transcript or an audio description)" : null),
  },
  "1.2.2": { rules: ["media.missing_captions", "media.captions_language"], axe: true, notApplicable: noVideo, covers: ["video"] },
  "1.2.3": { rules: ["media.missing_captions"], notApplicable: noVideo, covers: ["video"], person: () => "that what each video shows but does not say is described (audio description or a full text alternative)" },
  "1.3.1": { rules: ["heading.skipped_level"], axe: true, product: axeChromium },
  "1.3.2": { product: ["the renderer writes blocks in the authored order (test/render-course.test.ts)"], covers: ["scenario", "labeled_graphic", "tabs", "process", "timeline"], person: (facts) => (facts.sequenced > 0 ? `that the ${facts.sequenced} scenario, tab, process, timeline or labeled graphic block(s) read in a sensible order` : null) },
  "1.3.3": { rules: ["text.colour_only_cue"], person: () => "that no instruction relies on shape, size, position or sound alone" },
  "1.4.1": { rules: ["text.colour_only_cue"], axe: true, product: ["the player marks right and wrong answers with words and icons, not colour alone (test/export-player-assessment.test.ts)"], covers: pictures, person: (facts) => (facts.images > 0 ? "that no picture (chart, diagram) carries meaning by colour alone" : null) },
  "1.4.2": { notApplicable: noMedia, axe: true, product: ["media play only when the learner starts them (no autoplay in the renderer)"] },
  "2.1.1": { axe: true, product: keyboardTests },
  "2.1.2": { product: keyboardTests },
  "2.1.4": { notApplicable: () => "The player defines no single-character keyboard shortcuts." },
  "2.2.1": { notApplicable: () => "The course sets no time limits." },
  "2.2.2": { axe: true, product: ["nothing moves, blinks or updates by itself in the player; video and audio have their controls"], covers: ["image", "video"], person: (facts) => (facts.animatedImages > 0 ? `that the ${facts.animatedImages} animated picture(s) stop within 5 seconds` : null) },
  "2.3.1": { covers: ["image", "video"], notApplicable: (facts) => (facts.videos + facts.animatedImages === 0 ? "The course has no video or animation." : null), person: () => "that no video or animation flashes more than three times a second" },
  "2.4.1": { axe: true, product: ["every page has a skip link and landmarks", ...axeChromium] },
  "2.4.2": { axe: true, product: ["each lesson page is titled with the course and lesson titles"] },
  "2.4.3": { axe: true, product: keyboardTests },
  "2.4.4": { axe: true, product: ["links are the author's own text (no bare URLs are linked)"] },
  "2.5.1": { product: ["ordering, matching and sorting work with single taps and the keyboard (test/keyboard-ordering-matching.test.ts)"] },
  "2.5.2": { product: ["every control is a native button or link, activated on release"] },
  "2.5.3": { axe: true, product: axeChromium },
  "2.5.4": { notApplicable: () => "Nothing in the course is operated by moving the device." },
  "3.1.1": { rules: ["course.missing_language"], axe: true },
  "3.2.1": { product: ["focus never changes the page or submits anything"] },
  "3.2.2": { product: ["answering changes nothing until the learner submits (test/export-player-assessment.test.ts)"] },
  "3.2.6": { notApplicable: () => "The course pages offer no help mechanism." },
  "3.3.1": { notApplicable: noQuestions, product: ["unanswered questions are named in text before submitting (test/export-player-assessment.test.ts)"] },
  "3.3.2": { notApplicable: noQuestions, axe: true, product: ["every answer field has a label"] },
  "3.3.7": { notApplicable: () => "The course never asks the learner for the same information twice." },
  "4.1.1": { product: ["WCAG 2.2 treats 4.1.1 as always satisfied for HTML; the renderer escapes all author text"] },
  "4.1.2": { axe: true, product: axeChromium },
  "1.2.4": { notApplicable: () => "The course has no live audio or video." },
  "1.2.5": { notApplicable: noVideo, covers: ["video"], person: () => "that each video's visual information is in its audio or an audio description" },
  "1.3.4": { axe: true, product: ["the player works in portrait and landscape (no orientation lock)"] },
  "1.3.5": { notApplicable: () => "The course asks for no information about the learner." },
  "1.4.3": { rules: ["theme.low_contrast"], product: ["theme colours are checked against WCAG 2.2 AA on every change", ...axeChromium] },
  "1.4.4": { product: ["text sizes are relative (rem); pages work at 200% zoom and 390 px wide"] },
  "1.4.5": { rules: ["image.text_picture"], covers: pictures, person: (facts) => (facts.images > 0 ? "that no picture shows text that could be written as text (logos excepted)" : null) },
  "1.4.10": { product: ["every page reflows at 390 px wide (player tests at a phone's width)"] },
  "1.4.11": { rules: ["theme.low_contrast"], product: ["focus rings and controls use the theme's accent, checked at 3:1"], covers: pictures, person: (facts) => (facts.images > 0 ? "that charts and diagrams in pictures have 3:1 contrast for the parts that carry meaning" : null) },
  "1.4.12": { product: ["no text box has a fixed height; the stylesheet allows spacing overrides"] },
  "1.4.13": { notApplicable: () => "The player shows no content on hover or focus." },
  "2.4.5": { product: ["the contents list and next/previous links reach every lesson"] },
  "2.4.6": { rules: ["heading.skipped_level"], person: () => "that headings and lesson titles describe their content" },
  "2.4.7": { rules: ["theme.low_contrast"], product: ["every control shows a focus ring in the theme's accent colour (checked at 3:1)"] },
  "2.4.11": { person: () => "with the keyboard, that no focused control is hidden under the page header" },
  "2.5.7": { notApplicable: (facts) => (facts.dragging === 0 ? "Nothing in the course is dragged." : null), product: ["ordering, matching and sorting work without dragging (test/keyboard-ordering-matching.test.ts)"] },
  "2.5.8": { person: () => "that every control is at least 24 by 24 CSS pixels (axe cannot measure without layout)" },
  "3.1.2": { rules: ["text.unmarked_language"], axe: true, product: ["untranslated blocks of a translation are marked with their language"] },
  "3.2.3": { product: ["one player lays out every page the same way"] },
  "3.2.4": { product: ["one player names every control the same way on every page"] },
  "3.3.3": { notApplicable: noQuestions, product: ["feedback and explanations say how to answer correctly"] },
  "3.3.4": { notApplicable: () => "The course makes no legal or financial commitment and changes no stored data of the learner's." },
  "3.3.8": { notApplicable: () => "The course asks for no sign-in." },
  "4.1.3": { axe: true, product: ["quiz results and feedback are announced through live regions"] },
};

/** axe's best-practice rules that speak to a criterion (they carry no WCAG tag). */
export const axeBestPracticeCriteria: Readonly<Record<string, readonly string[]>> = {
  "heading-order": ["1.3.1"],
  "page-has-heading-one": ["1.3.1"],
  "empty-heading": ["1.3.1", "2.4.6"],
  region: ["2.4.1"],
  "landmark-one-main": ["2.4.1"],
  "skip-link": ["2.4.1"],
};

/** The Section 508 and EN 301 549 functional performance criteria, rated from the WCAG criteria that serve them. */
export const functionalCriteria: Readonly<Record<string, readonly string[] | string>> = {
  "302.1": ["1.1.1", "1.3.1", "1.3.2", "2.1.1", "2.4.2", "4.1.2"],
  "302.2": ["1.4.3", "1.4.4", "1.4.10", "1.4.11", "1.4.12"],
  "302.3": ["1.4.1"],
  "302.4": ["1.2.1", "1.2.2"],
  "302.5": ["1.2.2", "1.4.2"],
  "302.6": "The course asks for no speech.",
  "302.7": ["2.1.1", "2.5.7", "2.5.8"],
  "302.8": ["2.1.1", "2.5.1"],
  "302.9": ["2.4.6", "3.1.1", "3.3.2"],
  "4.2.1": ["1.1.1", "1.3.1", "1.3.2", "2.1.1", "2.4.2", "4.1.2"],
  "4.2.2": ["1.4.3", "1.4.4", "1.4.10", "1.4.11", "1.4.12"],
  "4.2.3": ["1.4.1"],
  "4.2.4": ["1.2.1", "1.2.2"],
  "4.2.5": ["1.2.2", "1.4.2"],
  "4.2.6": "The course asks for no speech.",
  "4.2.7": ["2.1.1", "2.5.7", "2.5.8"],
  "4.2.8": ["2.1.1", "2.5.1"],
  "4.2.9": ["2.3.1"],
  "4.2.10": ["2.4.6", "3.1.1", "3.3.2"],
  "4.2.11": "The course collects no personal data of its own; the learning platform that hosts it does.",
};
