/**
 * Questions that are never auto-scored: open_response (a free text the learner compares with a model
 * answer; an optional rubric an LMS grader applies) and likert (opinion statements on a labelled scale,
 * reported as opinion, never counted).
 */
import * as v from "valibot";
import { markdownField, requiredTextField } from "./fields.ts";
import { issueAt } from "./issue-path.ts";
import { questionEntries } from "./question-blocks.ts";

/** The longest open answer: SCORM 2004 keeps 4000 characters of a long-fill-in response. */
export const maxOpenResponseCharacters = 4_000;

const characters = (what: string) =>
  v.pipe(
    v.number("must be a number"),
    v.integer("must be a whole number"),
    v.minValue(1, "must be at least 1"),
    v.maxValue(maxOpenResponseCharacters, `must be at most ${maxOpenResponseCharacters}`),
    v.description(what),
  );

const openResponseFields = v.object({
  type: v.literal("open_response"),
  ...questionEntries,
  modelAnswer: v.pipe(markdownField(), v.description("Shown after the learner answers, to compare with what they wrote.")),
  maxCharacters: v.optional(characters("The length guide: longer answers are cut, with a visible count."), 1_000),
  minCharacters: v.optional(characters("Shortest answer the guide asks for.")),
  rubric: v.optional(
    v.object({
      criteria: v.pipe(
        v.array(v.object({ text: requiredTextField(500), points: v.pipe(v.number("must be a number"), v.minValue(0, "must be 0 or more"), v.maxValue(1000, "must be at most 1000")) })),
        v.minLength(1, "must have at least 1 criterion (a rubric with no criteria grades nothing)"),
        v.maxLength(20, "must have at most 20 criteria"),
      ),
    }),
  ),
});

export const openResponseBlock = v.pipe(
  openResponseFields,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const question = dataset.value;
    if (question.minCharacters !== undefined && question.minCharacters > question.maxCharacters) {
      issueAt(addIssue, question)(["minCharacters"], `must be at most maxCharacters (${question.maxCharacters})`);
    }
  }),
);

const likertFields = v.object({
  type: v.literal("likert"),
  prompt: questionEntries.prompt,
  explanation: questionEntries.explanation,
  objectiveIds: questionEntries.objectiveIds,
  statements: v.pipe(
    v.array(v.object({ text: requiredTextField(500) })),
    v.minLength(1, "must have at least 1 statement"),
    v.maxLength(20, "must have at most 20 statements"),
  ),
  scale: v.pipe(
    v.array(requiredTextField(100)),
    v.minLength(3, "must have 3 to 7 points"),
    v.maxLength(7, "must have 3 to 7 points"),
    v.description('The scale\'s labels from one end to the other ("Strongly disagree" … "Strongly agree").'),
  ),
});

export const likertBlock = v.pipe(
  likertFields,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const question = dataset.value;
    const report = issueAt(addIssue, question);
    question.scale.forEach((label, index) => {
      if (question.scale.indexOf(label) !== index) report(["scale", index], `duplicate label "${label}"; each point of the scale needs its own`);
    });
  }),
);
