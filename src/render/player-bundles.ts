/**
 * The player's built bundles as text (see `src/build-player.ts`), embedded at build time so the
 * compiled binary carries them. A page ships exactly one course bundle, the smallest that has what its
 * blocks need, and at most one LMS adapter bundle.
 */
import cmi5Bundle from "../player/dist/cmi5.js.txt" with { type: "text" };
import courseBaseBundle from "../player/dist/course-base.js.txt" with { type: "text" };
import courseFullBundle from "../player/dist/course-full.js.txt" with { type: "text" };
import courseInteractionsBundle from "../player/dist/course-interactions.js.txt" with { type: "text" };
import courseQuizBundle from "../player/dist/course-quiz.js.txt" with { type: "text" };
import lessonLaunchBundle from "../player/dist/lesson-launch.js.txt" with { type: "text" };
import questionTypesBundle from "../player/dist/question-types.js.txt" with { type: "text" };
import questionTypeStyles from "../player/dist/styles-question-types.css.txt" with { type: "text" };
import scormBundle from "../player/dist/scorm.js.txt" with { type: "text" };
import reviewBundle from "../player/dist/review.js.txt" with { type: "text" };
import coursePreviewViewBundle from "../player/dist/view-course-preview.js.txt" with { type: "text" };
import exportViewBundle from "../player/dist/view-export.js.txt" with { type: "text" };
import filesViewBundle from "../player/dist/view-files.js.txt" with { type: "text" };
import resultsViewBundle from "../player/dist/view-results.js.txt" with { type: "text" };
import courseStyles from "../player/dist/styles-course.css.txt" with { type: "text" };
import interactionStyles from "../player/dist/styles-interactions.css.txt" with { type: "text" };
import printStyles from "../player/dist/styles-print.css.txt" with { type: "text" };
import quizStyles from "../player/dist/styles-quiz.css.txt" with { type: "text" };

/** Which optional parts of the player a page needs: its questions' grading and its teaching blocks' behaviour. */
export interface ClientFeatures {
  readonly quizzes: boolean;
  readonly interactions: boolean;
  /** A scenario's endings are sealed (issue 21): the interactions need the seal key to open the one reached. */
  readonly scenarios: boolean;
  /** A round-5 question type (issue 42): its own bundle and styles, beside the course bundle. */
  readonly questionTypes: boolean;
}

export type FeatureSet = "course-base" | "course-quiz" | "course-interactions" | "course-full";

export function featureSetOf(features: Pick<ClientFeatures, "quizzes" | "interactions">): FeatureSet {
  if (features.quizzes) return features.interactions ? "course-full" : "course-quiz";
  return features.interactions ? "course-interactions" : "course-base";
}

export const courseBundles: Readonly<Record<FeatureSet, string>> = {
  "course-base": courseBaseBundle,
  "course-quiz": courseQuizBundle,
  "course-interactions": courseInteractionsBundle,
  "course-full": courseFullBundle,
};

/** The round-5 question types' behaviour (issue 42), carried only by pages whose course asks one. */
export { questionTypesBundle };

/** The bundles run after the player: an LMS adapter, or the review package's comment layer. */
export const lmsBundles = { scorm: scormBundle, cmi5: cmi5Bundle, lessonLaunch: lessonLaunchBundle, review: reviewBundle } as const;

/** The MCP Apps views' bundles (`src/player/views`), built like the player. */
export const viewBundles = { coursePreview: coursePreviewViewBundle, export: exportViewBundle, files: filesViewBundle, results: resultsViewBundle } as const;

/** The page's style sheets as built (minified): the course's, the print sheet, and the teaching blocks'. */
export const builtStyles = { course: courseStyles, print: printStyles, interactions: interactionStyles, quiz: quizStyles, questionTypes: questionTypeStyles } as const;
