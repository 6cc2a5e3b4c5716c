/**
 * Instructions the renderer adds under a question prompt ("Select all that apply."), left out when the
 * author's prompt already gives them, so a learner does not read the same instruction twice.
 */
const asksForAllThatApply = /\b(?:select|choose|check|tick|mark|pick)\s+(?:all|every|each)\b|\ball\s+(?:that|which)\s+apply\b|\bmore\s+than\s+one\s+(?:answer|option|choice)\b/i;

/** True when a multiple-choice prompt already tells the learner that several answers may be right. */
export function promptAsksForAllThatApply(prompt: string): boolean {
  return asksForAllThatApply.test(prompt);
}
