/**
 * The teaching blocks' fixed strings in English (scenario, sorting, labeled graphic, process, timeline,
 * attachment, continue): the base of their language packs (`ui-text-translations.ts`); `ui-text.ts`
 * serves them in the course's language.
 */
import type { InteractionRuntimeText } from "../page-contract/text.ts";

export const englishInteractionText = {
  markerLabel: (number: number, title: string) => `${number}: ${title}`,
  markersGroup: "Markers on the image",
  markersList: "What the markers show",
  stepOf: (number: number, count: number) => `Step ${number} of ${count}`,
  processLabel: (count: number) => `Process in ${count} steps`,
  previousStep: "Previous step",
  nextStep: "Next step",
  timelineLabel: "Timeline",
  download: "(download)",
  /** The continue button's label when the block stores none (or stores the English default on another language's course). */
  continueLabel: "Continue",
  continueHint: "Answer or complete everything above to continue.",
  scenarioLabel: "Scenario",
  scenarioPoints: (points: number) => `Scored: ${points} ${points === 1 ? "point" : "points"} when it ends in success`,
  sceneLabel: (number: number) => `Scene ${number}`,
  /** An ending as the markup shows it: its outcome stays sealed until the script opens the one reached. */
  endingLabel: "End of the scenario",
  yourChoices: "Your choices",
  sortingHint: "Put each item in its category: drag it onto a category, or pick the category from its list.",
  chooseCategory: "Choose a category",
  unsorted: "Not sorted yet",
  categoryOf: (item: string) => `Category for “${item}”`,
} as const;

/** Sentences the in-page script builds at run time; passed to it as data. */
export const englishInteractionRuntimeText = {
  playAgain: "Play again",
  youChose: "You chose “{choice}”.",
  scenarioEnded: "Scenario ended: {outcome}.",
  stepStatus: "Step {number} of {count}",
  visited: "(visited)",
  movedTo: "Moved “{item}” to {category}.",
  outcomes: { success: "Success", failure: "Unsuccessful ending", neutral: "The end" } as Record<string, string>,
} satisfies InteractionRuntimeText;
export type { InteractionRuntimeText };
/** The strings' shape: each string key holds any text. */
export type InteractionText = { [K in keyof typeof englishInteractionText]: (typeof englishInteractionText)[K] extends string ? string : (typeof englishInteractionText)[K] };
