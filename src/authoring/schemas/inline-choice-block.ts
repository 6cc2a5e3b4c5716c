/**
 * The inline_choice question (Cloze, QTI inline choice): a text with gaps `{{1}}`, `{{2}}`…, each gap a
 * drop-down of choices with exactly one right. A gap with one choice asks nothing and a gap with no right
 * choice cannot be answered: both are refused on the gap's path.
 */
import * as v from "valibot";
import { markdownField, requiredTextField } from "./fields.ts";
import { issueAt } from "./issue-path.ts";
import { blankPlaceholders, questionEntries } from "./question-blocks.ts";

/** At most this many gaps in one text. */
export const maxInlineGaps = 50;

const inlineChoiceFields = v.object({
  type: v.literal("inline_choice"),
  ...questionEntries,
  text: v.pipe(markdownField(), v.description("The text with placeholders {{1}}, {{2}}… where each drop-down stands.")),
  gaps: v.pipe(
    v.array(
      v.object({
        choices: v.pipe(
          v.array(v.object({ text: requiredTextField(200), correct: v.optional(v.boolean(), false) })),
          v.minLength(2, "must have at least 2 choices (a drop-down with one choice asks nothing)"),
          v.maxLength(20, "must have at most 20 choices"),
        ),
        feedback: v.optional(v.pipe(markdownField(), v.description("Shown when the learner picks a wrong choice in this gap."))),
      }),
    ),
    v.minLength(1, "must have at least 1 gap"),
    v.maxLength(maxInlineGaps, `must have at most ${maxInlineGaps} gaps`),
  ),
});

export const inlineChoiceBlock = v.pipe(
  inlineChoiceFields,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const question = dataset.value;
    const report = issueAt(addIssue, question);
    const found = blankPlaceholders(question.text);
    if (found.length !== question.gaps.length || !found.every((number, index) => number === index + 1)) {
      report(["text"], "text must contain the placeholders {{1}}, {{2}}… once each, in order, one per entry of gaps");
    }
    question.gaps.forEach((gap, index) => {
      const right = gap.choices.filter((choice) => choice.correct).length;
      if (right !== 1) report(["gaps", index, "choices"], `needs exactly one choice with correct: true (this gap has ${right})`);
      const texts = gap.choices.map((choice) => choice.text);
      texts.forEach((text, choice) => {
        if (texts.indexOf(text) !== choice) report(["gaps", index, "choices", choice, "text"], `duplicate choice "${text}"; each choice of a gap must differ`);
      });
    });
  }),
);
