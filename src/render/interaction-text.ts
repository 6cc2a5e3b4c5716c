/**
 * The fixed strings of the teaching blocks (scenario, sorting, labeled graphic, process, timeline,
 * attachment, continue), kept beside `ui-text.ts` so a translation replaces both sets together.
 */
export const interactionText = {
  markerLabel: (number: number, title: string) => `Marker ${number}: ${title}`,
  markersGroup: "Markers on the image",
  markersList: "What the markers show",
  stepOf: (number: number, count: number) => `Step ${number} of ${count}`,
  processLabel: (count: number) => `Process in ${count} steps`,
  previousStep: "Previous step",
  nextStep: "Next step",
  timelineLabel: "Timeline",
  download: "(download)",
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
export const interactionRuntimeText = {
  playAgain: "Play again",
  youChose: "You chose “{choice}”.",
  scenarioEnded: "Scenario ended: {outcome}.",
  stepStatus: "Step {number} of {count}",
  visited: "(visited)",
  movedTo: "Moved “{item}” to {category}.",
  outcomes: { success: "Success", failure: "Unsuccessful ending", neutral: "The end" } as Record<string, string>,
};
export type InteractionRuntimeText = typeof interactionRuntimeText;
