/**
 * Question blocks: single_choice, multiple_choice, true_false, fill_in_blank, matching, ordering, and
 * beside them sorting (`sorting-block.ts`), numeric (`numeric-block.ts`), hotspot and drag_onto_image
 * (`picture-questions.ts`), inline_choice (`inline-choice-block.ts`), open_response and likert
 * (`reflection-blocks.ts`).
 * Every question has a prompt, points, an explanation shown after answering, objective IDs it
 * assesses, and feedback per answer. Rules a grader depends on (exactly one correct choice, every blank
 * placeholder answered) are checked here so a broken quiz is never stored.
 */
import * as v from "valibot";
import { markdownField, requiredTextField } from "./fields.ts";
import { pictureSchema } from "./picture.ts";

const feedbackField = v.optional(v.pipe(markdownField(), v.description("Shown to the learner who picks this answer.")));

export const questionEntries = {
  prompt: markdownField(),
  points: v.optional(v.pipe(v.number(), v.minValue(0, "must be 0 or more"), v.maxValue(1000, "must be at most 1000")), 1),
  explanation: v.optional(v.pipe(markdownField(), v.description("Shown after the learner answers, right or wrong."))),
  objectiveIds: v.optional(
    v.pipe(
      v.array(v.string()),
      v.maxLength(20, "must list at most 20 objectives"),
      v.description("IDs of the course learning objectives this question assesses."),
    ),
    [],
  ),
};

const choiceSchema = v.object({
  text: requiredTextField(),
  correct: v.optional(v.boolean(), false),
  // Keeps its place when a quiz shuffles choices ("All of the above"); the quiz's shuffleChoices says so.
  fixed: v.optional(v.boolean()),
  feedback: feedbackField,
  image: v.optional(v.pipe(pictureSchema, v.description("A picture shown with this choice (graphical multiple choice)."))),
});

const choicesField = v.pipe(v.array(choiceSchema), v.minLength(2, "must have at least 2 choices"), v.maxLength(20, "must have at most 20 choices"));

function countCorrect(choices: readonly { correct: boolean }[]): number {
  return choices.filter((choice) => choice.correct).length;
}

export const singleChoiceBlock = v.pipe(
  v.object({ type: v.literal("single_choice"), ...questionEntries, choices: choicesField }),
  v.forward(
    v.check((question) => countCorrect(question.choices) === 1, "a single_choice question needs exactly one choice with correct: true"),
    ["choices"],
  ),
);

export const multipleChoiceBlock = v.pipe(
  v.object({ type: v.literal("multiple_choice"), ...questionEntries, choices: choicesField }),
  v.forward(
    v.check((question) => countCorrect(question.choices) >= 1, "a multiple_choice question needs at least one choice with correct: true"),
    ["choices"],
  ),
);

export const trueFalseBlock = v.object({
  type: v.literal("true_false"),
  ...questionEntries,
  answer: v.pipe(v.boolean("must be true or false: the correct answer"), v.description("The correct answer.")),
  trueFeedback: feedbackField,
  falseFeedback: feedbackField,
});

const blankSchema = v.object({
  answers: v.pipe(
    v.array(requiredTextField(200)),
    v.minLength(1, "must list at least 1 accepted answer"),
    v.maxLength(20, "must list at most 20 accepted answers"),
  ),
  caseSensitive: v.optional(v.boolean(), false),
  feedback: feedbackField,
});

/** Placeholders are `{{1}}`, `{{2}}`… in `text`, one per entry of `blanks`, in order. */
export function blankPlaceholders(text: string): number[] {
  return [...text.matchAll(/\{\{(\d+)\}\}/g)].map((match) => Number(match[1]));
}

export const fillInBlankBlock = v.pipe(
  v.object({
    type: v.literal("fill_in_blank"),
    ...questionEntries,
    text: v.pipe(markdownField(), v.description("The sentence with placeholders {{1}}, {{2}}… where the learner types.")),
    blanks: v.pipe(v.array(blankSchema), v.minLength(1, "must have at least 1 blank"), v.maxLength(20, "must have at most 20 blanks")),
  }),
  v.forward(
    v.check((question) => {
      const found = blankPlaceholders(question.text);
      return found.length === question.blanks.length && found.every((number, index) => number === index + 1);
    }, "text must contain the placeholders {{1}}, {{2}}… once each, in order, one per entry of blanks"),
    ["text"],
  ),
);

export const matchingBlock = v.pipe(
  v.object({
    type: v.literal("matching"),
    ...questionEntries,
    pairs: v.pipe(
      v.array(v.object({ left: requiredTextField(500), right: requiredTextField(500), feedback: feedbackField })),
      v.minLength(2, "must have at least 2 pairs"),
      v.maxLength(20, "must have at most 20 pairs"),
    ),
  }),
  v.forward(
    v.check((question) => new Set(question.pairs.map((pair) => pair.left)).size === question.pairs.length, "each left item must be different"),
    ["pairs"],
  ),
);

export const orderingBlock = v.object({
  type: v.literal("ordering"),
  ...questionEntries,
  items: v.pipe(
    v.array(v.object({ text: requiredTextField(500), feedback: feedbackField })),
    v.minLength(2, "must have at least 2 items"),
    v.maxLength(20, "must have at most 20 items"),
    v.description("The items in their correct order; learners see them shuffled."),
  ),
});

export const questionTypes = [
  "single_choice",
  "multiple_choice",
  "true_false",
  "fill_in_blank",
  "matching",
  "ordering",
  "sorting",
  "numeric",
  "hotspot",
  "drag_onto_image",
  "inline_choice",
  "open_response",
  "likert",
] as const;
export type QuestionType = (typeof questionTypes)[number];

/**
 * Questions the course never scores: an open response is self-assessed against its model answer (an LMS
 * grader may score it where the format allows) and a likert scale collects opinion. Both are asked in
 * lessons, quizzes and pools, reported with what the learner answered, and never count towards a score.
 */
export const unscoredQuestionTypes = ["open_response", "likert"] as const satisfies readonly QuestionType[];
export type UnscoredQuestionType = (typeof unscoredQuestionTypes)[number];
export type ScoredQuestionType = Exclude<QuestionType, UnscoredQuestionType>;

export function isUnscoredQuestionType(type: string): type is UnscoredQuestionType {
  return (unscoredQuestionTypes as readonly string[]).includes(type);
}

export function isQuestionType(type: string): type is QuestionType {
  return (questionTypes as readonly string[]).includes(type);
}
