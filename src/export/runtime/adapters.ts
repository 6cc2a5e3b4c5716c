/**
 * The LMS adapters a package's pages carry: the built SCORM, cmi5 or cartridge-launch bundle with its
 * configuration (the SCORM version, the adapters' words, what the package knows of each question),
 * which the page hands over as JSON. `adapterText` is read when the page writes that JSON, inside the
 * render's interface language, so the words are the course's.
 */
import { lmsBundles } from "../../render/player-bundles.ts";
import type { RenderableCourse, RenderOptions } from "../../render/types.ts";
import type { LessonLaunchConfig } from "../../page-contract/config.ts";
import type { Cmi5AdapterConfig, ScormAdapterConfig } from "../../page-contract/config.ts";
import { adapterText, reviewText } from "../../render/ui-text.ts";
import type { ReviewRoundInfo } from "../../page-contract/review.ts";
import { reviewLayerConfig } from "../../formats/review-package/review-package-write.ts";
import { questionFacts } from "./question-facts.ts";

export type LmsAdapter = NonNullable<RenderOptions["lmsAdapter"]>;

export function scormAdapter(version: ScormAdapterConfig["version"], course: RenderableCourse): LmsAdapter {
  const config: ScormAdapterConfig = { version, text: adapterText, questions: questionFacts(course) };
  return { script: lmsBundles.scorm, config };
}

export function cmi5Adapter(course: RenderableCourse): LmsAdapter {
  const config: Cmi5AdapterConfig = { progressStateId: "course-authoring-progress", text: adapterText, questions: questionFacts(course) };
  return { script: lmsBundles.cmi5, config };
}

/** A one-lesson page of a Common Cartridge opens on its lesson. */
export function lessonLaunchAdapter(lessonId: string): LmsAdapter {
  const config: LessonLaunchConfig = { lessonId };
  return { script: lmsBundles.lessonLaunch, config };
}

/** The review package's comment layer: its bundle, and the round, the blocks' anchors and its words (read while the page renders, in the course's language). */
export function reviewLayer(course: RenderableCourse, round: ReviewRoundInfo): LmsAdapter {
  return { script: lmsBundles.review, config: reviewLayerConfig(course, round, reviewText) };
}
