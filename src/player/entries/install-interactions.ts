/** The teaching blocks' behaviour; a scenario's sealed endings open with the page's seal key. */
import { installInteractions } from "../course/interactions/install.ts";
import { newAnswerChecker, type StartedCourse } from "../course/start.ts";

export function installInteractionSupport({ config, recorder }: StartedCourse): void {
  const seals = config.sealKey === null ? null : { checker: newAnswerChecker(), sealKey: config.sealKey };
  installInteractions(recorder, config.interactionText, seals);
}
