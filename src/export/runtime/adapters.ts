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

/** The cmi5 AU's adapter; question and lesson ids go under the course's IRI, so cmi5 and xAPI packages and every version join. */
export function cmi5Adapter(course: RenderableCourse & { readonly version?: number }, courseIri: string): LmsAdapter {
  const config: Cmi5AdapterConfig = {
    progressStateId: "course-authoring-progress",
    text: adapterText,
    questions: questionFacts(course),
    courseIri,
    ...(course.version === undefined ? {} : { courseVersion: course.version }),
  };
  return { script: lmsBundles.cmi5, config };
}

/** The xAPI (Tin Can) package's adapter: the cmi5 bundle launched by the Tin Can convention, with the package's own mastery score. */
export function tinCanAdapter(course: RenderableCourse & { readonly version?: number }, courseIri: string, masteryScore: number | null): LmsAdapter {
  const base = cmi5Adapter(course, courseIri).config as Cmi5AdapterConfig;
  const config: Cmi5AdapterConfig = { ...base, launch: "tincan", masteryScore };
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
